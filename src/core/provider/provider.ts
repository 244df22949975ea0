import { randomBytes } from 'node:crypto';
import type { CoreConfig } from '../config';
import { nullLogger, type Logger } from '../logger';
import type { QueryContext, SuggestionSource } from '../sources/sourceQuery';
import type { Store } from '../store/store';
import { all, one } from '../store/sqlite';
import type { ContextSuggestion, ProactiveQuery, SuggestionItem, SuggestionStatus, SuggestionType } from '../types';
import { SUGGESTION_TYPES } from '../types';
import { percentile, round as roundTo } from '../../shared/text';
import { TimeoutError, withTimeout } from '../../shared/timeout';
import { mergeReasons } from '../../shared/presentation';
import { feedbackFactor, isTimeless, passesFloor, perKindCap, scoreItem } from './scoring';

/** Port: finds the definition enclosing a line (code index or editor symbols). */
export type SymbolResolver = (
  file: string,
  line: number,
) => { name: string; startLine: number; endLine: number } | undefined;

export interface ProviderMetrics {
  count: number;
  usedRate: number;
  dismissedRate: number;
  latencyMs: { p50: number; p95: number };
  typeDistribution: Record<SuggestionType, { shown: number; used: number; dismissed: number }>;
  scoreVersusUse: { bucket: string; shown: number; used: number; usedRate: number }[];
}

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

