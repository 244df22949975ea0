import { cpSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Store } from '../../../src/core/store/store';

/** The hand-written fixtures live next to the sources, not in the compiled output. */
export const FIXTURES = resolve(__dirname, '..', '..', '..', '..', 'test', 'fixtures', 'sources');

export interface Workspace {
  root: string;
  store: Store;
  dispose(): void;
}

/** A temporary copy of a fixture folder (or an empty folder) with its own state directory. */
export async function openWorkspace(fixture?: string): Promise<Workspace> {
  const base = mkdtempSync(join(tmpdir(), 'pc-sources-'));
  const root = join(base, 'repo');
  if (fixture) cpSync(join(FIXTURES, fixture), root, { recursive: true });
  else mkdirSync(root);
  const store = await Store.open({ stateDir: join(base, 'state') });
  return {
    root,
    store,
    dispose() {
      store.dispose();
      rmSync(base, { recursive: true, force: true });
    },
  };
}
