import { runGit } from '../git/gitExec';
import { GitService } from '../git/gitService';
import type { RepoState } from '../git/repoState';
import { nullLogger, type Logger } from '../logger';
import { MAX_BROAD_CHANGE_SET, type BroadChange, type BroadChangeSource } from './broadChanges';
import { CoChangeCounts, MAX_CHANGE_SET, type CoChanged, type CoChangeSource, type PairStat } from './cochangeCounts';
import { FileHistory, HistoryDelta, type MinedCommit } from './fileHistory';
import { loadSnapshot, removeSnapshot, saveSnapshot, type GivenHistoryFiles } from './historyCache';
import { streamCommits } from './commitStream';
import { countWindowLines } from './lineCounts';
import { recentWindowStart } from './recentWindow';
import { PackedBroadChanges } from './packedBroadChanges';
import { PackedCounts } from './packedCounts';
import { PathTable } from './pathTable';
import { TimeSlice } from '../timeSlice';

export { BROAD_FILE, COCHANGE_FILE, HISTORY_FILE } from './historyCache';

/** Where the model keeps its cache: the per-workspace state directory. */
export interface CoChangeCache {
  readonly stateDir: string;
}

export interface CoChangeModelOptions {
  root: string;
  store: CoChangeCache;
  logger?: Logger;
  /** Asks git what the repository is (not a repo, no commits, shallow…) before each pass. */
  git?: GitService;
  maxChangeSet?: number;
  /** Bound for the whole mining pass. */
  timeoutMs?: number;
  /** Days of history whose commits keep their line counts (the recent-changes window); 30 by default. */
  lineCountDays?: () => number;
  /** Wall clock for that window. */
  now?: () => number;
  /**
   * Mining all history anew (no cache), the newest this many commits are mined and published first,
   * when the caller asks to hear of it: recent changes and co-change answer within seconds. 500 by default.
   */
  firstPassCommits?: number;
}

export interface MineResult {
  mode: 'up-to-date' | 'incremental' | 'rebuild' | 'unavailable';
  commits: number;
  head?: string;
  reason?: string;
  ms: number;
}

/** The large change sets kept, newest; the ranking reads only the newest few of each file. */
const MAX_BROAD_SETS = 1000;
/** A rebuild folds its pair counts into the packed form every so many commits, to bound the maps. */
const FOLD_EVERY = 10_000;
const FIRST_PASS_COMMITS = 500;

interface Pass {
  paths: PathTable;
  /** A rebuild's packed counts, folded from `delta` as it goes; an update keeps only `delta`. */
  counts?: PackedCounts;
  delta: CoChangeCounts;
  broad: BroadChange[];
  history: HistoryDelta;
  seen: number;
  oldestParent?: string;
  /** The folds of full deltas into `counts`, in order, a slice at a time beside the stream. */
  folding: Promise<void>;
}

/**
 * What history says about files, mined from first-parent history in one streamed pass: the files
 * that usually change together (packed counts, large change sets kept whole) and every file's
 * commits (FileHistory). Held in memory for millisecond queries and cached in three compact files,
 * so that a restart mines only the commits made since.
 */
/** Hears each commit read, with the total once git has counted them (0 before). */
type Progress = (done: number, total: number) => void;

export class CoChangeModel implements CoChangeSource {
  private paths = new PathTable();
  private counts: PackedCounts;
  private broadChanges: PackedBroadChanges;
  private fileHistory: FileHistory;
  private head: string | undefined;
  private state: RepoState | undefined;
  private readonly logger: Logger;
  private readonly git: GitService;
  private loaded = false;
  private given: GivenHistoryFiles | undefined;
  private mining: Promise<MineResult> | undefined;
  private stopMining: AbortController | undefined;
  private followUp: Promise<MineResult> | undefined;
  /** Bumped by reset(): a mining pass started before it must not save what it found. */
  private generation = 0;

  constructor(private readonly options: CoChangeModelOptions) {
    this.counts = new PackedCounts(this.maxChangeSet, this.paths);
    this.broadChanges = this.newBroad(this.paths);
    this.fileHistory = new FileHistory(this.paths);
    this.logger = options.logger ?? nullLogger;
    this.git = options.git ?? new GitService(options.root, { logger: this.logger });
  }

  /** Change sets too large for pair counts (a feature across many files), kept whole. */
  get broad(): BroadChangeSource {
    this.ensureLoaded();
    return this.broadChanges;
  }

  /** Every mined commit and each file's commits. */
  get history(): FileHistory {
    this.ensureLoaded();
    return this.fileHistory;
  }