const SUGGESTION_HISTORY = 2000;
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

  constructor(
    private readonly store: Store,
    private readonly getConfig: () => CoreConfig,
    private readonly sources: SuggestionSource[],
    private readonly resolveSymbol: SymbolResolver = () => undefined,
    private readonly logger: Logger = nullLogger,
    private readonly clock: () => number = Date.now,
  ) {}

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
    if (recorded) this.record(suggestion, contextKey);
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
    if (kept.recorded) this.replaceItems(enriched);
    return enriched;
  }

  /** Stores a suggestion made with `record: false` once the user acts on it (idempotent). */
  ensureRecorded(s: ContextSuggestion): void {
    const known = this.store.read((db) => one(db, 'SELECT id FROM suggestions WHERE id = ?', [s.id]));
    if (!known) this.record(s, contextKeyOf(s.query));
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
    this.store.write((db) =>
      db.run("UPDATE suggestions SET status = 'shown' WHERE id = ? AND status = 'pending'", [suggestionId]),
    );
  }

  getSuggestion(
    suggestionId: string,
  ): { id: string; status: SuggestionStatus; items: SuggestionItemRef[] } | undefined {
    return this.store.read((db) => {
      const row = one<{ id: string; status: SuggestionStatus }>(db, 'SELECT id, status FROM suggestions WHERE id = ?', [
        suggestionId,
      ]);
      if (!row) return undefined;
      const items = all<SuggestionItemRef>(
        db,
        'SELECT idx AS "index", type, entity_id AS entityId, title, score, status FROM suggestion_items WHERE suggestion_id = ? ORDER BY idx',
        [suggestionId],
      );
      return { ...row, items };
    });
  }

  metrics(): ProviderMetrics {
    return this.store.read((db) => {
      const count = Number(one<{ n: number }>(db, 'SELECT count(*) AS n FROM suggestions')?.n ?? 0);
      const used = Number(
        one<{ n: number }>(db, "SELECT count(*) AS n FROM suggestions WHERE status = 'used'")?.n ?? 0,
      );
      const dismissed = Number(
        one<{ n: number }>(db, "SELECT count(*) AS n FROM suggestions WHERE status = 'dismissed'")?.n ?? 0,
      );
      const lat = all<{ l: number }>(
        db,
        'SELECT latency_ms AS l FROM suggestions ORDER BY created_at DESC LIMIT 1000',
      ).map((r) => Number(r.l));
      const typeDistribution = Object.fromEntries(
        SUGGESTION_TYPES.map((t) => [t, { shown: 0, used: 0, dismissed: 0 }]),
      ) as ProviderMetrics['typeDistribution'];
      for (const r of all<{ type: SuggestionType; status: string; n: number }>(
        db,
        'SELECT type, status, count(*) AS n FROM suggestion_items GROUP BY type, status',
      )) {
        const d = typeDistribution[r.type];
        if (!d) continue;
        d.shown += Number(r.n);
        if (r.status === 'used') d.used += Number(r.n);
        if (r.status === 'dismissed') d.dismissed += Number(r.n);
      }
      const buckets = [0, 0.2, 0.4, 0.6, 0.8];
      const scoreVersusUse = buckets.map((lo) => {
        const hi = lo + 0.2;
        const row = one<{ shown: number; used: number }>(
          db,
          "SELECT count(*) AS shown, sum(CASE WHEN status = 'used' THEN 1 ELSE 0 END) AS used FROM suggestion_items WHERE score >= ? AND score < ?",
          [lo, hi === 1 ? 1.0001 : hi],
        );
        const shown = Number(row?.shown ?? 0);
        const u = Number(row?.used ?? 0);
        return {
          bucket: `${lo.toFixed(1)}–${Math.min(1, hi).toFixed(1)}`,
          shown,
          used: u,
          usedRate: shown ? u / shown : 0,
        };
      });
      return {
        count,
        usedRate: count ? used / count : 0,
        dismissedRate: count ? dismissed / count : 0,
        latencyMs: { p50: percentile(lat, 50), p95: percentile(lat, 95) },
        typeDistribution,
        scoreVersusUse,
      };
    });
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
    const dismissed = this.dismissedFor(contextKey);
    const candidates = raw.filter((i) => config.enabledKinds[i.type] && !dismissed.has(i.entityId) && passesFloor(i));
    return this.rank(candidates, q, now, this.feedbackFactors(), config);
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

  private rank(
    items: SuggestionItem[],
    query: ProactiveQuery,
    now: number,
    factors: Record<string, number>,
    config: CoreConfig,
  ): SuggestionItem[] {
    const byEntity = new Map<string, SuggestionItem>();
    for (const raw of items) {
      const parts = scoreItem(raw, query, now, factors[raw.type] ?? 1);
      const item: SuggestionItem = { ...raw, relevanceScore: round(parts.score) };
      const prev = byEntity.get(item.entityId);
      if (!prev) {
        byEntity.set(item.entityId, item);
      } else {
        // The same entity found by two sources: keep the stronger, and say both reasons.
        const [keep, other] = prev.relevanceScore >= item.relevanceScore ? [prev, item] : [item, prev];
        if (other.reason) keep.reason = mergeReasons(keep.reason, other.reason);
        keep.relevanceScore = round(Math.min(1, keep.relevanceScore + 0.05));
        byEntity.set(item.entityId, keep);
      }
    }
    const sorted = [...byEntity.values()]
      .filter((i) => i.relevanceScore >= config.minRelevanceScore)
      // Equal scores: the newer first (old commits all score alike once recency has faded); a record's age says nothing.
      .sort((a, b) => b.relevanceScore - a.relevanceScore || newerFirst(a, b) || a.title.localeCompare(b.title));
    const perKind = new Map<SuggestionType, number>();
    const out: SuggestionItem[] = [];
    for (const item of groupDeprecatedUses(sorted)) {
      const n = perKind.get(item.type) ?? 0;
      if (n >= perKindCap[item.type]) continue;
      perKind.set(item.type, n + 1);
      out.push(item);
      if (out.length >= config.maxSuggestions) break;
    }
    return out;
  }

  private feedbackFactors(): Record<string, number> {
    const rows = this.store.read((db) =>
      all<{ type: string; action: string; n: number }>(
        db,
        'SELECT type, action, count(*) AS n FROM feedback GROUP BY type, action',
      ),
    );
    const tally = new Map<string, { used: number; dismissed: number }>();
    for (const r of rows) {
      const t = tally.get(r.type) ?? { used: 0, dismissed: 0 };
      if (r.action === 'used') t.used += Number(r.n);
      if (r.action === 'dismissed') t.dismissed += Number(r.n);
      tally.set(r.type, t);
    }
    return Object.fromEntries([...tally].map(([type, t]) => [type, feedbackFactor(t.used, t.dismissed)]));
  }

  private dismissedFor(contextKey: string): Set<string> {
    return new Set(
      this.store.read((db) =>
        all<{ e: string }>(db, "SELECT entity_id AS e FROM feedback WHERE action = 'dismissed' AND context_key = ?", [
          contextKey,
        ]).map((r) => r.e),
      ),
    );
  }

  /** Replaces the stored items of a recorded suggestion (after an enrichment), keeping feedback already given. */
  private replaceItems(s: ContextSuggestion): void {
    try {
      this.store.write((db) => {
        db.run("DELETE FROM suggestion_items WHERE suggestion_id = ? AND status = 'shown'", [s.id]);
        const taken = new Set(
          all<{ idx: number }>(db, 'SELECT idx FROM suggestion_items WHERE suggestion_id = ?', [s.id]).map((r) =>
            Number(r.idx),
          ),
        );
        const known = new Set(
          all<{ e: string }>(db, 'SELECT entity_id AS e FROM suggestion_items WHERE suggestion_id = ?', [s.id]).map(
            (r) => r.e,
          ),
        );
        let idx = 0;
        for (const item of s.items) {
          if (known.has(item.entityId)) continue;
          while (taken.has(idx)) idx++;
          taken.add(idx);
          db.run(
            "INSERT INTO suggestion_items (suggestion_id, idx, type, entity_id, title, score, status) VALUES (?, ?, ?, ?, ?, ?, 'shown')",
            [s.id, idx, item.type, item.entityId, item.title.slice(0, 300), item.relevanceScore],
          );
        }
        db.run('UPDATE suggestions SET item_count = ?, latency_ms = ? WHERE id = ?', [
          s.items.length,
          s.latencyMs,
          s.id,
        ]);
      });
    } catch (err) {
      this.logger.warn(`Could not update a suggestion: ${(err as Error).message}`);
    }
  }

  private record(s: ContextSuggestion, contextKey: string): void {
    try {
      this.store.write((db) => {
        db.run(
          'INSERT INTO suggestions (id, created_at, trigger_type, trigger_source, context_key, status, latency_ms, item_count) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
          [s.id, s.createdAt, s.trigger.type, s.trigger.source, contextKey, s.status, s.latencyMs, s.items.length],
        );
        s.items.forEach((item, idx) =>
          db.run(
            "INSERT INTO suggestion_items (suggestion_id, idx, type, entity_id, title, score, status) VALUES (?, ?, ?, ?, ?, ?, 'shown')",
            [s.id, idx, item.type, item.entityId, item.title.slice(0, 300), item.relevanceScore],
          ),
        );
        const cutoff = one<{ t: number }>(
          db,
          'SELECT created_at AS t FROM suggestions ORDER BY created_at DESC LIMIT 1 OFFSET ?',
          [SUGGESTION_HISTORY],
        );
        if (cutoff) {
          db.run(
            "DELETE FROM suggestion_items WHERE suggestion_id IN (SELECT id FROM suggestions WHERE created_at <= ? AND status IN ('pending', 'shown'))",
            [cutoff.t],
          );
          db.run("DELETE FROM suggestions WHERE created_at <= ? AND status IN ('pending', 'shown')", [cutoff.t]);
        }
      });
    } catch (err) {
      this.logger.warn(`Could not record a suggestion: ${(err as Error).message}`);
    }
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
    const contextKey =
      this.store.read((db) =>
        one<{ k: string }>(db, 'SELECT context_key AS k FROM suggestions WHERE id = ?', [suggestionId]),
      )?.k ?? '';
    const id = newId('fb');
    const at = this.clock();
    this.store.write((db) => {
      db.run(
        'INSERT INTO feedback (id, entity_id, type, context_key, action, score, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
        [id, item.entityId, item.type, contextKey, action, item.score, at],
      );
      db.run('UPDATE suggestion_items SET status = ? WHERE suggestion_id = ? AND idx = ?', [
        action,
        suggestionId,
        item.index,
      ]);
      // A suggestion counts as used once any item is used; dismissed only if nothing was used.
      if (action === 'used') db.run("UPDATE suggestions SET status = 'used' WHERE id = ?", [suggestionId]);
      else db.run("UPDATE suggestions SET status = 'dismissed' WHERE id = ? AND status != 'used'", [suggestionId]);
    });
    return { ...item, status: action };
  }
}

