import { closeSync, openSync, readFileSync, statSync, unlinkSync, writeSync } from 'node:fs';

const sleeper = new Int32Array(new SharedArrayBuffer(4));
function sleepSync(ms: number): void {
  Atomics.wait(sleeper, 0, 0, ms);
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export class LockTimeoutError extends Error {
  constructor(readonly lockPath: string, readonly waitedMs: number) {
    super(`Could not lock ${lockPath} within ${waitedMs} ms; another Proactive Context process is holding it.`);
  }
}

/**
 * A cross-process lock on a file created with O_EXCL. Held only for the few milliseconds of a
 * read-merge-write, so waiting synchronously is cheaper than the complexity of async locking.
 * A lock whose owner died, or that is older than staleMs, is broken.
 */
export function withFileLock<T>(lockPath: string, fn: () => T, timeoutMs = 5000, staleMs = 10000): T {
  const start = Date.now();
  let fd: number | undefined;
  let delay = 2;
  while (fd === undefined) {
    try {
      fd = openSync(lockPath, 'wx', 0o600);
      writeSync(fd, String(process.pid));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      if (isStale(lockPath, staleMs)) {
        try { unlinkSync(lockPath); } catch { /* someone else broke it first */ }
        continue;
      }
      if (Date.now() - start > timeoutMs) throw new LockTimeoutError(lockPath, Date.now() - start);
      sleepSync(delay);
      delay = Math.min(delay * 2, 25);
    }
  }
  try {
    return fn();
  } finally {
    closeSync(fd);
    try { unlinkSync(lockPath); } catch { /* broken as stale by another process */ }
  }
}

function isStale(lockPath: string, staleMs: number): boolean {
  try {
    const age = Date.now() - statSync(lockPath).mtimeMs;
    const pid = Number(readFileSync(lockPath, 'utf8'));
    if (Number.isInteger(pid) && pid > 0 && pid !== process.pid && !processAlive(pid)) return true;
    return age > staleMs;
  } catch {
    return false;
  }
}
