import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { resolveConfig, type CoreConfig } from './config';
import { CoChangeModel, type MineResult } from './cochange/cochangeModel';
import type { RelatedFile } from './cochange/relatedFiles';
import { isTestFile } from './cochange/testPairing';
import { runGit, type GitRunner } from './git/gitExec';
import { GitService } from './git/gitService';
import { HistorySources } from './sources/git/historySources';
import { all } from './store/sqlite';
import { CodeIndex, type BuildStats, type IndexedSymbol } from './index/codeIndex';
import { nullLogger, type Logger } from './logger';
import { MemoryStore } from './memory/memoryStore';
import { resolveStateDir } from './paths';
import { ProactiveContextProvider, type SuggestOptions, type SuggestionSource } from './provider/provider';
import { DecisionSource } from './sources/decisions/decisionSource';
import { DocsSource } from './sources/docs/docsSource';
import { TestReportSource } from './sources/reports/testReportSource';
import type { SignalSource, SourceQuery } from './sources/sourceQuery';
import { Store } from './store/store';
import { SubscriptionMaterializer } from './subscriptions/materializer';
import { SubscriptionRegistry } from './subscriptions/registry';
import type { ContextSuggestion, ProactiveQuery, SuggestionItem, SuggestionType } from './types';

export interface EngineOptions {
  root: string;
  stateDir?: string;
  config?: Partial<CoreConfig>;
  logger?: Logger;
  clock?: () => number;
  /** Runs git for the engine's own calls (default: a git process per call); tests count calls with it. */
  gitRunner?: GitRunner;
}

export class EngineError extends Error {}

type Listener<T> = (value: T) => void;

class Emitter<T> {
  private readonly listeners = new Set<Listener<T>>();
  on(l: Listener<T>): { dispose(): void } {
    this.listeners.add(l);
    return { dispose: () => this.listeners.delete(l) };
  }
  fire(v: T): void {
    for (const l of [...this.listeners]) l(v);
  }
}

/**
 * Views a changing snapshot through a fixed object, so parts built once (index, registry) always
 * read the current settings.
 */
function live<T extends object>(get: () => T): T {
  return new Proxy({} as T, {
    get: (_t, key) => (get() as Record<string | symbol, unknown>)[key],
    has: (_t, key) => key in get(),
    ownKeys: () => Reflect.ownKeys(get()),
    getOwnPropertyDescriptor: (_t, key) => ({ ...Reflect.getOwnPropertyDescriptor(get(), key), configurable: true }),
  });
}

/** Adapts a signal source (refresh + cheap query) to the provider's collect() port. */
function fromSignalSource(source: SignalSource, kinds: readonly SuggestionType[], importsOf: (file: string) => string[]): SuggestionSource {
  return {
    name: source.name,
    kinds,
    async collect(ctx) {
      const q = ctx.query;
      const query: SourceQuery = {
        file: q.currentFile,
        line: q.cursorPosition?.line,
        symbol: q.currentSymbol,
        symbolRange: ctx.symbolRange ? { start: ctx.symbolRange.startLine, end: ctx.symbolRange.endLine } : undefined,
        importsOfFile: q.currentFile ? importsOf(q.currentFile) : undefined,
        recentFiles: q.recentFiles,
      };
      return source.query(query);
    },
  };
}

/**
 * One workspace root's engine: the store and every source, shared by the extension, the CLI and
 * the MCP server. Adapters create one per root folder.
 */
export class Engine {
  private configSnapshot: CoreConfig;
  private readonly disposables: (() => void)[] = [];
  private readonly sources: SuggestionSource[] = [];
  private readonly slowSources: SuggestionSource[] = [];
  private readonly indexingEmitter = new Emitter<{ done: number; total: number } | undefined>();
  private readonly dataEmitter = new Emitter<string[]>();
  private progress: { done: number; total: number } | undefined;
  private background: Promise<void> | undefined;
  private backgroundAbort = new AbortController();
  private pendingFiles = new Map<string, boolean>();
  private fileTimer: NodeJS.Timeout | undefined;
  private disposed = false;

