import { MemoryError } from '../memory/memoryStore';
import { ProviderError } from '../provider/provider';
import { DecisionWriteError } from '../sources/decisions/adrWriter';
import { LockTimeoutError } from '../store/fileLock';
import { StoreSchemaError } from '../store/store';
import { StoreWriteError } from '../store/writeErrors';
import { SubscriptionError, type Subscription } from '../subscriptions/registry';
import { WorkspacePathError } from '../subscriptions/workspacePaths';
import { CancelledError, TimeoutError } from '../../shared/timeout';
import { WatchError } from '../watches/watchStore';

export type ContextErrorReason =
  'invalid' | 'not_found' | 'outside_workspace' | 'secret' | 'limit' | 'no_folder' | 'unavailable';

/**
 * A request the core refuses or cannot serve, with a message written for the user. Every surface
 * shows the message as it is (adding only how to act on it there), so they all say the same thing.
 */
export class ContextError extends Error {
  constructor(
    readonly reason: ContextErrorReason,
    message: string,
  ) {
    super(message);
    this.name = 'ContextError';
  }
}

/** The subscription limit is reached; surfaces say how to make room in their own terms. */
export class SubscriptionLimitError extends ContextError {
  constructor(
    readonly max: number,
    readonly oldest: Subscription | undefined,
  ) {
    super('limit', `The limit of ${max} active subscriptions is reached.`);
    this.name = 'SubscriptionLimitError';
  }
}

const USER_FACING = [
  ContextError,
  WatchError,
  SubscriptionError,
  WorkspacePathError,
  MemoryError,
  ProviderError,
  DecisionWriteError,
  LockTimeoutError,
  StoreSchemaError,
  StoreWriteError,
  TimeoutError,
  CancelledError,
];

/** A full disk or a read-only state directory: the message names the directory and what to do. It is not bad input. */
export { StoreWriteError };

/** The message for errors the user can act on; undefined for bugs (log those with their stack). */
export function userMessageOf(err: unknown): string | undefined {
  return USER_FACING.some((c) => err instanceof c) ? (err as Error).message : undefined;
}

/** True when the error says the request was cancelled (not a failure to report). */
export function isCancellation(err: unknown): boolean {
  return (
    err instanceof CancelledError ||
    (err instanceof Error && (err.name === 'AbortError' || err.message === 'Cancelled'))
  );
}
