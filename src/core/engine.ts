import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { resolveConfig, type CoreConfig } from './config';
import { CoChangeModel } from './cochange/cochangeModel';
import type { GitRunner } from './git/gitExec';
import { GitService } from './git/gitService';
import { GitAccess } from './gitAccess';
import { gitGated } from './sources/git/gitGated';
import { CodeIndex, type IndexedSymbol } from './index/codeIndex';
import { languageOf } from './index/languages';
import { WorkspaceIndexer } from './indexer';
import { nullLogger, type Logger } from './logger';
import { MemoryStore, type DecisionMatch } from './memory/memoryStore';
import { resolveStateDir } from './paths';
import { ProactiveContextProvider } from './provider/provider';
import type { SuggestionSource } from './sources/sourceQuery';
import { CodeIndexSource } from './sources/code/codeIndexSource';
import { DecisionSource } from './sources/decisions/decisionSource';
import { labelName } from './sources/decisions/decisionItems';
import { DocsSource } from './sources/docs/docsSource';
import { HistorySources } from './sources/git/historySources';
import { TestReportSource } from './sources/reports/testReportSource';
import { Store } from './store/store';
import { SubscriptionMaterializer } from './subscriptions/materializer';
import { SubscriptionRegistry } from './subscriptions/registry';
import { seedFromSnapshot, type SnapshotSource } from './snapshot/teamIndex';

export interface EngineOptions {
  root: string;
  stateDir?: string;
  config?: Partial<CoreConfig>;
  logger?: Logger;
  clock?: () => number;
  /** Runs git for the engine's own calls (default: a git process per call); tests count calls with it. */
  gitRunner?: GitRunner;
  /**
   * Opens with git off: no git process starts (not even to find the repository) until
   * `gitAccess.allow()`; the reason is told where history would be. For a folder not trusted yet.
   */
  noGit?: { reason: string };
  /** A team index snapshot to load before the first indexing, which then only catches up from its commit. */
  snapshot?: SnapshotSource;
}

/** The workspace's folder is missing or not a folder. */
export class EngineError extends Error {}

/**
 * One workspace root's parts, wired together: the store, every source, the provider, subscriptions
 * and memory. Only the core's front door (`core/api`), measurements and tests hold this; adapters
 * never see it.
 */
