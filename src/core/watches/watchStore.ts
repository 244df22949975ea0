import { randomBytes } from 'node:crypto';
import { all, one, run, type Database } from '../store/sqlite';
import type { Store } from '../store/store';
import type { ContextSuggestion } from '../types';
import { compileGlob, GlobError } from './glob';

export type WatchPatternType = 'file' | 'symbol' | 'topic';
export const WATCH_PATTERN_TYPES: readonly WatchPatternType[] = ['file', 'symbol', 'topic'];

export interface WatchPattern {
  type: WatchPatternType;
  /** A glob (file), a name or `path::name` (symbol), words or a phrase (topic). */
  pattern: string;
}

/** Something a developer or an agent follows; when it changes or comes into focus, context is pushed. */
export interface Watch {
  id: string;
  scope: string;
  patterns: WatchPattern[];
  /** Items below this score are not pushed. */
  minRelevanceScore: number;
  /** At most this many items per firing. */
  maxSuggestionsPerTrigger: number;
  /** After a firing, the watch stays quiet this long. */
  cooldownMs: number;
  createdAt: number;
  renewedAt: number;
  expiresAt: number;
  lastTriggeredAt?: number;
}

export interface WatchInput {
  patterns: WatchPattern[];
  minRelevanceScore?: number;
  maxSuggestionsPerTrigger?: number;
  cooldownMs?: number;
  scope?: string;
}

/** One push: the suggestion a firing stored, under a sequence number that only grows. */
export interface WatchFiring {
  seq: number;
  watchId: string;
  firedAt: number;
  suggestion: ContextSuggestion;
}

export type WatchErrorReason = 'invalid' | 'limit' | 'not_found';

/** A refused watch request; the message is written for the user. */
export class WatchError extends Error {
  constructor(
    readonly reason: WatchErrorReason,
    message: string,
  ) {
    super(message);
    this.name = 'WatchError';
  }
}

export const WATCH_LIMITS = {
  perScope: 20,
  patternsPerWatch: 20,
  topicChars: 200,
  symbolChars: 300,
  cooldownMs: { min: 0, max: 24 * 3600_000 },
  maxPerTrigger: { min: 1, max: 50 },
  firingsKept: 20,
} as const;

