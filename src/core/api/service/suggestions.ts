import { statSync } from 'node:fs';
import { join } from 'node:path';
import type { EngineParts } from '../../engine';
import type { SuggestionSource } from '../../sources/sourceQuery';
import { checkWorkspaceFile } from '../../subscriptions/workspacePaths';
import { withTimeout } from '../../../shared/timeout';
import type { ContextSuggestion, ProactiveQuery } from '../../types';
import { ContextError } from '../errors';
import { fileIsFolder, fileNotYetCreated, noSuchFileToSuggest } from '../messages';
import type {
  Disposable,
  FailingTest,
  FeedbackAction,
  LineCommit,
  Place,
  SuggestOptions,
  SymbolSpan,
  WhyCard,
} from '../types';
import { refreshDecisions } from './decisions';
import { FailureLocator, lineCommitsOf, lineHistoryFrom } from './editorSupport';

const WHY_GIT_TIMEOUT_MS = 5000;

/** What matters at a place: ranked suggestions, their enrichment, explanations and feedback. `service.suggestions`. */
export class SuggestionUseCases {
  readonly #parts: EngineParts;
  readonly #failures: FailureLocator;
  #count = 0;

  constructor(parts: EngineParts) {
    this.#parts = parts;
    this.#failures = new FailureLocator(parts);
  }

  /**
   * The ranked context for a place, at once: every source except the slow ones (language servers,
   * line history), which `enrich` adds afterwards without asking the others again.
   */
  async suggestAt(place: Place, options: SuggestOptions = {}): Promise<ContextSuggestion> {
    this.#count++;
    // On a cold open the index cache is still being opened, a migration per turn: the first pass
    // waits for it rather than finishing it in one step.
    await this.#parts.store.openIndex();
    return this.#parts.provider.suggest(queryOf(place), {
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
      file = checkWorkspaceFile(this.#parts.root, input.file);
      const st = statSync(join(this.#parts.root, file), { throwIfNoEntry: false });
      if (st?.isDirectory()) throw new ContextError('invalid', fileIsFolder(file));
      missing = st === undefined;
    }
    await refreshDecisions(this.#parts);
    this.#count++;
    const query: ProactiveQuery = {
      currentFile: file,
      cursorPosition: input.line ? { line: input.line, column: 1 } : undefined,
      currentSymbol: input.symbol,
    };
    const suggestion = await this.#parts.provider.suggest(query, {
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
      const file = checkWorkspaceFile(this.#parts.root, input.file);
      if (!statSync(join(this.#parts.root, file), { throwIfNoEntry: false }))
        throw new ContextError('not_found', noSuchFileToSuggest(file));
      input = { ...input, file };
    }
    return this.complete(await this.suggestForInput(input, options), options);
  }

  /** True when there are slow sources that `enrich` would add. */
  get hasEnrichment(): boolean {
    return this.#parts.provider.hasSlowSources;
  }

  /** The first answer with what the slow sources add, re-ranked; undefined when they add nothing. */
  enrich(
    suggestion: ContextSuggestion,
    options: { signal?: AbortSignal } = {},
  ): Promise<ContextSuggestion | undefined> {
    return this.#parts.provider.enrich(suggestion, options);
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
      this.#parts.logger.debug(`Enrichment failed: ${(err as Error).message}`);
      return suggestion;
    }
  }

  /** A source from the adapter (the editor's language servers); it runs as an enrichment. */
  addEnrichmentSource(source: Omit<SuggestionSource, 'slow'>): Disposable {
    return this.#parts.provider.addSource({ ...source, slow: true });
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
    const span = place.symbol ?? (place.line !== undefined ? this.#parts.symbolAt(place.file, place.line) : undefined);
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
      span && !known?.length ? await lineHistoryOf(this.#parts, place.file, span, options.signal) : (known ?? []);
    const callers = name
      ? safe(
          this.#parts,
          () => this.#parts.index.callers({ name, path: place.file, line: span?.startLine ?? place.line }, 500).length,
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

  /** How many suggestion passes this service ran (the panel's, chat's, tools', explanations'). */
  get passes(): number {
    return this.#count;
  }

  /** Records that an item was used or dismissed (dismissed ones stay out for that file). */
  feedback(suggestionId: string, item: string | number, action: FeedbackAction): void {
    if (action === 'used') this.#parts.provider.markUsed(suggestionId, item);
    else this.#parts.provider.dismiss(suggestionId, item);
  }

  /** Keeps a suggestion made with `record: false` once the user acts on it. */
  keep(suggestion: ContextSuggestion): void {
    this.#parts.provider.ensureRecorded(suggestion);
  }

  markShown(suggestionId: string): void {
    this.#parts.provider.markShown(suggestionId);
  }

  metrics(): ReturnType<EngineParts['provider']['metrics']> {
    return this.#parts.provider.metrics();
  }

  /** The failing tests of the last report run, at their test line and the source lines their stacks pass through. */
  failingTests(): FailingTest[] {
    return this.#failures.current();
  }
}

/**
 * The commits that changed a definition's lines: from the history index and one bounded diff
 * (cached per file, range and HEAD), or from git while history is not mined yet.
 */
async function lineHistoryOf(
  parts: EngineParts,
  file: string,
  span: SymbolSpan,
  signal?: AbortSignal,
): Promise<LineCommit[]> {
  if (!parts.gitAccess.allowed) return [];
  if (!parts.cochange.lastMined) {
    const options = { signal, timeoutMs: WHY_GIT_TIMEOUT_MS, maxCount: 10 };
    return withTimeout(parts.git.lineHistory(file, span.startLine, span.endLine, options), WHY_GIT_TIMEOUT_MS, {
      what: 'Line history',
      signal,
    }).catch(() => []);
  }
  const ctx = {
    query: { currentFile: file, currentSymbol: span.name },
    symbolRange: span,
    config: parts.config(),
    now: parts.clock(),
    signal: signal ?? new AbortController().signal,
    note: () => undefined,
  };
  const items = await parts.history
    .lineHistorySource()
    .collect(ctx)
    .catch(() => []);
  return lineCommitsOf(items, file, span);
}

function safe<T>(parts: EngineParts, fn: () => T, fallback: T): T {
  try {
    return fn();
  } catch (err) {
    parts.logger.debug(`Query failed: ${(err as Error).message}`);
    return fallback;
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
