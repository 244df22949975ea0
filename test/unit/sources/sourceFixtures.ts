import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Store } from '../../../src/core/store/store';
import { TempRepo } from '../git/repoFixture';

/** The hand-written fixtures live next to the sources, not in the compiled output. */
export const FIXTURES = resolve(__dirname, '..', '..', '..', '..', 'test', 'fixtures', 'sources');

/** When the fixture's commit is made: fixed, so nothing depends on the day the tests run. */
const FIXTURE_EPOCH = Date.UTC(2024, 5, 1) / 1000;

export interface Workspace {
  root: string;
  store: Store;
  dispose(): void;
}

/**
 * A git repository in a temporary folder holding a copy of a fixture folder (or nothing), all of
 * it committed, with its own state directory outside the work tree.
 */
export async function openWorkspace(fixture?: string): Promise<Workspace> {
  const repo = new TempRepo(true, 'pc-sources-', FIXTURE_EPOCH);
  const state = mkdtempSync(join(tmpdir(), 'pc-sources-state-'));
  try {
    if (fixture) cpSync(join(FIXTURES, fixture), repo.dir, { recursive: true });
    repo.commitAll(fixture ?? 'empty workspace');
    const store = await Store.open({ stateDir: state });
    return {
      root: repo.dir,
      store,
      dispose() {
        store.dispose();
        repo.dispose();
        rmSync(state, { recursive: true, force: true });
      },
    };
  } catch (err) {
    repo.dispose();
    rmSync(state, { recursive: true, force: true });
    throw err;
  }
}
