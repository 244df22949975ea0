import type { McpBackend } from './backend';

/**
 * Settles with `work`, or rejects once `timeoutMs` has passed or `signal` aborts, so a slow or
 * stuck backend call never holds a client request (or the update queue) forever. The work itself
 * is not stopped: the backend interface takes no signal.
 */
export function bounded<T>(work: Promise<T>, what: string, timeoutMs: number, signal?: AbortSignal): Promise<T> {
  if (signal?.aborted) return Promise.reject(new Error(`${what} was cancelled.`));
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => {
      cleanup();
      reject(new Error(`${what} was cancelled.`));
    };
    const timer = setTimeout(() => {
      cleanup();
      reject(new Error(`${what} took longer than ${timeoutMs} ms.`));
    }, timeoutMs);
    const cleanup = (): void => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    work.then(
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

/** The same backend with every call bounded by `timeoutMs`, so one stuck call fails clearly instead of hanging a client. */
export function withTimeouts(backend: McpBackend, timeoutMs: number): McpBackend {
  const b = backend;
  return {
    root: b.root,
    suggest: (q) => bounded(b.suggest(q), 'Suggesting context', timeoutMs),
    watch: (input) => bounded(b.watch(input), 'Creating the watch', timeoutMs),
    subscribe: (input) => bounded(b.subscribe(input), 'Subscribing', timeoutMs),
    unsubscribe: (id) => bounded(b.unsubscribe(id), 'Unsubscribing', timeoutMs),
    unsubscribeAll: () => bounded(b.unsubscribeAll(), 'Unsubscribing from everything', timeoutMs),
    listSubscriptions: () => bounded(b.listSubscriptions(), 'Listing subscriptions', timeoutMs),
    materialize: (id) => bounded(b.materialize(id), `Reading subscription ${id}`, timeoutMs),
    decisions: () => bounded(b.decisions(), 'Reading decisions', timeoutMs),
    feedback: (s, i, a) => bounded(b.feedback(s, i, a), 'Recording feedback', timeoutMs),
    readFile: (rel) => bounded(b.readFile(rel), `Reading ${rel}`, timeoutMs),
    onDidChangeSubscriptions: (listener) => b.onDidChangeSubscriptions(listener),
    ...(b.onDidChangeFiles ? { onDidChangeFiles: (listener: (relPaths: string[]) => void) => b.onDidChangeFiles!(listener) } : {}),
    ...(b.filesChanged ? { filesChanged: (relPaths: string[]) => b.filesChanged!(relPaths) } : {}),
  };
}
