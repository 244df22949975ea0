import { Emitter } from './events/emitter';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import type { CodeIndex, BuildStats } from './index/codeIndex';
import type { DecisionSource } from './sources/decisions/decisionSource';
import type { FolderReason } from './sources/decisions/adrDiscovery';
import type { CoChangeModel, MineResult } from './cochange/cochangeModel';
import type { GitAccess } from './gitAccess';
import type { HistorySources } from './sources/git/historySources';
import type { WorkspaceSource } from './sources/sourceQuery';
import type { Logger } from './logger';
import type { Store } from './store/store';
import type { SnapshotOutcome, SnapshotProgress } from './snapshot/teamIndex';

/** A minimal event: listeners in a set, disposed one by one. */
export interface RefreshSummary {
  sources: { name: string; entries: number; files: number }[];
  sourcesMs: number;
  index: BuildStats;
  history: MineResult;
  /** Where decision records were found, how each folder was found, and how many records it holds. */
  decisionFolders: { path: string; records: number; foundBy: FolderReason }[];
  /** What came of the team index snapshot, when one was configured. */
  snapshot?: SnapshotOutcome;
}

/** Loads a team index snapshot into the caches; runs before the first build and mining pass. */
export type IndexSeed = (
  signal: AbortSignal | undefined,
  onProgress: (p: SnapshotProgress) => void,
) => Promise<SnapshotOutcome>;

interface IndexerParts {
  root: string;
  store: Store;
  index: CodeIndex;
  workspaceSources: readonly WorkspaceSource[];
  decisions: DecisionSource;
  cochange: CoChangeModel;
  history: HistorySources;
  /** While git may not run, history is not mined; it is mined as soon as git is allowed. */
  git: GitAccess;
  logger: Logger;
  seed?: IndexSeed;
}

const FILE_DEBOUNCE_MS = 150;
const HEAD_DEBOUNCE_MS = 500;
/** Progress is told at most this often, and mining that ends sooner is never shown at all. */
const PROGRESS_EVERY_MS = 200;

/** Files indexed of all, then commits read of all while history is mined. */
export interface IndexingProgress {
  done: number;
  total: number;
  commits?: { done: number; total: number };
  /** Bytes of a team index snapshot downloaded, before indexing starts. */
  snapshot?: SnapshotProgress;
}

/**
 * Keeps a workspace's knowledge current: reads decisions, reports and docs, indexes code and mines
 * history in the background, and applies file changes and new commits as they happen.
 */
export class WorkspaceIndexer {
  private readonly indexingEmitter = new Emitter<IndexingProgress | undefined>();
  private readonly dataEmitter = new Emitter<string[]>();
  private progress: IndexingProgress | undefined;
  private indexedFiles = 0;
  /** True while the code index builds; history may be mined at the same time. */
  private indexing = false;
  /** Commits mined of total while history is mined. */
  private commits: { done: number; total: number } | undefined;
  private background: Promise<void> | undefined;
  private readonly backgroundAbort = new AbortController();
  private readonly pendingFiles = new Map<string, boolean>();
  private fileTimer: NodeJS.Timeout | undefined;
  private headTimer: NodeJS.Timeout | undefined;
  private disposed = false;
  private seeding: Promise<SnapshotOutcome | undefined> | undefined;

  constructor(private readonly parts: IndexerParts) {
    parts.git.onDidAllow(() => {
      if (this.background && !this.disposed) void this.mineInBackground();
    });
  }

  get indexingProgress(): IndexingProgress | undefined {
    return this.progress;
  }

  onDidChangeIndexing(listener: (p: IndexingProgress | undefined) => void): { dispose(): void } {
    return this.indexingEmitter.on(listener);
  }

  /** Fires with root-relative paths when indexed data changed (so suggestions may differ). */
  onDidChangeData(listener: (paths: string[]) => void): { dispose(): void } {
    return this.dataEmitter.on(listener);
  }

  /** Starts (once) the background reading, indexing and mining; later calls return the running work. */
  startBackgroundWork(): Promise<void> {
    this.background ??= this.runBackground();
    return this.background;
  }

