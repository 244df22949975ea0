import { strict as assert } from 'node:assert';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { writeFileAtomic, writeFileAtomicAsync } from '../../../src/core/store/atomicFile';
import { loadSqlJs, one } from '../../../src/core/store/sqlite';
import { Store } from '../../../src/core/store/store';

/** One background write, held until the test lets it go on (then written for real). */
interface HeldWrite {
  data: Uint8Array;
  release(): Promise<boolean>;
  fail(err: Error): void;
}

/**
 * A timed save of the index cache wrote and synced tens of megabytes on the editor's thread. It now
 * writes in the background, and nothing is lost: flush and dispose still save at once, and a
 * background write overtaken by a newer save never replaces it.
 */
describe('index cache saves in the background', () => {
  let dir: string;
  let store: Store;
  let syncWrites: string[];
  let held: HeldWrite[];
  let waiting: ((w: HeldWrite) => void) | undefined;

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'pc-index-saves-'));
    syncWrites = [];
    held = [];
    store = await Store.open({
      stateDir: dir,
      // Due on the next turn of the timers; the test waits for the write itself, never for time.
      indexSaveDelayMs: 0,
      writeFile: (path, data, o) => {
        if (basename(path) === 'index.db') syncWrites.push(basename(path));
        writeFileAtomic(path, data, o);
      },
      writeFileInBackground: (path, data, stillWanted) =>
        new Promise<boolean>((resolve, reject) => {
          const w: HeldWrite = {
            data,
            release: () => {
              const done = writeFileAtomicAsync(path, data, { stillWanted });
              done.then(resolve, reject);
              return done;
            },
            fail: reject,
          };
          held.push(w);
          waiting?.(w);
        }),
    });
    store.index.exec('CREATE TABLE t (v TEXT)');
  });
  afterEach(() => {
    store.dispose();
    rmSync(dir, { recursive: true, force: true });
  });

  const setValue = (v: string) => {
    store.index.exec('DELETE FROM t');
    store.index.run('INSERT INTO t (v) VALUES (?)', [v]);
    store.markIndexDirty();
  };
  /** The next background write the store starts. */
  const nextWrite = () =>
    new Promise<HeldWrite>((resolve) => {
      waiting = (w) => {
        waiting = undefined;
        resolve(w);
      };
    });
  /** The value in index.db as it is on disk. */
  const onDisk = async (): Promise<string | undefined> => {
    const SQL = await loadSqlJs();
    const db = new SQL.Database(readFileSync(store.indexPath));
    try {
      return one<{ v: string }>(db, 'SELECT v FROM t')?.v;
    } catch {
      return undefined;
    } finally {
      db.close();
    }
  };

  it('writes a timed save in the background, not on the event loop', async () => {
    const started = nextWrite();
    setValue('a');
    const write = await started;
    assert.deepEqual(syncWrites, [], 'the timed save wrote index.db on the event loop');
    assert.equal(await write.release(), true);
    assert.equal(await onDisk(), 'a');
    // Changes made while it was written are saved by the next one.
    const second = nextWrite();
    setValue('b');
    assert.equal(await (await second).release(), true);
    assert.equal(await onDisk(), 'b');
    assert.deepEqual(syncWrites, []);
  });

  it('flush writes at once, and the older background write then lands nowhere', async () => {
    const started = nextWrite();
    setValue('old');
    const write = await started;
    setValue('new');
    store.flush();
    assert.deepEqual(syncWrites, ['index.db']);
    assert.equal(await onDisk(), 'new');
    assert.equal(await write.release(), false, 'the overtaken write was put in place');
    assert.equal(await onDisk(), 'new');
  });

  it('dispose saves what a background write had not put in place yet', async () => {
    const started = nextWrite();
    setValue('only');
    const write = await started;
    // Nothing changed since the write began: the data is only in the write under way.
    store.dispose();
    assert.equal(await onDisk(), 'only');
    assert.equal(await write.release(), false);
    assert.equal(await onDisk(), 'only');
  });

  it('a failed background write leaves the change to be saved by flush', async () => {
    const started = nextWrite();
    setValue('kept');
    (await started).fail(new Error('ENOSPC: no space left on device'));
    // Let the failure be handled (a turn of the event loop), then flush.
    await new Promise((r) => setImmediate(r));
    store.flush();
    assert.equal(await onDisk(), 'kept');
  });
});
