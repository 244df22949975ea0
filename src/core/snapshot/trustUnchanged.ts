import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { runGit } from '../git/gitExec';
import { all, runEach } from '../store/sqlite';
import type { SnapshotParts } from './snapshotParts';

/**
 * A snapshot's files carry no time (a clone's differ), so the next build would read and hash every
 * file once. Git already knows which files differ from the snapshot's commit: every other file of
 * the snapshot that still has its recorded size gets this clone's size and time, and the build skips
 * it as unchanged. Anything git cannot tell is left to be hashed. Returns how many files were marked.
 */
export async function trustUnchangedFiles(parts: SnapshotParts, commit: string, signal?: AbortSignal): Promise<number> {
  // Against the work tree: committed, staged and unstaged changes since the snapshot's commit.
  const diff = await runGit(['diff', '--name-only', '-z', '--no-renames', '--no-ext-diff', commit, '--'], {
    cwd: parts.root,
    timeoutMs: 30_000,
    signal,
  });
  if (!diff.ok) return 0;
  const changed = new Set(diff.stdout.split('\0').filter(Boolean));
  const db = parts.store.index;
  const rows = all<{ path: string; size: number }>(db, 'SELECT path, size FROM files WHERE mtime = 0');
  const marks: [number, number, string][] = [];
  for (const r of rows) {
    if (signal?.aborted) return 0;
    if (changed.has(r.path)) continue;
    try {
      const st = await stat(join(parts.root, r.path));
      if (st.isFile() && st.size === r.size) marks.push([st.size, Math.round(st.mtimeMs), r.path]);
    } catch {
      // Gone: the build drops it.
    }
  }
  runEach(db, 'UPDATE files SET size = ?, mtime = ? WHERE path = ?', marks);
  parts.store.markIndexDirty();
  return marks.length;
}