  /** Refreshes everything in the foreground (CLI, MCP start-up) and says what was done. */
  async refreshAll(signal?: AbortSignal): Promise<RefreshSummary> {
    // As in the background: decisions and docs are read while the snapshot unpacks and git checks it.
    const seeded = this.seedOnce(signal);
    const t0 = performance.now();
    const sources = await this.refreshSources(signal);
    const sourcesMs = performance.now() - t0;
    const snapshot = await seeded;
    const index = await this.buildIndex(signal);
    const history = this.parts.git.allowed ? await this.mineHistory(signal) : this.notMined();
    const decisionFolders = this.parts.decisions
      .whereLooked()
      .folders.map((f) => ({ path: f.path, records: f.records, foundBy: f.reason }));
    return { sources, sourcesMs, index, history, decisionFolders, ...(snapshot ? { snapshot } : {}) };
  }

  async rebuildIndex(
    options: { signal?: AbortSignal; onProgress?: (done: number, total: number) => void } = {},
  ): Promise<BuildStats> {
    this.parts.store.resetIndex();
    await this.parts.cochange.reset();
    this.parts.history.invalidate();
    await this.refreshSources(options.signal);
    const stats = await this.buildIndex(options.signal, options.onProgress);
    if (!options.signal?.aborted && this.parts.git.allowed) await this.mineHistory(options.signal);
    return stats;
  }

  /** A file of the root changed on disk; changes are batched and applied after a short quiet time. */
  fileChanged(path: string, deleted = false): void {
    if (this.disposed) return;
    if (path === '.git' || path.startsWith('.git/')) {
      // HEAD or a branch moved: new commits to mine, cached histories to drop.
      if (path === '.git/HEAD' || path.startsWith('.git/refs/') || path === '.git/packed-refs') this.headMoved();
      return;
    }
    this.parts.history.invalidate(path);
    this.pendingFiles.set(path, deleted);
    clearTimeout(this.fileTimer);
    this.fileTimer = setTimeout(() => void this.applyFileChanges(), FILE_DEBOUNCE_MS);
    this.fileTimer.unref?.();
  }

  /**
   * Re-reads decisions, reports and docs (only changed files are parsed); `onRead` hears of each
   * source read with entries, so that its items need not wait for the others.
   */
  async refreshSources(
    signal?: AbortSignal,
    onRead?: () => void,
  ): Promise<{ name: string; entries: number; files: number }[]> {
    const out: { name: string; entries: number; files: number }[] = [];
    for (const s of this.parts.workspaceSources) {
      // Each source reads for a while: the loop runs between them.
      await new Promise<void>((r) => setImmediate(r));
      try {
        const stats = await s.refresh(signal);
        out.push({ name: s.name, entries: stats.entries, files: stats.files });
        if (stats.entries) onRead?.();
        this.parts.logger.info(
          `${s.name}: ${stats.entries} entries from ${stats.files} files in ${stats.ms.toFixed(0)} ms`,
        );
      } catch (err) {
        this.parts.logger.warn(`Could not read ${s.name}: ${(err as Error).message}`);
      }
    }
    return out;
  }

  dispose(): void {
    this.disposed = true;
    this.backgroundAbort.abort();
    clearTimeout(this.fileTimer);
    clearTimeout(this.headTimer);
  }

  private headMoved(): void {
    if (!this.parts.git.allowed) return;
    this.parts.history.headMoved();
    clearTimeout(this.headTimer);
    this.headTimer = setTimeout(() => {
      this.parts.history.invalidate();
      // A snapshot being loaded replaces the history: mining waits for it.
      void (this.seeding ?? Promise.resolve())
        .then(() => this.mineHistory(this.backgroundAbort.signal))
        .then(
          () => this.dataEmitter.fire([]),
          (err: Error) => this.parts.logger.warn(`Could not update the co-change model: ${err.message}`),
        );
    }, HEAD_DEBOUNCE_MS);
    this.headTimer.unref?.();
  }

