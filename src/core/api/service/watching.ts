import type { EngineParts } from '../../engine';
import { WatchService, type FiredWatch } from '../../watches/watchService';
import { WatchError, WatchStore, type Watch, type WatchInput } from '../../watches/watchStore';
import type { Disposable } from '../types';

/** The watch use cases behind ContextService: the shared store of watches and this process's evaluation. */
export class Watching {
  private readonly store: WatchStore;
  private readonly service: WatchService;
  private count: { n: number; at: number } | undefined;

  constructor(private readonly parts: EngineParts) {
    this.store = new WatchStore(parts.store, parts.clock, () => parts.config().subscriptions.expiryHours * 3600_000);
    this.service = new WatchService(parts, this.store);
  }

  /** Adds a watch (or renews the same one); throws WatchError for bad input or when 20 are active. */
  add(input: WatchInput): { watch: Watch; renewed: boolean } {
    const r = this.store.add(input);
    this.changed();
    return r;
  }

  /** Stops a watch; an unknown id throws WatchError and changes nothing. */
  remove(id: string): Watch {
    const w = this.store.remove(id);
    this.changed();
    return w;
  }

  removeAll(): number {
    const n = this.store.removeAll();
    if (n) this.changed();
    return n;
  }

  /** Active watches, oldest first. */
  list(): Watch[] {
    return this.store.list();
  }

  /** One watch and its newest firing; reading it renews it (someone still follows it). */
  read(id: string): { watch: Watch; latest?: FiredWatch } {
    const watch = this.store.get(id);
    if (!watch) throw new WatchError('not_found', `No watch has the id “${id}”.`);
    this.store.renew(id);
    const latest = this.store.latestFiring(id);
    return { watch, latest: latest ? { ...latest, watch } : undefined };
  }

  /** A watch's newest firing, without renewing the watch (for showing it, not following it). */
  latestFiring(id: string): FiredWatch | undefined {
    const watch = this.store.get(id);
    const latest = watch ? this.store.latestFiring(id) : undefined;
    return watch && latest ? { ...latest, watch } : undefined;
  }

  /** Firings after a cursor (0 for all kept), oldest first, and the cursor to pass next time. */
  firingsSince(
    cursor: number,
    options: { watchIds?: readonly string[]; limit?: number } = {},
  ): { firings: FiredWatch[]; cursor: number } {
    const byId = new Map(this.store.list().map((w) => [w.id, w]));
    const firings = this.store.firingsSince(cursor, options).flatMap((f) => {
      const watch = byId.get(f.watchId);
      return watch ? [{ ...f, watch }] : [];
    });
    return { firings, cursor: Math.max(cursor, this.store.lastSeq()) };
  }

  /**
   * Evaluates watches in this process from now on: events any process publishes (file changes,
   * editor activity) fire matching watches, each firing stored once and announced to all.
   */
  start(): void {
    this.service.start();
  }

  /** A watch fired (in this process or another), once this process started watching. */
  onDidFire(listener: (f: FiredWatch) => void): Disposable {
    return this.service.onDidFire(listener);
  }

  /** Watches were added, removed or renewed, here or in another process. */
  onDidChange(listener: () => void): Disposable {
    return this.service.onDidChangeWatches(() => {
      this.count = undefined;
      listener();
    });
  }

  /** A file changed on disk: told to every process's watches, when there are any. */
  fileChanged(path: string, deleted: boolean): void {
    if (this.hasWatches()) this.service.fileChanged(path, deleted);
  }

  /** Where the user is in the editor: told to every process's watches, when there are any. */
  activity(place: { path: string; line?: number; symbol?: string }): void {
    if (this.hasWatches()) this.service.activity(place);
  }

  dispose(): void {
    this.service.dispose();
  }

  private changed(): void {
    this.count = undefined;
    this.service.announceWatchesChanged();
  }

  /** Whether any watch is active, looked up at most once a second (publishing costs a write). */
  private hasWatches(): boolean {
    const now = Date.now();
    if (!this.count || now - this.count.at > 1000) {
      let n = 0;
      try {
        n = this.store.list().length;
      } catch (err) {
        this.parts.logger.debug(`Could not list watches: ${(err as Error).message}`);
      }
      this.count = { n, at: now };
    }
    return this.count.n > 0;
  }
}
