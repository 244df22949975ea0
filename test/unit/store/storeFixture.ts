import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Store } from '../../../src/core/store/store';

/** Gives each test of the calling suite a real store in a fresh temporary state folder; returns its getter. */
export function storePerTest(prefix: string): () => Store {
  let dir: string;
  let store: Store;
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), prefix));
    store = await Store.open({ stateDir: dir });
  });
  afterEach(() => {
    store.dispose();
    rmSync(dir, { recursive: true, force: true });
  });
  return () => store;
}