const DEFAULTS = { minRelevanceScore: 0.3, maxSuggestionsPerTrigger: 5, cooldownMs: 5000 };
const SYMBOL_NAME = /^[\p{L}\p{N}_$][\p{L}\p{N}_$.#]*$/u;

interface Row {
  id: string;
  scope: string;
  patterns: string;
  min_score: number;
  max_per_trigger: number;
  cooldown_ms: number;
  last_triggered_at: number | null;
  created_at: number;
  renewed_at: number;
}

/** Checks and normalizes what a watch follows; throws WatchError with a message naming what is wrong. */
export function validateWatch(input: WatchInput): Required<Omit<WatchInput, 'scope'>> & { scope: string } {
  if (!input || !Array.isArray(input.patterns) || input.patterns.length === 0)
    throw new WatchError('invalid', 'A watch needs at least one pattern: a file glob, a symbol or a topic.');
  if (input.patterns.length > WATCH_LIMITS.patternsPerWatch)
    throw new WatchError(
      'invalid',
      `A watch takes at most ${WATCH_LIMITS.patternsPerWatch} patterns (got ${input.patterns.length}).`,
    );
  const patterns = input.patterns.map(normalizePattern);
  const minRelevanceScore = numberIn(input.minRelevanceScore, 0, 1, DEFAULTS.minRelevanceScore, 'minRelevanceScore');
  const maxSuggestionsPerTrigger = integerIn(
    input.maxSuggestionsPerTrigger,
    WATCH_LIMITS.maxPerTrigger.min,
    WATCH_LIMITS.maxPerTrigger.max,
    DEFAULTS.maxSuggestionsPerTrigger,
    'maxSuggestionsPerTrigger',
  );
  const cooldownMs = integerIn(
    input.cooldownMs,
    WATCH_LIMITS.cooldownMs.min,
    WATCH_LIMITS.cooldownMs.max,
    DEFAULTS.cooldownMs,
    'cooldownMs',
  );
  const scope = (input.scope ?? 'workspace').trim() || 'workspace';
  if (scope.length > 100) throw new WatchError('invalid', 'A watch scope can be at most 100 characters.');
  return { patterns, minRelevanceScore, maxSuggestionsPerTrigger, cooldownMs, scope };
}

function normalizePattern(p: WatchPattern): WatchPattern {
  if (!p || typeof p !== 'object')
    throw new WatchError('invalid', 'Each watch pattern is an object with a type and a pattern.');
  if (!WATCH_PATTERN_TYPES.includes(p.type))
    throw new WatchError('invalid', `Unknown watch pattern type "${String(p.type)}": use file, symbol or topic.`);
  if (typeof p.pattern !== 'string' || !p.pattern.trim())
    throw new WatchError('invalid', `A ${p.type} pattern cannot be empty.`);
  const pattern = p.pattern.trim();
  switch (p.type) {
    case 'file':
      try {
        return { type: 'file', pattern: compileGlob(pattern).source };
      } catch (err) {
        if (err instanceof GlobError) throw new WatchError('invalid', err.message);
        throw err;
      }
    case 'symbol': {
      if (pattern.length > WATCH_LIMITS.symbolChars)
        throw new WatchError('invalid', `A symbol pattern can be at most ${WATCH_LIMITS.symbolChars} characters.`);
      const at = pattern.lastIndexOf('::');
      const path = at >= 0 ? pattern.slice(0, at) : '';
      const name = at >= 0 ? pattern.slice(at + 2) : pattern;
      if (!SYMBOL_NAME.test(name))
        throw new WatchError(
          'invalid',
          `"${name}" is not a symbol name; use a name like parseConfig or Cart.total, optionally as path::name.`,
        );
      if (path) {
        try {
          compileGlob(path);
        } catch (err) {
          if (err instanceof GlobError) throw new WatchError('invalid', err.message);
          throw err;
        }
      }
      return { type: 'symbol', pattern: path ? `${path.replace(/\\/g, '/').replace(/^\.\//, '')}::${name}` : name };
    }
    case 'topic':
      if (pattern.length > WATCH_LIMITS.topicChars)
        throw new WatchError(
          'invalid',
          `A topic can be at most ${WATCH_LIMITS.topicChars} characters (this one has ${pattern.length}).`,
        );
      if (!/[\p{L}\p{N}]/u.test(pattern)) throw new WatchError('invalid', 'A topic needs at least one word.');
      return { type: 'topic', pattern: pattern.replace(/\s+/g, ' ') };
  }
}

function numberIn(v: number | undefined, lo: number, hi: number, fallback: number, name: string): number {
  if (v === undefined || v === null) return fallback;
  if (typeof v !== 'number' || !Number.isFinite(v) || v < lo || v > hi)
    throw new WatchError('invalid', `${name} must be a number from ${lo} to ${hi} (got ${String(v)}).`);
  return v;
}

function integerIn(v: number | undefined, lo: number, hi: number, fallback: number, name: string): number {
  const n = numberIn(v, lo, hi, fallback, name);
  if (!Number.isInteger(n)) throw new WatchError('invalid', `${name} must be a whole number (got ${n}).`);
  return n;
}

/** The key that makes the same watch asked for twice one watch (renewed), not two. */
function patternKey(patterns: readonly WatchPattern[]): string {
  return JSON.stringify([...patterns].map((p) => [p.type, p.pattern]).sort());
}

/** Watches and their firings in the durable store, shared by every process on the workspace. */
export class WatchStore {
  constructor(
    private readonly store: Store,
    private readonly clock: () => number,
    private readonly expiryMs: () => number,
  ) {}

  /**
   * Adds a watch, or renews the one that follows the same patterns in the scope. The per-scope
   * limit is checked and the row written in one locked step, so processes racing cannot exceed it.
   */
  add(input: WatchInput): { watch: Watch; renewed: boolean } {
    const v = validateWatch(input);
    const key = patternKey(v.patterns);
    const now = this.clock();
    const cutoff = now - this.expiryMs();
    const result = this.locked((db) => {
      run(db, 'DELETE FROM watches WHERE renewed_at <= ?', [cutoff]);
      const existing = one<Row>(db, 'SELECT * FROM watches WHERE scope = ? AND pattern_key = ?', [v.scope, key]);
      if (existing) {
        run(db, 'UPDATE watches SET renewed_at = ?, min_score = ?, max_per_trigger = ?, cooldown_ms = ? WHERE id = ?', [
          now,
          v.minRelevanceScore,
          v.maxSuggestionsPerTrigger,
          v.cooldownMs,
          existing.id,
        ]);
        return { id: existing.id, renewed: true };
      }
      const count = Number(
        one<{ n: number }>(db, 'SELECT count(*) AS n FROM watches WHERE scope = ?', [v.scope])?.n ?? 0,
      );
      if (count >= WATCH_LIMITS.perScope) return { limit: count };
      const id = `w${randomBytes(4).toString('hex')}`;
      run(
        db,
        'INSERT INTO watches (id, scope, pattern_key, patterns, min_score, max_per_trigger, cooldown_ms, enabled, created_at, renewed_at) VALUES (?, ?, ?, ?, ?, ?, ?, 1, ?, ?)',
        [
          id,
          v.scope,
          key,
          JSON.stringify(v.patterns),
          v.minRelevanceScore,
          v.maxSuggestionsPerTrigger,
          v.cooldownMs,
          now,
          now,
        ],
      );
      return { id, renewed: false };
    });
    if ('limit' in result)
      throw new WatchError(
        'limit',
        `The limit of ${WATCH_LIMITS.perScope} watches in "${v.scope}" is reached; stop one first. Nothing was added.`,
      );
    const watch = this.get(result.id);
    if (!watch) throw new WatchError('not_found', `The watch ${result.id} disappeared while it was being added.`);
    return { watch, renewed: result.renewed };
  }

  /** Removes one watch and its firings; an unknown id is an error that changes nothing. */
  remove(id: string): Watch {
    const watch = this.get(id);
    if (!watch) throw new WatchError('not_found', `No watch has the id “${id}”.`);
    this.locked((db) => {
      run(db, 'DELETE FROM watches WHERE id = ?', [watch.id]);
      run(db, 'DELETE FROM watch_firings WHERE watch_id = ?', [watch.id]);
    });
    return watch;
  }

  removeAll(scope?: string): number {
    return this.locked((db) => {
      const ids = all<{ id: string }>(
        db,
        scope === undefined ? 'SELECT id FROM watches' : 'SELECT id FROM watches WHERE scope = ?',
        scope === undefined ? [] : [scope],
      ).map((r) => r.id);
      for (const id of ids) {
        run(db, 'DELETE FROM watches WHERE id = ?', [id]);
        run(db, 'DELETE FROM watch_firings WHERE watch_id = ?', [id]);
      }
      return ids.length;
    });
  }

  /** Active (unexpired) watches, oldest first. */
  list(): Watch[] {
    const cutoff = this.clock() - this.expiryMs();
    return this.store
      .read((db) => all<Row>(db, 'SELECT * FROM watches WHERE renewed_at > ? ORDER BY created_at, rowid', [cutoff]))
      .map((r) => this.toWatch(r));
  }

  get(id: string): Watch | undefined {
    const key = String(id ?? '').trim();
    const row = this.store.read((db) => one<Row>(db, 'SELECT * FROM watches WHERE id = ?', [key]));
    if (!row || row.renewed_at <= this.clock() - this.expiryMs()) return undefined;
    return this.toWatch(row);
  }

  /** Runs `op` under the store's lock on the newest data, saved before it returns: checks in it hold across processes. */
  private locked<T>(op: (db: Database) => T): T {
    return this.store.write(op, { immediate: true });
  }

  /** Someone still follows the watch (read it, was pushed to): it expires a full period from now. */
  renew(id: string): void {
    this.store.write((db) => run(db, 'UPDATE watches SET renewed_at = ? WHERE id = ?', [this.clock(), id]));
  }

  /**
   * Claims a firing for an event and stores what it pushed, in one locked step: only one process
   * records a firing for a watch and an event (out of its cooldown, and not this very event again).
   * Returns the firing's sequence number, or undefined when another process had it or the watch is
   * still quiet.
   */
  claimAndRecord(id: string, eventKey: string, suggestion: ContextSuggestion): number | undefined {
    const now = suggestion.createdAt;
    return this.locked((db) => {
      run(
        db,
        `UPDATE watches SET last_triggered_at = ?, last_event = ?
         WHERE id = ? AND (last_triggered_at IS NULL OR ? - last_triggered_at >= cooldown_ms) AND (last_event IS NULL OR last_event != ?)`,
        [now, eventKey, id, now, eventKey],
      );
      if (changes(db) === 0) return undefined;
      run(db, 'INSERT INTO watch_firings (watch_id, fired_at, suggestion) VALUES (?, ?, ?)', [
        id,
        now,
        JSON.stringify(suggestion),
      ]);
      const seq = Number(one<{ s: number }>(db, 'SELECT last_insert_rowid() AS s')?.s ?? 0);
      run(
        db,
        'DELETE FROM watch_firings WHERE watch_id = ? AND seq NOT IN (SELECT seq FROM watch_firings WHERE watch_id = ? ORDER BY seq DESC LIMIT ?)',
        [id, id, WATCH_LIMITS.firingsKept],
      );
      return seq;
    });
  }

  /** The newest firing of a watch, if it fired. */
  latestFiring(watchId: string): WatchFiring | undefined {
    const row = this.store.read((db) =>
      one<{ seq: number; watch_id: string; fired_at: number; suggestion: string }>(
        db,
        'SELECT * FROM watch_firings WHERE watch_id = ? ORDER BY seq DESC LIMIT 1',
        [watchId],
      ),
    );
    return row ? toFiring(row) : undefined;
  }

  /** Firings after a sequence number (oldest first), for clients that poll instead of subscribing. */
  firingsSince(seq: number, options: { watchIds?: readonly string[]; limit?: number } = {}): WatchFiring[] {
    const limit = Math.max(1, Math.min(200, options.limit ?? 50));
    const rows = this.store.read((db) =>
      all<{ seq: number; watch_id: string; fired_at: number; suggestion: string }>(
        db,
        'SELECT * FROM watch_firings WHERE seq > ? ORDER BY seq LIMIT ?',
        [seq, limit * 4],
      ),
    );
    const ids = options.watchIds ? new Set(options.watchIds) : undefined;
    return rows
      .filter((r) => !ids || ids.has(r.watch_id))
      .slice(0, limit)
      .map(toFiring);
  }

  /** The highest sequence number stored so far (0 when nothing fired). */
  lastSeq(): number {
    return Number(
      this.store.read((db) => one<{ s: number | null }>(db, 'SELECT max(seq) AS s FROM watch_firings'))?.s ?? 0,
    );
  }

  private toWatch(r: Row): Watch {
    return {
      id: r.id,
      scope: r.scope,
      patterns: JSON.parse(r.patterns) as WatchPattern[],
      minRelevanceScore: Number(r.min_score),
      maxSuggestionsPerTrigger: Number(r.max_per_trigger),
      cooldownMs: Number(r.cooldown_ms),
      createdAt: Number(r.created_at),
      renewedAt: Number(r.renewed_at),
      expiresAt: Number(r.renewed_at) + this.expiryMs(),
      lastTriggeredAt: r.last_triggered_at === null ? undefined : Number(r.last_triggered_at),
    };
  }
}

function toFiring(r: { seq: number; watch_id: string; fired_at: number; suggestion: string }): WatchFiring {
  return {
    seq: Number(r.seq),
    watchId: r.watch_id,
    firedAt: Number(r.fired_at),
    suggestion: JSON.parse(r.suggestion) as ContextSuggestion,
  };
}

function changes(db: Database): number {
  return Number(one<{ n: number }>(db, 'SELECT changes() AS n')?.n ?? 0);
}
