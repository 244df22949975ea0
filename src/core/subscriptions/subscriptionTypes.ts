import type { CoreConfig } from '../config';
import type { Logger } from '../logger';
import { Refusal } from './refusal';

/* The subscription model: what can be subscribed to, requests, results and refusals. */
export type SubscriptionKind = 'file' | 'lines' | 'pattern' | 'symbol' | 'memory';
export const SUBSCRIPTION_KINDS: readonly SubscriptionKind[] = ['file', 'lines', 'pattern', 'symbol', 'memory'];

export interface LineRange {
  /** 1-based, inclusive. */
  start: number;
  /** 1-based, inclusive. */
  end: number;
}

/** What a subscription reads, parsed from its normalized target. */
export interface ParsedTarget {
  /** Normalized key: `src/a.ts`, `src/a.ts#L10-20`, `src/a.ts~/re/i`, `src/a.ts::name` or `::name`, or the memory query. */
  target: string;
  /** Root-relative file (file, lines, pattern; symbol when given with a path). */
  path?: string;
  lines?: LineRange;
  /** Regex source (pattern). */
  pattern?: string;
  /** Regex flags (pattern). */
  flags?: string;
  /** Symbol name (symbol). */
  symbol?: string;
  /** Search text (memory). */
  query?: string;
}

/** A stored subscription, as listed and materialized. */
export interface Subscription extends ParsedTarget {
  id: string;
  scope: string;
  kind: SubscriptionKind;
  createdAt: number;
  renewedAt: number;
  expiresAt: number;
  /** SHA-256 of the content given to the last turn. */
  lastHash?: string;
}

export interface SubscribeRequest {
  /** Defaults to 'workspace'. */
  scope?: string;
  kind: SubscriptionKind;
  target: string;
  lines?: LineRange;
  pattern?: string;
  symbol?: string;
  /** When the scope is full, drop the least recently renewed subscription instead of failing. */
  replaceOldest?: boolean;
}

export interface SubscribeResult {
  subscription: Subscription;
  /** True when the same (scope, kind, target) existed and was only renewed. */
  renewed: boolean;
  /** The subscription dropped to make room (replaceOldest). */
  replaced?: Subscription;
}

export type SubscriptionChange =
  | { type: 'subscribed' | 'renewed'; subscription: Subscription; replaced?: Subscription }
  | { type: 'unsubscribed'; subscription: Subscription }
  | { type: 'cleared'; scope?: string; count: number }
  | { type: 'expired'; ids: string[] };

export type SubscriptionErrorReason =
  'limit' | 'not_found' | 'invalid_regex' | 'outside_workspace' | 'secret' | 'too_long' | 'invalid';

/** A refused subscription request; the message is written for the user, `reason` for code. */
export class SubscriptionError extends Refusal<SubscriptionErrorReason> {
  override readonly name = 'SubscriptionError';
}

export interface SubscriptionRegistryOptions {
  /** Workspace root: file targets are confined to it. */
  root: string;
  config?: CoreConfig['subscriptions'];
  now?: () => number;
  logger?: Logger;
}
