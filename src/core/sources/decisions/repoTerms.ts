import { TimeSlice } from '../../timeSlice';
import { termsOf } from '../docs/textTerms';
import { packageTerms } from './fileTerms';
import { isStandardLibrary } from './standardLibrary';

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

/** RepoTerms' counts over the workspace's paths. */
export interface PathCounts {
  files: number;
  df: [string, number][];
  packageDirs: string[];
}

/** Fewer files than this say nothing about how common a word is. */
const MIN_FILES = 20;

/**
 * How common each word is across the workspace's code (file paths and defined names), and where
 * its packages are. A word in most paths (`src`, `lib`, `components`, `server`) says little about
 * any one file, so it weighs little when linking a file to a decision record.
 */
export class RepoTerms {
  private pathDf = new Map<string, number>();
  private nameDf = new Map<string, number>();
  /** Files whose path or code (names defined, imported or called) carries each word. */
  private useDf = new Map<string, number>();
  /** Per language: files importing any package, and files importing a package that carries each word. */
  private importers = new Map<string, { files: number; df: Map<string, number> }>();
  private files = 0;
  private packageDirs: string[] = [];

  /** What setPaths counted, as plain data, to keep between processes (see restorePaths). */
  pathCounts(): PathCounts {
    return { files: this.files, df: [...this.pathDf], packageDirs: this.packageDirs };
  }

  /** Takes counts made by setPaths over the same paths, instead of counting again. */
  restorePaths(counts: PathCounts): void {
    this.pathDf = new Map(counts.df);
    this.files = counts.files;
    this.packageDirs = counts.packageDirs;
  }

  /**
   * Counts words over every path of the workspace and records its package folders, a slice at a
   * time: tens of thousands of paths held the event loop for a second. The counts change at the end.
   */
  async setPaths(paths: readonly string[], slice = new TimeSlice()): Promise<void> {
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
      await slice.pause();
    }
    this.pathDf = df;
    this.files = paths.length;
    // Longest first, so the innermost package of a path is found first.
    this.packageDirs = [...packages].sort((a, b) => b.length - a.length);
  }

  /**
   * Counts words of the names each indexed file defines and the packages it imports (a file counts once
   * per word), and of every name it uses, calls included; a slice at a time, the counts changed at the end.
   */
  async setFileVocabulary(
    rows: readonly { path?: string; names: string; packages: string; uses?: string }[],
    slice = new TimeSlice(),
  ): Promise<void> {
    const df = new Map<string, number>();
    const use = new Map<string, number>();
    const importers = new Map<string, { files: number; df: Map<string, number> }>();
    for (const r of rows) {
      const specs = r.packages.split(' ').filter((p) => p && !(r.path !== undefined && isStandardLibrary(p, r.path)));
      const imported = new Set(specs.flatMap(packageTerms));
      if (imported.size > 0 && r.path !== undefined) {
        const lang = languageOf(r.path);
        const l = importers.get(lang) ?? importers.set(lang, { files: 0, df: new Map() }).get(lang)!;
        l.files++;
        for (const t of imported) l.df.set(t, (l.df.get(t) ?? 0) + 1);
      }
      const named = new Set([...termsOf(r.names), ...imported]);
      for (const t of named) df.set(t, (df.get(t) ?? 0) + 1);
      for (const t of r.uses ? new Set([...named, ...termsOf(r.uses)]) : named) use.set(t, (use.get(t) ?? 0) + 1);
      await slice.pause();
    }
    this.nameDf = df;
    this.useDf = use;
    this.importers = importers;
    this.files = Math.max(this.files, rows.length);
  }

  /**
   * The share of the workspace's files whose path or code carries the word (0..1); 0 in a workspace too
   * small to tell. A word most files share (`update`, `service`) tells no file apart.
   */
  share(term: string): number {
    if (this.files < MIN_FILES) return 0;
    const df = Math.max(this.pathDf.get(term) ?? 0, this.useDf.get(term) ?? 0, this.nameDf.get(term) ?? 0);
    return Math.min(1, df / this.files);
  }

  /**
   * The share of the files written in `file`'s language that import a package carrying the word,
   * among those that import any (0..1); 0 where too few files import anything to tell. Express
   * imported by a fifth of a service's TypeScript is the stack it is built on, however many style
   * sheets, templates and docs dilute its share of all paths.
   */
  importShare(term: string, file: string): number {
    const l = this.importers.get(languageOf(file));
    if (!l || l.files < MIN_FILES) return 0;
    return (l.df.get(term) ?? 0) / l.files;
  }

  /** 0..1: near 1 for words few files carry, falling towards 0 for words in most files. */
  rarity(term: string): number {
    if (this.files < MIN_FILES) return 1;
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

/** Extensions of one language that import each other's packages alike. */
const LANGUAGE_FAMILIES: Readonly<Record<string, string>> = {
  tsx: 'js',
  ts: 'js',
  mts: 'js',
  cts: 'js',
  jsx: 'js',
  mjs: 'js',
  cjs: 'js',
  vue: 'js',
  svelte: 'js',
  pyi: 'py',
  kts: 'kt',
};

/** The language a path is written in, by its extension (`ts` and `js` are one). */
function languageOf(path: string): string {
  const ext = path.slice(path.lastIndexOf('.') + 1).toLowerCase();
  return LANGUAGE_FAMILIES[ext] ?? ext;
}

/** `front-end`, `Front_End`, `frontend` → frontend. */
export function normalizeName(name: string): string {
  return name.toLowerCase().replace(/[^a-z0-9]/g, '');
}
