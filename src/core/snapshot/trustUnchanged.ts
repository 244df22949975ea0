import { statSync, type Stats } from 'node:fs';
import { join } from 'node:path';
import { runGit } from '../git/gitExec';
import { all, runEach } from '../store/sqlite';
import type { SnapshotParts } from './snapshotParts';

/** A file of the snapshot that git says is unchanged since its commit, as it is on disk here. */
export interface TrustedFile {
  path: string;
  size: number;
  mtimeMs: number;
}

/** Files looked at between two yields to the event loop (an editor keeps answering meanwhile). */
const STAT_BATCH = 500;

/**
 * A snapshot's files carry no time (a clone's differ), so the next build would read and hash every
 * file once. Git already knows which files differ from the snapshot's commit: every other file of
 * the snapshot that still has its recorded size gets this clone's size and time, and the build skips
 * it as unchanged. Anything git cannot tell is left to be hashed. Returns the files marked.
 */
export async function trustUnchangedFiles(
  parts: SnapshotParts,
  commit: string,
  signal?: AbortSignal,
): Promise<TrustedFile[]> {
  // Against the work tree: committed, staged and unstaged changes since the snapshot's commit.
  const diff = await runGit(['diff', '--name-only', '-z', '--no-renames', '--no-ext-diff', commit, '--'], {
    cwd: parts.root,
    timeoutMs: 30_000,
    signal,
  });
  if (!diff.ok) return [];
  const changed = new Set(diff.stdout.split('\0').filter(Boolean));
  const db = parts.store.index;
  const rows = all<{ path: string; size: number }>(db, 'SELECT path, size FROM files WHERE mtime = 0');
  const trusted: TrustedFile[] = [];
  for (let i = 0; i < rows.length; i++) {
    if (i % STAT_BATCH === STAT_BATCH - 1) await new Promise<void>((r) => setImmediate(r));
    if (signal?.aborted) return [];
    const r = rows[i];
    if (changed.has(r.path)) continue;
    const st = statOf(join(parts.root, r.path));
    if (st?.isFile() && st.size === r.size) trusted.push({ path: r.path, size: st.size, mtimeMs: st.mtimeMs });
  }
  for (let i = 0; i < trusted.length; i += STAT_BATCH) {
    if (i) await new Promise<void>((r) => setImmediate(r));
    runEach(
      parts.store.index,
      'UPDATE files SET size = ?, mtime = ? WHERE path = ?',
      trusted.slice(i, i + STAT_BATCH).map((f) => [f.size, Math.round(f.mtimeMs), f.path]),
    );
  }
  parts.store.markIndexDirty();
  return trusted;
}

/** Synchronous: thousands of stats through the thread pool cost seconds on a busy machine. */
function statOf(path: string): Stats | undefined {
  try {
    return statSync(path);
  } catch {
    // Gone or unreadable: the build drops it or reads it.
    return undefined;
  }
}
