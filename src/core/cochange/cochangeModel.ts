import type { Database } from 'sql.js';
import { runGit } from '../git/gitExec';
import { nullLogger, type Logger } from '../logger';
import { all, one, run, transaction } from '../store/sqlite';
import { CoChangeCounts, MAX_CHANGE_SET, type CoChanged, type CoChangeSource, type PairStat } from './cochangeCounts';
import { streamHistory } from './historyStream';

/** The part of `Store` the model uses. */
export interface IndexCache {
  readonly index: Database;
  markIndexDirty(): void;
}

export interface CoChangeModelOptions {
  root: string;
  store: IndexCache;
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

const META_LAST = 'cochange.lastMined';
const META_COMMITS = 'cochange.commits';

/**
 * Files that usually change together, mined from first-parent history in one streamed pass and kept
 * both in the index cache (`cochange_files`, `cochange_pairs`) and in memory for millisecond queries.
 */
export class CoChangeModel implements CoChangeSource {
  private readonly counts: CoChangeCounts;
  private readonly logger: Logger;
  private loaded = false;
  private mining: Promise<MineResult> | undefined;

  constructor(private readonly options: CoChangeModelOptions) {
    this.counts = new CoChangeCounts(options.maxChangeSet ?? MAX_CHANGE_SET);
    this.logger = options.logger ?? nullLogger;
  }

  get lastMined(): string | undefined {
    return one<{ value: string }>(this.db, 'SELECT value FROM meta WHERE key = ?', [META_LAST])?.value;
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

  private get db(): Database {
    return this.options.store.index;
  }

  private ensureLoaded(): void {
    if (this.loaded) return;
    this.loaded = true;
    this.counts.clear();
    for (const r of all<{ path: string; commits: number; last_time: number }>(this.db, 'SELECT path, commits, last_time FROM cochange_files')) {
      this.counts.files.set(r.path, { commits: r.commits, lastTime: r.last_time });
    }
    for (const r of all<{ a: string; b: string; count: number; last_time: number }>(this.db, 'SELECT a, b, count, last_time FROM cochange_pairs')) {
      this.counts.setPair(r.a, r.b, r.count, r.last_time);
    }
    const n = one<{ value: string }>(this.db, 'SELECT value FROM meta WHERE key = ?', [META_COMMITS]);
    this.counts.commitCount = n ? Number(n.value) : 0;
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
    const delta = new CoChangeCounts(this.counts.maxChangeSet);
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

  /** Merges the newly mined counts into memory and writes the rows that changed. */
  private persist(delta: CoChangeCounts, rebuild: boolean, head: string): void {
    if (rebuild) this.counts.clear();
    const c = this.counts;
    for (const [path, s] of delta.files) {
      const cur = c.files.get(path);
      if (cur) {
        cur.commits += s.commits;
        cur.lastTime = Math.max(cur.lastTime, s.lastTime);
      } else c.files.set(path, { ...s });
    }
    const touchedPairs: [string, string, PairStat][] = [];
    for (const [a, m] of delta.pairs) {
      for (const [b, p] of m) {
        if (a >= b) continue;
        const cur = c.pairs.get(a)?.get(b);
        if (cur) {
          cur.count += p.count;
          cur.lastTime = Math.max(cur.lastTime, p.lastTime);
          touchedPairs.push([a, b, cur]);
        } else {
          c.setPair(a, b, p.count, p.lastTime);
          touchedPairs.push([a, b, c.pairs.get(a)!.get(b)!]);
        }
      }
    }
    c.commitCount += delta.commitCount;
    const db = this.db;
    transaction(db, () => {
      if (rebuild) {
        run(db, 'DELETE FROM cochange_files');
        run(db, 'DELETE FROM cochange_pairs');
      }
      const fileStmt = db.prepare('INSERT OR REPLACE INTO cochange_files (path, commits, last_time) VALUES (?, ?, ?)');
      try {
        for (const path of delta.files.keys()) {
          const s = c.files.get(path)!;
          fileStmt.run([path, s.commits, s.lastTime]);
        }
      } finally {
        fileStmt.free();
      }
      const pairStmt = db.prepare('INSERT OR REPLACE INTO cochange_pairs (a, b, count, last_time) VALUES (?, ?, ?, ?)');
      try {
        for (const [a, b, p] of touchedPairs) pairStmt.run([a, b, p.count, p.lastTime]);
      } finally {
        pairStmt.free();
      }
      run(db, 'INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)', [META_LAST, head]);
      run(db, 'INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)', [META_COMMITS, String(c.commitCount)]);
    });
    this.options.store.markIndexDirty();
  }
}
