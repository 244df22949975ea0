import { coverageOf, type MentionCoverage, type PathMention } from './adrLinks';
import { splitWords } from '../docs/textTerms';
import { fileStem } from './explicitLinks';

/**
 * What the workspace's file listing at one refresh tells explicit links: how much of it a folder or
 * glob mention covers, how many files share a name, what a folder holds. Each answer is worked out
 * when first asked and kept for as long as the listing is the same.
 */
export class PathListing {
  private coverage = new Map<string, MentionCoverage>();
  private siblings = new Map<string, Set<string>>();
  /** How many workspace files have each file stem (lower case), counted when first asked. */
  private stems: Map<string, number> | undefined;
  /** Every folder and file name of the listing (lower case, without extension), made when first asked. */
  private segments: Set<string> | undefined;
  /** How many file names hold each pair of words side by side (`carbon aware`), counted when first asked. */
  private pairs: Map<string, number> | undefined;

  /** Every path listed at the refresh. */
  constructor(readonly paths: readonly string[] = []) {}

  coverageOf(m: PathMention): MentionCoverage {
    const key = `${m.kind}:${m.text}`;
    let c = this.coverage.get(key);
    if (c === undefined) this.coverage.set(key, (c = coverageOf(m, this.paths)));
    return c;
  }

  /** True when a folder or file of the listing is called `name` (any case, without extension). */
  hasSegment(name: string): boolean {
    if (!this.segments) {
      this.segments = new Set();
      for (const p of this.paths)
        for (const part of p.split('/')) this.segments.add(part.replace(/\.[^.]*$/, '').toLowerCase());
    }
    return this.segments.has(name.toLowerCase());
  }

  filesNamed(stem: string): number {
    if (!this.stems) {
      this.stems = new Map();
      for (const p of this.paths) {
        const k = fileStem(p).toLowerCase();
        this.stems.set(k, (this.stems.get(k) ?? 0) + 1);
      }
    }
    return this.stems.get(stem.toLowerCase()) ?? 0;
  }

  /**
   * How many files have these words side by side in their names (`carbon aware` in
   * `CarbonAwareController.cs`): for a run of more than two words, the fewest of its pairs, which
   * is at least that many.
   */
  filesNamedWith(words: readonly string[]): number {
    if (words.length < 2) return 0;
    if (!this.pairs) {
      this.pairs = new Map();
      for (const p of this.paths) {
        const w = splitWords(fileStem(p)).map((x) => x.toLowerCase());
        const seen = new Set<string>();
        for (let i = 0; i + 1 < w.length; i++) seen.add(`${w[i]} ${w[i + 1]}`);
        for (const k of seen) this.pairs.set(k, (this.pairs.get(k) ?? 0) + 1);
      }
    }
    let fewest = Infinity;
    for (let i = 0; i + 1 < words.length; i++)
      fewest = Math.min(fewest, this.pairs.get(`${words[i]} ${words[i + 1]}`) ?? 0);
    return fewest;
  }

  /** Names of the files listed in `file`'s folder; one pass over the listing per folder asked. */
  siblingsOf(file: string): ReadonlySet<string> {
    const dir = file.slice(0, Math.max(0, file.lastIndexOf('/')));
    let names = this.siblings.get(dir);
    if (names) return names;
    names = new Set();
    const prefix = dir ? `${dir}/` : '';
    for (const p of this.paths)
      if (p.startsWith(prefix) && p.indexOf('/', prefix.length) < 0) names.add(p.slice(prefix.length));
    if (this.siblings.size >= 256) this.siblings.clear();
    this.siblings.set(dir, names);
    return names;
  }
}
