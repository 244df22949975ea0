import { createHash } from 'node:crypto';
import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import { defaultConfig, type CoreConfig } from '../config';
import { nullLogger, type Logger } from '../logger';
import { toMatchQuery } from '../memory/memoryStore';
import { all, one, run, type Database } from '../store/sqlite';
import type { Store } from '../store/store';
import {
  SUBSCRIPTION_KINDS,
  SubscriptionError,
  type LineRange,
  type ParsedTarget,
  type SubscribeRequest,
  type SubscribeResult,
  type Subscription,
  type SubscriptionChange,
  type SubscriptionKind,
  type SubscriptionRegistryOptions,
} from './subscriptionTypes';
import { compileUserPattern, UserPatternError } from './userPattern';
import { checkWorkspaceFile, WorkspacePathError } from './workspacePaths';

// The subscription model lives in its own module; re-exported so callers keep one import.
export {
  SUBSCRIPTION_KINDS,
  SubscriptionError,
  type LineRange,
  type SubscribeRequest,
  type SubscribeResult,
  type Subscription,
  type SubscriptionChange,
  type SubscriptionErrorReason,
  type SubscriptionKind,
  type SubscriptionRegistryOptions,
} from './subscriptionTypes';

export const DEFAULT_SCOPE = 'workspace';
/** Subscriptions are shared with other processes (MCP server, CLI): save them at once. */
const IMMEDIATE = { immediate: true } as const;
export const MAX_TARGET_CHARS = 1000;
const BASE32 = 'abcdefghijklmnopqrstuvwxyz234567';

interface Row {
  id: string;
  scope: string;
  kind: string;
  target: string;
  options: string;
  created_at: number;
  renewed_at: number;
  last_hash: string | null;
}

/** Keeps what the user subscribed to in the durable store, shared with other processes on the same workspace. */
export class SubscriptionRegistry {
  private readonly root: string;
  private readonly config: CoreConfig['subscriptions'];
  private readonly now: () => number;
  private readonly logger: Logger;
  private readonly listeners = new Set<(change: SubscriptionChange) => void>();

  constructor(
    private readonly store: Store,
    options: SubscriptionRegistryOptions,
  ) {
    this.root = resolve(options.root);
    this.config = options.config ?? defaultConfig.subscriptions;
    this.now = options.now ?? Date.now;
    this.logger = options.logger ?? nullLogger;
  }

  get workspaceRoot(): string {
    return this.root;
  }

  get limits(): CoreConfig['subscriptions'] {
    return this.config;
  }

  /** Adds a subscription, or renews it when the same (scope, kind, target) exists. */
  subscribe(request: SubscribeRequest): SubscribeResult {
    const scope = normalizeScope(request.scope);
    if (!SUBSCRIPTION_KINDS.includes(request.kind)) {
      throw new SubscriptionError(
        'invalid',
        `Unknown subscription kind "${String(request.kind)}"; use one of ${SUBSCRIPTION_KINDS.join(', ')}.`,
      );
    }
    const parsed = this.parseTarget(request);
    const now = this.now();
    const cutoff = now - this.expiryMs;
    const options = JSON.stringify(optionsOf(parsed));
    const kind = request.kind;
    const maxActive = this.config.maxActive;
    const replaceOldest = !!request.replaceOldest;
    // Check and insert in one locked write on the newest data, so the limit holds across processes
    // (the extension, MCP servers and CLI runs subscribing at once).
    const outcome = this.store.write((db) => {
      const existing = findByKey(db, scope, kind, parsed.target);
      const live = !!existing && existing.renewed_at > cutoff;
      let dropped: Row[] = [];
      if (!live) {
        const others = activeRows(db, scope, cutoff).filter((r) => r.id !== existing?.id);
        if (others.length >= maxActive) {
          if (!replaceOldest) {
            const oldest = others[0];
            throw new SubscriptionError(
              'limit',
              `The limit of ${maxActive} active subscriptions in "${scope}" is reached. ` +
                `Unsubscribe one, or replace the oldest (${oldest.id}: ${oldest.target}) by subscribing again with replaceOldest.`,
            );
          }
          dropped = others.slice(0, others.length - maxActive + 1);
        }
      }
      run(db, 'DELETE FROM subscriptions WHERE renewed_at <= ?', [cutoff]);
      for (const r of dropped) run(db, 'DELETE FROM subscriptions WHERE id = ?', [r.id]);
      const id = existing?.id ?? allocateId(db, scope, kind, parsed.target);
      run(
        db,
        `INSERT INTO subscriptions (id, scope, kind, target, options, created_at, renewed_at)
         VALUES (?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (scope, kind, target) DO UPDATE SET renewed_at = excluded.renewed_at, options = excluded.options`,
        [id, scope, kind, parsed.target, options, now, now],
      );
      return { row: findByKey(db, scope, kind, parsed.target) as Row, renewed: live, dropped };
    }, IMMEDIATE);
    const row = outcome.row;
    const renewed = outcome.renewed;
    const replaced = outcome.dropped.length ? this.toSubscription(outcome.dropped[0]) : undefined;
    const subscription = this.toSubscription(row);
    this.logger.debug(
      `${renewed ? 'Renewed' : 'Added'} subscription ${subscription.id} (${kind} ${subscription.target})`,
    );
    this.emit({ type: renewed ? 'renewed' : 'subscribed', subscription, replaced });
    return { subscription, renewed, replaced };
  }