  /** Mines new commits; `showProgress` tells how far it got while it takes long enough to notice. */
  private async mineHistory(signal?: AbortSignal, showProgress = false): Promise<MineResult> {
    const started = Date.now();
    let lastFire = 0;
    const onProgress = (done: number, total: number) => {
      const now = Date.now();
      this.commits = { done, total };
      if (now - started < PROGRESS_EVERY_MS || now - lastFire < PROGRESS_EVERY_MS) return;
      lastFire = now;
      this.progress = {
        ...(this.progress ?? { done: this.indexedFiles, total: this.indexedFiles }),
        commits: this.commits,
      };
      this.indexingEmitter.fire(this.progress);
    };
    try {
      // In the background, the newest commits are published first: recent changes and co-change need not wait.
      const firstPass = showProgress
        ? () => {
            this.parts.history.invalidate();
            this.dataEmitter.fire([]);
          }
        : undefined;
      const r = await this.parts.cochange.update(signal, showProgress ? onProgress : undefined, firstPass);
      if (r.mode === 'incremental' || r.mode === 'rebuild') this.parts.history.invalidate();
      await this.parts.history.refreshWorkingTree(signal);
      return r;
    } finally {
      this.commits = undefined;
      if (lastFire && !this.indexing) {
        this.progress = undefined;
        this.indexingEmitter.fire(undefined);
      }
    }
  }

  private async runBackground(): Promise<void> {
    const signal = this.backgroundAbort.signal;
    // The index cache opens a migration per turn, before the first suggestion pass would open it in one step.
    // Then its import graph is read in slices, before the first callers query reads it in one step.
    const readGraph = () => this.parts.index.readGraphAhead();
    void this.parts.store
      .openIndex()
      .then(readGraph)
      .catch((err: Error) => this.parts.logger.warn(`Could not open the index cache: ${err.message}`));
    // Decisions and docs are read from the work tree meanwhile; the caches wait for the snapshot.
    const seeded = this.seedOnce(signal);
    // The snapshot's index and history answer at once: the open file's suggestions need not wait for catching up.
    void seeded.then((o) => {
      if (o?.status !== 'applied' || signal.aborted) return;
      // Started before the pass it serves: that pass's callers query waits for it instead of reading the graph whole.
      readGraph().catch((err: Error) => this.parts.logger.warn(`Could not read the import graph: ${err.message}`));
      this.parts.history.invalidate();
      this.dataEmitter.fire([]);
    });
    // History comes from git, not from the index: mined meanwhile, recent changes need not wait for the index.
    const mined = seeded.then(() => (this.parts.git.allowed ? this.mineInBackground() : undefined));
    // The active file's decisions show as soon as they are read, not after the reports and docs too.
    const fire = () => this.dataEmitter.fire([]);
    let told = false;
    await this.refreshSources(signal, () => {
      told = true;
      fire();
    });
    if (!told) fire();
    await seeded;
    if (!signal.aborted) {
      await this.buildIndex(signal);
      this.dataEmitter.fire([]);
    }
    await mined;
  }

  /** Loads the team snapshot once, telling its download where indexing progress is told. */
  private seedOnce(signal?: AbortSignal): Promise<SnapshotOutcome | undefined> {
    const seed = this.parts.seed;
    if (!seed) return Promise.resolve(undefined);
    this.seeding ??= (async () => {
      let lastFire = 0;
      // Shown from the start: reading and checking a snapshot takes seconds even when nothing is downloaded.
      this.progress = { ...(this.progress ?? { done: 0, total: 0 }), snapshot: { received: 0 } };
      this.indexingEmitter.fire(this.progress);
      try {
        return await seed(signal, (p) => {
          this.progress = { ...(this.progress ?? { done: 0, total: 0 }), snapshot: p };
          const now = Date.now();
          if (now - lastFire < PROGRESS_EVERY_MS && p.received !== p.total) return;
          lastFire = now;
          this.indexingEmitter.fire(this.progress);
        });
      } finally {
        if (this.progress?.snapshot) {
          const { snapshot: _done, ...rest } = this.progress;
          this.progress = rest.total || rest.commits ? rest : undefined;
          this.indexingEmitter.fire(this.progress);
        }
      }
    })();
    return this.seeding;
  }

  private mineInBackground(): Promise<void> {
    return this.mineHistory(this.backgroundAbort.signal, true).then(
      () => this.dataEmitter.fire([]),
      (err: Error) => this.parts.logger.warn(`Could not mine git history: ${err.message}`),
    );
  }

  private notMined(): MineResult {
    return { mode: 'unavailable', commits: 0, reason: this.parts.git.reason, ms: 0 };
  }

