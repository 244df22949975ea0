import type { CoreConfig } from '../config';
import { nullLogger, type Logger } from '../logger';
import type { QueryContext, SuggestionSource } from '../sources/sourceQuery';
import type { Store } from '../store/store';
import type { ContextSuggestion, ProactiveQuery, SuggestionItem, SuggestionStatus } from '../types';
import { SUGGESTION_TYPES } from '../types';
import { TimeoutError, withTimeout } from '../../shared/timeout';
import { rank } from './ranking';
import { passesFloor } from './scoring';
import { newId, SuggestionLog, type ProviderMetrics, type SuggestionItemRef } from './suggestionLog';

export type { ProviderMetrics } from './suggestionLog';

/** Port: finds the definition enclosing a line (code index or editor symbols). */
export type SymbolResolver = (
  file: string,
  line: number,
) => { name: string; startLine: number; endLine: number } | undefined;

export class ProviderError extends Error {}

export interface SuggestOptions {
  signal?: AbortSignal;
  trigger?: ContextSuggestion['trigger']['type'];
  /** Store the suggestion for feedback and metrics (default true). */
  record?: boolean;
  /** Per-source time limit (ms). */
  sourceTimeoutMs?: number;
  /** The definition around the cursor when the adapter knows it (editor symbols). */
  symbolRange?: { name: string; startLine: number; endLine: number };
}

/** Suggestions whose candidates are kept for a later enrichment (the panel enriches only its latest). */
const ENRICHABLE = 16;

/** What a first answer was built from, so enriching it adds the slow sources without asking the others again. */
interface Candidates {
  ctx: Omit<QueryContext, 'signal' | 'note'>;
  items: SuggestionItem[];
  notes: string[];
  contextKey: string;
  recorded: boolean;
}

/**
 * Turns a query about the code at the cursor into a ranked, deduplicated ContextSuggestion whose
 * every item says why it is shown; records feedback and re-weights kinds from it.
 */
export class ProactiveContextProvider {
  private readonly lastShown = new Map<string, number>();
  private readonly lastVisit = new Map<string, number>();
  private readonly candidates = new Map<string, Candidates>();
  private readonly log: SuggestionLog;

  constructor(
    store: Store,
    private readonly getConfig: () => CoreConfig,
    private readonly sources: SuggestionSource[],
    private readonly resolveSymbol: SymbolResolver = () => undefined,
    private readonly logger: Logger = nullLogger,
    private readonly clock: () => number = Date.now,
  ) {
    this.log = new SuggestionLog(store, logger);
  }

  async suggest(query: ProactiveQuery, options: SuggestOptions = {}): Promise<ContextSuggestion> {
    const started = performance.now();
    const config = this.getConfig();
    const now = this.clock();
    const notes: string[] = [];
    const signal = options.signal ?? new AbortController().signal;
    const line = query.cursorPosition?.line;
    const symbolRange =
      options.symbolRange ??
      (query.currentFile && line !== undefined ? this.resolveSymbol(query.currentFile, line) : undefined);
    const q: ProactiveQuery = { ...query, currentSymbol: query.currentSymbol ?? symbolRange?.name };
    const ctx: QueryContext = {
      query: q,
      symbolRange,
      config,
      now,
      signal,
      note: (t) => notes.includes(t) || notes.push(t),
    };

    const results = await this.collectAll(
      this.sources.filter((s) => !s.slow),
      ctx,
      options.sourceTimeoutMs,
    );
    if (signal.aborted) throw new ProviderError('Cancelled');

    const contextKey = contextKeyOf(q);
    const raw = results.flat();
    const ranked = this.rankFor(raw, q, contextKey, now, config);
    this.markNew(ranked, contextKey, now, config);

    const latencyMs = Math.round((performance.now() - started) * 100) / 100;
    const suggestion: ContextSuggestion = {
      id: newId('sug'),
      trigger: {
        type: options.trigger ?? (q.currentSymbol ? 'symbol_focus' : q.currentFile ? 'file_change' : 'activity'),
        source: q.currentSymbol ? `${q.currentFile}#${q.currentSymbol}` : (q.currentFile ?? 'session'),
      },
      query: q,
      items: ranked,
      status: 'pending',
      createdAt: now,
      latencyMs,
      notes: notes.length ? notes : undefined,
    };
    const recorded = options.record !== false;
    if (recorded) this.log.record(suggestion, contextKey);
    this.remember(suggestion.id, {
      ctx: { query: q, symbolRange, config, now },
      items: raw,
      notes,
      contextKey,
      recorded,
    });
    return suggestion;
  }

