import { createHash, randomBytes } from 'node:crypto';
import picomatch from 'picomatch';
import type { CoreConfig } from '../config';
import { nullLogger, type Logger } from '../logger';
import type { Store } from '../store/store';
import { all, one } from '../store/sqlite';
import type { ContextSuggestion, ProactiveQuery, SuggestionItem, SuggestionStatus, SuggestionType } from '../types';
import { SUGGESTION_TYPES } from '../types';
import { feedbackFactor, passesFloor, perKindCap, scoreItem } from './scoring';

/** What a source needs to know about the code at the cursor. */
export interface SourceContext {
  query: ProactiveQuery;
  /** The definition enclosing the cursor, when known. */
  symbolRange?: { name: string; startLine: number; endLine: number };
  config: CoreConfig;
  now: number;
  signal: AbortSignal;
  /** Sources add a line here when they could not contribute (not a git repo, index building…). */
  note(text: string): void;
}

/** One producer of suggestion candidates (decisions, git, index, reports, docs…). */
export interface SuggestionSource {
  readonly name: string;
  readonly kinds: readonly SuggestionType[];
  collect(ctx: SourceContext): Promise<SuggestionItem[]>;
}

/** Port: finds the definition enclosing a line (code index or editor symbols). */
export type SymbolResolver = (file: string, line: number) => { name: string; startLine: number; endLine: number } | undefined;

export interface WatchPattern {
  type: 'file' | 'symbol' | 'topic';
  pattern: string;
  priority?: number;
}

export interface Watch {
  id: string;
  patterns: WatchPattern[];
  minRelevanceScore: number;
  maxSuggestionsPerTrigger: number;
  cooldownMs: number;
  lastTriggeredAt?: number;
  enabled: boolean;
  createdAt: number;
}

export interface WatchEvent {
  watch: Watch;
  suggestionId: string;
  matched: WatchPattern[];
  items: SuggestionItem[];
}

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
  /** Sources for this call only (slow ones, such as language servers, asked for in a second pass). */
  extraSources?: readonly SuggestionSource[];
}

const SUGGESTION_HISTORY = 2000;

/**
 * Turns a query about the code at the cursor into a ranked, deduplicated ContextSuggestion whose
 * every item says why it is shown; records feedback and re-weights kinds from it.
 */
export class ProactiveContextProvider {
  private readonly lastShown = new Map<string, number>();
  private readonly watchListeners = new Set<(e: WatchEvent) => void>();
  private readonly latencies: number[] = [];

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
    const symbolRange = options.symbolRange ?? (query.currentFile && line !== undefined ? this.resolveSymbol(query.currentFile, line) : undefined);
    const q: ProactiveQuery = { ...query, currentSymbol: query.currentSymbol ?? symbolRange?.name };
    const ctx: SourceContext = { query: q, symbolRange, config, now, signal, note: (t) => notes.includes(t) || notes.push(t) };

    const enabled = [...this.sources, ...(options.extraSources ?? [])].filter((s) => s.kinds.some((k) => config.enabledKinds[k]));
    const timeout = options.sourceTimeoutMs ?? 3000;
    const results = await Promise.all(enabled.map((s) => this.collect(s, ctx, timeout)));
    if (signal.aborted) throw new ProviderError('Cancelled');

    const contextKey = contextKeyOf(q);
    const dismissed = this.dismissedFor(contextKey);
    const factors = this.feedbackFactors();
    const candidates = results.flat().filter((i) => config.enabledKinds[i.type] && !dismissed.has(i.entityId) && passesFloor(i));
    const ranked = this.rank(candidates, q, now, factors, config);

    for (const item of ranked) {
      const key = `${contextKey}\u0000${item.entityId}`;
      const last = this.lastShown.get(key);
      item.meta = { ...item.meta, new: last === undefined || now - last > config.cooldownMs };
      if (item.meta.new) this.lastShown.set(key, now);
    }

