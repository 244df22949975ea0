import {
  closeSync,
  linkSync,
  openSync,
  readdirSync,
  readFileSync,
  statSync,
  unlinkSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { randomBytes } from 'node:crypto';
import { basename, dirname, join } from 'node:path';

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
  constructor(
    readonly lockPath: string,
    readonly waitedMs: number,
    readonly holderPid: number | undefined,
  ) {
    super(
      `Could not lock ${lockPath} within ${waitedMs} ms: ` +
        (holderPid !== undefined
          ? `process ${holderPid} holds it and is still running. Wait for it to finish, or end that process.`
          : 'another process holds it.'),
    );
  }
}

export interface FileLockOptions {
  /** Longest wait for a live holder. */
  timeoutMs?: number;
  /** A lock held longer than this is taken over even when its pid is alive (the pid may have been reused). */
  staleMs?: number;
}

/** Locks this process holds now: a nested call on the same lock runs at once instead of waiting for itself. */
const held = new Set<string>();

/**
 * A cross-process lock on a file. The holder's pid is written to a temp file that is then hard-linked
 * into place, so the lock file is never seen empty or half written: a lock file that is empty, holds
 * garbage, or names a process that has exited is stale and taken over at once. A lock held by a live
 * process is waited for, up to timeoutMs. Held only for the few milliseconds of a read-merge-write,
 * so waiting synchronously is cheaper than the complexity of async locking.
 */
export function withFileLock<T>(lockPath: string, fn: () => T, options: FileLockOptions = {}): T {
  if (held.has(lockPath)) return fn();
  const timeoutMs = options.timeoutMs ?? 5000;
  const staleMs = options.staleMs ?? 10_000;
  const token = `${process.pid} ${randomBytes(6).toString('hex')}\n`;
  const start = Date.now();
  const queue = new WaitQueue(lockPath, timeoutMs + staleMs);
  // Fast path: nobody waits, so taking the lock at once is fair.
  if (!queue.othersWaiting() && tryCreate(lockPath, token)) {
    // Taken.
  } else {
    // Wait in line: a process that releases the lock and wants it again at once would otherwise
    // win every time against waiters that poll, and starve them.
    queue.join();
    try {
      let delay = 1;
      for (;;) {
        if (queue.isFirst() && tryCreate(lockPath, token)) break;
        const holder = readHolder(lockPath, staleMs);
        if (holder.state === 'stale') {
          breakStale(lockPath, holder, staleMs);
          continue;
        }
        if (Date.now() - start >= timeoutMs)
          throw new LockTimeoutError(lockPath, Date.now() - start, holder.state === 'live' ? holder.pid : undefined);
        sleepSync(delay);
        delay = Math.min(delay * 2, 8);
      }
    } finally {
      queue.leave();
    }
  }
  held.add(lockPath);
  try {
    return fn();
  } finally {
    held.delete(lockPath);
    releaseIfOurs(lockPath, token);
  }
}

/**
 * Processes waiting for a lock, as empty marker files named by arrival time next to the lock; the
 * earliest live one goes first. Markers of processes that died, or older than maxAgeMs, are removed.
 */
class WaitQueue {
  private readonly dir: string;
  private readonly prefix: string;
  private marker: string | undefined;

  constructor(
    lockPath: string,
    private readonly maxAgeMs: number,
  ) {
    this.dir = dirname(lockPath);
    this.prefix = `.${basename(lockPath)}.wait.`;
  }

  join(): void {
    const name = `${this.prefix}${String(Date.now()).padStart(15, '0')}.${String(process.pid).padStart(10, '0')}.${randomBytes(3).toString('hex')}`;
    writeFileSync(join(this.dir, name), '', { mode: 0o600 });
    this.marker = name;
  }

  leave(): void {
    if (!this.marker) return;
    try {
      unlinkSync(join(this.dir, this.marker));
    } catch {
      // Removed as stale by another process.
    }
    this.marker = undefined;
  }

  othersWaiting(): boolean {
    return this.waiting().length > 0;
  }

  isFirst(): boolean {
    const first = this.waiting()[0];
    return first === undefined || first === this.marker;
  }

