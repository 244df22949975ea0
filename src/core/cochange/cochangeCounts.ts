import { ChangeLog, type LoggedChange } from './changeLog';

/** Change sets larger than this are bulk edits (formatting, renames, vendoring) and say nothing about coupling. */
export const MAX_CHANGE_SET = 30;

export interface FileStat {
  commits: number;
  lastTime: number;
}

export interface PairStat {
  count: number;
  lastTime: number;
}

/** The first `limit` partners by confidence, then support, then recency, then name (sorts `out`). */
export function bestCoChanged(out: CoChanged[], limit: number): CoChanged[] {
  out.sort(
    (x, y) =>
      y.confidence - x.confidence ||
      y.support - x.support ||
      y.lastTime - x.lastTime ||
      (x.path < y.path ? -1 : x.path > y.path ? 1 : 0),
  );
  return out.slice(0, limit);
}

export interface CoChanged {
  path: string;
  support: number;
  confidence: number;
  lastTime: number;
}

/** What the ranking needs from a co-change model. */
export interface CoChangeSource {
  commitsOf(path: string): number;
  lastTimeOf(path: string): number;
  support(a: string, b: string): number;
  /** Every file that changed with `path`, unsorted. */
  partners(path: string): Iterable<[string, PairStat]>;
  /** The same, one call per partner in the same order, for sources that can skip building the pairs. */
  forEachPartner?(path: string, fn: (other: string, pair: PairStat) => void): void;
  /** The change sets that touched `path`, newest first, at most `limit`. */
  changeSetsOf?(path: string, limit: number): readonly CountedChange[];
}

export type CountedChange = LoggedChange;

/**
 * Co-change counts held in memory and indexed in both directions, so that a query is a map lookup.
 * Change sets can be added and removed, which lets the evaluation slide a window over history.
 */
export class CoChangeCounts implements CoChangeSource {
  readonly files = new Map<string, FileStat>();
  /** pairs.get(a).get(b) and pairs.get(b).get(a) are the same object. */
  readonly pairs = new Map<string, Map<string, PairStat>>();
  commitCount = 0;
  /** Counted change sets, oldest first; removal is first in, first out. */
  private readonly log = new ChangeLog();

  /**
   * @param keepChangeSets keep each counted change set for changeSetsOf() and for removal order; a
   * model that only ever adds can leave them out and hold just the counts.
   */
  constructor(
    readonly maxChangeSet = MAX_CHANGE_SET,
    private readonly keepChangeSets = true,
  ) {}

  changeSetsOf(path: string, limit: number): readonly CountedChange[] {
    return this.log.of(path, limit);
  }

  /** Counts one change set; returns false when it was ignored as too large or too small. */
  add(files: readonly string[], time: number): boolean {
    if (files.length === 0 || files.length > this.maxChangeSet) return false;
    this.commitCount++;
    if (this.keepChangeSets) this.log.add(files, time);
    for (const f of files) {
      const s = this.files.get(f);
      if (s) {
        s.commits++;
        if (time > s.lastTime) s.lastTime = time;
      } else this.files.set(f, { commits: 1, lastTime: time });
    }
    for (let i = 0; i < files.length; i++) {
      for (let j = i + 1; j < files.length; j++) {
        const a = files[i];
        const b = files[j];
        if (a === b) continue;
        let p = this.pairs.get(a)?.get(b);
        if (p) {
          p.count++;
          if (time > p.lastTime) p.lastTime = time;
        } else {
          p = { count: 1, lastTime: time };
          this.link(a, b, p);
          this.link(b, a, p);
        }
      }
    }
    return true;
  }

  /**
   * Undoes add() for the oldest change set still counted (the window slides forward). Last times
   * stay as they were unless a count drops to zero.
   */
  remove(files: readonly string[]): boolean {
    if (files.length === 0 || files.length > this.maxChangeSet) return false;
    this.commitCount--;
    this.log.removeOldest(files);
    for (const f of files) {
      const s = this.files.get(f);
      if (s && --s.commits <= 0) this.files.delete(f);
    }
    for (let i = 0; i < files.length; i++) {
      for (let j = i + 1; j < files.length; j++) {
        const a = files[i];
        const b = files[j];
        const p = this.pairs.get(a)?.get(b);
        if (p && --p.count <= 0) {
          this.unlink(a, b);
          this.unlink(b, a);
        }
      }
    }
    return true;
  }

  /** Loads a stored pair without touching file counts. */
  setPair(a: string, b: string, count: number, lastTime: number): void {
    const p = { count, lastTime };
    this.link(a, b, p);
    this.link(b, a, p);
  }

  commitsOf(path: string): number {
    return this.files.get(path)?.commits ?? 0;
  }

  lastTimeOf(path: string): number {
    return this.files.get(path)?.lastTime ?? 0;
  }

  support(a: string, b: string): number {
    return this.pairs.get(a)?.get(b)?.count ?? 0;
  }

  confidence(a: string, b: string): number {
    const n = this.commitsOf(a);
    return n ? this.support(a, b) / n : 0;
  }

  partners(path: string): Iterable<[string, PairStat]> {
    return this.pairs.get(path)?.entries() ?? [];
  }

  /** ROSE-style: partners of `path` by confidence, then support, then recency, then name. */
  coChanged(path: string, limit = 20): CoChanged[] {
    const n = this.commitsOf(path);
    if (!n) return [];
    const out: CoChanged[] = [];
    for (const [other, p] of this.partners(path))
      out.push({ path: other, support: p.count, confidence: p.count / n, lastTime: p.lastTime });
    return bestCoChanged(out, limit);
  }

  clear(): void {
    this.log.clear();
    this.files.clear();
    this.pairs.clear();
    this.commitCount = 0;
  }

  private link(a: string, b: string, p: PairStat): void {
    let m = this.pairs.get(a);
    if (!m) {
      m = new Map();
      this.pairs.set(a, m);
    }
    m.set(b, p);
  }

  private unlink(a: string, b: string): void {
    const m = this.pairs.get(a);
    if (!m) return;
    m.delete(b);
    if (m.size === 0) this.pairs.delete(a);
  }
}
