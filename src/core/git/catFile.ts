import { streamGit } from './gitExec';

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
 * Never throws: on timeout, abort or a missing git it returns what it has. In a partial clone a
 * blob that is not there ends the batch (it is never fetched): what came before it is kept.
 */
export async function readBlobs(
  cwd: string,
  oids: readonly string[],
  options: { timeoutMs?: number; signal?: AbortSignal } = {},
): Promise<Map<string, string>> {
  const result = new Map<string, string>();
  if (oids.length === 0 || options.signal?.aborted) return result;
  let buf: Buffer = Buffer.alloc(0);
  const onData = (chunk: Buffer): void => {
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
  };
  await streamGit(['cat-file', '--batch'], {
    cwd,
    timeoutMs: options.timeoutMs ?? 60_000,
    signal: options.signal,
    input: oids.join('\n') + '\n',
    onData,
  });
  return result;
}
