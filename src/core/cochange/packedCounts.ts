import {
  bestCoChanged,
  MAX_CHANGE_SET,
  type CoChanged,
  type CoChangeCounts,
  type CoChangeSource,
  type PairStat,
} from './cochangeCounts';
import { PathTable } from './pathTable';
import type { TimeSlice } from '../timeSlice';

/**
 * Co-change counts packed for a model that lives as long as the editor: files by their number in a
 * shared {@link PathTable} with their counts in typed arrays, each pair once in typed arrays, and every
 * file's partners as a run of one flat list (rebuilt after each merge). About a third of the memory
 * of nested maps of objects.
 */
export class PackedCounts implements CoChangeSource {
  commitCount = 0;
  /** Per path number: commits counted and the last time; sized to the highest number counted. */
  private commits: Uint32Array = new Uint32Array(0);
  private last: Float64Array = new Float64Array(0);
  private files = 0;
  private pairA: Int32Array = new Int32Array(0);
  private pairB: Int32Array = new Int32Array(0);
  private pairCount: Int32Array = new Int32Array(0);
  private pairLast: Float64Array = new Float64Array(0);
  private pairTotal = 0;
  /** File f's partners are partner[start[f]] .. partner[start[f + 1] - 1]; pairOf says which pair each is. */
  private start: Int32Array = new Int32Array(1);
  private partner: Int32Array = new Int32Array(0);
  private pairOf: Int32Array = new Int32Array(0);

  constructor(
    readonly maxChangeSet = MAX_CHANGE_SET,
    readonly paths = new PathTable(),
  ) {}

  /** Files with a place in the counts (path numbers below this). */
  get fileCount(): number {
    return this.files;
  }

  get pairSize(): number {
    return this.pairTotal;
  }

  /** Bytes held in typed arrays (the paths live in the shared table). */
  get byteSize(): number {
    const arrays = [
      this.commits,
      this.last,
      this.pairA,
      this.pairB,
      this.pairCount,
      this.pairLast,
      this.start,
      this.partner,
      this.pairOf,
    ];
    return arrays.reduce((n, a) => n + a.byteLength, 0);
  }

  commitsOf(path: string): number {
    const id = this.paths.find(path);
    return id === undefined || id >= this.files ? 0 : this.commits[id];
  }

  lastTimeOf(path: string): number {
    const id = this.paths.find(path);
    return id === undefined || id >= this.files ? 0 : this.last[id];
  }

  support(a: string, b: string): number {
    const p = this.pairNumber(this.paths.find(a), this.paths.find(b));
    return p < 0 ? 0 : this.pairCount[p];
  }

  confidence(a: string, b: string): number {
    const n = this.commitsOf(a);
    return n ? this.support(a, b) / n : 0;
  }

  partners(path: string): Array<[string, PairStat]> {
    const out: Array<[string, PairStat]> = [];
    this.forEachPartner(path, (other, pair) => out.push([other, { ...pair }]));
    return out;
  }

  /** Calls fn per partner with one reused PairStat (read it, do not keep it). */
  forEachPartner(path: string, fn: (other: string, pair: PairStat) => void): void {
    const id = this.paths.find(path);
    if (id === undefined || id + 1 >= this.start.length) return;
    const pair = { count: 0, lastTime: 0 };
    for (let k = this.start[id]; k < this.start[id + 1]; k++) {
      const p = this.pairOf[k];
      pair.count = this.pairCount[p];
      pair.lastTime = this.pairLast[p];
      fn(this.paths.path(this.partner[k]), pair);
    }
  }

  /** ROSE-style, as CoChangeCounts.coChanged. */
  coChanged(path: string, limit = 20): CoChanged[] {
    const n = this.commitsOf(path);
    if (!n) return [];
    const out = this.partners(path).map(([other, p]) => ({
      path: other,
      support: p.count,
      confidence: p.count / n,
      lastTime: p.lastTime,
    }));
    return bestCoChanged(out, limit);
  }

  /**
   * As merge, a slice at a time: a rebuild folds tens of thousands of commits' pairs, a second of
   * work in one step. Pairs added meanwhile are found only after the index at the end, as in merge.
   */
  async mergeInSlices(delta: CoChangeCounts, slice: TimeSlice): Promise<void> {
    for (const [path, s] of delta.files) {
      this.addFile(this.paths.id(path), s.commits, s.lastTime);
      await slice.pause();
    }
    for (const [a, m] of delta.pairs) {
      for (const [b, p] of m) if (a < b) this.addPair(this.paths.id(a), this.paths.id(b), p.count, p.lastTime);
      await slice.pause();
    }
    this.commitCount += delta.commitCount;
    this.index();
  }

  /** Adds counts mined from more commits. */
  merge(delta: CoChangeCounts): void {
    for (const [path, s] of delta.files) this.addFile(this.paths.id(path), s.commits, s.lastTime);
    for (const [a, m] of delta.pairs) {
      for (const [b, p] of m) if (a < b) this.addPair(this.paths.id(a), this.paths.id(b), p.count, p.lastTime);
    }
    this.commitCount += delta.commitCount;
    this.index();
  }

  /** Every file with a place in the counts, by path number: path, commits, last time. */
  *fileStats(): Iterable<[string, number, number]> {
    for (let i = 0; i < this.files; i++) yield [this.paths.path(i), this.commits[i], this.last[i]];
  }

