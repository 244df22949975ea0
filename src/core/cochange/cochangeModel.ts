import { createHash } from 'node:crypto';
import { readFileSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { runGit } from '../git/gitExec';
import { nullLogger, type Logger } from '../logger';
import { removeStaleTempFiles, writeFileAtomic } from '../store/atomicFile';
import { BroadChanges, decodeBroad, encodeBroad, MAX_BROAD_CHANGE_SET, type BroadChange, type BroadChangeSource } from './broadChanges';
import { CoChangeCounts, MAX_CHANGE_SET, type CoChanged, type CoChangeSource, type PairStat } from './cochangeCounts';
import { streamHistory } from './historyStream';

/** Where the model keeps its cache: the per-workspace state directory. */
export interface CoChangeCache {
  readonly stateDir: string;
}

export interface CoChangeModelOptions {
  root: string;
  store: CoChangeCache;
  logger?: Logger;
  maxChangeSet?: number;
  /** Bound for the whole mining pass. */
  timeoutMs?: number;
}

export interface MineResult {
  mode: 'up-to-date' | 'incremental' | 'rebuild' | 'unavailable';
  commits: number;
  head?: string;
  reason?: string;
  ms: number;
}

/** The model's cache file in the state directory, next to index.db. */
export const COCHANGE_FILE = 'cochange.bin';
/** The change sets too large for pair counts, next to it; both files name the commit they reach. */
export const BROAD_FILE = 'cochange-broad.json';
/** The large change sets kept, newest; the ranking reads only the newest few of each file. */
const MAX_BROAD_SETS = 1000;

/**
 * Files that usually change together, mined from first-parent history in one streamed pass, held in
 * memory for millisecond queries and cached in a compact file (see encodeCounts) so that a restart
 * only mines the commits made since.
 */
export class CoChangeModel implements CoChangeSource {
  private counts: PackedCounts;
  private broadChanges: BroadChanges;
  private head: string | undefined;
  private readonly logger: Logger;
  private loaded = false;
  private mining: Promise<MineResult> | undefined;
  private stopMining: AbortController | undefined;
  /** Bumped by reset(): a mining pass started before it must not save what it found. */
  private generation = 0;

  constructor(private readonly options: CoChangeModelOptions) {
    this.counts = new PackedCounts(this.maxChangeSet);
    this.broadChanges = new BroadChanges(this.maxChangeSet + 1, MAX_BROAD_CHANGE_SET, MAX_BROAD_SETS);
    this.logger = options.logger ?? nullLogger;
  }

  /** Change sets too large for pair counts (a feature across many files), kept whole. */
  get broad(): BroadChangeSource {
    this.ensureLoaded();
    return this.broadChanges;
  }

  /** The commit the model was last brought up to. */
  get lastMined(): string | undefined {
    this.ensureLoaded();
    return this.head;
  }

  /** Commits counted (change sets within the size limit). */
  get commitCount(): number {
    this.ensureLoaded();
    return this.counts.commitCount;
  }

  commitsOf(path: string): number {
    this.ensureLoaded();
    return this.counts.commitsOf(path);
  }

  lastTimeOf(path: string): number {
    this.ensureLoaded();
    return this.counts.lastTimeOf(path);
  }

  support(a: string, b: string): number {
    this.ensureLoaded();
    return this.counts.support(a, b);
  }

  /** How often b changed when a changed: support(a, b) / commits(a). */
  confidence(a: string, b: string): number {
    this.ensureLoaded();
    return this.counts.confidence(a, b);
  }

  partners(path: string): Iterable<[string, PairStat]> {
    this.ensureLoaded();
    return this.counts.partners(path);
  }

  coChanged(path: string, limit = 20): CoChanged[] {
    this.ensureLoaded();
    return this.counts.coChanged(path, limit);
  }

  /** Forgets everything mined, in memory and on disk; the next update mines all history again. */
  async reset(): Promise<void> {
    // A pass under way would save counts from before the reset: stop it and let the next update start over.
    this.generation++;
    this.stopMining?.abort();
    this.stopMining = undefined;
    this.mining = undefined;
    this.loaded = true;
    this.head = undefined;
    this.counts = new PackedCounts(this.maxChangeSet);
    this.broadChanges.clear();
    for (const path of [this.cachePath, this.broadPath]) {
      try {
        unlinkSync(path);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ENOENT') this.logger.warn(`Could not remove ${path}: ${(err as Error).message}`);
      }
    }
  }

  /**
   * Brings the model up to HEAD: nothing, the new commits only, or everything when history was
   * rewritten. `onProgress` hears each commit read, with the total once git has counted them (0 before).
   */
  update(signal?: AbortSignal, onProgress?: (done: number, total: number) => void): Promise<MineResult> {
    if (!this.mining) {
      const stop = new AbortController();
      const pass = this.doUpdate(signal ? AbortSignal.any([signal, stop.signal]) : stop.signal, this.generation, onProgress).finally(() => {
        if (this.mining === pass) {
          this.mining = undefined;
          this.stopMining = undefined;
        }
      });
      this.mining = pass;
      this.stopMining = stop;
    }
    return this.mining;
  }

  private get cachePath(): string {
    return join(this.options.store.stateDir, COCHANGE_FILE);
  }

  private get broadPath(): string {
    return join(this.options.store.stateDir, BROAD_FILE);
  }

  private get maxChangeSet(): number {
    return this.options.maxChangeSet ?? MAX_CHANGE_SET;
  }

  /** Reads the cache file on first use; an unreadable one is dropped and the next update mines everything. */
  private ensureLoaded(): void {
    if (this.loaded) return;
    this.loaded = true;
    const path = this.cachePath;
    removeStaleTempFiles(this.options.store.stateDir, COCHANGE_FILE);
    let data: Buffer;
    try {
      data = readFileSync(path);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') this.logger.warn(`Cannot read the co-change cache ${path}: ${(err as Error).message}; it will be rebuilt from history.`);
      return;
    }
    let decoded: ReturnType<typeof decodeCounts>;
    try {
      decoded = decodeCounts(data, this.maxChangeSet);
    } catch (err) {
      decoded = (err as Error).message;
    }
    if (typeof decoded === 'string') {
      this.logger.warn(`The co-change cache ${path} is unusable (${decoded}); it will be rebuilt from history.`);
      try {
        unlinkSync(path);
      } catch {
        // Replaced by the next save anyway.
      }
      return;
    }
    const broad = this.loadBroad();
    if (broad !== decoded.head) {
      // Saved at different commits (a stop between the two writes, or a cache from an older version).
      this.broadChanges.clear();
      this.logger.info(`The co-change cache and ${BROAD_FILE} disagree; the model will be rebuilt from history.`);
      return;
    }
    this.counts = decoded.counts;
    this.head = decoded.head;
  }

  /** Reads the large change sets; returns the commit they reach, or undefined when there is no usable file. */
  private loadBroad(): string | undefined {
    removeStaleTempFiles(this.options.store.stateDir, BROAD_FILE);
    let text: string;
    try {
      text = readFileSync(this.broadPath, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') this.logger.warn(`Cannot read ${this.broadPath}: ${(err as Error).message}; it will be rebuilt from history.`);
      return undefined;
    }
    const res = decodeBroad(text, this.broadChanges);
    if (typeof res === 'string') {
      this.logger.warn(`${this.broadPath} is unusable (${res}); it will be rebuilt from history.`);
      return undefined;
    }
    return res.head;
  }

  private async doUpdate(signal: AbortSignal, generation: number, onProgress?: (done: number, total: number) => void): Promise<MineResult> {
    const started = Date.now();
    const cwd = this.options.root;
    const done = (mode: MineResult['mode'], commits: number, head?: string, reason?: string): MineResult => ({ mode, commits, head, reason, ms: Date.now() - started });
    const headRes = await runGit(['rev-parse', '--verify', '--quiet', 'HEAD^{commit}'], { cwd, timeoutMs: 10_000, signal });
    if (!headRes.ok) return done('unavailable', 0, undefined, headRes.failure === 'git-missing' ? 'git-missing' : 'no-commits');
    const head = headRes.stdout.trim();
    this.ensureLoaded();
    const last = this.lastMined;
    if (last === head) return done('up-to-date', 0, head);
    let range: string | undefined;
    if (last) {
      const anc = await runGit(['merge-base', '--is-ancestor', last, head], { cwd, timeoutMs: 10_000, signal });
      if (anc.ok) range = `${last}..${head}`;
      else if (anc.failure === 'aborted' || anc.failure === 'timeout') return done('unavailable', 0, head, anc.failure);
    }
    const rebuild = range === undefined;
    // Mining only adds, so the change sets themselves need not be kept.
    const delta = new CoChangeCounts(this.maxChangeSet, false);
    const broad: BroadChange[] = [];
    let seen = 0;
    let total = 0;
    // Counted beside the stream, never before it: progress must not delay the mining.
    if (onProgress) void runGit(['rev-list', '--count', '--first-parent', range ?? head], { cwd, timeoutMs: 30_000, signal }).then((r) => (total = r.ok ? Number(r.stdout.trim()) || 0 : 0));
    const res = await streamHistory({ cwd, range: range ?? head, timeoutMs: this.options.timeoutMs ?? 300_000, signal }, (c) => {
      seen++;
      onProgress?.(seen, Math.max(total, seen));
      if (!delta.add(c.files, c.time) && this.broadChanges.accepts(c.files.length)) broad.push({ files: c.files, time: c.time });
    });
    if (generation !== this.generation) return done('unavailable', 0, head, 'reset');
    if (!res.ok) {
      this.logger.warn(`Co-change mining stopped: ${res.failure} ${res.stderr?.trim() ?? ''}`);
      return done('unavailable', 0, head, res.failure);
    }
    // History streams newest first; the large change sets are kept oldest first.
    this.persist(delta, broad.reverse(), rebuild, head);
    this.logger.info(`Co-change model ${rebuild ? 'rebuilt' : 'updated'}: ${seen} commits in ${Date.now() - started} ms`);
    return done(rebuild ? 'rebuild' : 'incremental', seen, head);
  }

  /** Merges the newly mined counts into memory (or starts from them after a rebuild) and saves the cache. */
  private persist(delta: CoChangeCounts, broad: readonly BroadChange[], rebuild: boolean, head: string): void {
    if (rebuild) {
      this.counts = new PackedCounts(this.maxChangeSet);
      this.broadChanges.clear();
    }
    this.counts.merge(delta);
    for (const b of broad) this.broadChanges.add(b.files, b.time);
    this.head = head;
    try {
      writeFileAtomic(this.broadPath, Buffer.from(encodeBroad(this.broadChanges, head), 'utf8'));
      writeFileAtomic(this.cachePath, encodeCounts(this.counts, head));
    } catch (err) {
      // The model in memory is right; the next start mines again from the last saved commit.
      this.logger.warn(`Could not save the co-change cache ${this.cachePath}: ${(err as Error).message}`);
    }
  }
}

/**
 * Co-change counts packed for a model that lives as long as the editor: files by number with their
 * counts in flat arrays, each pair once in typed arrays, and every file's partners as a run of one
 * flat list (rebuilt after each merge). About a third of the memory of nested maps of objects.
 */
export class PackedCounts implements CoChangeSource {
  commitCount = 0;
  private readonly ids = new Map<string, number>();
  private readonly paths: string[] = [];
  private readonly commits: number[] = [];
  private readonly last: number[] = [];
  private pairA = new Int32Array(0);
  private pairB = new Int32Array(0);
  private pairCount = new Int32Array(0);
  private pairLast = new Float64Array(0);
  private pairTotal = 0;
  /** File f's partners are partner[start[f]] .. partner[start[f + 1] - 1]; pairOf says which pair each is. */
  private start = new Int32Array(1);
  private partner = new Int32Array(0);
  private pairOf = new Int32Array(0);

  constructor(readonly maxChangeSet = MAX_CHANGE_SET) {}

  get fileCount(): number {
    return this.paths.length;
  }

  get pairSize(): number {
    return this.pairTotal;
  }

  commitsOf(path: string): number {
    const id = this.ids.get(path);
    return id === undefined ? 0 : this.commits[id];
  }

  lastTimeOf(path: string): number {
    const id = this.ids.get(path);
    return id === undefined ? 0 : this.last[id];
  }

  support(a: string, b: string): number {
    const p = this.pairNumber(this.ids.get(a), this.ids.get(b));
    return p < 0 ? 0 : this.pairCount[p];
  }

  confidence(a: string, b: string): number {
    const n = this.commitsOf(a);
    return n ? this.support(a, b) / n : 0;
  }

  partners(path: string): Array<[string, PairStat]> {
    const id = this.ids.get(path);
    if (id === undefined || id + 1 >= this.start.length) return [];
    const out: Array<[string, PairStat]> = [];
    for (let k = this.start[id]; k < this.start[id + 1]; k++) {
      const p = this.pairOf[k];
      out.push([this.paths[this.partner[k]], { count: this.pairCount[p], lastTime: this.pairLast[p] }]);
    }
    return out;
  }

  /** ROSE-style, as CoChangeCounts.coChanged. */
  coChanged(path: string, limit = 20): CoChanged[] {
    const n = this.commitsOf(path);
    if (!n) return [];
    const out = this.partners(path).map(([other, p]) => ({ path: other, support: p.count, confidence: p.count / n, lastTime: p.lastTime }));
    out.sort((x, y) => y.confidence - x.confidence || y.support - x.support || y.lastTime - x.lastTime || (x.path < y.path ? -1 : x.path > y.path ? 1 : 0));
    return out.slice(0, limit);
  }

  /** Adds counts mined from more commits. */
  merge(delta: CoChangeCounts): void {
    for (const [path, s] of delta.files) this.addFile(path, s.commits, s.lastTime);
    for (const [a, m] of delta.pairs) {
      for (const [b, p] of m) if (a < b) this.addPair(this.ids.get(a) ?? this.fileId(a), this.ids.get(b) ?? this.fileId(b), p.count, p.lastTime);
    }
    this.commitCount += delta.commitCount;
    this.index();
  }

  /** Every file: path, commits, last time. */
  *fileStats(): Iterable<[string, number, number]> {
    for (let i = 0; i < this.paths.length; i++) yield [this.paths[i], this.commits[i], this.last[i]];
  }

  /** Every pair once, by file number (see fileStats for the order): a, b, count, last time. */
  *pairStats(): Iterable<[number, number, number, number]> {
    for (let p = 0; p < this.pairTotal; p++) yield [this.pairA[p], this.pairB[p], this.pairCount[p], this.pairLast[p]];
  }

  addFile(path: string, commits: number, lastTime: number): number {
    const id = this.fileId(path);
    this.commits[id] += commits;
    if (lastTime > this.last[id]) this.last[id] = lastTime;
    return id;
  }

  /** Adds to a pair's count; call index() after the last one. */
  addPair(a: number, b: number, count: number, lastTime: number): void {
    const p = this.pairNumber(a, b);
    if (p >= 0) {
      this.pairCount[p] += count;
      if (lastTime > this.pairLast[p]) this.pairLast[p] = lastTime;
      return;
    }
    if (this.pairTotal === this.pairA.length) this.growPairs(Math.max(1024, this.pairTotal * 2));
    const n = this.pairTotal++;
    this.pairA[n] = a;
    this.pairB[n] = b;
    this.pairCount[n] = count;
    this.pairLast[n] = lastTime;
  }

  /** Rebuilds the partner lists after pairs were added; drops the spare room of the pair arrays. */
  index(): void {
    if (this.pairA.length !== this.pairTotal) this.growPairs(this.pairTotal);
    const files = this.paths.length;
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

  private fileId(path: string): number {
    let id = this.ids.get(path);
    if (id === undefined) {
      id = this.paths.length;
      this.ids.set(path, id);
      this.paths.push(path);
      this.commits.push(0);
      this.last.push(0);
    }
    return id;
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

/*
 * Cache file layout, little-endian: a header of eight u32 (magic, format, largest change set
 * counted, commits counted, files, pairs, byte length of the mined commit id, byte length of the
 * paths), the commit id, the paths joined by NUL, per file (u32 commits, f64 last time), per pair
 * (u32 a, u32 b, u32 count, f64 last time) by file number, then the SHA-1 of everything before it.
 * Paths appear once, so the file is a fraction of the same data as table rows.
 */
const MAGIC = 0x50434343;
const FORMAT = 1;
const HEADER_BYTES = 32;
const FILE_BYTES = 12;
const PAIR_BYTES = 20;
const DIGEST_BYTES = 20;

export function encodeCounts(counts: PackedCounts, head: string): Buffer {
  const names: string[] = [];
  for (const [p] of counts.fileStats()) names.push(p);
  const headBytes = Buffer.from(head, 'utf8');
  const pathBytes = Buffer.from(names.join('\0'), 'utf8');
  const size = HEADER_BYTES + headBytes.length + pathBytes.length + names.length * FILE_BYTES + counts.pairSize * PAIR_BYTES;
  const out = Buffer.alloc(size + DIGEST_BYTES);
  let o = 0;
  for (const v of [MAGIC, FORMAT, counts.maxChangeSet, counts.commitCount, names.length, counts.pairSize, headBytes.length, pathBytes.length]) o = out.writeUInt32LE(v, o);
  o += headBytes.copy(out, o);
  o += pathBytes.copy(out, o);
  for (const [, commits, lastTime] of counts.fileStats()) {
    o = out.writeUInt32LE(commits, o);
    o = out.writeDoubleLE(lastTime, o);
  }
  for (const [a, b, count, lastTime] of counts.pairStats()) {
    o = out.writeUInt32LE(a, o);
    o = out.writeUInt32LE(b, o);
    o = out.writeUInt32LE(count, o);
    o = out.writeDoubleLE(lastTime, o);
  }
  createHash('sha1').update(out.subarray(0, size)).digest().copy(out, size);
  return out;
}

/** Reads a cache file, or says why it cannot be used. */
export function decodeCounts(data: Buffer, maxChangeSet = MAX_CHANGE_SET): { counts: PackedCounts; head: string } | string {
  if (data.length < HEADER_BYTES + DIGEST_BYTES) return 'too short';
  if (data.readUInt32LE(0) !== MAGIC) return 'not a co-change cache';
  const format = data.readUInt32LE(4);
  if (format !== FORMAT) return `format ${format}, expected ${FORMAT}`;
  const counted = data.readUInt32LE(8);
  if (counted !== maxChangeSet) return `counted change sets up to ${counted} files, now ${maxChangeSet}`;
  const commitCount = data.readUInt32LE(12);
  const fileCount = data.readUInt32LE(16);
  const pairCount = data.readUInt32LE(20);
  const headLength = data.readUInt32LE(24);
  const pathLength = data.readUInt32LE(28);
  const size = HEADER_BYTES + headLength + pathLength + fileCount * FILE_BYTES + pairCount * PAIR_BYTES;
  if (data.length !== size + DIGEST_BYTES) return `${data.length} bytes, the header says ${size + DIGEST_BYTES}`;
  if (!createHash('sha1').update(data.subarray(0, size)).digest().equals(data.subarray(size))) return 'checksum mismatch';
  let o = HEADER_BYTES;
  const head = data.toString('utf8', o, (o += headLength));
  const names = fileCount ? data.toString('utf8', o, o + pathLength).split('\0') : [];
  o += pathLength;
  if (names.length !== fileCount) return `${names.length} paths, the header says ${fileCount}`;
  const counts = new PackedCounts(maxChangeSet);
  for (const p of names) {
    counts.addFile(p, data.readUInt32LE(o), data.readDoubleLE(o + 4));
    o += FILE_BYTES;
  }
  if (counts.fileCount !== fileCount) return 'a path appears twice';
  for (let i = 0; i < pairCount; i++, o += PAIR_BYTES) {
    const a = data.readUInt32LE(o);
    const b = data.readUInt32LE(o + 4);
    if (a >= fileCount || b >= fileCount || a === b) return `pair ${i} names file ${Math.max(a, b)} of ${fileCount}`;
    counts.addPair(a, b, data.readUInt32LE(o + 8), data.readDoubleLE(o + 12));
  }
  counts.index();
  counts.commitCount = commitCount;
  return { counts, head };
}