  readonly index: CodeIndex;
  readonly decisions: DecisionSource;
  readonly reports: TestReportSource;
  readonly docs: DocsSource;
  readonly provider: ProactiveContextProvider;
  readonly subscriptions: SubscriptionRegistry;
  readonly materializer: SubscriptionMaterializer;
  readonly memory: MemoryStore;
  readonly git: GitService;
  readonly cochange: CoChangeModel;
  private readonly history: HistorySources;
  private readonly signalSources: SignalSource[];

  private constructor(
    readonly root: string,
    readonly stateDir: string,
    readonly store: Store,
    config: CoreConfig,
    readonly logger: Logger,
    private readonly clock: () => number,
    gitRunner?: GitRunner,
  ) {
    this.configSnapshot = config;
    const cfg = live(() => this.configSnapshot);
    const ctx = { root, store, config: cfg, logger, now: clock };
    this.index = new CodeIndex(store, root, cfg, logger);
    this.decisions = new DecisionSource(ctx);
    this.reports = new TestReportSource(ctx);
    this.docs = new DocsSource(ctx);
    this.signalSources = [this.decisions, this.reports, this.docs];
    const importsOf = (file: string) => this.safe(() => this.index.importsOf(file), []);
    this.sources.push(fromSignalSource(this.decisions, ['decision', 'warning'], importsOf));
    this.sources.push(fromSignalSource(this.reports, ['warning'], importsOf));
    this.sources.push(fromSignalSource(this.docs, ['doc'], importsOf));
    this.sources.push(this.indexSource());
    this.git = new GitService(root, { logger, run: gitRunner });
    this.cochange = new CoChangeModel({ root, store, logger, git: this.git, lineCountDays: () => this.configSnapshot.recentChangeDays, now: clock });
    const graph = { importsOf, importersOf: (file: string) => this.safe(() => this.index.importersOf(file), []) };
    this.history = new HistorySources(root, this.git, this.cochange, graph, () => this.safe(() => all<{ path: string }>(store.index, 'SELECT path FROM files').map((r) => r.path), []), clock);
    this.sources.push(this.history.changeSource(), this.history.cochangeSource());
    this.slowSources.push(this.history.lineHistorySource());
    this.provider = new ProactiveContextProvider(store, () => this.configSnapshot, this.sources, (file, line) => this.symbolAt(file, line), logger, clock);
    this.subscriptions = new SubscriptionRegistry(store, { root, config: live(() => this.configSnapshot.subscriptions), now: clock, logger });
    this.memory = new MemoryStore(store, {
      now: clock,
      logger,
      decisions: { search: (q: string, limit: number) => this.searchDecisions(q, limit) },
    });
    this.materializer = new SubscriptionMaterializer(this.subscriptions, {
      config: live(() => this.configSnapshot.subscriptions),
      memory: this.memory,
      symbols: { locate: async (path: string, name: string) => this.locateSymbol(path, name) },
      logger,
    });
  }

  static async open(options: EngineOptions): Promise<Engine> {
    const root = resolve(options.root);
    if (!existsSync(root) || !statSync(root).isDirectory()) throw new EngineError(`${root} is not a folder`);
    const logger = options.logger ?? nullLogger;
    const stateDir = resolveStateDir(root, options.stateDir);
    const store = await Store.open({ stateDir, logger });
    return new Engine(root, stateDir, store, resolveConfig(options.config), logger, options.clock ?? Date.now, options.gitRunner);
  }

  get config(): CoreConfig {
    return this.configSnapshot;
  }

  setConfig(partial: Partial<CoreConfig>): void {
    this.configSnapshot = resolveConfig(partial);
  }

  /**
   * Extra suggestion sources from the adapter. Slow ones (language servers) are only asked when a
   * caller passes `includeSlow`, so a first answer never waits for them.
   */
  addSource(source: SuggestionSource, options: { slow?: boolean } = {}): void {
    (options.slow ? this.slowSources : this.sources).push(source);
  }

