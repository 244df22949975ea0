import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { CoreConfig } from '../config';
import { openEngine, type EngineParts } from '../engine';
import { checkRevision } from '../git/revisions';
import { exportSnapshot, type ExportResult } from '../snapshot/exportSnapshot';
import type { RefreshSummary } from '../indexer';
import type { Episode, MemoryHit, ProposedDecision, TextModel } from '../memory/memoryStore';
import type { SuggestionSource } from '../sources/sourceQuery';
import type { NewDecision } from '../sources/decisions/adrWriter';
import type { StoreNotice } from '../store/store';
import type { MaterializedSubscription } from '../subscriptions/materializer';
import type { SubscribeRequest, Subscription } from '../subscriptions/registry';
import { checkWorkspaceFile } from '../subscriptions/workspacePaths';
import { withTimeout } from '../timeout';
import type { ContextSuggestion, ProactiveQuery } from '../types';
import type { FiredWatch } from '../watches/watchService';
import type { Watch, WatchInput } from '../watches/watchStore';
import { Subscribing, UnknownSubscriptionError } from './service/subscribing';
import { Watching } from './service/watching';
import { buildChatContext } from './service/chatContext';
import { anchorsOf, decisionSearch, FailureLocator, lineCommitsOf, lineHistoryFrom } from './service/editorSupport';
import { ContextError } from './errors';
import { fileIsFolder, fileNotYetCreated, noSuchFileToSuggest } from './messages';
import type {
  ChatContext,
  ChatContextRequest,
  DecisionAnchor,
  DecisionRecord,
  DecisionSearch,
  Disposable,
  FailingTest,
  FeedbackAction,
  IndexingProgress,
  LineCommit,
  OpenOptions,
  Place,
  SubscribeOutcome,
  SuggestOptions,
  SymbolSpan,
  WhyCard,
} from './types';

const MAX_READ_BYTES = 4 * 1024 * 1024;
const WHY_GIT_TIMEOUT_MS = 5000;

export { UnknownSubscriptionError };

/**
 * The core's front door: the product's use cases for one workspace root. The extension, the MCP
 * server and the CLI reach the engine only through this class, so each use case is written once.
 */
export class ContextService {
  private readonly disposables: (() => void)[] = [];
  private disposed = false;
  private readonly watching: Watching;
  private readonly subscribing: Subscribing;
  private passes = 0;
  private readonly failures: FailureLocator;

  private constructor(private readonly parts: EngineParts) {
    this.watching = new Watching(parts);
    this.subscribing = new Subscribing(parts);
    this.failures = new FailureLocator(parts);
  }

  /** Opens the workspace's state and wires the engine; heavy work starts only when asked. */
  static async open(options: OpenOptions): Promise<ContextService> {
    return new ContextService(await openEngine(options));
  }

  get root(): string {
    return this.parts.root;
  }

  get stateDir(): string {
    return this.parts.stateDir;
  }

  get config(): CoreConfig {
    return this.parts.config();
  }

  setConfig(partial: Partial<CoreConfig>): void {
    this.parts.setConfig(partial);
  }

  /** Whether git may run for this root (false for a folder opened with `noGit`, until `allowGit`). */
  get gitAllowed(): boolean {
    return this.parts.gitAccess.allowed;
  }

  /**
   * Lets git run from now on (the user trusted the folder): history is mined, and recent changes,
   * co-change, line history and watches switch on without opening the service again.
   */
  allowGit(): void {
    this.parts.gitAccess.allow();
  }

  /** Things the store had to do on opening (a damaged file moved aside, data restored) that the user should hear of once. */
  get notices(): readonly StoreNotice[] {
    return this.parts.store.notices;
  }

  // --- knowing the workspace ---

  /** Reads decisions, reports and docs, then indexes code and mines history, in the background (once). */
  startBackgroundWork(): Promise<void> {
    return this.parts.indexer.startBackgroundWork();
  }

  /** Refreshes everything in the foreground and says what was done (CLI, measurements). */
  refreshAll(signal?: AbortSignal): Promise<RefreshSummary> {
    return this.parts.indexer.refreshAll(signal);
  }

  /** Writes a team index snapshot of the index at HEAD to `file` (call after refreshAll). */
  exportSnapshot(file: string, productVersion: string): Promise<ExportResult> {
    return exportSnapshot(this.parts, file, productVersion);
  }