  private async buildIndex(
    signal?: AbortSignal,
    onProgress?: (done: number, total: number) => void,
  ): Promise<BuildStats> {
    this.indexing = true;
    this.progress = { done: 0, total: 0, ...(this.commits ? { commits: this.commits } : {}) };
    this.indexingEmitter.fire(this.progress);
    let lastFire = 0;
    let scanned = false;
    try {
      const stats = await this.parts.index.build({
        signal,
        onProgress: (p) => {
          if (!scanned) {
            // The workspace's files are known from here on: history may rank them before they are indexed.
            scanned = true;
            this.parts.history.invalidate();
            this.dataEmitter.fire([]);
          }
          // History may be mined meanwhile: both counts are shown.
          this.progress = { done: p.done, total: p.total, ...(this.commits ? { commits: this.commits } : {}) };
          onProgress?.(p.done, p.total);
          const now = Date.now();
          if (now - lastFire > 200 || p.done === p.total) {
            lastFire = now;
            this.indexingEmitter.fire(this.progress);
          }
        },
      });
      this.indexedFiles = stats.files;
      await this.parts.history.refreshTerms(signal);
      this.parts.logger.info(
        `Indexed ${stats.files} files (${stats.parsed} parsed, ${stats.symbols} definitions) in ${stats.ms.toFixed(0)} ms${stats.capped ? `; capped by ${stats.capped.reason} at ${stats.capped.limit}` : ''}`,
      );
      return stats;
    } finally {
      this.indexing = false;
      this.progress = this.commits
        ? { done: this.indexedFiles, total: this.indexedFiles, commits: this.commits }
        : undefined;
      // The history sources may have listed the files while the index was still filling up.
      this.parts.history.invalidate();
      await this.parts.decisions.codeRebuilt();
      this.indexingEmitter.fire(this.progress);
    }
  }

  /**
   * A watcher may report a folder made with files in it (or removed with them) as one event for the
   * folder: the records and docs inside may have changed too. A deleted path without an extension may
   * have been such a folder.
   */
  private isFolder(path: string, deleted: boolean): boolean {
    if (deleted) return !/\.[^/]+$/.test(path);
    try {
      return statSync(join(this.parts.root, path)).isDirectory();
    } catch {
      return false;
    }
  }

  private async syncFolders(folders: readonly string[]): Promise<void> {
    let touched = 0;
    for (const folder of folders) {
      try {
        const r = await this.parts.index.syncFolder(folder, this.backgroundAbort.signal);
        touched += r.updated + r.removed;
      } catch (err) {
        this.parts.logger.warn(`Could not update the code index under ${folder}: ${(err as Error).message}`);
      }
    }
    if (touched) await this.parts.history.refreshTerms(this.backgroundAbort.signal).catch(() => undefined);
  }

  private async applyFileChanges(): Promise<void> {
    const batch = [...this.pendingFiles];
    this.pendingFiles.clear();
    let sourcesChanged = false;
    const folders: string[] = [];
    for (const [path, deleted] of batch) {
      if (this.disposed) return;
      try {
        if (deleted) this.parts.index.removeFile(path);
        else await this.parts.index.updateFile(path);
      } catch (err) {
        this.parts.logger.debug(`Could not re-index ${path}: ${(err as Error).message}`);
      }
      const folder = this.isFolder(path, deleted);
      if (folder) folders.push(path);
      if (
        /\.(md|mdx|markdown|rst|adoc|xml|json|tap)$/i.test(path) ||
        path.endsWith('.adr-dir') ||
        path.endsWith('.log4brains.yml') ||
        folder
      )
        sourcesChanged = true;
    }
    // A folder created or removed at once (a checkout, a generator, an unzip) may come as one event
    // for the folder alone: its files are listed (ignored ones left out) and indexed or forgotten.
    if (folders.length) await this.syncFolders(folders);
    // Asked between the change and now, the history sources may have read the old list of files.
    for (const [path] of batch) this.parts.history.invalidate(path);
    this.parts.decisions.codeChanged();
    if (sourcesChanged) await this.refreshSources();
    if (this.disposed) return;
    this.dataEmitter.fire(batch.map(([p]) => p));
  }
}
