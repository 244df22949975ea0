import { strict as assert } from 'node:assert';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LockTimeoutError, withFileLock } from '../../../src/core/store/fileLock';

/** A pid that surely belongs to no running process: one that has just exited. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']);
  return Number(child.stdout.toString());
}

const counter = join(__dirname, '..', '..', 'fixtures', 'store', 'lockCounter.js');

function runCounter(lock: string, file: string, count: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [counter, lock, file, String(count)], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let err = '';
    child.stderr.on('data', (d) => (err += d));
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`counter exited ${code}: ${err}`))));
  });
}

describe('withFileLock', () => {
  let dir: string;
  let lock: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'pc-lock-'));
    lock = join(dir, 'durable.db.lock');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  // A short timeout: a lock judged live would make these throw instead of running.
  const quick = { timeoutMs: 50 };

  it('takes over an empty lock file at once (a kill between create and write leaves one)', () => {
    writeFileSync(lock, '');
    assert.equal(
      withFileLock(lock, () => 'ran', quick),
      'ran',
    );
    assert.ok(!existsSync(lock), 'released');
  });

  it('takes over a lock file holding garbage', () => {
    writeFileSync(lock, 'not a pid at all\n\0\0');
    assert.equal(
      withFileLock(lock, () => 'ran', quick),
      'ran',
    );
  });

  it('takes over a lock whose process has exited', () => {
    writeFileSync(lock, `${deadPid()} 00ff\n`);
    assert.equal(
      withFileLock(lock, () => 'ran', quick),
      'ran',
    );
    writeFileSync(lock, String(deadPid()));
    assert.equal(
      withFileLock(lock, () => 'ran again', quick),
      'ran again',
    );
  });

  it('waits for a live holder and names its pid when it gives up', () => {
    const holder = process.ppid;
    writeFileSync(lock, `${holder} abcdef\n`);
    assert.throws(
      () => withFileLock(lock, () => assert.fail('must not run while another process holds the lock'), quick),
      (err: unknown) =>
        err instanceof LockTimeoutError &&
        err.holderPid === holder &&
        new RegExp(`process ${holder} holds it`).test(err.message),
    );
    assert.equal(readFileSync(lock, 'utf8'), `${holder} abcdef\n`, "the live holder's lock is left alone");
  });

  it('runs a nested call on the same lock instead of waiting for itself', () => {
    assert.equal(
      withFileLock(lock, () => withFileLock(lock, () => 'inner', quick), quick),
      'inner',
    );
    assert.ok(!existsSync(lock));
  });

  it('leaves no temp file behind', () => {
    withFileLock(lock, () => undefined);
    assert.deepEqual(readdirSync(dir), []);
  });

  it('lets no two processes in at once: no increment is lost', async function () {
    this.timeout(60_000);
    const file = join(dir, 'count.txt');
    writeFileSync(file, '0');
    const n = 150;
    await Promise.all([runCounter(lock, file, n), runCounter(lock, file, n), runCounter(lock, file, n)]);
    assert.equal(Number(readFileSync(file, 'utf8')), 3 * n);
  });
});
