import type { EngineParts } from '../../engine';
import type { FiredWatch } from '../../watches/watchService';
import type { Watch, WatchInput } from '../../watches/watchStore';
import type { Disposable } from '../types';
import type { Watching } from './watching';

/** What the service needs to know of its own lifetime to start watching later. */
export interface Lifetime {
  disposed(): boolean;
  onDispose(fn: () => void): void;
}

/** Watches: patterns that fire when matching files change or the user gets there. `service.watches`. */
export class WatchUseCases {
  readonly #parts: EngineParts;
  readonly #watching: Watching;
  readonly #lifetime: Lifetime;

  constructor(parts: EngineParts, watching: Watching, lifetime: Lifetime) {
    this.#parts = parts;
    this.#watching = watching;
    this.#lifetime = lifetime;
  }

  add(input: WatchInput): { watch: Watch; renewed: boolean } {
    return this.#watching.add(input);
  }

  remove(id: string): Watch {
    return this.#watching.remove(id);
  }

  removeAll(): number {
    return this.#watching.removeAll();
  }

  list(): Watch[] {
    return this.#watching.list();
  }

  read(id: string): { watch: Watch; latest?: FiredWatch } {
    return this.#watching.read(id);
  }

  latestFiring(id: string): FiredWatch | undefined {
    return this.#watching.latestFiring(id);
  }

  firingsSince(
    cursor: number,
    options: { watchIds?: readonly string[]; limit?: number } = {},
  ): { firings: FiredWatch[]; cursor: number } {
    return this.#watching.firingsSince(cursor, options);
  }

  /** Starts evaluating watches in this process; while git may not run, from when it is allowed. */
  start(): void {
    if (this.#parts.gitAccess.allowed) {
      this.#watching.start();
      return;
    }
    const started = this.#parts.gitAccess.onDidAllow(() => {
      started.dispose();
      if (!this.#lifetime.disposed()) this.#watching.start();
    });
    this.#lifetime.onDispose(() => started.dispose());
  }

  onDidFire(listener: (f: FiredWatch) => void): Disposable {
    return this.#watching.onDidFire(listener);
  }

  onDidChange(listener: () => void): Disposable {
    return this.#watching.onDidChange(listener);
  }
}
