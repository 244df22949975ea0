/** Thrown by withTimeout when the time is up; the message names what took too long. */
export class TimeoutError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TimeoutError';
  }
}

/** Thrown by withTimeout when the signal aborts first. */
export class CancelledError extends Error {
  constructor(message = 'Cancelled') {
    super(message);
    this.name = 'CancelledError';
  }
}

export interface TimeoutOptions {
  /** What is being waited for, for the error message ("Reading decisions"). */
  what?: string;
  signal?: AbortSignal;
}

/**
 * Settles with `work`, or rejects with TimeoutError after `ms`, or with CancelledError when the
 * signal aborts. The work itself is not stopped (pass it the same signal for that); it is only no
 * longer waited for, so a stuck call never holds a request, a panel or a chat turn.
 */
export function withTimeout<T>(work: PromiseLike<T>, ms: number, options: TimeoutOptions = {}): Promise<T> {
  const what = options.what ?? 'The operation';
  const signal = options.signal;
  if (signal?.aborted) return Promise.reject(new CancelledError(`${what} was cancelled.`));
  return new Promise<T>((resolve, reject) => {
    const cleanup = (): void => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    };
    const onAbort = (): void => {
      cleanup();
      reject(new CancelledError(`${what} was cancelled.`));
    };
    const timer = setTimeout(() => {
      cleanup();
      reject(new TimeoutError(`${what} took longer than ${ms} ms.`));
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
    Promise.resolve(work).then(
      (v) => {
        cleanup();
        resolve(v);
      },
      (err: unknown) => {
        cleanup();
        reject(err);
      },
    );
  });
}

/** Like withTimeout, but settles with `fallback` instead of rejecting when the time is up or the signal aborts. */
export async function withTimeoutOr<T, F>(
  work: PromiseLike<T>,
  ms: number,
  fallback: F,
  signal?: AbortSignal,
): Promise<T | F> {
  try {
    return await withTimeout(work, ms, { signal });
  } catch (err) {
    if (err instanceof TimeoutError || err instanceof CancelledError) return fallback;
    throw err;
  }
}
