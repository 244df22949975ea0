import assert from 'node:assert/strict';
import { spawnSync, type SpawnSyncOptions } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { userMessageOf } from '../../../src/core/api/errors';
import { MemoryLogger } from '../../../src/core/logger';
import { writeFileAtomic } from '../../../src/core/store/atomicFile';
import { Store, type FileWriter } from '../../../src/core/store/store';
import { StoreWriteError } from '../../../src/core/store/writeErrors';

const cli = join(__dirname, '..', '..', '..', 'src', 'cli', 'main.js');

/** Writes as the disk does until it is full, then fails the way Node reports it. */
function disk(): { writer: FileWriter; fill(): void } {
  let full = false;
  return {
    writer: (path, data, options) => {
      if (full)
        throw Object.assign(new Error('ENOSPC: no space left on device, write'), {
          errno: -28,
          code: 'ENOSPC',
          syscall: 'write',
        });
      writeFileAtomic(path, data, options);
    },
    fill: () => {
      full = true;
    },
  };
}

const addSubscription = (id: string) => (db: import('../../../src/core/store/sqlite').Database) =>
  db.run(
    "INSERT INTO subscriptions (id, scope, kind, target, options, created_at, renewed_at) VALUES (?, 'workspace', 'file', 'a.ts', '{}', 1, 1)",
    [id],
  );

describe('store writes that the disk refuses', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'pc-store-full-'));
  });
  afterEach(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it('a full disk names the state directory, the file being saved and what to do', async () => {
    const d = disk();
    const logger = new MemoryLogger();
    const store = await Store.open({ stateDir: dir, writeFile: d.writer, logger });
    try {
      d.fill();
      let thrown: unknown;
      try {
        store.write(addSubscription('s1'), { immediate: true });
      } catch (err) {
        thrown = err;
      }
      assert.ok(thrown instanceof StoreWriteError, String(thrown));
      const message = userMessageOf(thrown);
      assert.ok(message, 'every surface shows it as it is');
      assert.match(
        message,
        new RegExp(
          `Could not save subscriptions and other data to ${join(dir, 'durable.db').replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}`,
        ),
      );
      assert.ok(message.includes(`the disk that holds the state directory ${dir} is full (ENOSPC)`), message);
      assert.match(message, /Free some space on it, or point Proactive Context at another folder/);
      assert.match(message, /--state-dir/);
      assert.match(message, /PROACTIVE_CONTEXT_STATE_DIR/);
      assert.doesNotMatch(message, /^ENOSPC/);

      // The index cache is rebuildable: a failed save is a warning with the same words, never an error.
      store.resetIndex();
      assert.ok(
        logger.lines.some(
          (l) =>
            l.level === 'warn' &&
            l.message.includes('Could not save the index cache') &&
            l.message.includes('is full (ENOSPC)'),
        ),
        JSON.stringify(logger.lines),
      );
      // The change is kept in memory and its save is retried; until then every flush says why it fails.
      assert.throws(() => store.flush(), StoreWriteError);
    } finally {
      assert.throws(() => store.dispose(), StoreWriteError);
    }
  });
});

/** Runs the CLI as a user that cannot write the state directory (root ignores file modes). */
function runUnprivileged(args: string[]) {
  const as: SpawnSyncOptions = process.getuid?.() === 0 ? { uid: 65534, gid: 65534 } : {};
  const r = spawnSync(process.execPath, [cli, ...args], {
    encoding: 'utf8',
    timeout: 60_000,
    env: { ...process.env, HOME: tmpdir() },
    ...as,
  });
  return { code: r.status, stdout: String(r.stdout), stderr: String(r.stderr) };
}

function run(args: string[]) {
  const r = spawnSync(process.execPath, [cli, ...args], { encoding: 'utf8', timeout: 60_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('CLI on a read-only state directory', () => {
  let root: string;
  let state: string;
  let id: string;
  before(() => {
    root = mkdtempSync(join(tmpdir(), 'pc-ro-root-'));
    state = mkdtempSync(join(tmpdir(), 'pc-ro-state-'));
    mkdirSync(join(root, 'src'));
    writeFileSync(join(root, 'src', 'a.ts'), 'export function a(): number {\n  return 1;\n}\n');
    const r = run([
      'subscribe',
      '--root',
      root,
      '--state-dir',
      state,
      '--kind',
      'file',
      '--target',
      'src/a.ts',
      '--json',
    ]);
    assert.equal(r.code, 0, r.stderr);
    id = (JSON.parse(r.stdout) as { subscription: { id: string } }).subscription.id;
    for (const p of [root, join(root, 'src')]) chmodSync(p, 0o755);
    chmodSync(join(root, 'src', 'a.ts'), 0o644);
    for (const name of readdirSync(state)) {
      const p = join(state, name);
      chmodSync(p, statSync(p).isDirectory() ? 0o555 : 0o444);
    }
    chmodSync(state, 0o555);
  });
  after(() => {
    chmodSync(state, 0o755);
    rmSync(root, { recursive: true, force: true });
    rmSync(state, { recursive: true, force: true });
  });

  it('subscriptions still lists, with a note that says why nothing is saved', () => {
    const r = runUnprivileged(['subscriptions', '--root', root, '--state-dir', state]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, new RegExp(`^${id}\\s+file\\s+src/a\\.ts`, 'm'));
    assert.ok(r.stderr.includes(`The Proactive Context state directory ${state} is read-only (EACCES)`), r.stderr);
    assert.match(
      r.stderr,
      /Make it writable, or point Proactive Context at another folder .*--state-dir.*PROACTIVE_CONTEXT_STATE_DIR/,
    );
  });

  it('suggest still answers', () => {
    const r = runUnprivileged(['suggest', '--root', root, '--state-dir', state, '--file', 'src/a.ts', '--line', '2']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^\d+ suggestions? for /);
  });

  it('subscribe fails with what to do, and changes nothing', () => {
    writeFileSync(join(root, 'src', 'b.ts'), 'export const b = 2;\n');
    chmodSync(join(root, 'src', 'b.ts'), 0o644);
    const r = runUnprivileged([
      'subscribe',
      '--root',
      root,
      '--state-dir',
      state,
      '--kind',
      'file',
      '--target',
      'src/b.ts',
    ]);
    assert.equal(r.code, 1, r.stderr);
    assert.match(
      r.stderr,
      /Could not save the change to .*durable\.db: the state directory .* is read-only \(EACCES\)\. Make it writable/,
    );
    const list = runUnprivileged(['subscriptions', '--root', root, '--state-dir', state, '--json']);
    assert.deepEqual(
      (JSON.parse(list.stdout) as { id: string }[]).map((s) => s.id),
      [id],
    );
  });
});