  rebuildIndex(
    options: { signal?: AbortSignal; onProgress?: (done: number, total: number) => void } = {},
  ): ReturnType<EngineParts['indexer']['rebuildIndex']> {
    return this.parts.indexer.rebuildIndex(options);
  }

  /** A file of the root changed on disk (root-relative path): re-indexed, and told to every watch. */
  fileChanged(path: string, deleted = false): void {
    this.parts.indexer.fileChanged(path, deleted);
    this.watching.fileChanged(path, deleted);
  }

  /** Where the user is in the editor, told to every process's watches (an agent's in a terminal too). */
  activity(place: Place): void {
    this.watching.activity({ path: place.file, line: place.line, symbol: place.symbol?.name ?? place.symbolName });
  }

  get indexingProgress(): IndexingProgress | undefined {
    return this.parts.indexer.indexingProgress;
  }

  onDidChangeIndexing(listener: (p: IndexingProgress | undefined) => void): Disposable {
    return this.parts.indexer.onDidChangeIndexing(listener);
  }

  /** Fires with root-relative paths when what the engine knows changed (suggestions may differ). */
  onDidChangeWorkspaceData(listener: (paths: string[]) => void): Disposable {
    return this.parts.indexer.onDidChangeData(listener);
  }

  /** Store and index statistics, for `index`. */
  storeStats(): ReturnType<EngineParts['store']['stats']> {
    return this.parts.store.stats();
  }

  /** Writes pending store changes to disk now. */
  flush(): void {
    this.parts.store.flush();
  }

  /** How many first-parent commits the co-change model has learned from. */
  historyStats(): { commits: number; lastMined?: string } {
    try {
      return { commits: this.parts.cochange.commitCount, lastMined: this.parts.cochange.lastMined };
    } catch {
      return { commits: 0 };
    }
  }

  // --- where the user is, and what matters there ---

  /** The definition around a line, from the code index (undefined until indexed). */
  symbolAt(file: string, line: number): SymbolSpan | undefined {
    return this.parts.symbolAt(file, line);
  }

  /**
   * A workspace-relative path for what a user or agent typed (relative, absolute inside the root,
   * `./x`); refuses paths outside the root and secrets with a clear error.
   */
  resolvePath(input: string): string {
    return checkWorkspaceFile(this.parts.root, input);
  }

  /**
   * The ranked context for a place, at once: every source except the slow ones (language servers,
   * line history), which `enrich` adds afterwards without asking the others again.
   */
  async suggestAt(place: Place, options: SuggestOptions = {}): Promise<ContextSuggestion> {
    this.passes++;
    return this.parts.provider.suggest(queryOf(place), {
      signal: options.signal,
      trigger: options.trigger,
      record: options.record,
      symbolRange: place.symbol,
    });
  }

  /**
   * Suggestions for a path typed by an agent or a script: checked to be a workspace file (a file
   * not created yet is answered with a note), decisions re-read first so a record just written counts.
   */
  async suggestForInput(
    input: { file?: string; line?: number; symbol?: string },
    options: SuggestOptions = {},
  ): Promise<ContextSuggestion> {
    let file: string | undefined;
    let missing = false;
    if (input.file !== undefined) {
      file = this.resolvePath(input.file);
      const st = statSync(join(this.parts.root, file), { throwIfNoEntry: false });
      if (st?.isDirectory()) throw new ContextError('invalid', fileIsFolder(file));
      missing = st === undefined;
    }
    await this.refreshDecisions();
    this.passes++;
    const query: ProactiveQuery = {
      currentFile: file,
      cursorPosition: input.line ? { line: input.line, column: 1 } : undefined,
      currentSymbol: input.symbol,
    };
    const suggestion = await this.parts.provider.suggest(query, {
      signal: options.signal,
      trigger: options.trigger ?? 'manual',
      record: options.record,
    });
    return missing && file
      ? { ...suggestion, notes: [fileNotYetCreated(file), ...(suggestion.notes ?? [])] }
      : suggestion;
  }

