import { createHash } from 'node:crypto';
import { readFileSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { runGit } from '../git/gitExec';
import { nullLogger, type Logger } from '../logger';
import { removeStaleTempFiles, writeFileAtomic } from '../store/atomicFile';
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

/**
 * Files that usually change together, mined from first-parent history in one streamed pass, held in
 * memory for millisecond queries and cached in a compact file (see encodeCounts) so that a restart
 * only mines the commits made since.
 */
export class CoChangeModel implements CoChangeSource {
  private counts: CoChangeCounts;
  private head: string | undefined;
  private readonly logger: Logger;
  private loaded = false;
  private mining: Promise<MineResult> | undefined;

  constructor(private readonly options: CoChangeModelOptions) {
    this.counts = this.emptyCounts();
    this.logger = options.logger ?? nullLogger;
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

  /** Brings the model up to HEAD: nothing, the new commits only, or everything when history was rewritten. */
  update(signal?: AbortSignal): Promise<MineResult> {
    if (!this.mining) this.mining = this.doUpdate(signal).finally(() => (this.mining = undefined));
    return this.mining;
  }

  private get cachePath(): string {
    return join(this.options.store.stateDir, COCHANGE_FILE);
  }

  /** Counts without the change sets themselves: the model only ever adds, so it keeps just the totals. */
  private emptyCounts(): CoChangeCounts {
    return new CoChangeCounts(this.options.maxChangeSet ?? MAX_CHANGE_SET, false);
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
      decoded = decodeCounts(data, this.emptyCounts());
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
    this.counts = decoded.counts;
    this.head = decoded.head;
  }

  private async doUpdate(signal?: AbortSignal): Promise<MineResult> {
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
    const delta = this.emptyCounts();
    let seen = 0;
    const res = await streamHistory({ cwd, range: range ?? head, timeoutMs: this.options.timeoutMs ?? 300_000, signal }, (c) => {
      seen++;
      delta.add(c.files, c.time);
    });
    if (!res.ok) {
      this.logger.warn(`Co-change mining stopped: ${res.failure} ${res.stderr?.trim() ?? ''}`);
      return done('unavailable', 0, head, res.failure);
    }
    this.persist(delta, rebuild, head);
    this.logger.info(`Co-change model ${rebuild ? 'rebuilt' : 'updated'}: ${seen} commits in ${Date.now() - started} ms`);
    return done(rebuild ? 'rebuild' : 'incremental', seen, head);
  }

  /** Merges the newly mined counts into memory (or takes them whole after a rebuild) and saves the cache. */
  private persist(delta: CoChangeCounts, rebuild: boolean, head: string): void {
    if (rebuild) this.counts = delta;
    else {
      const c = this.counts;
      for (const [path, s] of delta.files) {
        const cur = c.files.get(path);
        if (cur) {
          cur.commits += s.commits;
          cur.lastTime = Math.max(cur.lastTime, s.lastTime);
        } else c.files.set(path, { ...s });
      }
      for (const [a, m] of delta.pairs) {
        for (const [b, p] of m) {
          if (a >= b) continue;
          const cur = c.pairs.get(a)?.get(b);
          if (cur) {
            cur.count += p.count;
            cur.lastTime = Math.max(cur.lastTime, p.lastTime);
          } else c.setPair(a, b, p.count, p.lastTime);
        }
      }
      c.commitCount += delta.commitCount;
    }
    this.head = head;
    try {
      writeFileAtomic(this.cachePath, encodeCounts(this.counts, head));
    } catch (err) {
      // The model in memory is right; the next start mines again from the last saved commit.
      this.logger.warn(`Could not save the co-change cache ${this.cachePath}: ${(err as Error).message}`);
    }
  }
}

/*
 * Cache file layout, little-endian: a header of eight u32 (magic, format, largest change set
 * counted, commits counted, files, pairs, byte length of the mined commit id, byte length of the
 * paths), the commit id, the paths joined by NUL, per file (u32 commits, f64 last time), per pair
 * (u32 a, u32 b, u32 count, f64 last time) with a < b as file numbers, then the SHA-1 of everything
 * before it. Paths appear once, so the file is a fraction of the same data as table rows.
 */
const MAGIC = 0x50434343;
const FORMAT = 1;
const HEADER_BYTES = 32;
const FILE_BYTES = 12;
const PAIR_BYTES = 20;
const DIGEST_BYTES = 20;

export function encodeCounts(counts: CoChangeCounts, head: string): Buffer {
  const ids = new Map<string, number>();
  const names: string[] = [];
  const idOf = (p: string): number => {
    let id = ids.get(p);
    if (id === undefined) {
      id = names.length;
      ids.set(p, id);
      names.push(p);
    }
    return id;
  };
  for (const p of counts.files.keys()) idOf(p);
  let pairCount = 0;
  for (const [a, m] of counts.pairs) {
    idOf(a);
    for (const b of m.keys()) if (a < b) pairCount++;
  }
  const headBytes = Buffer.from(head, 'utf8');
  const pathBytes = Buffer.from(names.join('\0'), 'utf8');
  const size = HEADER_BYTES + headBytes.length + pathBytes.length + names.length * FILE_BYTES + pairCount * PAIR_BYTES;
  const out = Buffer.alloc(size + DIGEST_BYTES);
  let o = 0;
  for (const v of [MAGIC, FORMAT, counts.maxChangeSet, counts.commitCount, names.length, pairCount, headBytes.length, pathBytes.length]) o = out.writeUInt32LE(v, o);
  o += headBytes.copy(out, o);
  o += pathBytes.copy(out, o);
  for (const p of names) {
    const s = counts.files.get(p);
    o = out.writeUInt32LE(s?.commits ?? 0, o);
    o = out.writeDoubleLE(s?.lastTime ?? 0, o);
  }
  for (const [a, m] of counts.pairs) {
    const ia = ids.get(a)!;
    for (const [b, p] of m) {
      if (a >= b) continue;
      o = out.writeUInt32LE(ia, o);
      o = out.writeUInt32LE(ids.get(b)!, o);
      o = out.writeUInt32LE(p.count, o);
      o = out.writeDoubleLE(p.lastTime, o);
    }
  }
  createHash('sha1').update(out.subarray(0, size)).digest().copy(out, size);
  return out;
}

/** Fills `into` from a cache file, or says why the file cannot be used. */
export function decodeCounts(data: Buffer, into: CoChangeCounts): { counts: CoChangeCounts; head: string } | string {
  if (data.length < HEADER_BYTES + DIGEST_BYTES) return 'too short';
  if (data.readUInt32LE(0) !== MAGIC) return 'not a co-change cache';
  const format = data.readUInt32LE(4);
  if (format !== FORMAT) return `format ${format}, expected ${FORMAT}`;
  const maxChangeSet = data.readUInt32LE(8);
  if (maxChangeSet !== into.maxChangeSet) return `counted change sets up to ${maxChangeSet} files, now ${into.maxChangeSet}`;
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
  const names = fileCount ? data.toString('utf8', o, (o += pathLength)).split('\0') : [];
  if (!fileCount) o += pathLength;
  if (names.length !== fileCount) return `${names.length} paths, the header says ${fileCount}`;
  for (const p of names) {
    const commits = data.readUInt32LE(o);
    const lastTime = data.readDoubleLE(o + 4);
    o += FILE_BYTES;
    if (commits > 0) into.files.set(p, { commits, lastTime });
  }
  for (let i = 0; i < pairCount; i++, o += PAIR_BYTES) {
    const a = data.readUInt32LE(o);
    const b = data.readUInt32LE(o + 4);
    if (a >= fileCount || b >= fileCount || a === b) return `pair ${i} names file ${Math.max(a, b)} of ${fileCount}`;
    into.setPair(names[a], names[b], data.readUInt32LE(o + 8), data.readDoubleLE(o + 12));
  }
  into.commitCount = commitCount;
  return { counts: into, head };
}