  /** What git said at the last pass (or the cache, before one); undefined until either is known. */
  get repoState(): RepoState | undefined {
    this.ensureLoaded();
    return this.state;
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

  /** Bytes held in typed arrays and buffers by the counts and the file history; paths and their characters. */
  memory(): { counts: number; history: number; paths: number; pathChars: number } {
    this.ensureLoaded();
    let pathChars = 0;
    for (const p of this.paths.all()) pathChars += p.length;
    return {
      counts: this.counts.byteSize + this.broadChanges.byteSize,
      history: this.fileHistory.byteSize,
      paths: this.paths.size,
      pathChars,
    };
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

  forEachPartner(path: string, fn: (other: string, pair: PairStat) => void): void {
    this.ensureLoaded();
    this.counts.forEachPartner(path, fn);
  }

  coChanged(path: string, limit = 20): CoChanged[] {
    this.ensureLoaded();
    return this.counts.coChanged(path, limit);
  }

  /** Forgets everything mined, in memory and on disk; the next update mines all history again. */
  async reset(): Promise<void> {
    // A pass under way would save counts from before the reset: stop it and let the next update start over.
    this.startOver(true);
    removeSnapshot(this.options.store.stateDir, this.logger);
  }

  /** The cache files were replaced (by a team index snapshot): a pass under way is dropped; they (or `given`, their contents) are read on next use. */
  reload(given?: GivenHistoryFiles): void {
    this.startOver(false);
    this.given = given;
  }

  /** Drops a pass under way and what is in memory; `loaded`: the cache files are not to be read (again). */
  private startOver(loaded: boolean): void {
    this.generation++;
    this.stopMining?.abort();
    this.stopMining = undefined;
    this.mining = undefined;
    this.head = undefined;
    this.given = undefined;
    this.loaded = loaded;
    this.adopt(new PathTable());
  }

  /**
   * Brings the model up to HEAD: nothing, the new commits only, or everything when history was
   * rewritten. A call made while a pass is under way gets the pass after it, since HEAD may have
   * moved after that pass read it; every call made meanwhile shares that one follow-up pass.
   * `onProgress` hears each commit read, with the total once git has counted them (0 before).
   * `onFirstPass`, when given, hears that the newest commits were published ahead of a long rebuild.
   */
  update(signal?: AbortSignal, onProgress?: Progress, onFirstPass?: () => void): Promise<MineResult> {
    if (this.mining) {
      this.followUp ??= this.mining
        .catch(() => undefined)
        .then(() => {
          this.followUp = undefined;
          return this.update(signal, onProgress, onFirstPass);
        });
      return this.followUp;
    }
    const stop = new AbortController();
    const pass = this.doUpdate(
      signal ? AbortSignal.any([signal, stop.signal]) : stop.signal,
      this.generation,
      onProgress,
      onFirstPass,
    ).finally(() => {
      if (this.mining === pass) {
        this.mining = undefined;
        this.stopMining = undefined;
      }
    });
    this.mining = pass;
    this.stopMining = stop;
    return pass;
  }

  private get maxChangeSet(): number {
    return this.options.maxChangeSet ?? MAX_CHANGE_SET;
  }

  private newBroad(paths: PathTable): PackedBroadChanges {
    return new PackedBroadChanges(paths, this.maxChangeSet + 1, MAX_BROAD_CHANGE_SET, MAX_BROAD_SETS);
  }

  /** Starts over with an empty model on this path table. */
  private adopt(paths: PathTable): void {
    this.paths = paths;
    this.counts = new PackedCounts(this.maxChangeSet, paths);
    this.broadChanges = this.newBroad(paths);
    this.fileHistory = new FileHistory(paths);
  }

  /** Reads the cache files on first use; unusable ones are dropped and the next update mines everything. */
  private ensureLoaded(): void {
    if (this.loaded) return;
    this.loaded = true;
    const dir = this.options.store.stateDir;
    const snapshot = loadSnapshot(dir, (paths) => this.newBroad(paths), this.maxChangeSet, this.logger, this.given);
    this.given = undefined;
    if (!snapshot) return;
    this.paths = snapshot.paths;
    this.counts = snapshot.counts;
    this.broadChanges = snapshot.broad;
    this.fileHistory = snapshot.history;
    this.head = snapshot.head;
    this.state = {
      ok: true,
      head: snapshot.head,
      ...(snapshot.shallow ? { shallow: true, reason: 'shallow' as const } : {}),
    };
  }

  private async doUpdate(
    signal: AbortSignal,
    generation: number,
    onProgress?: Progress,
    onFirstPass?: () => void,
  ): Promise<MineResult> {
    const started = Date.now();
    const done = (mode: MineResult['mode'], commits: number, head?: string, reason?: string): MineResult => ({
      mode,
      commits,
      head,
      reason,
      ms: Date.now() - started,
    });
    const state = await this.git.state({ signal, timeoutMs: 10_000 });
    if (signal.aborted || generation !== this.generation) return done('unavailable', 0, undefined, 'aborted');
    this.ensureLoaded();
    // A git call that timed out says nothing about the repository.
    if (!state.ok && !state.reason) return done('unavailable', 0, undefined, 'timeout');
    if (!state.ok || !state.head) {
      this.state = state;
      return done('unavailable', 0, undefined, state.reason ?? 'no-commits');
    }
    const head = state.head;
    const last = this.lastMined;
    if (last === head) {
      this.state = state;
      // The window may have grown since the last pass.
      if (await this.countLines(state, signal)) this.save(head, Boolean(state.shallow));
      return done('up-to-date', 0, head);
    }
    // The first pass answers as the repository it was read from.
    const first = onFirstPass
      ? () => {
          this.state = state;
          onFirstPass();
        }
      : undefined;
    const mined = await this.mineAndApply(last, head, !state.partialClone, signal, generation, onProgress, first);
    if (typeof mined === 'string') return done('unavailable', 0, head, mined);
    await this.countLines(state, signal);
    if (generation !== this.generation) return done('unavailable', 0, head, 'reset');
    this.save(head, Boolean(state.shallow));
    this.state = state;
    this.logger.info(
      `History ${mined.rebuild ? 'mined' : 'updated'}: ${mined.seen} commits in ${Date.now() - started} ms`,
    );
    return done(mined.rebuild ? 'rebuild' : 'incremental', mined.seen, head);
  }

  /**
   * Mines the commits after `last` (all of them when it is not an ancestor of `head`) and applies
   * them; says why not when it could not. The pass and its growable buffers end with this call, so
   * they are gone before the line counts and the save.
   */
  private async mineAndApply(
    last: string | undefined,
    head: string,
    lines: boolean,
    signal: AbortSignal,
    generation: number,
    onProgress?: Progress,
    onFirstPass?: () => void,
  ): Promise<{ rebuild: boolean; seen: number } | string> {
    const cwd = this.options.root;
    let pass: Pass | undefined;
    if (last) {
      const anc = await runGit(['merge-base', '--is-ancestor', last, head], { cwd, timeoutMs: 10_000, signal });
      if (anc.failure === 'aborted' || anc.failure === 'timeout') return anc.failure;
      if (anc.ok) {
        // New commits are few and recent: read with their line counts (without, when blobs are missing).
        let res = await this.mine(`${last}..${head}`, this.paths, false, lines, signal, onProgress);
        if (res === 'exit') res = await this.mine(`${last}..${head}`, this.paths, false, false, signal, onProgress);
        if (typeof res === 'string') return res;
        // The new commits must continue the first-parent line mined so far; a head that reached
        // `last` only through a merged branch makes another line, so everything is mined again.
        if (res.oldestParent === last) pass = res;
        else
          this.logger.info(
            `HEAD ${head.slice(0, 12)} does not continue the first-parent line of ${last.slice(0, 12)}; mining all history again.`,
          );
      }
    }
    const rebuild = pass === undefined;
    const first = this.options.firstPassCommits ?? FIRST_PASS_COMMITS;
    if (!pass && onFirstPass && first > 0) {
      // The newest commits first, published at once; the whole history then replaces them.
      const res = await this.mine(head, new PathTable(), true, false, signal, undefined, first);
      if (typeof res === 'string') return res;
      if (generation !== this.generation) return 'reset';
      if (res.seen < first) pass = res;
      else {
        if (!(await this.apply(res, true, undefined, generation))) return 'reset';
        this.logger.info(`History: the newest ${res.seen} commits published; mining the rest.`);
        onFirstPass();
      }
    }
    if (!pass) {
      const res = await this.mine(head, new PathTable(), true, false, signal, onProgress);
      if (typeof res === 'string') return res;
      pass = res;
    }
    if (!(await this.apply(pass, rebuild, head, generation))) return 'reset';
    return { rebuild, seen: pass.seen };
  }

  /** Streams the commits of `range` into a pass over `paths`; returns why it stopped when it failed. */
  private async mine(
    range: string,
    paths: PathTable,
    fresh: boolean,
    lines: boolean,
    signal: AbortSignal,
    onProgress?: Progress,
    maxCount?: number,
  ): Promise<Pass | string> {
    let total = 0;
    // Counted beside the stream, never before it: progress must not delay the mining.
    if (onProgress)
      void runGit(['rev-list', '--count', '--first-parent', range], {
        cwd: this.options.root,
        timeoutMs: 30_000,
        signal,
      }).then((r) => (total = r.ok ? Number(r.stdout.trim()) || 0 : 0));
    const pass: Pass = {
      paths,
      counts: fresh ? new PackedCounts(this.maxChangeSet, paths) : undefined,
      delta: new CoChangeCounts(this.maxChangeSet, false),
      broad: [],
      history: new HistoryDelta(paths, lines),
      seen: 0,
      folding: Promise.resolve(),
    };
    const broadAccepts = (n: number) => n > this.maxChangeSet && n <= MAX_BROAD_CHANGE_SET;
    const res = await streamCommits(
      {
        cwd: this.options.root,
        range,
        lines,
        mergeTitles: true,
        timeoutMs: this.options.timeoutMs ?? 300_000,
        signal,
        ...(maxCount ? { maxCount } : {}),
      },
      (c: MinedCommit) => {
        pass.seen++;
        onProgress?.(pass.seen, Math.max(total, pass.seen));
        pass.history.add(c);
        pass.oldestParent = c.parents[0];
        const files = c.files.map((f) => paths.intern(f));
        // Newest first: the oldest large change sets would only be dropped again.
        if (!pass.delta.add(files, c.time) && broadAccepts(files.length) && pass.broad.length < MAX_BROAD_SETS)
          pass.broad.push({ files, time: c.time });
        if (pass.counts && pass.delta.commitCount >= FOLD_EVERY) {
          const [counts, full] = [pass.counts, pass.delta]; // folded beside the stream, not in this turn
          pass.folding = pass.folding.then(() => counts.mergeInSlices(full, new TimeSlice()));
          pass.delta = new CoChangeCounts(this.maxChangeSet, false);
        }
      },
    );
    if (!res.ok) {
      this.logger.warn(`Mining history stopped: ${res.failure} ${res.stderr?.trim() ?? ''}`);
      return res.failure ?? 'exit';
    }
    return pass;
  }

  /**
   * Makes a finished pass the model (a rebuild, put together aside in slices and swapped in whole, so
   * queries meanwhile get the model as it was) or adds it (new commits); mined up to `head` (to none
   * for the newest commits published first: never saved). False when a reset came meanwhile.
   */
  private async apply(pass: Pass, rebuild: boolean, head: string | undefined, generation: number): Promise<boolean> {
    await pass.folding;
    if (generation !== this.generation) return false;
    if (!rebuild) {
      this.counts.merge(pass.delta);
      for (const b of pass.broad.reverse()) this.broadChanges.add(b.files, b.time); // oldest first
      this.fileHistory.append(pass.history);
      this.head = head;
      return true;
    }
    const slice = new TimeSlice();
    const counts = pass.counts ?? new PackedCounts(this.maxChangeSet, pass.paths);
    await counts.mergeInSlices(pass.delta, slice);
    const broad = this.newBroad(pass.paths);
    await broad.addInSlices(pass.broad.reverse(), slice);
    if (generation !== this.generation) return false;
    const history = new FileHistory(pass.paths);
    history.append(pass.history);
    [this.paths, this.counts, this.broadChanges, this.fileHistory] = [pass.paths, counts, broad, history];
    this.head = head;
    return true;
  }

  /**
   * Gives the recent-changes window's commits their line counts; says whether any were read. Not in
   * a partial clone: counting reads old blobs, which are not there and are never fetched.
   */
  private async countLines(state: RepoState, signal: AbortSignal): Promise<boolean> {
    if (state.partialClone) return false;
    const days = this.options.lineCountDays?.() ?? 30;
    const now = this.options.now?.() ?? Date.now();
    return countWindowLines(this.fileHistory, {
      cwd: this.options.root,
      since: recentWindowStart(now, this.fileHistory.newestTime, days),
      timeoutMs: this.options.timeoutMs ?? 300_000,
      signal,
      logger: this.logger,
    });
  }

  private save(head: string, shallow: boolean): void {
    saveSnapshot(
      this.options.store.stateDir,
      { paths: this.paths, counts: this.counts, broad: this.broadChanges, history: this.fileHistory, head, shallow },
      this.logger,
    );
  }
}