  /**
   * "What matters for this path", for the surfaces that answer once (the CLI, MCP and the
   * language-model tool): a file that does not exist is refused with the same message on each, then
   * the answer comes with what the slow sources add.
   */
  async suggestForPath(
    input: { file?: string; line?: number; symbol?: string },
    options: SuggestOptions = {},
  ): Promise<ContextSuggestion> {
    if (input.file !== undefined) {
      const file = this.resolvePath(input.file);
      if (!statSync(join(this.parts.root, file), { throwIfNoEntry: false }))
        throw new ContextError('not_found', noSuchFileToSuggest(file));
      input = { ...input, file };
    }
    return this.complete(await this.suggestForInput(input, options), options);
  }

  /** True when there are slow sources that `enrich` would add. */
  get hasEnrichment(): boolean {
    return this.parts.provider.hasSlowSources;
  }

  /** The first answer with what the slow sources add, re-ranked; undefined when they add nothing. */
  enrich(
    suggestion: ContextSuggestion,
    options: { signal?: AbortSignal } = {},
  ): Promise<ContextSuggestion | undefined> {
    return this.parts.provider.enrich(suggestion, options);
  }

  /**
   * For surfaces that answer once (chat, tools, CLI, MCP): the answer with what the slow sources add,
   * or the answer itself when they add nothing or fail. A cancelled signal still rejects.
   */
  async complete(suggestion: ContextSuggestion, options: { signal?: AbortSignal } = {}): Promise<ContextSuggestion> {
    try {
      return (await this.enrich(suggestion, options)) ?? suggestion;
    } catch (err) {
      if (options.signal?.aborted) throw err;
      this.parts.logger.debug(`Enrichment failed: ${(err as Error).message}`);
      return suggestion;
    }
  }

  /** A source from the adapter (the editor's language servers); it runs as an enrichment. */
  addEnrichmentSource(source: Omit<SuggestionSource, 'slow'>): Disposable {
    return this.parts.provider.addSource({ ...source, slow: true });
  }

  /**
   * Why the code at a place is the way it is: governing decisions, its history and its callers.
   * `suggestion`: an answer already computed for this place (the panel's), reused instead of a new
   * pass; the line history then comes from it too when it lists the symbol's own commits.
   */
  async explainWhy(
    place: Place,
    options: { signal?: AbortSignal; suggestion?: ContextSuggestion } = {},
  ): Promise<WhyCard> {
    const span = place.symbol ?? (place.line !== undefined ? this.symbolAt(place.file, place.line) : undefined);
    const name = span?.name ?? place.symbolName;
    const given = options.suggestion?.query.currentFile === place.file ? options.suggestion : undefined;
    const suggestion =
      given ??
      (await this.suggestAt(
        { ...place, symbol: span, symbolName: name },
        { signal: options.signal, trigger: 'manual' },
      ));
    // The panel's enriched answer already holds the lines' commits when it is about this definition.
    const known = span ? lineHistoryFrom(suggestion, place.file, span) : [];
    const lineHistory =
      span && !known?.length ? await this.lineHistoryOf(place.file, span, options.signal) : (known ?? []);
    const callers = name
      ? this.safe(
          () => this.parts.index.callers({ name, path: place.file, line: span?.startLine ?? place.line }, 500).length,
          0,
        )
      : 0;
    return {
      target: name ? `${name} (${place.file})` : place.file,
      symbol: span,
      decisions: suggestion.items.filter((i) => i.type === 'decision'),
      changes: suggestion.items.filter((i) => i.type === 'change'),
      lineHistory,
      callers,
      notes: suggestion.notes ?? [],
    };
  }

  /**
   * The commits that changed a definition's lines: from the history index and one bounded diff
   * (cached per file, range and HEAD), or from git while history is not mined yet.
   */
  private async lineHistoryOf(file: string, span: SymbolSpan, signal?: AbortSignal): Promise<LineCommit[]> {
    if (!this.gitAllowed) return [];
    if (!this.parts.cochange.lastMined) {
      const options = { signal, timeoutMs: WHY_GIT_TIMEOUT_MS, maxCount: 10 };
      return withTimeout(this.parts.git.lineHistory(file, span.startLine, span.endLine, options), WHY_GIT_TIMEOUT_MS, {
        what: 'Line history',
        signal,
      }).catch(() => []);
    }
    const ctx = {
      query: { currentFile: file, currentSymbol: span.name },
      symbolRange: span,
      config: this.parts.config(),
      now: this.parts.clock(),
      signal: signal ?? new AbortController().signal,
      note: () => undefined,
    };
    const items = await this.parts.history
      .lineHistorySource()
      .collect(ctx)
      .catch(() => []);
    return lineCommitsOf(items, file, span);
  }