  suggest(query: ProactiveQuery, options: SuggestOptions & { includeSlow?: boolean } = {}): Promise<ContextSuggestion> {
    const extra = options.includeSlow && this.slowSources.length ? { extraSources: [...(options.extraSources ?? []), ...this.slowSources] } : {};
    return this.provider.suggest(this.normalizeQuery(query), { ...options, ...extra });
  }

  /** True when there are slow sources a second pass would add. */
  get hasSlowSources(): boolean {
    return this.slowSources.length > 0;
  }

  symbolAt(file: string, line: number): { name: string; startLine: number; endLine: number } | undefined {
    const s = this.safe(() => this.index.symbolAt(file, line), undefined);
    return s ? { name: s.container && s.kind === 'method' ? s.name : s.name, startLine: s.startLine, endLine: s.endLine } : undefined;
  }

  get indexingProgress(): { done: number; total: number } | undefined {
    return this.progress;
  }

  onDidChangeIndexing(listener: (p: { done: number; total: number } | undefined) => void): { dispose(): void } {
    return this.indexingEmitter.on(listener);
  }

  /** Fires with root-relative paths when indexed data changed (so suggestions may differ). */
  onDidChangeWorkspaceData(listener: (paths: string[]) => void): { dispose(): void } {
    return this.dataEmitter.on(listener);
  }

  /**
   * Reads decisions, reports and docs, then indexes code and mines history, in the background.
   * Safe to call more than once: later calls return the running work.
   */
  startBackgroundWork(): Promise<void> {
    this.background ??= this.runBackground();
    return this.background;
  }

  async rebuildIndex(options: { signal?: AbortSignal; onProgress?: (done: number, total: number) => void } = {}): Promise<BuildStats> {
    this.store.resetIndex();
    await this.cochange.reset();
    this.history.invalidate();
    await this.refreshSources(options.signal);
    const stats = await this.buildIndex(options.signal, options.onProgress);
    if (!options.signal?.aborted) await this.mineHistory(options.signal);
    return stats;
  }

  /** Called by adapters when a file of the root changed on disk (debounced here). */
  fileChanged(path: string, deleted = false): void {
    if (path === '.git' || path.startsWith('.git/')) {
      // HEAD or a branch moved: new commits to mine, cached histories to drop.
      if (path === '.git/HEAD' || path.startsWith('.git/refs/') || path === '.git/packed-refs') this.headMoved();
      return;
    }
    this.history.invalidate(path);
    this.pendingFiles.set(path, deleted);
    clearTimeout(this.fileTimer);
    this.fileTimer = setTimeout(() => void this.applyFileChanges(), 150);
    this.fileTimer.unref?.();
  }

  private headTimer: NodeJS.Timeout | undefined;
  private headMoved(): void {
    this.history.headMoved();
    clearTimeout(this.headTimer);
    this.headTimer = setTimeout(() => {
      this.history.invalidate();
      void this.mineHistory(this.backgroundAbort.signal).then(
        () => this.dataEmitter.fire([]),
        (err) => this.logger.warn(`Could not update the co-change model: ${(err as Error).message}`),
      );
    }, 500);
    this.headTimer.unref?.();
  }

  /** Content of a file at a git revision ('' when it did not exist). */
  async fileAtRevision(ref: string, path: string): Promise<string> {
    const r = await runGit(['show', `${ref}:${path}`], { cwd: this.root, timeoutMs: 10000 });
    return r.ok ? r.stdout : '';
  }

  onDispose(fn: () => void): void {
    this.disposables.push(fn);
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.backgroundAbort.abort();
    clearTimeout(this.fileTimer);
    clearTimeout(this.headTimer);
    for (const d of this.disposables.splice(0).reverse()) {
      try {
        d();
      } catch (err) {
        this.logger.warn(`Error while shutting down: ${(err as Error).message}`);
      }
    }
    this.store.dispose();
  }

  // --- internals ---

