import { randomBytes } from 'node:crypto';
import type { Logger } from '../logger';
import type { Store } from '../store/store';
import { all, one, run } from '../store/sqlite';
import type { ContextSuggestion, SuggestionStatus, SuggestionType } from '../types';
import { SUGGESTION_TYPES } from '../types';
import { percentile } from '../../shared/text';
import { feedbackFactor } from './scoring';

export interface ProviderMetrics {
  count: number;
  usedRate: number;
  dismissedRate: number;
  latencyMs: { p50: number; p95: number };
  typeDistribution: Record<SuggestionType, { shown: number; used: number; dismissed: number }>;
  scoreVersusUse: { bucket: string; shown: number; used: number; usedRate: number }[];
}

export interface SuggestionItemRef {
  index: number;
  type: SuggestionType;
  entityId: string;
  title: string;
  score: number;
  status: string;
}

const SUGGESTION_HISTORY = 2000;
/**
 * What was suggested and shown is written with the next quiet moment, not after each cursor move:
 * a save exports the whole database on the editor's thread. The user's feedback is saved at once.
 */
const QUIET = { quiet: true };

/** The stored side of suggestions: what was shown, what the user did with it, and the metrics over both. */
export class SuggestionLog {
  constructor(
    private readonly store: Store,
    private readonly logger: Logger,
  ) {}

  has(suggestionId: string): boolean {
    return !!this.store.read((db) => one(db, 'SELECT id FROM suggestions WHERE id = ?', [suggestionId]));
  }

  record(s: ContextSuggestion, contextKey: string): void {
    try {
      this.store.write((db) => {
        run(
          db,
          'INSERT INTO suggestions (id, created_at, trigger_type, trigger_source, context_key, status, latency_ms, item_count) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
          [s.id, s.createdAt, s.trigger.type, s.trigger.source, contextKey, s.status, s.latencyMs, s.items.length],
        );
        s.items.forEach((item, idx) =>
          run(
            db,
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
          run(
            db,
            "DELETE FROM suggestion_items WHERE suggestion_id IN (SELECT id FROM suggestions WHERE created_at <= ? AND status IN ('pending', 'shown'))",
            [cutoff.t],
          );
          run(db, "DELETE FROM suggestions WHERE created_at <= ? AND status IN ('pending', 'shown')", [cutoff.t]);
        }
      }, QUIET);
    } catch (err) {
      this.logger.warn(`Could not record a suggestion: ${(err as Error).message}`);
    }
  }

  replaceItems(s: ContextSuggestion): void {
    try {
      this.store.write((db) => {
        run(db, "DELETE FROM suggestion_items WHERE suggestion_id = ? AND status = 'shown'", [s.id]);
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
          run(
            db,
            "INSERT INTO suggestion_items (suggestion_id, idx, type, entity_id, title, score, status) VALUES (?, ?, ?, ?, ?, ?, 'shown')",
            [s.id, idx, item.type, item.entityId, item.title.slice(0, 300), item.relevanceScore],
          );
        }
        run(db, 'UPDATE suggestions SET item_count = ?, latency_ms = ? WHERE id = ?', [
          s.items.length,
          s.latencyMs,
          s.id,
        ]);
      }, QUIET);
    } catch (err) {
      this.logger.warn(`Could not update a suggestion: ${(err as Error).message}`);
    }
  }

  markShown(suggestionId: string): void {
    this.store.write(
      (db) => run(db, "UPDATE suggestions SET status = 'shown' WHERE id = ? AND status = 'pending'", [suggestionId]),
      QUIET,
    );
  }

  get(suggestionId: string): { id: string; status: SuggestionStatus; items: SuggestionItemRef[] } | undefined {
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

  feedbackFactors(): Record<string, number> {
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

  dismissedFor(contextKey: string): Set<string> {
    return new Set(
      this.store.read((db) =>
        all<{ e: string }>(db, "SELECT entity_id AS e FROM feedback WHERE action = 'dismissed' AND context_key = ?", [
          contextKey,
        ]).map((r) => r.e),
      ),
    );
  }

  /** Stores the user's action on an item and carries it to the item and its suggestion. */
  addFeedback(suggestionId: string, item: SuggestionItemRef, action: 'used' | 'dismissed', at: number): void {
    const contextKey =
      this.store.read((db) =>
        one<{ k: string }>(db, 'SELECT context_key AS k FROM suggestions WHERE id = ?', [suggestionId]),
      )?.k ?? '';
    const id = newId('fb');
    this.store.write((db) => {
      run(
        db,
        'INSERT INTO feedback (id, entity_id, type, context_key, action, score, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
        [id, item.entityId, item.type, contextKey, action, item.score, at],
      );
      run(db, 'UPDATE suggestion_items SET status = ? WHERE suggestion_id = ? AND idx = ?', [
        action,
        suggestionId,
        item.index,
      ]);
      // A suggestion counts as used once any item is used; dismissed only if nothing was used.
      if (action === 'used') run(db, "UPDATE suggestions SET status = 'used' WHERE id = ?", [suggestionId]);
      else run(db, "UPDATE suggestions SET status = 'dismissed' WHERE id = ? AND status != 'used'", [suggestionId]);
    });
  }
}

export function newId(prefix: string): string {
  return `${prefix}_${Date.now().toString(36)}${randomBytes(4).toString('hex')}`;
}