  /** How many suggestion passes this service ran (the panel's, chat's, tools', explanations'). */
  get suggestionPasses(): number {
    return this.passes;
  }

  // --- the editor's own surfaces: answered from what the sources hold, no suggestion pass ---

  /** The decision records that govern each definition of a workspace file (root-relative path). */
  decisionAnchors(file: string): DecisionAnchor[] {
    return anchorsOf(this.parts, file);
  }

  /** Where decision records were looked for and how many were found, for an empty Decisions section. */
  decisionSearch(): DecisionSearch {
    return decisionSearch(this.parts);
  }

  /** The failing tests of the last report run, at their test line and the source lines their stacks pass through. */
  failingTests(): FailingTest[] {
    return this.failures.current();
  }

  /** Records that an item was used or dismissed (dismissed ones stay out for that file). */
  feedback(suggestionId: string, item: string | number, action: FeedbackAction): void {
    if (action === 'used') this.parts.provider.markUsed(suggestionId, item);
    else this.parts.provider.dismiss(suggestionId, item);
  }

  /** Keeps a suggestion made with `record: false` once the user acts on it. */
  keep(suggestion: ContextSuggestion): void {
    this.parts.provider.ensureRecorded(suggestion);
  }

  markShown(suggestionId: string): void {
    this.parts.provider.markShown(suggestionId);
  }

  metrics(): ReturnType<EngineParts['provider']['metrics']> {
    return this.parts.provider.metrics();
  }

  /** Files related to this one (co-change, imports, tests), strongest first. */
  relatedFiles(path: string, limit = 10): ReturnType<EngineParts['history']['related']> {
    return this.parts.history.related(path, limit);
  }

  // --- subscriptions (src/core/api/subscribing.ts) ---

  subscribe(
    request: SubscribeRequest,
    options: { replaceOldest?: boolean; requireFile?: boolean; signal?: AbortSignal } = {},
  ): Promise<SubscribeOutcome> {
    return this.subscribing.subscribe(request, options);
  }

  unsubscribe(id: string): Subscription {
    return this.subscribing.unsubscribe(id);
  }

  unsubscribeAll(): number {
    return this.parts.subscriptions.unsubscribeAll();
  }

  subscriptions(): { list: Subscription[]; max: number } {
    return { list: this.parts.subscriptions.list(), max: this.config.subscriptions.maxActive };
  }

  subscription(id: string): Subscription | undefined {
    return this.parts.subscriptions.get(id);
  }

  readSubscription(id: string, options: { signal?: AbortSignal } = {}): Promise<MaterializedSubscription> {
    return this.subscribing.read(id, options);
  }

  materializeAll(
    options: { record?: boolean; conversationId?: string; signal?: AbortSignal } = {},
  ): Promise<MaterializedSubscription[]> {
    return this.parts.materializer.materialize(options);
  }

  onDidChangeSubscriptions(listener: () => void): Disposable {
    return this.subscribing.onDidChange(listener);
  }

  // --- chat ---

  /** One `@context` turn's prompt and what it holds, by id. */
  chatContext(request: ChatContextRequest): Promise<ChatContext> {
    return buildChatContext(this.parts, request, (place, signal) =>
      this.suggestAt(place, { signal, trigger: 'manual' }),
    );
  }

  // --- memory and decisions ---

  searchMemory(
    query: string,
    options: { excludeConversationId?: string; limit?: number; signal?: AbortSignal } = {},
  ): Promise<MemoryHit[]> {
    return this.parts.memory.search(query, options);
  }

  saveEpisode(episode: { conversationId: string; prompt: string; answer: string }): void {
    this.parts.memory.saveEpisode(episode);
  }

  recentEpisodes(limit = 50): Episode[] {
    return this.parts.memory.recentEpisodes({ limit });
  }

  /** Decisions a model proposes from past conversations; nothing is written until the user picks them. */
  proposeDecisions(
    episodes: readonly Episode[],
    model: TextModel,
    options: { signal?: AbortSignal } = {},
  ): Promise<ProposedDecision[]> {
    return this.parts.memory.consolidate(episodes, model, options);
  }