  /** Live markers, earliest first. */
  private waiting(): string[] {
    let names: string[];
    try {
      names = readdirSync(this.dir)
        .filter((n) => n.startsWith(this.prefix))
        .sort();
    } catch {
      return [];
    }
    return names.filter((name) => {
      if (name === this.marker) return true;
      const [at, pid] = name.slice(this.prefix.length).split('.');
      const alive =
        Date.now() - Number(at) <= this.maxAgeMs && processAlive(Number(pid)) && Number(pid) !== process.pid;
      if (!alive) {
        try {
          unlinkSync(join(this.dir, name));
        } catch {
          // Gone already.
        }
      }
      return alive;
    });
  }
}

/** Creates the lock file with its whole content in one step; false when it exists already. */
function tryCreate(lockPath: string, token: string): boolean {
  // Named like atomicFile's temp files, so removeStaleTempFiles(dir, <lock name>) clears what a kill left.
  const tmp = join(dirname(lockPath), `.${basename(lockPath)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  try {
    writeFileSync(tmp, token, { mode: 0o600, flag: 'wx' });
  } catch {
    return tryCreateExclusive(lockPath, token);
  }
  try {
    linkSync(tmp, lockPath);
    return true;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return false;
    // File systems without hard links: create in place (a kill in between leaves an empty file, which is taken over).
    if (code === 'EPERM' || code === 'ENOTSUP' || code === 'ENOSYS' || code === 'EOPNOTSUPP' || code === 'EXDEV')
      return tryCreateExclusive(lockPath, token);
    throw err;
  } finally {
    try {
      unlinkSync(tmp);
    } catch {
      // Already gone.
    }
  }
}

function tryCreateExclusive(lockPath: string, token: string): boolean {
  let fd: number;
  try {
    fd = openSync(lockPath, 'wx', 0o600);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw err;
  }
  try {
    writeSync(fd, token);
  } finally {
    closeSync(fd);
  }
  return true;
}

type Holder =
  { state: 'gone' } | { state: 'stale'; ino: number; content: string; why: string } | { state: 'live'; pid: number };

function readHolder(lockPath: string, staleMs: number): Holder {
  let content: string;
  let ino: number;
  let ageMs: number;
  try {
    const st = statSync(lockPath);
    ino = st.ino;
    ageMs = Date.now() - st.mtimeMs;
    content = readFileSync(lockPath, 'utf8');
  } catch {
    return { state: 'gone' };
  }
  // "pid nonce" as written here; a bare pid from earlier releases.
  const m = /^(\d{1,10})(?: [0-9a-f]{1,32})?\n?$/.exec(content);
  if (!m) return { state: 'stale', ino, content, why: content ? 'it holds no process id' : 'it is empty' };
  const pid = Number(m[1]);
  if (pid === process.pid) return { state: 'stale', ino, content, why: 'this process left it behind' };
  if (!processAlive(pid)) return { state: 'stale', ino, content, why: `process ${pid} has exited` };
  if (ageMs > staleMs) return { state: 'stale', ino, content, why: `it is older than ${staleMs} ms` };
  return { state: 'live', pid };
}

/**
 * Removes a stale lock file, but only the very file judged stale: two processes breaking the same
 * stale lock at once must not remove the fresh lock one of them has taken meanwhile. A short-lived
 * second lock serializes the check-and-remove.
 */
function breakStale(lockPath: string, stale: { ino: number; content: string }, staleMs: number): void {
  const breaker = lockPath + '.break';
  const token = `${process.pid} ${randomBytes(6).toString('hex')}\n`;
  if (!tryCreate(breaker, token)) {
    // Someone else is breaking it; a breaker left by a killed process is removed the same way.
    const b = readHolder(breaker, Math.min(staleMs, 2000));
    if (b.state === 'stale') {
      try {
        if (statSync(breaker).ino === b.ino) unlinkSync(breaker);
      } catch {
        // Gone already.
      }
    } else sleepSync(1);
    return;
  }
  try {
    const now = statSync(lockPath, { throwIfNoEntry: false });
    if (now && now.ino === stale.ino && readFileSync(lockPath, 'utf8') === stale.content) unlinkSync(lockPath);
  } catch {
    // Removed by its owner meanwhile.
  } finally {
    releaseIfOurs(breaker, token);
  }
}

function releaseIfOurs(lockPath: string, token: string): void {
  try {
    if (readFileSync(lockPath, 'utf8') === token) unlinkSync(lockPath);
  } catch {
    // Broken as stale by another process, or already gone.
  }
}
