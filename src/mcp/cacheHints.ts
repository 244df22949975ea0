import type { CacheHint, ServerOptions } from '@modelcontextprotocol/server';
import type { ResourceRef } from './uris';

/**
 * How long a 2026-07-28 client may reuse a list or read result (`ttlMs`), and whether the result is
 * the same for every caller (`cacheScope`). Suggestions, watches and subscriptions follow the cursor
 * and the workspace from one moment to the next, so they stay short; decision records and the fixed
 * surface (tools, templates) change rarely and say so. Listeners still hear of every change at once
 * through `subscriptions/listen`. 2025-era results carry no cache fields.
 */
const SECOND = 1000;
const MINUTE = 60 * SECOND;

export const READ_CACHE_HINTS: Record<ResourceRef['kind'], Required<CacheHint>> = {
  suggestions: { ttlMs: 5 * SECOND, cacheScope: 'private' },
  watch: { ttlMs: 5 * SECOND, cacheScope: 'private' },
  subscriptions: { ttlMs: 5 * SECOND, cacheScope: 'private' },
  subscription: { ttlMs: 5 * SECOND, cacheScope: 'private' },
  file: { ttlMs: 30 * SECOND, cacheScope: 'private' },
  decisions: { ttlMs: 10 * MINUTE, cacheScope: 'public' },
  decision: { ttlMs: 10 * MINUTE, cacheScope: 'public' },
};

/** Per operation, for the results the SDK fills itself (lists, discovery). */
export const LIST_CACHE_HINTS: NonNullable<ServerOptions['cacheHints']> = {
  // Lists subscriptions and watches, which agents add and remove as they work.
  'resources/list': { ttlMs: 5 * SECOND, cacheScope: 'private' },
  'resources/templates/list': { ttlMs: 60 * MINUTE, cacheScope: 'public' },
  'tools/list': { ttlMs: 60 * MINUTE, cacheScope: 'public' },
  'server/discover': { ttlMs: 60 * MINUTE, cacheScope: 'public' },
};