export interface SuggestionItemRef {
  index: number;
  type: SuggestionType;
  entityId: string;
  title: string;
  score: number;
  status: string;
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

function newId(prefix: string): string {
  return `${prefix}_${Date.now().toString(36)}${randomBytes(4).toString('hex')}`;
}

function round(n: number): number {
  return roundTo(n, 3);
}

/** Newer first, between two items whose age counts; 0 otherwise. */
function newerFirst(a: SuggestionItem, b: SuggestionItem): number {
  if (isTimeless(a.type) || isTimeless(b.type)) return 0;
  return (b.timestamp ?? 0) - (a.timestamp ?? 0);
}

/** Most other lines a grouped warning lists in its summary. */
const LISTED_USES = 10;

/**
 * One warning per deprecated API and file: the use that ranks first (the nearest to the cursor)
 * stands for the others, which it counts (`Deprecated: Field used at line 161 and 7 more places`),
 * so that eight calls of one API do not fill the panel with the same warning.
 */
function groupDeprecatedUses(sorted: SuggestionItem[]): SuggestionItem[] {
  const first = new Map<string, { item: SuggestionItem; lines: number[] }>();
  const out: SuggestionItem[] = [];
  for (const item of sorted) {
    const name = item.type === 'warning' ? item.meta?.deprecated : undefined;
    if (typeof name !== 'string' || !name) {
      out.push(item);
      continue;
    }
    const key = `${item.location.path}\u0000${name}`;
    const group = first.get(key);
    if (!group) {
      first.set(key, { item, lines: [] });
      out.push(item);
    } else if (item.location.line !== undefined) group.lines.push(item.location.line);
  }
  for (const { item, lines } of first.values()) {
    if (!lines.length) continue;
    lines.sort((a, b) => a - b);
    item.title = `${item.title} and ${lines.length} more ${lines.length === 1 ? 'place' : 'places'}`;
    const listed = lines.slice(0, LISTED_USES).join(', ');
    item.summary =
      `${item.summary} Also used at line${lines.length === 1 ? '' : 's'} ${listed}${lines.length > LISTED_USES ? ', …' : ''}.`.trim();
    item.meta = { ...item.meta, otherUses: lines.length };
  }
  return out;
}
