import { strict as assert } from 'node:assert';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Store, StoreSchemaError } from '../../../src/core/store/store';
import { durableMigrations, indexMigrations } from '../../../src/core/store/migrations';
import { all, loadSqlJs, one } from '../../../src/core/store/sqlite';
import { MemoryLogger } from '../../../src/core/logger';
import { VerifiedStamps } from '../../../src/core/store/recovery';
import { ContextService } from '../../../src/core/api/contextService';

const writer = join(__dirname, '..', '..', 'fixtures', 'store', 'writer.js');

function runWriter(stateDir: string, prefix: string, count: number): Promise<number> {
  return new Promise((resolveRun, reject) => {
    const child = spawn(process.execPath, [writer, stateDir, prefix, String(count)], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let err = '';
    child.stderr.on('data', (d) => (err += d));
    child.on('error', reject);
    child.on('exit', (code) =>
      code === 0 ? resolveRun(code) : reject(new Error(`writer ${prefix} exited ${code}: ${err}`)),
    );
  });
}

function addSubscription(store: Store, id: string, target = `${id}.ts`): void {
  store.write((db) =>
    db.run('INSERT INTO subscriptions (id, scope, kind, target, created_at, renewed_at) VALUES (?, ?, ?, ?, ?, ?)', [
      id,
      'workspace',
      'file',
      target,
      1,
      1,
    ]),
  );
}

/** Overwrites the last pages with garbage: the header and schema stay valid, so only a whole-file check finds it. */
function damagePages(path: string): void {
  const bytes = readFileSync(path);
  const pageSize = bytes.readUInt16BE(16) || 65536;
  const pages = bytes.length / pageSize;
  assert.ok(pages >= 6, `need a few pages, have ${pages}`);
  // The rows written last sit in the last pages; the schema's pages come first.
  for (let i = (pages - 2) * pageSize; i < bytes.length; i++) bytes[i] = (i * 7919) & 0xff;
  writeFileSync(path, bytes);
}

function fillIndex(store: Store): void {
  store.index.run('CREATE TABLE filler (x TEXT)');
  for (let i = 0; i < 200; i++) store.index.run('INSERT INTO filler VALUES (?)', ['y'.repeat(200) + i]);
  store.markIndexDirty();
}

function subscriptionIds(store: Store): string[] {
  return store.read((db) => all<{ id: string }>(db, 'SELECT id FROM subscriptions ORDER BY id').map((r) => r.id));
}

describe('Store', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'pc-store-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('creates both databases at the latest schema version', async () => {
    const store = await Store.open({ stateDir: dir });
    const stats = store.stats();
    assert.equal(stats.schema.durable, durableMigrations.length);
    assert.equal(stats.schema.index, indexMigrations.length);
    const tables = all<{ name: string }>(store.index, "SELECT name FROM sqlite_master WHERE type = 'table'").map(
      (r) => r.name,
    );
    assert.ok(tables.includes('symbols') && tables.includes('docs_fts'));
    assert.ok(!tables.some((t) => t.startsWith('cochange')), 'co-change counts live in their own file');
    store.dispose();
  });

  it('keeps durable rows across close and reopen', async () => {
    const a = await Store.open({ stateDir: dir });
    addSubscription(a, 'abc123');
    a.dispose();
    const b = await Store.open({ stateDir: dir });
    assert.deepEqual(subscriptionIds(b), ['abc123']);
    b.dispose();
  });

  it('supports FTS4 search in the durable database', async () => {
    const store = await Store.open({ stateDir: dir });
    store.write((db) =>
      db.run('INSERT INTO episodes_fts (id, prompt, answer) VALUES (?, ?, ?)', [
        'e1',
        'why do we use a ledger',
        'because refunds',
      ]),
    );
    const hit = store.read((db) =>
      one<{ id: string }>(db, 'SELECT id FROM episodes_fts WHERE episodes_fts MATCH ?', ['ledger']),
    );
    assert.equal(hit?.id, 'e1');
    store.dispose();
  });

  it('writes atomically: no temp file is left and the file is complete', async () => {
    const store = await Store.open({ stateDir: dir });
    addSubscription(store, 'one');
    store.flush();
    const names = readdirSync(dir);
    assert.ok(names.includes('durable.db'));
    assert.equal(names.filter((n) => n.endsWith('.tmp')).length, 0);
    store.dispose();
  });

  it('keeps the old file intact when a writer is killed mid-write', async function () {
    this.timeout(30000);
    const first = await Store.open({ stateDir: dir });
    first.index.run('CREATE TABLE marker (v TEXT)');
    first.index.run("INSERT INTO marker VALUES ('original')");
    first.markIndexDirty();
    first.dispose();
    const child = spawn(process.execPath, [writer, dir, 'x', '0', 'big-index'], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    await new Promise<void>((r) => child.stdout.once('data', () => r()));
    await new Promise((r) => setTimeout(r, 300));
    child.kill('SIGKILL');
    await new Promise((r) => child.once('exit', r));
    const reopened = await Store.open({ stateDir: dir });
    // Either the old or a complete new file: never a half-written database.
    assert.equal(reopened.notices.length, 0, 'no corruption was detected');
    assert.equal(one<{ v: string }>(reopened.index, 'SELECT v FROM marker')?.v, 'original');
    reopened.dispose();
  });

  it('moves a corrupt durable file aside, restores the last good copy and tells the user', async () => {
    const a = await Store.open({ stateDir: dir });
    addSubscription(a, 'keepme');
    a.dispose();
    writeFileSync(join(dir, 'durable.db'), 'this is not a database at all'.repeat(50));
    const logger = new MemoryLogger();
    const b = await Store.open({ stateDir: dir, logger });
    assert.equal(b.notices.length, 1);
    assert.equal(b.notices[0].kind, 'restored');
    assert.ok(b.notices[0].movedTo && existsSync(b.notices[0].movedTo));
    assert.match(readFileSync(b.notices[0].movedTo, 'utf8'), /not a database/);
    assert.deepEqual(subscriptionIds(b), ['keepme']);
    assert.ok(logger.lines.some((l) => l.level === 'warn' && /damaged/.test(l.message)));
    b.dispose();
  });

  it('starts clean when the file is corrupt and there is no usable copy', async () => {
    writeFileSync(join(dir, 'durable.db'), Buffer.alloc(8192, 7));
    const store = await Store.open({ stateDir: dir });
    assert.equal(store.notices[0]?.kind, 'recovered');
    assert.match(store.notices[0].message, /starting with empty data/);
    assert.deepEqual(subscriptionIds(store), []);
    addSubscription(store, 'fresh');
    store.dispose();
    const again = await Store.open({ stateDir: dir });
    assert.deepEqual(subscriptionIds(again), ['fresh']);
    again.dispose();
  });

  it('restores a zero-byte durable file from its copy, says so, and never overwrites the copy with empty data', async () => {
    const a = await Store.open({ stateDir: dir });
    for (const id of ['s1', 's2', 's3']) addSubscription(a, id);
    a.dispose();
    const goodCopy = readFileSync(join(dir, 'durable.db.bak'));
    writeFileSync(join(dir, 'durable.db'), '');
    const b = await Store.open({ stateDir: dir });
    assert.deepEqual(subscriptionIds(b), ['s1', 's2', 's3']);
    assert.equal(b.notices.length, 1);
    assert.equal(b.notices[0].kind, 'restored');
    assert.match(
      b.notices[0].message,
      /durable\.db was damaged \(it is empty \(0 bytes\)\); it was restored from its last good copy/,
    );
    b.flush();
    b.dispose();
    const c = await Store.open({ stateDir: dir });
    assert.deepEqual(subscriptionIds(c), ['s1', 's2', 's3']);
    assert.equal(c.notices.length, 0, 'said once');
    c.dispose();
    const SQL = await loadSqlJs();
    const copy = new SQL.Database(readFileSync(join(dir, 'durable.db.bak')));
    assert.equal(
      all(copy, 'SELECT id FROM subscriptions').length,
      3,
      `the copy (${goodCopy.length} bytes before) still has the data`,
    );
    copy.close();
  });

  it('brings the data back from the copy when the durable file is missing', async () => {
    const a = await Store.open({ stateDir: dir });
    addSubscription(a, 'kept');
    a.dispose();
    rmSync(join(dir, 'durable.db'));
    const b = await Store.open({ stateDir: dir });
    assert.deepEqual(subscriptionIds(b), ['kept']);
    assert.match(b.notices[0]?.message ?? '', /was missing; it was restored/);
    b.dispose();
  });

  it('finds a damaged page behind a valid header in the durable file and restores the copy', async () => {
    const a = await Store.open({ stateDir: dir });
    for (let i = 0; i < 40; i++)
      addSubscription(a, `sub${String(i).padStart(2, '0')}`, `${'deep/'.repeat(40)}file${i}.ts`);
    a.dispose();
    damagePages(join(dir, 'durable.db'));
    const b = await Store.open({ stateDir: dir });
    assert.equal(b.notices[0]?.kind, 'restored', JSON.stringify(b.notices));
    assert.match(b.notices[0].message, /failed its integrity check|database disk image is malformed/);
    assert.equal(subscriptionIds(b).length, 40);
    b.write((db) => db.run('DELETE FROM subscriptions'), { immediate: true });
    assert.deepEqual(subscriptionIds(b), []);
    b.dispose();
  });

  it('moves a damaged index cache aside and starts it empty for a rebuild', async () => {
    const a = await Store.open({ stateDir: dir });
    addSubscription(a, 'durable-row');
    fillIndex(a);
    a.dispose();
    damagePages(join(dir, 'index.db'));
    const b = await Store.open({ stateDir: dir });
    assert.equal(all(b.index, 'SELECT path FROM files').length, 0);
    assert.equal(b.notices.length, 1, JSON.stringify(b.notices));
    assert.match(b.notices[0].message, /index cache .*index\.db was damaged .*will be rebuilt/);
    assert.ok(b.notices[0].movedTo && existsSync(b.notices[0].movedTo));
    assert.equal(all(b.index, 'SELECT path FROM files').length, 0);
    assert.deepEqual(subscriptionIds(b), ['durable-row']);
    b.dispose();
  });

  it('turns the first "malformed" error of an index it trusted into a rebuild that names the file', async () => {
    const a = await Store.open({ stateDir: dir });
    fillIndex(a);
    a.dispose();
    damagePages(join(dir, 'index.db'));
    // As if this machine had checked exactly this file before: the open skips the whole-file check.
    new VerifiedStamps(join(dir, 'index.db.verified')).record(join(dir, 'index.db'));
    const b = await Store.open({ stateDir: dir });
    assert.equal(b.notices.length, 0, JSON.stringify(b.notices));
    assert.throws(() => all(b.index, 'SELECT count(*) FROM filler'), /index cache .*index\.db is damaged/);
    assert.equal(b.notices.length, 1);
    assert.equal(all(b.index, 'SELECT path FROM files').length, 0, 'the fresh cache answers');
    b.dispose();
    const c = await Store.open({ stateDir: dir });
    assert.equal(c.notices.length, 0, 'the rebuilt cache is whole: ' + JSON.stringify(c.notices));
    c.dispose();
  });

  it('changes nothing, here or on disk, when an immediate write throws', async () => {
    const a = await Store.open({ stateDir: dir });
    const b = await Store.open({ stateDir: dir });
    addSubscription(a, 'first');
    a.flush();
    assert.throws(
      () =>
        b.write(
          (db) => {
            db.run(
              'INSERT INTO subscriptions (id, scope, kind, target, created_at, renewed_at) VALUES (?, ?, ?, ?, ?, ?)',
              ['second', 'workspace', 'file', 'x.ts', 1, 1],
            );
            throw new Error('refused');
          },
          { immediate: true },
        ),
      /refused/,
    );
    assert.deepEqual(subscriptionIds(b), ['first']);
    b.dispose();
    a.dispose();
    const c = await Store.open({ stateDir: dir });
    assert.deepEqual(subscriptionIds(c), ['first']);
    c.dispose();
  });

  it('rebuilds a corrupt index cache without touching durable data', async () => {
    const a = await Store.open({ stateDir: dir });
    addSubscription(a, 'durable-row');
    a.dispose();
    writeFileSync(join(dir, 'index.db'), 'garbage');
    const b = await Store.open({ stateDir: dir });
    assert.deepEqual(subscriptionIds(b), ['durable-row']);
    assert.equal(b.notices.length, 0, 'durable work never reads the index cache');
    assert.equal(existsSync(join(dir, 'index.db')), true, 'and leaves it where it is');
    b.index.exec('SELECT 1');
    assert.equal(b.notices[0]?.kind, 'recovered');
    assert.match(b.notices[0].message, /index cache/);
    assert.deepEqual(subscriptionIds(b), ['durable-row']);
    b.resetIndex();
    assert.deepEqual(subscriptionIds(b), ['durable-row']);
    b.dispose();
  });

  it('spaces out index saves while held and saves soon after release', async () => {
    const store = await Store.open({ stateDir: dir, indexSaveDelayMs: 20, heldIndexSaveDelayMs: 60_000 });
    const indexPath = join(dir, 'index.db');
    const saved = () =>
      existsSync(indexPath)
        ? one<{ n: number }>(
            new SQL.Database(readFileSync(indexPath)),
            "SELECT count(*) AS n FROM meta WHERE key = 'k'",
          )!.n
        : 0;
    const SQL = await loadSqlJs();
    const release = store.holdIndexSaves();
    store.index.run("INSERT INTO meta (key, value) VALUES ('k', 'v')");
    store.markIndexDirty();
    await new Promise((r) => setTimeout(r, 100));
    assert.equal(saved(), 0, 'not saved while held');
    release();
    await new Promise((r) => setTimeout(r, 100));
    assert.equal(saved(), 1, 'saved after release');
    store.dispose();
  });

  it('gives back the space of tables dropped by an index upgrade', async () => {
    const SQL = await loadSqlJs();
    const old = new SQL.Database();
    old.exec(indexMigrations[0]);
    old.exec('PRAGMA user_version = 1');
    old.run('BEGIN');
    for (let i = 0; i < 20000; i++)
      old.run('INSERT INTO calls (path, name, line, col) VALUES (?, ?, ?, ?)', [
        `src/some/rather/long/folder/file${i % 500}.ts`,
        `f${i}`,
        i,
        1,
      ]);
    old.run('COMMIT');
    const before = old.export();
    old.close();
    writeFileSync(join(dir, 'index.db'), before);
    const store = await Store.open({ stateDir: dir });
    assert.equal(store.stats().schema.index, indexMigrations.length);
    store.markIndexDirty();
    store.dispose();
    assert.ok(
      statSync(join(dir, 'index.db')).size < before.length / 4,
      `${statSync(join(dir, 'index.db')).size} of ${before.length} bytes`,
    );
  });

  it('drops the co-change tables and their meta rows of an older index cache', async () => {
    const SQL = await loadSqlJs();
    const old = new SQL.Database();
    for (const m of indexMigrations.slice(0, 3)) old.exec(m);
    old.exec('PRAGMA user_version = 3');
    old.run('INSERT INTO cochange_files (path, commits, last_time) VALUES (?, ?, ?)', ['a.ts', 2, 1000]);
    old.run('INSERT INTO cochange_pairs (a, b, count, last_time) VALUES (?, ?, ?, ?)', ['a.ts', 'b.ts', 2, 1000]);
    old.run('INSERT INTO meta (key, value) VALUES (?, ?), (?, ?), (?, ?)', [
      'cochange.lastMined',
      'abc',
      'cochange.commits',
      '2',
      'codeIndex.lastBuild',
      '{}',
    ]);
    writeFileSync(join(dir, 'index.db'), old.export());
    old.close();
    const store = await Store.open({ stateDir: dir });
    const tables = all<{ name: string }>(store.index, "SELECT name FROM sqlite_master WHERE type = 'table'").map(
      (r) => r.name,
    );
    assert.ok(!tables.some((t) => t.startsWith('cochange')), tables.join());
    assert.deepEqual(
      all<{ key: string }>(store.index, 'SELECT key FROM meta').map((r) => r.key),
      ['codeIndex.lastBuild'],
    );
    store.dispose();
  });

  it('refuses a database written by a newer schema with a clear message', async () => {
    const a = await Store.open({ stateDir: dir });
    a.write((db) => db.run(`PRAGMA user_version = ${durableMigrations.length + 5}`));
    a.dispose();
    await assert.rejects(Store.open({ stateDir: dir }), (err: unknown) => {
      assert.ok(err instanceof StoreSchemaError);
      assert.match((err as Error).message, /newer release/);
      return true;
    });
  });

  it('sees rows written by another store instance on the same directory', async () => {
    const a = await Store.open({ stateDir: dir });
    const b = await Store.open({ stateDir: dir });
    addSubscription(a, 'from-a');
    a.flush();
    assert.deepEqual(subscriptionIds(b), ['from-a']);
    addSubscription(b, 'from-b');
    b.flush();
    assert.deepEqual(subscriptionIds(a), ['from-a', 'from-b']);
    a.dispose();
    b.dispose();
  });

  it('saves an immediate write at once, so another instance sees it without a flush', async () => {
    const a = await Store.open({ stateDir: dir, durableSaveDelayMs: 60_000 });
    const b = await Store.open({ stateDir: dir });
    a.write((db) =>
      db.run('INSERT INTO subscriptions (id, scope, kind, target, created_at, renewed_at) VALUES (?, ?, ?, ?, ?, ?)', [
        'later',
        'workspace',
        'file',
        'later.ts',
        1,
        1,
      ]),
    );
    assert.deepEqual(subscriptionIds(b), [], 'a normal write waits for the save delay');
    a.write(
      (db) =>
        db.run(
          'INSERT INTO subscriptions (id, scope, kind, target, created_at, renewed_at) VALUES (?, ?, ?, ?, ?, ?)',
          ['now', 'workspace', 'file', 'now.ts', 1, 1],
        ),
      { immediate: true },
    );
    assert.deepEqual(subscriptionIds(b), ['later', 'now']);
    a.dispose();
    b.dispose();
  });

  it('loses no rows when two processes write at the same time', async function () {
    this.timeout(60000);
    const n = 60;
    await Promise.all([runWriter(dir, 'p1', n), runWriter(dir, 'p2', n)]);
    const store = await Store.open({ stateDir: dir });
    const ids = subscriptionIds(store);
    assert.equal(ids.length, 2 * n, `expected ${2 * n} rows, got ${ids.length}`);
    assert.equal(ids.filter((i) => i.startsWith('p1-')).length, n);
    assert.equal(ids.filter((i) => i.startsWith('p2-')).length, n);
    store.dispose();
  });
});

describe('a command on durable data only', function () {
  this.timeout(30000);
  it('lists subscriptions without reading the index cache, however large or damaged', async () => {
    const root = mkdtempSync(join(tmpdir(), 'pc-durable-only-'));
    const stateDir = join(root, '.state');
    try {
      writeFileSync(join(root, 'a.ts'), 'export const a = 1;\n');
      const first = await ContextService.open({ root, stateDir });
      await first.subscriptions.subscribe({ kind: 'file', target: 'a.ts' });
      first.dispose();
      writeFileSync(join(stateDir, 'index.db'), 'not a database');
      const service = await ContextService.open({ root, stateDir });
      assert.deepEqual(
        service.subscriptions.list().list.map((s) => s.target),
        ['a.ts'],
      );
      service.dispose();
      assert.equal(
        readFileSync(join(stateDir, 'index.db'), 'utf8'),
        'not a database',
        'the index cache was never opened',
      );
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