  /** The decision records of the workspace, re-read first (only changed files are parsed); a decision log lists each of its entries. */
  async decisions(): Promise<DecisionRecord[]> {
    await this.refreshDecisions();
    return this.parts.decisions.listEntries().map((d) => ({
      number: d.number,
      label: d.label,
      title: d.title,
      status: d.status,
      path: d.path,
      ...(d.span ? { line: d.span.line } : {}),
      body: d.body,
    }));
  }

  /** Writes a decision as an ADR file in the repository's own format; returns its root-relative path. */
  recordDecision(decision: NewDecision): Promise<string> {
    return this.parts.decisions.recordDecision(decision);
  }

  // --- files ---

  /** A workspace file's text for an agent: confined to the root, never a secret, at most 4 MiB. */
  readFile(input: string): string {
    const path = this.resolvePath(input);
    const st = statSync(join(this.parts.root, path), { throwIfNoEntry: false });
    if (!st?.isFile()) throw new ContextError('not_found', `${path} does not exist in the workspace.`);
    if (st.size > MAX_READ_BYTES) throw new ContextError('invalid', `${path} is larger than ${MAX_READ_BYTES} bytes.`);
    return readFileSync(join(this.parts.root, path), 'utf8');
  }

  /** Content of a file at a git revision ('' when it did not exist, or while git may not run); a ref that is not a commit id or HEAD is refused. */
  async fileAtRevision(ref: string, path: string): Promise<string> {
    const bad = checkRevision(ref);
    if (bad) throw new ContextError('invalid', bad);
    const rel = this.resolvePath(path);
    if (!this.gitAllowed) return '';
    return this.parts.git.fileAtRevision(ref, rel, { timeoutMs: 10000 });
  }

  // --- watches (src/core/api/watching.ts) ---

  watch(input: WatchInput): { watch: Watch; renewed: boolean } {
    return this.watching.add(input);
  }

  unwatch(id: string): Watch {
    return this.watching.remove(id);
  }

  unwatchAll(): number {
    return this.watching.removeAll();
  }

  watches(): Watch[] {
    return this.watching.list();
  }

  readWatch(id: string): { watch: Watch; latest?: FiredWatch } {
    return this.watching.read(id);
  }

  latestFiring(id: string): FiredWatch | undefined {
    return this.watching.latestFiring(id);
  }

  firingsSince(
    cursor: number,
    options: { watchIds?: readonly string[]; limit?: number } = {},
  ): { firings: FiredWatch[]; cursor: number } {
    return this.watching.firingsSince(cursor, options);
  }

  /** Starts evaluating watches in this process; while git may not run, from when it is allowed. */
  startWatching(): void {
    if (this.gitAllowed) {
      this.watching.start();
      return;
    }
    const started = this.parts.gitAccess.onDidAllow(() => {
      started.dispose();
      if (!this.disposed) this.watching.start();
    });
    this.disposables.push(() => started.dispose());
  }

  onDidFireWatch(listener: (f: FiredWatch) => void): Disposable {
    return this.watching.onDidFire(listener);
  }

  onDidChangeWatches(listener: () => void): Disposable {
    return this.watching.onDidChange(listener);
  }

  // --- lifecycle ---

  onDispose(fn: () => void): void {
    this.disposables.push(fn);
  }

  /** Stops background work and writes what is pending; safe to call twice. */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.watching.dispose();
    for (const d of this.disposables.splice(0).reverse()) {
      try {
        d();
      } catch (err) {
        this.parts.logger.warn(`Error while shutting down: ${(err as Error).message}`);
      }
    }
    this.parts.dispose();
  }

  private async refreshDecisions(): Promise<void> {
    try {
      await this.parts.decisions.refresh();
    } catch (err) {
      this.parts.logger.warn(`Could not re-read decision records: ${(err as Error).message}`);
    }
  }

  private safe<T>(fn: () => T, fallback: T): T {
    try {
      return fn();
    } catch (err) {
      this.parts.logger.debug(`Query failed: ${(err as Error).message}`);
      return fallback;
    }
  }
}

/** The provider's query for a place. */
function queryOf(place: Place): ProactiveQuery {
  const file = place.file.replace(/\\/g, '/').replace(/^\.\//, '');
  return {
    currentFile: file,
    cursorPosition: place.line !== undefined ? { line: place.line, column: place.column ?? 1 } : undefined,
    selection: place.selection,
    currentSymbol: place.symbol?.name ?? place.symbolName,
    recentFiles: place.recentFiles ? [...place.recentFiles] : undefined,
  };
}