  /** True when some source only runs as an enrichment (`enrich`). */
  get hasSlowSources(): boolean {
    return this.sources.some((s) => s.slow);
  }

  /** Adds a source from the adapter (the editor's language servers). */
  addSource(source: SuggestionSource): { dispose(): void } {
    this.sources.push(source);
    return { dispose: () => void this.sources.splice(this.sources.indexOf(source) >>> 0, 1) };
  }

  /**
   * Runs the slow sources for an answer already given and returns it re-ranked with what they add,
   * under the same id; the other sources are not asked again. Items the user dismissed meanwhile
   * stay out. Undefined when there is nothing to add (no slow source, or the answer is too old).
   */
  async enrich(
    suggestion: ContextSuggestion,
    options: { signal?: AbortSignal; sourceTimeoutMs?: number } = {},
  ): Promise<ContextSuggestion | undefined> {
    const kept = this.candidates.get(suggestion.id);
    const slow = this.sources.filter((s) => s.slow);
    if (!kept || slow.length === 0) return undefined;
    const started = performance.now();
    const signal = options.signal ?? new AbortController().signal;
    const notes = [...kept.notes];
    const ctx: QueryContext = { ...kept.ctx, signal, note: (t) => notes.includes(t) || notes.push(t) };
    const added = (await this.collectAll(slow, ctx, options.sourceTimeoutMs)).flat();
    if (signal.aborted) throw new ProviderError('Cancelled');
    if (added.length === 0 && notes.length === kept.notes.length) return undefined;
    const raw = [...kept.items, ...added];
    const shown = new Set(suggestion.items.map((i) => i.entityId));
    const before = new Set(kept.items.map((i) => i.entityId));
    // Items the first answer had but the user removed since (dismissed) stay removed.
    const ranked = this.rankFor(raw, kept.ctx.query, kept.contextKey, kept.ctx.now, kept.ctx.config).filter(
      (i) => shown.has(i.entityId) || !before.has(i.entityId),
    );
    const flags = new Map(suggestion.items.map((i) => [i.entityId, i.meta?.new]));
    for (const item of ranked)
      if (flags.has(item.entityId)) item.meta = { ...item.meta, new: flags.get(item.entityId) ?? false };
    // What the slow sources add arrives with the answer it enriches: new only as that answer's items were.
    for (const item of ranked) if (!flags.has(item.entityId)) item.meta = { ...item.meta, new: false };
    const enriched: ContextSuggestion = {
      ...suggestion,
      items: ranked,
      latencyMs: Math.round((suggestion.latencyMs + performance.now() - started) * 100) / 100,
      notes: notes.length ? notes : undefined,
    };
    kept.items = raw;
    kept.notes = notes;
    if (kept.recorded) this.log.replaceItems(enriched);
    return enriched;
  }

  /** Stores a suggestion made with `record: false` once the user acts on it (idempotent). */
  ensureRecorded(s: ContextSuggestion): void {
    if (!this.log.has(s.id)) this.log.record(s, contextKeyOf(s.query));
    const kept = this.candidates.get(s.id);
    if (kept) kept.recorded = true;
  }

  /** Marks an item (by entity id or index) as used; stored and fed back into ranking. */
  markUsed(suggestionId: string, item: string | number): SuggestionItemRef {
    return this.feedback(suggestionId, item, 'used');
  }

  /** Dismisses an item: it is held back for that context from now on. */
  dismiss(suggestionId: string, item: string | number): SuggestionItemRef {
    return this.feedback(suggestionId, item, 'dismissed');
  }

  markShown(suggestionId: string): void {
    this.log.markShown(suggestionId);
  }

  getSuggestion(
    suggestionId: string,
  ): { id: string; status: SuggestionStatus; items: SuggestionItemRef[] } | undefined {
    return this.log.get(suggestionId);
  }

  metrics(): ProviderMetrics {
    return this.log.metrics();
  }