  private normalizeQuery(q: ProactiveQuery): ProactiveQuery {
    if (!q.currentFile) return q;
    const rel = q.currentFile.replace(/\\/g, '/').replace(/^\.\//, '');
    return { ...q, currentFile: rel };
  }

  /** Refreshes everything in the foreground (CLI, MCP start-up) and says what was done. */
  async refreshAll(signal?: AbortSignal): Promise<{ sources: { name: string; entries: number; files: number }[]; sourcesMs: number; index: BuildStats; history: MineResult }> {
    const t0 = performance.now();
    const sources = await this.refreshSources(signal);
    const sourcesMs = performance.now() - t0;
    const index = await this.buildIndex(signal);
    const history = await this.mineHistory(signal);
    return { sources, sourcesMs, index, history };
  }

  /** Files related to this one (co-change, imports, tests), strongest first. */
  relatedFiles(path: string, limit = 10): RelatedFile[] {
    return this.history.related(path, limit);
  }

  historyStats(): { commits: number; lastMined?: string } {
    return this.safe<{ commits: number; lastMined?: string }>(() => ({ commits: this.cochange.commitCount, lastMined: this.cochange.lastMined }), { commits: 0 });
  }

  private async mineHistory(signal?: AbortSignal): Promise<MineResult> {
    const r = await this.cochange.update(signal);
    if (r.mode === 'incremental' || r.mode === 'rebuild') this.history.invalidate();
    await this.history.refreshWorkingTree(signal);
    return r;
  }

  private async runBackground(): Promise<void> {
    const signal = this.backgroundAbort.signal;
    // History comes from git, not from the index: mined meanwhile, recent changes need not wait for the index.
    const mined = this.mineHistory(signal).then(
      () => this.dataEmitter.fire([]),
      (err) => this.logger.warn(`Could not mine git history: ${(err as Error).message}`),
    );
    await this.refreshSources(signal);
    this.dataEmitter.fire([]);
    if (!signal.aborted) {
      await this.buildIndex(signal);
      this.dataEmitter.fire([]);
    }
    await mined;
  }

  private async refreshSources(signal?: AbortSignal): Promise<{ name: string; entries: number; files: number }[]> {
    const out: { name: string; entries: number; files: number }[] = [];
    for (const s of this.signalSources) {
      try {
        const stats = await s.refresh(signal);
        out.push({ name: s.name, entries: stats.entries, files: stats.files });
        this.logger.info(`${s.name}: ${stats.entries} entries from ${stats.files} files in ${stats.ms.toFixed(0)} ms`);
      } catch (err) {
        this.logger.warn(`Could not read ${s.name}: ${(err as Error).message}`);
      }
    }
    return out;
  }

  private async buildIndex(signal?: AbortSignal, onProgress?: (done: number, total: number) => void): Promise<BuildStats> {
    this.progress = { done: 0, total: 0 };
    this.indexingEmitter.fire(this.progress);
    let lastFire = 0;
    try {
      const stats = await this.index.build({
        signal,
        onProgress: (p) => {
          this.progress = { done: p.done, total: p.total };
          onProgress?.(p.done, p.total);
          const now = Date.now();
          if (now - lastFire > 200 || p.done === p.total) {
            lastFire = now;
            this.indexingEmitter.fire(this.progress);
          }
        },
      });
      this.logger.info(`Indexed ${stats.files} files (${stats.parsed} parsed, ${stats.symbols} definitions) in ${stats.ms.toFixed(0)} ms${stats.capped ? `; capped by ${stats.capped.reason} at ${stats.capped.limit}` : ''}`);
      return stats;
    } finally {
      this.progress = undefined;
      // The history sources may have listed the files while the index was still filling up.
      this.history.invalidate();
      this.indexingEmitter.fire(undefined);
    }
  }

  private async applyFileChanges(): Promise<void> {
    const batch = [...this.pendingFiles];
    this.pendingFiles.clear();
    let sourcesChanged = false;
    for (const [path, deleted] of batch) {
      if (this.disposed) return;
      try {
        if (deleted) this.index.removeFile(path);
        else await this.index.updateFile(path);
      } catch (err) {
        this.logger.debug(`Could not re-index ${path}: ${(err as Error).message}`);
      }
      if (/\.(md|markdown|xml|json|tap)$/i.test(path) || path.endsWith('.adr-dir')) sourcesChanged = true;
    }
    // Asked between the change and now, the history sources may have read the old list of files.
    for (const [path] of batch) this.history.invalidate(path);
    if (sourcesChanged) await this.refreshSources();
    this.dataEmitter.fire(batch.map(([p]) => p));
  }

  private indexSource(): SuggestionSource {
    return {
      name: 'code index',
      kinds: ['related_code', 'warning'],
      collect: async (ctx) => {
        const file = ctx.query.currentFile;
        if (!file) return [];
        const items: SuggestionItem[] = [];
        const symbol = ctx.symbolRange?.name ?? ctx.query.currentSymbol;
        if (symbol && ctx.config.enabledKinds.related_code) {
          for (const c of this.index.callers({ name: symbol, path: file, line: ctx.symbolRange?.startLine ?? ctx.query.cursorPosition?.line }, 30)) {
            const where = `${c.path}:${c.line}`;
            // Calls outside any named function: in a test file they sit in test callbacks.
            const by = c.enclosing ?? (isTestFile(c.path) ? 'test code' : 'top-level code');
            items.push({
              type: 'related_code' as const,
              title: `${by} — ${where}`,
              summary: `${by} in ${c.path} calls ${symbol} at line ${c.line}.`,
              relevanceScore: c.confidence === 'resolved' ? 0.85 : c.confidence === 'likely' ? 0.65 : 0.4,
              reason: c.confidence === 'resolved' ? `calls ${symbol} (resolved through imports)` : c.confidence === 'likely' ? `probably calls ${symbol} (method of a class in scope)` : `calls something named ${symbol}`,
              location: { path: c.path, line: c.line },
              entityId: `caller:${c.path}:${c.enclosing ?? c.line}:${symbol}`,
              meta: { confidence: c.confidence, enclosing: by },
            });
          }
        }
        if (ctx.config.enabledKinds.warning) {
          for (const d of this.index.deprecatedUsedIn(file)) {
            items.push({
              type: 'warning' as const,
              title: `Deprecated: ${d.name} used at line ${d.line}`,
              summary: `${d.name} is marked @deprecated in ${d.definition.path}:${d.definition.line}; it is called here${d.enclosing ? ` in ${d.enclosing}` : ''}.`,
              relevanceScore: 0.8,
              reason: `${d.name} is deprecated (${d.definition.path}:${d.definition.line})`,
              location: { path: file, line: d.line },
              entityId: `deprecated:${file}:${d.line}`,
              meta: { deprecated: d.name, definition: `${d.definition.path}:${d.definition.line}` },
            });
          }
        }
        return items;
      },
    };
  }

  /** Plain term-overlap search over decision records, for memory subscriptions. */
  searchDecisions(query: string, limit: number): { title: string; path: string; snippet: string }[] {
    const terms = (query.toLowerCase().match(/[\p{L}\p{N}_]{3,}/gu) ?? []).slice(0, 20);
    if (terms.length === 0) return [];
    return this.decisions
      .list()
      .map((d) => {
        const title = d.title.toLowerCase();
        const body = d.body.toLowerCase();
        const score = terms.reduce((n, t) => n + (title.includes(t) ? 3 : 0) + (body.includes(t) ? 1 : 0), 0);
        return { d, score };
      })
      .filter((x) => x.score > 0)
      .sort((a, b) => b.score - a.score)
      .slice(0, limit)
      .map(({ d }) => ({ title: `ADR ${d.label}: ${d.title} (${d.status})`, path: d.path, snippet: d.body.replace(/\s+/g, ' ').slice(0, 400) }));
  }

  private locateSymbol(path: string, name: string): { path: string; startLine: number; endLine: number } | undefined {
    const defs: IndexedSymbol[] = this.safe(() => this.index.definitions(name), []);
    const d = defs.find((s) => !path || s.path === path) ?? (path ? undefined : defs[0]);
    return d ? { path: d.path, startLine: d.startLine, endLine: d.endLine } : undefined;
  }

  private safe<T>(fn: () => T, fallback: T): T {
    try {
      return fn();
    } catch (err) {
      this.logger.debug(`Index query failed: ${(err as Error).message}`);
      return fallback;
    }
  }
}