export interface EngineParts {
  readonly root: string;
  readonly stateDir: string;
  readonly store: Store;
  readonly logger: Logger;
  readonly clock: () => number;
  config(): CoreConfig;
  setConfig(partial: Partial<CoreConfig>): void;
  readonly index: CodeIndex;
  readonly decisions: DecisionSource;
  readonly reports: TestReportSource;
  readonly docs: DocsSource;
  readonly git: GitService;
  /** Whether git may run; history, co-change and line history switch on when it is allowed. */
  readonly gitAccess: GitAccess;
  readonly cochange: CoChangeModel;
  readonly history: HistorySources;
  readonly provider: ProactiveContextProvider;
  readonly subscriptions: SubscriptionRegistry;
  readonly materializer: SubscriptionMaterializer;
  readonly memory: MemoryStore;
  readonly indexer: WorkspaceIndexer;
  /** The definition enclosing a line, from the code index. */
  symbolAt(file: string, line: number): { name: string; startLine: number; endLine: number } | undefined;
  /** Stops background work and writes what is pending. */
  dispose(): void;
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

/** Opens the store of a workspace root and wires every part of the engine around it. */
export async function openEngine(options: EngineOptions): Promise<EngineParts> {
  const root = resolve(options.root);
  if (!existsSync(root) || !statSync(root).isDirectory()) throw new EngineError(`${root} is not a folder`);
  const logger = options.logger ?? nullLogger;
  const stateDir = resolveStateDir(root, options.stateDir);
  const store = await Store.open({ stateDir, logger });
  const gitAccess = new GitAccess(options.noGit?.reason);
  return wireEngine(
    root,
    stateDir,
    store,
    resolveConfig(options.config),
    logger,
    options.clock ?? Date.now,
    gitAccess,
    options.gitRunner,
    options.snapshot,
  );
}

// eslint-disable-next-line max-lines-per-function -- the composition root: one statement per part it wires
function wireEngine(
  root: string,
  stateDir: string,
  store: Store,
  initial: CoreConfig,
  logger: Logger,
  clock: () => number,
  gitAccess: GitAccess,
  gitRunner?: GitRunner,
  teamIndex?: SnapshotSource,
): EngineParts {
  let snapshot = initial;
  const cfg = live(() => snapshot);
  const safe = <T>(fn: () => T, fallback: T): T => {
    try {
      return fn();
    } catch (err) {
      logger.debug(`Index query failed: ${(err as Error).message}`);
      return fallback;
    }
  };
  const gitAllowed = () => gitAccess.allowed;
  const index = new CodeIndex(store, root, cfg, logger, gitAllowed);
  const importsOf = (file: string) => safe(() => index.importsOf(file), []);
  const definitionFiles = (name: string) => safe(() => index.definitionFileCount(name), 0);
  const ctx = { root, store, config: cfg, logger, now: clock, importsOf, definitionFiles, gitAllowed };
  const decisions = new DecisionSource(ctx);
  // Ruby and PHP files link decision records by their text, as before they were indexed: with the index's
  // names (Ruby's bare DSL words such as `field` and `has_many` among them) the labelled Rails and Symfony
  // repositories linked worse.
  const textOnly = (path: string) => {
    const lang = languageOf(path);
    return lang === 'ruby' || lang === 'php';
  };
  decisions.setCodeVocabulary({
    vocabularyOf: (path) => (textOnly(path) ? undefined : index.vocabularyOf(path)),
    vocabularyByFile: () => index.vocabularyByFile(textOnly),
    reads: (path) => languageOf(path) !== undefined,
    definitionsIn: (path) => index.symbolsIn(path),
  });
  const reports = new TestReportSource(ctx);
  const docs = new DocsSource({ ...ctx, isDecisionRecord: (path) => decisions.isRecord(path) });
  const git = new GitService(root, { logger, run: gitRunner });
  const cochange = new CoChangeModel({
    root,
    store,
    logger,
    git,
    lineCountDays: () => snapshot.recentChangeDays,
    now: clock,
  });
  decisions.setLastCommit(
    (path) => cochange.history.recent(path, 1)[0]?.date,
    // Outside a repository the file's time is all there is; inside, history says once it is read.
    () => cochange.repoState !== undefined && (!cochange.repoState.ok || cochange.lastMined !== undefined),
  );
  const graph = { importsOf, importersOf: (file: string) => safe(() => index.importersOf(file), []) };
  const history = new HistorySources(root, git, cochange, graph, () => safe(() => index.workspaceFiles(), []), clock);
  const symbolAt = (file: string, line: number) => {
    const s = safe(() => index.symbolAt(file, line), undefined);
    return s ? { name: s.name, startLine: s.startLine, endLine: s.endLine } : undefined;
  };
  const sources: SuggestionSource[] = [
    decisions,
    reports,
    docs,
    new CodeIndexSource(index),
    gitGated(history.changeSource(), gitAccess),
    gitGated(history.cochangeSource(), gitAccess),
    gitGated(history.lineHistorySource(), gitAccess),
  ];
  const provider = new ProactiveContextProvider(store, () => snapshot, sources, symbolAt, logger, clock);
  const subscriptions = new SubscriptionRegistry(store, {
    root,
    config: live(() => snapshot.subscriptions),
    now: clock,
    logger,
  });
  const memory = new MemoryStore(store, {
    now: clock,
    logger,
    decisions: { search: (q: string, limit: number) => searchDecisions(decisions, q, limit) },
  });
  const materializer = new SubscriptionMaterializer(subscriptions, {
    config: live(() => snapshot.subscriptions),
    memory,
    symbols: {
      locate: async (path: string, name: string) =>
        locateSymbol(
          safe(() => index.definitions(name), []),
          path,
        ),
    },
    logger,
  });
  const indexer = new WorkspaceIndexer({
    root,
    store,
    index,
    workspaceSources: [decisions, reports, docs],
    decisions,
    cochange,
    history,
    git: gitAccess,
    logger,
    seed:
      teamIndex &&
      ((signal, onProgress) =>
        seedFromSnapshot(
          { root, stateDir, store, cochange, logger, gitAllowed, history },
          teamIndex,
          signal,
          onProgress,
        )),
  });
  return {
    root,
    stateDir,
    store,
    logger,
    clock,
    config: () => snapshot,
    setConfig: (partial) => {
      snapshot = resolveConfig(partial);
    },
    index,
    decisions,
    reports,
    docs,
    git,
    gitAccess,
    cochange,
    history,
    provider,
    subscriptions,
    materializer,
    memory,
    indexer,
    symbolAt,
    dispose: () => {
      decisions.dispose();
      indexer.dispose();
      index.dispose();
      store.dispose();
    },
  };
}

/** Decision records matching free text (the decisions source's own text model), for memory subscriptions. */
export function searchDecisions(decisions: DecisionSource, query: string, limit: number): DecisionMatch[] {
  return decisions.search(query, limit).map((d) => ({
    title: d.number !== undefined ? `${labelName(d.label)}: ${d.title} (${d.status})` : `ADR: ${d.title} (${d.status})`,
    path: d.path,
    ...(d.span ? { line: d.span.line } : {}),
    snippet: d.body.replace(/\s+/g, ' ').slice(0, 400),
  }));
}

function locateSymbol(
  defs: IndexedSymbol[],
  path: string,
): { path: string; startLine: number; endLine: number } | undefined {
  const d = defs.find((s) => !path || s.path === path) ?? (path ? undefined : defs[0]);
  return d ? { path: d.path, startLine: d.startLine, endLine: d.endLine } : undefined;
}