  // --- internals ---

  private collectAll(
    sources: readonly SuggestionSource[],
    ctx: QueryContext,
    timeoutMs = 3000,
  ): Promise<SuggestionItem[][]> {
    const enabled = sources.filter((s) => s.kinds.some((k) => ctx.config.enabledKinds[k]));
    return Promise.all(enabled.map((s) => this.collect(s, ctx, timeoutMs)));
  }

  private async collect(source: SuggestionSource, ctx: QueryContext, timeoutMs: number): Promise<SuggestionItem[]> {
    try {
      const items = await withTimeout(source.collect(ctx), timeoutMs, { what: source.name });
      return items.filter((i) => isWellFormed(i, source.name, this.logger));
    } catch (err) {
      if (err instanceof TimeoutError) {
        ctx.note(`${source.name} took longer than ${timeoutMs} ms and was skipped this time`);
        return [];
      }
      this.logger.warn(`Suggestion source ${source.name} failed: ${(err as Error).message}`);
      ctx.note(`${source.name} is unavailable: ${(err as Error).message}`);
      return [];
    }
  }

  /** Ranks raw candidates for a place: enabled kinds only, without what the user dismissed there. */
  private rankFor(
    raw: readonly SuggestionItem[],
    q: ProactiveQuery,
    contextKey: string,
    now: number,
    config: CoreConfig,
  ): SuggestionItem[] {
    const dismissed = this.log.dismissedFor(contextKey);
    const candidates = raw.filter((i) => config.enabledKinds[i.type] && !dismissed.has(i.entityId) && passesFloor(i));
    return rank(candidates, q, now, this.log.feedbackFactors(), config);
  }

  /**
   * Flags as new the items that were not shown for this place within the cooldown, when the place
   * itself was looked at within it (on a first look nothing is "new": everything is), and remembers
   * them as shown now.
   */
  private markNew(items: SuggestionItem[], contextKey: string, now: number, config: CoreConfig): void {
    const lastVisit = this.lastVisit.get(contextKey);
    const revisit = lastVisit !== undefined && now - lastVisit <= config.cooldownMs;
    this.lastVisit.set(contextKey, now);
    if (this.lastVisit.size > 5000) this.lastVisit.delete(this.lastVisit.keys().next().value as string);
    for (const item of items) {
      const key = `${contextKey}\u0000${item.entityId}`;
      const last = this.lastShown.get(key);
      const unseen = last === undefined || now - last > config.cooldownMs;
      item.meta = { ...item.meta, new: revisit && unseen };
      if (unseen) this.lastShown.set(key, now);
    }
    if (this.lastShown.size > 50_000) this.lastShown.delete(this.lastShown.keys().next().value as string);
  }

  private remember(id: string, c: Candidates): void {
    this.candidates.set(id, c);
    while (this.candidates.size > ENRICHABLE) this.candidates.delete(this.candidates.keys().next().value as string);
  }

  private feedback(suggestionId: string, ref: string | number, action: 'used' | 'dismissed'): SuggestionItemRef {
    const found = this.getSuggestion(suggestionId);
    if (!found) throw new ProviderError(`No suggestion with id '${suggestionId}'.`);
    const item =
      typeof ref === 'number' ? found.items.find((i) => i.index === ref) : found.items.find((i) => i.entityId === ref);
    if (!item) {
      throw new ProviderError(
        typeof ref === 'number'
          ? `Suggestion ${suggestionId} has no item ${ref} (it has ${found.items.length}).`
          : `Suggestion ${suggestionId} has no item '${ref}'.`,
      );
    }
    this.log.addFeedback(suggestionId, item, action, this.clock());
    return { ...item, status: action };
  }
}

function contextKeyOf(q: ProactiveQuery): string {
  return q.currentFile ?? '';
}

function isWellFormed(i: SuggestionItem, source: string, logger: Logger): boolean {
  const ok =
    !!i &&
    typeof i.title === 'string' &&
    typeof i.reason === 'string' &&
    !!i.reason &&
    typeof i.entityId === 'string' &&
    !!i.location &&
    typeof i.location.path === 'string' &&
    SUGGESTION_TYPES.includes(i.type);
  if (!ok) logger.debug(`Dropped a malformed item from ${source}`);
  return ok;
}