  /** Removes one subscription; an unknown id is an error and changes nothing. */
  unsubscribe(id: string, scope?: string): Subscription {
    const key = id.trim().toLowerCase();
    const wanted = scope === undefined ? undefined : normalizeScope(scope);
    // Looked up under the lock: two processes removing the same id cannot both report it removed.
    const row = this.store.write((db) => {
      const found = one<Row>(db, 'SELECT * FROM subscriptions WHERE id = ?', [key]);
      if (!found || (wanted !== undefined && found.scope !== wanted)) {
        throw new SubscriptionError(
          'not_found',
          `No subscription has the id "${id}". List them to see the ids in use.`,
        );
      }
      run(db, 'DELETE FROM subscriptions WHERE id = ?', [key]);
      return found;
    }, IMMEDIATE);
    const subscription = this.toSubscription(row);
    this.emit({ type: 'unsubscribed', subscription });
    return subscription;
  }

  /** Removes every subscription of a scope, or of all scopes; returns how many active ones were removed. */
  unsubscribeAll(scope?: string): number {
    const cutoff = this.now() - this.expiryMs;
    const s = scope === undefined ? undefined : normalizeScope(scope);
    const count = this.store.write((db) => {
      const n =
        s === undefined
          ? Number(
              one<{ n: number }>(db, 'SELECT count(*) AS n FROM subscriptions WHERE renewed_at > ?', [cutoff])?.n ?? 0,
            )
          : activeRows(db, s, cutoff).length;
      if (s === undefined) run(db, 'DELETE FROM subscriptions');
      else run(db, 'DELETE FROM subscriptions WHERE scope = ?', [s]);
      return n;
    }, IMMEDIATE);
    this.emit({ type: 'cleared', scope: s, count });
    return count;
  }

  /** Active (unexpired) subscriptions, oldest first, of one scope or all; expired ones are purged. */
  list(scope?: string): Subscription[] {
    const cutoff = this.now() - this.expiryMs;
    const s = scope === undefined ? undefined : normalizeScope(scope);
    const { rows, expired } = this.store.read((db) => ({
      rows:
        s === undefined
          ? all<Row>(db, 'SELECT * FROM subscriptions WHERE renewed_at > ? ORDER BY created_at, rowid', [cutoff])
          : activeRows(db, s, cutoff, 'created_at'),
      expired: all<{ id: string }>(db, 'SELECT id FROM subscriptions WHERE renewed_at <= ?', [cutoff]).map((r) => r.id),
    }));
    if (expired.length) {
      this.store.write((db) => run(db, 'DELETE FROM subscriptions WHERE renewed_at <= ?', [cutoff]));
      this.emit({ type: 'expired', ids: expired });
    }
    return rows.map((r) => this.toSubscription(r));
  }

  /** One active subscription by id, or undefined. */
  get(id: string): Subscription | undefined {
    const cutoff = this.now() - this.expiryMs;
    const row = this.store.read((db) =>
      one<Row>(db, 'SELECT * FROM subscriptions WHERE id = ? AND renewed_at > ?', [id.trim().toLowerCase(), cutoff]),
    );
    return row ? this.toSubscription(row) : undefined;
  }

  /** Records what a turn was given (content hashes) and renews those subscriptions: using one keeps it alive. */
  recordMaterialized(entries: readonly { id: string; hash: string }[]): { renewedAt: number; expiresAt: number } {
    const now = this.now();
    const stamp = { renewedAt: now, expiresAt: now + this.expiryMs };
    if (!entries.length) return stamp;
    const list = entries.map((e) => ({ ...e }));
    this.store.write((db) => {
      for (const e of list)
        run(db, 'UPDATE subscriptions SET last_hash = ?, renewed_at = ? WHERE id = ?', [e.hash, now, e.id]);
    });
    return stamp;
  }

