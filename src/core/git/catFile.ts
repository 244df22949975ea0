import { spawn } from 'node:child_process';

export interface TreeEntry {
  path: string;
  oid: string;
  size: number;
}

/** Parses `git ls-tree -r -l -z` output (blobs only). */
export function parseLsTree(out: string): TreeEntry[] {
  const entries: TreeEntry[] = [];
  for (const rec of out.split('\0')) {
    if (!rec) continue;
    const tab = rec.indexOf('\t');
    if (tab < 0) continue;
    const [, type, oid, size] = rec.slice(0, tab).split(/\s+/);
    if (type !== 'blob') continue;
    entries.push({ path: rec.slice(tab + 1), oid, size: Number(size) || 0 });
  }
  return entries;
}

/**
 * Reads many blobs through one `git cat-file --batch` process; missing ones are left out.
 * Never throws: on timeout, abort or a missing git it returns what it has.
 */
export function readBlobs(cwd: string, oids: readonly string[], options: { timeoutMs?: number; signal?: AbortSignal } = {}): Promise<Map<string, string>> {
  const result = new Map<string, string>();
  if (oids.length === 0 || options.signal?.aborted) return Promise.resolve(result);
  return new Promise((resolve) => {
    const child = spawn('git', ['cat-file', '--batch'], { cwd, stdio: ['pipe', 'pipe', 'ignore'], windowsHide: true });
    let buf: Buffer = Buffer.alloc(0);
    let done = false;
    const finish = (): void => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      resolve(result);
    };
    const onAbort = (): void => {
      child.kill('SIGKILL');
      finish();
    };
    const timer = setTimeout(onAbort, options.timeoutMs ?? 60_000);
    options.signal?.addEventListener('abort', onAbort, { once: true });
    child.stdout.on('data', (chunk: Buffer) => {
      buf = buf.length ? Buffer.concat([buf, chunk]) : chunk;
      for (;;) {
        const nl = buf.indexOf(10);
        if (nl < 0) return;
        const header = buf.toString('utf8', 0, nl).split(' ');
        if (header[1] === 'missing' || header.length < 3) {
          buf = buf.subarray(nl + 1);
          continue;
        }
        const size = Number(header[2]);
        if (buf.length < nl + 1 + size + 1) return;
        result.set(header[0], buf.toString('utf8', nl + 1, nl + 1 + size));
        buf = buf.subarray(nl + 1 + size + 1);
      }
    });
    child.on('error', finish);
    child.on('close', finish);
    child.stdin.on('error', () => undefined);
    child.stdin.end(oids.join('\n') + '\n');
  });
}
