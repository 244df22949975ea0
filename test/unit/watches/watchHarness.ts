import { openEngine, type EngineParts } from '../../../src/core/engine';
import { WatchService, type FiredWatch } from '../../../src/core/watches/watchService';
import { WatchStore } from '../../../src/core/watches/watchStore';

/** The engine of a root, with its watches evaluated in this process, and every ask for context counted. */
export interface Watching {
  parts: EngineParts;
  store: WatchStore;
  service: WatchService;
  /** The file of each query the provider was asked for, in order. */
  suggestCalls: string[];
  firings: FiredWatch[];
  /** Resolves with the first firing (made or heard of from now on) that `match` accepts. */
  nextFiring(match: (f: FiredWatch) => boolean): Promise<FiredWatch>;
  dispose(): void;
}

export async function openWatching(root: string, stateDir: string, clock?: () => number): Promise<Watching> {
  const parts = await openEngine({ root, stateDir, clock });
  const store = new WatchStore(parts.store, parts.clock, () => 24 * 3600_000);
  const service = new WatchService(parts, store);
  const suggestCalls: string[] = [];
  const suggest = parts.provider.suggest.bind(parts.provider);
  parts.provider.suggest = (query, options) => {
    suggestCalls.push(query.currentFile ?? '');
    return suggest(query, options);
  };
  const firings: FiredWatch[] = [];
  const waiters: { match: (f: FiredWatch) => boolean; resolve: (f: FiredWatch) => void }[] = [];
  service.onDidFire((f) => {
    firings.push(f);
    for (const w of waiters.splice(0)) {
      if (w.match(f)) w.resolve(f);
      else waiters.push(w);
    }
  });
  service.start();
  await service.whenReady();
  return {
    parts,
    store,
    service,
    suggestCalls,
    firings,
    nextFiring: (match) => new Promise((resolve) => waiters.push({ match, resolve })),
    dispose: () => {
      service.dispose();
      parts.dispose();
    },
  };
}