  /** Every pair once, by path number: a, b, count, last time. */
  *pairStats(): Iterable<[number, number, number, number]> {
    for (let p = 0; p < this.pairTotal; p++) yield [this.pairA[p], this.pairB[p], this.pairCount[p], this.pairLast[p]];
  }

  /** The arrays as they are, for the cache file. */
  columns(): {
    commits: Uint32Array;
    last: Float64Array;
    pairA: Int32Array;
    pairB: Int32Array;
    pairCount: Int32Array;
    pairLast: Float64Array;
  } {
    const n = this.pairTotal;
    return {
      commits: this.commits.subarray(0, this.files),
      last: this.last.subarray(0, this.files),
      pairA: this.pairA.subarray(0, n),
      pairB: this.pairB.subarray(0, n),
      pairCount: this.pairCount.subarray(0, n),
      pairLast: this.pairLast.subarray(0, n),
    };
  }

  /** Takes over arrays read from a cache file (already checked) and indexes them. */
  static fromColumns(
    maxChangeSet: number,
    paths: PathTable,
    commitCount: number,
    c: ReturnType<PackedCounts['columns']>,
  ): PackedCounts {
    const counts = new PackedCounts(maxChangeSet, paths);
    counts.commitCount = commitCount;
    counts.commits = c.commits;
    counts.last = c.last;
    counts.files = c.commits.length;
    counts.pairA = c.pairA;
    counts.pairB = c.pairB;
    counts.pairCount = c.pairCount;
    counts.pairLast = c.pairLast;
    counts.pairTotal = c.pairA.length;
    counts.index();
    return counts;
  }

  addFile(id: number, commits: number, lastTime: number): void {
    if (id >= this.files) this.growFiles(id + 1);
    this.commits[id] += commits;
    if (lastTime > this.last[id]) this.last[id] = lastTime;
  }

  /** Adds to a pair's count; call index() after the last one. */
  addPair(a: number, b: number, count: number, lastTime: number): void {
    const p = this.pairNumber(a, b);
    if (p >= 0) {
      this.pairCount[p] += count;
      if (lastTime > this.pairLast[p]) this.pairLast[p] = lastTime;
      return;
    }
    if (Math.max(a, b) >= this.files) this.growFiles(Math.max(a, b) + 1);
    if (this.pairTotal === this.pairA.length) this.growPairs(Math.max(1024, this.pairTotal * 2));
    const n = this.pairTotal++;
    this.pairA[n] = a;
    this.pairB[n] = b;
    this.pairCount[n] = count;
    this.pairLast[n] = lastTime;
  }

  /** Rebuilds the partner lists after pairs were added; drops the spare room of all arrays. */
  index(): void {
    if (this.pairA.length !== this.pairTotal) this.growPairs(this.pairTotal);
    if (this.commits.length !== this.files) this.resizeFiles(this.files);
    const files = this.files;
    const start = new Int32Array(files + 1);
    for (let p = 0; p < this.pairTotal; p++) {
      start[this.pairA[p] + 1]++;
      start[this.pairB[p] + 1]++;
    }
    for (let f = 0; f < files; f++) start[f + 1] += start[f];
    const fill = start.slice(0, files);
    const partner = new Int32Array(this.pairTotal * 2);
    const pairOf = new Int32Array(this.pairTotal * 2);
    for (let p = 0; p < this.pairTotal; p++) {
      const a = this.pairA[p];
      const b = this.pairB[p];
      partner[fill[a]] = b;
      pairOf[fill[a]++] = p;
      partner[fill[b]] = a;
      pairOf[fill[b]++] = p;
    }
    this.start = start;
    this.partner = partner;
    this.pairOf = pairOf;
  }

  /** The pair of two file numbers, or -1; only pairs present at the last index() are found. */
  private pairNumber(a: number | undefined, b: number | undefined): number {
    if (a === undefined || b === undefined || a === b) return -1;
    if (a + 1 >= this.start.length || b + 1 >= this.start.length) return -1;
    // Scan the shorter of the two lists.
    const [x, y] = this.start[a + 1] - this.start[a] <= this.start[b + 1] - this.start[b] ? [a, b] : [b, a];
    for (let k = this.start[x]; k < this.start[x + 1]; k++) if (this.partner[k] === y) return this.pairOf[k];
    return -1;
  }

  private growFiles(files: number): void {
    if (files > this.commits.length) this.resizeFiles(Math.max(files, this.commits.length * 2, 256));
    this.files = files;
  }

  private resizeFiles(size: number): void {
    const commits = new Uint32Array(size);
    commits.set(this.commits.subarray(0, Math.min(size, this.files)));
    const last = new Float64Array(size);
    last.set(this.last.subarray(0, Math.min(size, this.files)));
    this.commits = commits;
    this.last = last;
  }

  private growPairs(size: number): void {
    const grow = <T extends Int32Array | Float64Array>(old: T, make: (n: number) => T): T => {
      const next = make(size);
      next.set(old.subarray(0, Math.min(size, this.pairTotal)));
      return next;
    };
    this.pairA = grow(this.pairA, (n) => new Int32Array(n));
    this.pairB = grow(this.pairB, (n) => new Int32Array(n));
    this.pairCount = grow(this.pairCount, (n) => new Int32Array(n));
    this.pairLast = grow(this.pairLast, (n) => new Float64Array(n));
  }
}
