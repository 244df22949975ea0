import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { Store } from '../../../src/core/store/store';

/** A temp workspace folder and a temp state directory, removed by cleanup(). */
export class TempWorkspace {
  readonly root: string;
  readonly stateDir: string;
  readonly outside: string;
  private readonly stores: Store[] = [];

  constructor() {
    const base = mkdtempSync(join(tmpdir(), 'pc-subs-'));
    this.root = join(base, 'ws');
    this.stateDir = join(base, 'state');
    this.outside = join(base, 'outside');
    mkdirSync(this.root);
    mkdirSync(this.outside);
  }

  write(rel: string, content: string | Buffer): string {
    const p = join(this.root, rel);
    mkdirSync(dirname(p), { recursive: true });
    writeFileSync(p, content);
    return p;
  }

  async openStore(): Promise<Store> {
    const store = await Store.open({ stateDir: this.stateDir, durableSaveDelayMs: 5, indexSaveDelayMs: 5 });
    this.stores.push(store);
    return store;
  }

  cleanup(): void {
    for (const s of this.stores) {
      try {
        s.dispose();
      } catch {
        // already closed
      }
    }
    rmSync(dirname(this.root), { recursive: true, force: true });
  }
}

/** A settable clock. */
export class Clock {
  constructor(public t = Date.UTC(2026, 10, 22, 12, 0, 0)) {}
  readonly now = (): number => this.t;
  advanceHours(h: number): void {
    this.t += h * 3600_000;
  }
}
