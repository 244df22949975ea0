import { termsOf } from '../docs/textTerms';
import { packageTerms } from './fileTerms';

/** Files that make a folder a package of its own. */
const MANIFESTS = new Set([
  'package.json',
  'pyproject.toml',
  'setup.py',
  'go.mod',
  'cargo.toml',
  'pom.xml',
  'build.gradle',
  'build.gradle.kts',
  'composer.json',
  'gemfile',
  'mix.exs',
  'pubspec.yaml',
]);

/**
 * How common each word is across the workspace's code (file paths and defined names), and where
 * its packages are. A word in most paths (`src`, `lib`, `components`, `server`) says little about
 * any one file, so it weighs little when linking a file to a decision record.
 */
export class RepoTerms {
  private pathDf = new Map<string, number>();
  private nameDf = new Map<string, number>();
  private files = 0;
  private packageDirs: string[] = [];

  /** Counts words over every path of the workspace and records its package folders. */
  setPaths(paths: readonly string[]): void {
    const df = new Map<string, number>();
    const packages = new Set<string>();
    const segmentTerms = new Map<string, string[]>();
    for (const p of paths) {
      const slash = p.lastIndexOf('/');
      const name = p.slice(slash + 1).toLowerCase();
      if (MANIFESTS.has(name) && slash > 0) packages.add(p.slice(0, slash));
      const terms = new Set<string>();
      // Folder names repeat across thousands of paths: split each once.
      for (const segment of p.split('/')) {
        let words = segmentTerms.get(segment);
        if (!words) segmentTerms.set(segment, (words = termsOf(segment)));
        for (const t of words) terms.add(t);
      }
      for (const t of terms) df.set(t, (df.get(t) ?? 0) + 1);
    }
    this.pathDf = df;
    this.files = paths.length;
    // Longest first, so the innermost package of a path is found first.
    this.packageDirs = [...packages].sort((a, b) => b.length - a.length);
  }

  /** Counts words of the names each indexed file defines and the packages it imports (a file counts once per word). */
  setFileVocabulary(rows: readonly { names: string; packages: string }[]): void {
    const df = new Map<string, number>();
    for (const r of rows)
      for (const t of new Set([...termsOf(r.names), ...r.packages.split(' ').flatMap(packageTerms)]))
        df.set(t, (df.get(t) ?? 0) + 1);
    this.nameDf = df;
    this.files = Math.max(this.files, rows.length);
  }

  /** 0..1: near 1 for words few files carry, falling towards 0 for words in most files. */
  rarity(term: string): number {
    if (this.files < 20) return 1;
    const df = Math.max(this.pathDf.get(term) ?? 0, this.nameDf.get(term) ?? 0);
    if (df <= 1) return 1;
    return Math.max(0.03, Math.min(1, Math.log(this.files / df) / Math.log(this.files)));
  }

  /** The innermost package folder holding a path ('' for the workspace root). */
  packageOf(path: string): string {
    for (const dir of this.packageDirs) if (path.startsWith(dir + '/')) return dir;
    return '';
  }

  /** The last folder name of every package, normalized (`front-end` and `frontend` compare equal). */
  packageNames(): Map<string, string> {
    const out = new Map<string, string>();
    for (const dir of this.packageDirs) out.set(normalizeName(dir.slice(dir.lastIndexOf('/') + 1)), dir);
    return out;
  }
}

/** `front-end`, `Front_End`, `frontend` → frontend. */
export function normalizeName(name: string): string {
  return name.toLowerCase().replace(/[^a-z0-9]/g, '');
}
