import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';

/** What a folder held at the last look: entry name → a stamp that changes when the entry does. */
export type FolderSnapshot = Map<string, string>;

/** Reads a folder's entries and stamps them (kind, size, modification time); undefined when it is gone. */
export async function snapshotFolder(abs: string): Promise<FolderSnapshot | undefined> {
  let names: string[];
  try {
    names = await readdir(abs);
  } catch {
    return undefined;
  }
  const snap: FolderSnapshot = new Map();
  // A few stats at a time: a folder of thousands of files must not flood the thread pool.
  for (let i = 0; i < names.length; i += 64) {
    const chunk = names.slice(i, i + 64);
    const stamps = await Promise.all(chunk.map((n) => stamp(join(abs, n))));
    chunk.forEach((n, k) => {
      if (stamps[k] !== undefined) snap.set(n, stamps[k]);
    });
  }
  return snap;
}

/** Which of a folder's entries were modified at or after `since` (ms since the epoch). */
export async function modifiedSince(abs: string, names: readonly string[], since: number): Promise<string[]> {
  const out: string[] = [];
  for (let i = 0; i < names.length; i += 64) {
    const chunk = names.slice(i, i + 64);
    const times = await Promise.all(
      chunk.map((n) =>
        stat(join(abs, n)).then(
          (s) => s.mtimeMs,
          () => 0,
        ),
      ),
    );
    chunk.forEach((n, k) => {
      if (times[k] >= since) out.push(n);
    });
  }
  return out;
}

/** Names added, removed or changed between two looks at one folder. */
export function changedNames(before: FolderSnapshot, after: FolderSnapshot): string[] {
  const out: string[] = [];
  for (const [name, s] of after) if (before.get(name) !== s) out.push(name);
  for (const name of before.keys()) if (!after.has(name)) out.push(name);
  return out;
}

async function stamp(abs: string): Promise<string | undefined> {
  try {
    const s = await stat(abs, { bigint: false });
    return `${s.isDirectory() ? 'd' : 'f'}:${s.size}:${s.mtimeMs}:${s.ino}`;
  } catch {
    return undefined;
  }
}
