import type { ContextService } from '../core/api/contextService';
import type { ContextSuggestion, Subscription, Watch } from '../core/api/types';
import { withTimeout } from '../shared/timeout';

/**
 * What the MCP server uses of the core's front door. Naming it lets a test wrap the service (to
 * count listeners, say) while the server stays a pure translation between MCP and the API.
 */
export interface McpService {
  readonly root: string;
  readonly workspace: Pick<
    ContextService['workspace'],
    'readFile' | 'resolvePath' | 'fileChanged' | 'onDidChangeWorkspaceData'
  >;
  readonly suggestions: Pick<ContextService['suggestions'], 'suggestForInput' | 'suggestForPath' | 'feedback'>;
  readonly decisions: Pick<ContextService['decisions'], 'list'>;
  readonly subscriptions: Pick<
    ContextService['subscriptions'],
    'subscribe' | 'unsubscribe' | 'unsubscribeAll' | 'list' | 'read' | 'onDidChange'
  >;
  readonly watches: Pick<
    ContextService['watches'],
    'add' | 'list' | 'remove' | 'read' | 'firingsSince' | 'start' | 'onDidFire' | 'onDidChange'
  >;
}

/** A subscription as MCP clients get it (JSON in tool results and `context://subscriptions`). */
export interface SubscriptionJson {
  id: string;
  kind: Subscription['kind'];
  target: string;
  path?: string;
  createdAt: number;
  renewedAt: number;
  expiresAt: number;
  lines?: { start: number; end: number };
  pattern?: string;
  flags?: string;
  symbol?: string;
}

export function subscriptionJson(s: Subscription): SubscriptionJson {
  return {
    id: s.id,
    kind: s.kind,
    target: s.target,
    path: s.path,
    createdAt: s.createdAt,
    renewedAt: s.renewedAt,
    expiresAt: s.expiresAt,
    lines: s.lines,
    pattern: s.pattern,
    flags: s.flags || undefined,
    symbol: s.symbol,
  };
}

/** Bounds one call to the service, so a stuck call fails clearly instead of hanging a client or the update queue. */
export function bounded<T>(work: T | Promise<T>, what: string, timeoutMs: number): Promise<T> {
  return withTimeout(Promise.resolve(work), timeoutMs, { what });
}

/** A watch as MCP clients get it: its settings, its URI and when it expires. */
export interface WatchJson {
  id: string;
  uri: string;
  patterns: Watch['patterns'];
  minRelevanceScore: number;
  maxSuggestionsPerTrigger: number;
  cooldownMs: number;
  createdAt: number;
  expiresAt: number;
  lastTriggeredAt?: number;
}

export function watchJson(w: Watch, uri: string): WatchJson {
  return {
    id: w.id,
    uri,
    patterns: w.patterns,
    minRelevanceScore: w.minRelevanceScore,
    maxSuggestionsPerTrigger: w.maxSuggestionsPerTrigger,
    cooldownMs: w.cooldownMs,
    createdAt: w.createdAt,
    expiresAt: w.expiresAt,
    lastTriggeredAt: w.lastTriggeredAt,
  };
}

/** What reading a watch's resource returns: the latest pushed suggestion (trigger and items) and the watch's settings. */
export interface WatchResourceJson {
  watch: WatchJson;
  /** The latest firing's trigger and items (null until it fires). */
  trigger: ContextSuggestion['trigger'] | null;
  items: ContextSuggestion['items'];
  /** Sequence number of the latest firing (0 until it fires); poll_updates cursors use the same numbers. */
  seq: number;
  firedAt: number | null;
  latest: ContextSuggestion | null;
}