    const latencyMs = Math.round((performance.now() - started) * 100) / 100;
    this.latencies.push(latencyMs);
    if (this.latencies.length > 500) this.latencies.shift();
    const suggestion: ContextSuggestion = {
      id: newId('sug'),
      trigger: { type: options.trigger ?? (q.currentSymbol ? 'symbol_focus' : q.currentFile ? 'file_change' : 'activity'), source: q.currentSymbol ? `${q.currentFile}#${q.currentSymbol}` : q.currentFile ?? 'session' },
      query: q,
      items: ranked,
      status: 'pending',
      createdAt: now,
      latencyMs,
      notes: notes.length ? notes : undefined,
    };
    if (options.record !== false) this.record(suggestion, contextKey);
    this.triggerWatches(suggestion);
    return suggestion;
  }

  /** Stores a suggestion made with `record: false` once the user acts on it (idempotent). */
  ensureRecorded(s: ContextSuggestion): void {
    const known = this.store.read((db) => one(db, 'SELECT id FROM suggestions WHERE id = ?', [s.id]));
    if (!known) this.record(s, contextKeyOf(s.query));
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
    this.store.write((db) => db.run("UPDATE suggestions SET status = 'shown' WHERE id = ? AND status = 'pending'", [suggestionId]));
  }

  getSuggestion(suggestionId: string): { id: string; status: SuggestionStatus; items: SuggestionItemRef[] } | undefined {
    return this.store.read((db) => {
      const row = one<{ id: string; status: SuggestionStatus }>(db, 'SELECT id, status FROM suggestions WHERE id = ?', [suggestionId]);
      if (!row) return undefined;
      const items = all<SuggestionItemRef>(db, 'SELECT idx AS "index", type, entity_id AS entityId, title, score, status FROM suggestion_items WHERE suggestion_id = ? ORDER BY idx', [suggestionId]);
      return { ...row, items };
    });
  }

  metrics(): ProviderMetrics {
    return this.store.read((db) => {
      const count = Number(one<{ n: number }>(db, 'SELECT count(*) AS n FROM suggestions')?.n ?? 0);
      const used = Number(one<{ n: number }>(db, "SELECT count(*) AS n FROM suggestions WHERE status = 'used'")?.n ?? 0);
      const dismissed = Number(one<{ n: number }>(db, "SELECT count(*) AS n FROM suggestions WHERE status = 'dismissed'")?.n ?? 0);
      const lat = all<{ l: number }>(db, 'SELECT latency_ms AS l FROM suggestions ORDER BY created_at DESC LIMIT 1000').map((r) => Number(r.l));
      const typeDistribution = Object.fromEntries(SUGGESTION_TYPES.map((t) => [t, { shown: 0, used: 0, dismissed: 0 }])) as ProviderMetrics['typeDistribution'];
      for (const r of all<{ type: SuggestionType; status: string; n: number }>(db, 'SELECT type, status, count(*) AS n FROM suggestion_items GROUP BY type, status')) {
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
        return { bucket: `${lo.toFixed(1)}–${Math.min(1, hi).toFixed(1)}`, shown, used: u, usedRate: shown ? u / shown : 0 };
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

  // --- watch subscriptions (seed's ContextSubscription) ---

  addWatch(input: { patterns: WatchPattern[]; minRelevanceScore?: number; maxSuggestionsPerTrigger?: number; cooldownMs?: number }): Watch {
    if (!Array.isArray(input.patterns) || input.patterns.length === 0) throw new ProviderError('A watch needs at least one pattern.');
    if (input.patterns.length > 20) throw new ProviderError('A watch takes at most 20 patterns.');
    for (const p of input.patterns) {
      if (!p || !['file', 'symbol', 'topic'].includes(p.type)) throw new ProviderError(`Unknown watch pattern type '${(p as WatchPattern)?.type}': use file, symbol or topic.`);
      if (typeof p.pattern !== 'string' || !p.pattern.trim() || p.pattern.length > 500) throw new ProviderError('Each watch pattern needs a non-empty pattern of at most 500 characters.');
      if (p.type === 'symbol') {
        try {
          new RegExp(p.pattern);
        } catch (err) {
          throw new ProviderError(`Invalid symbol regex '${p.pattern}': ${(err as Error).message}`);
        }
      }
    }
    const watch: Watch = {
      id: newId('w'),
      patterns: input.patterns.map((p) => ({ type: p.type, pattern: p.pattern, priority: p.priority ?? 1 })),
      minRelevanceScore: clampNumber(input.minRelevanceScore, 0, 1, 0.5),
      maxSuggestionsPerTrigger: Math.round(clampNumber(input.maxSuggestionsPerTrigger, 1, 50, 5)),
      cooldownMs: Math.round(clampNumber(input.cooldownMs, 0, 86_400_000, 5000)),
      enabled: true,
      createdAt: this.clock(),
    };
    this.store.write((db) =>
      db.run('INSERT INTO watches (id, patterns, min_score, max_per_trigger, cooldown_ms, enabled, created_at) VALUES (?, ?, ?, ?, ?, 1, ?)', [
        watch.id,
        JSON.stringify(watch.patterns),
        watch.minRelevanceScore,
        watch.maxSuggestionsPerTrigger,
        watch.cooldownMs,
        watch.createdAt,
      ]),
    );
    return watch;
  }

  removeWatch(id: string): void {
    const exists = this.store.read((db) => one(db, 'SELECT id FROM watches WHERE id = ?', [id]));
    if (!exists) throw new ProviderError(`No watch with id '${id}'.`);
    this.store.write((db) => db.run('DELETE FROM watches WHERE id = ?', [id]));
  }

  listWatches(): Watch[] {
    return this.store.read((db) =>
      all<{ id: string; patterns: string; min_score: number; max_per_trigger: number; cooldown_ms: number; last_triggered_at: number | null; enabled: number; created_at: number }>(db, 'SELECT * FROM watches ORDER BY created_at').map((r) => ({
        id: r.id,
        patterns: JSON.parse(r.patterns) as WatchPattern[],
        minRelevanceScore: Number(r.min_score),
        maxSuggestionsPerTrigger: Number(r.max_per_trigger),
        cooldownMs: Number(r.cooldown_ms),
        lastTriggeredAt: r.last_triggered_at === null ? undefined : Number(r.last_triggered_at),
        enabled: r.enabled === 1,
        createdAt: Number(r.created_at),
      })),
    );
  }

  onWatchTriggered(listener: (e: WatchEvent) => void): { dispose(): void } {
    this.watchListeners.add(listener);
    return { dispose: () => this.watchListeners.delete(listener) };
  }

  // --- internals ---

  private async collect(source: SuggestionSource, ctx: SourceContext, timeoutMs: number): Promise<SuggestionItem[]> {
    let timer: NodeJS.Timeout | undefined;
    try {
      const timedOut = new Promise<SuggestionItem[]>((resolveTimeout) => {
        timer = setTimeout(() => {
          ctx.note(`${source.name} took longer than ${timeoutMs} ms and was skipped this time`);
          resolveTimeout([]);
        }, timeoutMs);
      });
      const items = await Promise.race([source.collect(ctx), timedOut]);
      return items.filter((i) => isWellFormed(i, source.name, this.logger));
    } catch (err) {
      this.logger.warn(`Suggestion source ${source.name} failed: ${(err as Error).message}`);
      ctx.note(`${source.name} is unavailable: ${(err as Error).message}`);
      return [];
    } finally {
      clearTimeout(timer);
    }
  }

  private rank(items: SuggestionItem[], query: ProactiveQuery, now: number, factors: Record<string, number>, config: CoreConfig): SuggestionItem[] {
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
        if (other.reason && !keep.reason.includes(other.reason)) keep.reason = `${keep.reason}; ${other.reason}`;
        keep.relevanceScore = round(Math.min(1, keep.relevanceScore + 0.05));
        byEntity.set(item.entityId, keep);
      }
    }
    const sorted = [...byEntity.values()].filter((i) => i.relevanceScore >= config.minRelevanceScore).sort((a, b) => b.relevanceScore - a.relevanceScore || a.title.localeCompare(b.title));
    const perKind = new Map<SuggestionType, number>();
    const out: SuggestionItem[] = [];
    for (const item of sorted) {
      const n = perKind.get(item.type) ?? 0;
      if (n >= perKindCap[item.type]) continue;
      perKind.set(item.type, n + 1);
      out.push(item);
      if (out.length >= config.maxSuggestions) break;
    }
    return out;
  }

  private feedbackFactors(): Record<string, number> {
    const rows = this.store.read((db) => all<{ type: string; action: string; n: number }>(db, 'SELECT type, action, count(*) AS n FROM feedback GROUP BY type, action'));
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
    return new Set(this.store.read((db) => all<{ e: string }>(db, "SELECT entity_id AS e FROM feedback WHERE action = 'dismissed' AND context_key = ?", [contextKey]).map((r) => r.e)));
  }

  private record(s: ContextSuggestion, contextKey: string): void {
    try {
      this.store.write((db) => {
        db.run('INSERT INTO suggestions (id, created_at, trigger_type, trigger_source, context_key, status, latency_ms, item_count) VALUES (?, ?, ?, ?, ?, ?, ?, ?)', [
          s.id,
          s.createdAt,
          s.trigger.type,
          s.trigger.source,
          contextKey,
          s.status,
          s.latencyMs,
          s.items.length,
        ]);
        s.items.forEach((item, idx) =>
          db.run("INSERT INTO suggestion_items (suggestion_id, idx, type, entity_id, title, score, status) VALUES (?, ?, ?, ?, ?, ?, 'shown')", [s.id, idx, item.type, item.entityId, item.title.slice(0, 300), item.relevanceScore]),
        );
        const cutoff = one<{ t: number }>(db, 'SELECT created_at AS t FROM suggestions ORDER BY created_at DESC LIMIT 1 OFFSET ?', [SUGGESTION_HISTORY]);
        if (cutoff) {
          db.run("DELETE FROM suggestion_items WHERE suggestion_id IN (SELECT id FROM suggestions WHERE created_at <= ? AND status IN ('pending', 'shown'))", [cutoff.t]);
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
    const item = typeof ref === 'number' ? found.items.find((i) => i.index === ref) : found.items.find((i) => i.entityId === ref);
    if (!item) {
      throw new ProviderError(typeof ref === 'number' ? `Suggestion ${suggestionId} has no item ${ref} (it has ${found.items.length}).` : `Suggestion ${suggestionId} has no item '${ref}'.`);
    }
    const contextKey = this.store.read((db) => one<{ k: string }>(db, 'SELECT context_key AS k FROM suggestions WHERE id = ?', [suggestionId]))?.k ?? '';
    const id = newId('fb');
    const at = this.clock();
    this.store.write((db) => {
      db.run('INSERT INTO feedback (id, entity_id, type, context_key, action, score, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)', [id, item.entityId, item.type, contextKey, action, item.score, at]);
      db.run('UPDATE suggestion_items SET status = ? WHERE suggestion_id = ? AND idx = ?', [action, suggestionId, item.index]);
      // A suggestion counts as used once any item is used; dismissed only if nothing was used.
      if (action === 'used') db.run("UPDATE suggestions SET status = 'used' WHERE id = ?", [suggestionId]);
      else db.run("UPDATE suggestions SET status = 'dismissed' WHERE id = ? AND status != 'used'", [suggestionId]);
    });
    return { ...item, status: action };
  }

  private triggerWatches(s: ContextSuggestion): void {
    if (this.watchListeners.size === 0) return;
    const watches = this.listWatches().filter((w) => w.enabled);
    const now = s.createdAt;
    for (const watch of watches) {
      if (watch.lastTriggeredAt !== undefined && now - watch.lastTriggeredAt < watch.cooldownMs) continue;
      const matched = watch.patterns.filter((p) => matchesWatch(p, s));
      if (matched.length === 0) continue;
      const topic = matched.filter((p) => p.type === 'topic');
      const items = s.items
        .filter((i) => i.relevanceScore >= watch.minRelevanceScore)
        .filter((i) => topic.length === 0 || matched.some((p) => p.type !== 'topic') || topic.some((p) => topicMatches(p.pattern, i)))
        .slice(0, watch.maxSuggestionsPerTrigger);
      if (items.length === 0) continue;
      this.store.write((db) => db.run('UPDATE watches SET last_triggered_at = ? WHERE id = ?', [now, watch.id]));
      const event: WatchEvent = { watch: { ...watch, lastTriggeredAt: now }, suggestionId: s.id, matched, items };
      for (const l of this.watchListeners) {
        try {
          l(event);
        } catch (err) {
          this.logger.warn(`A watch listener failed: ${(err as Error).message}`);
        }
      }
    }
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

function matchesWatch(p: WatchPattern, s: ContextSuggestion): boolean {
  if (p.type === 'file') return !!s.query.currentFile && picomatch.isMatch(s.query.currentFile, p.pattern, { dot: true });
  if (p.type === 'symbol') {
    if (!s.query.currentSymbol) return false;
    try {
      return new RegExp(p.pattern).test(s.query.currentSymbol);
    } catch {
      return false;
    }
  }
  return s.items.some((i) => topicMatches(p.pattern, i));
}

function topicMatches(topic: string, item: SuggestionItem): boolean {
  const text = `${item.title} ${item.summary} ${item.reason}`.toLowerCase();
  return topic
    .toLowerCase()
    .split(/\s+/)
    .filter(Boolean)
    .every((w) => text.includes(w));
}

function contextKeyOf(q: ProactiveQuery): string {
  return q.currentFile ?? '';
}

function isWellFormed(i: SuggestionItem, source: string, logger: Logger): boolean {
  const ok = !!i && typeof i.title === 'string' && typeof i.reason === 'string' && !!i.reason && typeof i.entityId === 'string' && !!i.location && typeof i.location.path === 'string' && SUGGESTION_TYPES.includes(i.type);
  if (!ok) logger.debug(`Dropped a malformed item from ${source}`);
  return ok;
}

function newId(prefix: string): string {
  return `${prefix}_${Date.now().toString(36)}${randomBytes(4).toString('hex')}`;
}

function round(n: number): number {
  return Math.round(n * 1000) / 1000;
}

function clampNumber(v: number | undefined, lo: number, hi: number, fallback: number): number {
  if (v === undefined || !Number.isFinite(v)) return fallback;
  return Math.min(hi, Math.max(lo, v));
}

export function percentile(values: number[], p: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const idx = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[idx];
}

export function stableEntityId(...parts: string[]): string {
  return createHash('sha1').update(parts.join('\u0000')).digest('hex').slice(0, 16);
}