  /** Notifies on changes made through this registry (adapters refresh their lists). */
  onDidChange(listener: (change: SubscriptionChange) => void): { dispose(): void } {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }

  private get expiryMs(): number {
    return this.config.expiryHours * 3600_000;
  }

  private emit(change: SubscriptionChange): void {
    for (const l of [...this.listeners]) {
      try {
        l(change);
      } catch (err) {
        this.logger.warn(`A subscription listener failed: ${(err as Error).message}`);
      }
    }
  }

  private toSubscription(row: Row): Subscription {
    let opts: Omit<ParsedTarget, 'target'> = {};
    try {
      opts = JSON.parse(row.options) as Omit<ParsedTarget, 'target'>;
    } catch {
      // Options are derived from the target; a damaged copy only loses the cached parse.
    }
    return {
      id: row.id,
      scope: row.scope,
      kind: row.kind as SubscriptionKind,
      target: row.target,
      ...opts,
      createdAt: Number(row.created_at),
      renewedAt: Number(row.renewed_at),
      expiresAt: Number(row.renewed_at) + this.expiryMs,
      lastHash: row.last_hash ?? undefined,
    };
  }

  // eslint-disable-next-line max-lines-per-function, complexity -- one validation per target kind, each with its own error
  private parseTarget(request: SubscribeRequest): ParsedTarget {
    const raw = typeof request.target === 'string' ? request.target.trim() : '';
    if (!raw)
      throw new SubscriptionError('invalid', 'A subscription needs a target (a file path, or a query for memory).');
    if (
      raw.length > MAX_TARGET_CHARS ||
      (request.pattern?.length ?? 0) > MAX_TARGET_CHARS ||
      (request.symbol?.length ?? 0) > MAX_TARGET_CHARS
    ) {
      throw new SubscriptionError(
        'too_long',
        `The target is ${Math.max(raw.length, request.pattern?.length ?? 0, request.symbol?.length ?? 0)} characters long; the limit is ${MAX_TARGET_CHARS}.`,
      );
    }
    let parsed: ParsedTarget;
    switch (request.kind) {
      case 'memory': {
        const query = raw.replace(/\s+/g, ' ');
        if (!toMatchQuery(query))
          throw new SubscriptionError('invalid', `"${query}" has no words to search memory for.`);
        parsed = { target: query, query };
        break;
      }
      case 'file': {
        const path = this.checkPath(raw);
        parsed = { target: path, path };
        break;
      }
      case 'lines': {
        const m = /^(.*)#L(\d+)(?:-L?(\d+))?$/.exec(raw);
        const pathText = m && !request.lines ? m[1] : raw;
        const lines = request.lines ?? (m ? { start: Number(m[2]), end: Number(m[3] ?? m[2]) } : undefined);
        if (!lines)
          throw new SubscriptionError(
            'invalid',
            'A lines subscription needs a range: give lines {start, end} or a target like src/a.ts#L10-20.',
          );
        validateLines(lines);
        const path = this.checkPath(pathText);
        parsed = {
          target: `${path}#L${lines.start}-${lines.end}`,
          path,
          lines: { start: lines.start, end: lines.end },
        };
        break;
      }
      case 'pattern': {
        let pathText = raw;
        let source = request.pattern;
        let flags = '';
        if (source === undefined) {
          const at = raw.indexOf('~/');
          const m = at >= 0 ? /^\/(.*)\/([a-z]*)$/s.exec(raw.slice(at + 1)) : null;
          if (!m)
            throw new SubscriptionError(
              'invalid',
              'A pattern subscription needs a regular expression: give pattern, or a target like src/a.ts~/TODO/i.',
            );
          pathText = raw.slice(0, at);
          source = m[1];
          flags = m[2];
        } else {
          const m = /^\/(.+)\/([a-z]*)$/s.exec(source);
          if (m) {
            source = m[1];
            flags = m[2];
          }
        }
        if (!source) throw new SubscriptionError('invalid', 'The pattern is empty.');
        flags = [...new Set(flags.replace(/[gy]/g, ''))].sort().join('');
        try {
          compileUserPattern(source, flags);
        } catch (err) {
          if (err instanceof UserPatternError) throw new SubscriptionError('invalid_regex', err.message);
          throw err;
        }
        const path = this.checkPath(pathText);
        parsed = { target: `${path}~/${source}/${flags}`, path, pattern: source, flags };
        break;
      }
      case 'symbol': {
        let pathText: string | undefined;
        let symbol = request.symbol?.trim();
        // With the name given separately, the target is the path, or `path::name` as shown to users.
        if (symbol) pathText = (raw.includes('::') ? raw.slice(0, raw.indexOf('::')) : raw).trim() || undefined;
        else {
          const at = raw.indexOf('::');
          if (at >= 0) {
            pathText = raw.slice(0, at).trim() || undefined;
            symbol = raw.slice(at + 2).trim();
          } else symbol = raw;
        }
        if (!symbol || !/^[\p{L}\p{N}_$][\p{L}\p{N}_$.#]*$/u.test(symbol)) {
          throw new SubscriptionError(
            'invalid',
            `"${symbol ?? ''}" is not a symbol name; use a name like parseConfig or Store.open, optionally after a path: src/a.ts::parseConfig.`,
          );
        }
        const path = pathText ? this.checkPath(pathText) : undefined;
        parsed = { target: `${path ?? ''}::${symbol}`, path, symbol };
        break;
      }
    }
    if (parsed.target.length > MAX_TARGET_CHARS) {
      throw new SubscriptionError(
        'too_long',
        `The target is ${parsed.target.length} characters long; the limit is ${MAX_TARGET_CHARS}.`,
      );
    }
    return parsed;
  }

  private checkPath(input: string): string {
    let rel: string;
    try {
      rel = checkWorkspaceFile(this.root, input);
    } catch (err) {
      if (err instanceof WorkspacePathError) throw new SubscriptionError(err.reason, err.message);
      throw err;
    }
    try {
      if (statSync(resolve(this.root, rel)).isDirectory()) {
        throw new SubscriptionError('invalid', `"${rel}" is a folder; subscribe to a file inside it.`);
      }
    } catch (err) {
      if (err instanceof SubscriptionError) throw err;
      // A file that does not exist yet may be subscribed; each turn then says it is missing.
    }
    return rel;
  }
}

function normalizeScope(scope: string | undefined): string {
  const s = (scope ?? DEFAULT_SCOPE).trim();
  if (!s) return DEFAULT_SCOPE;
  if (s.length > 200)
    throw new SubscriptionError('too_long', `The scope name is ${s.length} characters long; the limit is 200.`);
  return s;
}

function validateLines(lines: LineRange): void {
  const { start, end } = lines;
  if (!Number.isInteger(start) || !Number.isInteger(end) || start < 1 || end < start) {
    throw new SubscriptionError(
      'invalid',
      `Invalid line range ${start}-${end}: lines start at 1 and the end must not come before the start.`,
    );
  }
  if (end - start > 100_000) throw new SubscriptionError('invalid', `The line range ${start}-${end} is too large.`);
}

function optionsOf(p: ParsedTarget): Omit<ParsedTarget, 'target'> {
  const { target: _target, ...rest } = p;
  return Object.fromEntries(Object.entries(rest).filter(([, v]) => v !== undefined));
}

function findByKey(db: Database, scope: string, kind: string, target: string): Row | undefined {
  return one<Row>(db, 'SELECT * FROM subscriptions WHERE scope = ? AND kind = ? AND target = ?', [scope, kind, target]);
}

function activeRows(
  db: Database,
  scope: string,
  cutoff: number,
  order: 'renewed_at' | 'created_at' = 'renewed_at',
): Row[] {
  const orderBy = order === 'renewed_at' ? 'renewed_at, created_at, rowid' : 'created_at, rowid';
  return all<Row>(db, `SELECT * FROM subscriptions WHERE scope = ? AND renewed_at > ? ORDER BY ${orderBy}`, [
    scope,
    cutoff,
  ]);
}

/** A short id from the key, so the same subscription gets the same id in every process and replay. */
export function subscriptionId(scope: string, kind: string, target: string, salt = 0): string {
  const digest = createHash('sha256').update(`${scope}\0${kind}\0${target}\0${salt}`).digest();
  let bits = 0;
  let value = 0;
  let out = '';
  for (const byte of digest) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5 && out.length < 6) {
      out += BASE32[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
    if (out.length === 6) break;
    value &= (1 << bits) - 1;
  }
  return out;
}

function allocateId(db: Database, scope: string, kind: string, target: string): string {
  for (let salt = 0; ; salt++) {
    const id = subscriptionId(scope, kind, target, salt);
    const taken = one<Row>(db, 'SELECT * FROM subscriptions WHERE id = ?', [id]);
    if (!taken || (taken.scope === scope && taken.kind === kind && taken.target === target)) return id;
  }
}
