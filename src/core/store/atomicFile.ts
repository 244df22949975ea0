import { closeSync, fsyncSync, openSync, readdirSync, renameSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { open, rename, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { randomBytes } from 'node:crypto';

/**
 * Writes a file so that readers see either the old or the new content, never half of it: write a
 * temp file in the same folder, fsync it, then rename over the target. Without fsync (for a copy
 * that is only read when the main file is damaged) a power cut may leave that copy empty or damaged;
 * the whole-file check on open then refuses it.
 */
export function writeFileAtomic(
  path: string,
  data: Uint8Array | readonly Uint8Array[],
  options: { fsync?: boolean } = {},
): void {
  const tmp = tempNameFor(path);
  const fd = openSync(tmp, 'w', 0o600);
  try {
    // Pieces are written one after another rather than joined: a joined copy would double the peak.
    for (const piece of data instanceof Uint8Array ? [data] : data) {
      let off = 0;
      while (off < piece.length) off += writeSync(fd, piece, off, piece.length - off);
    }
    if (options.fsync !== false) fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  try {
    renameSync(tmp, path);
  } catch (err) {
    try {
      unlinkSync(tmp);
    } catch {
      /* already gone */
    }
    throw err;
  }
}

/**
 * As writeFileAtomic (with fsync), the writes and the fsync done off the event loop: a team index
 * snapshot or an index save puts tens of megabytes in place while the editor keeps answering. With
 * `stillWanted`, the file is put in place only if that still holds once the data is on disk (checked
 * and renamed in one step of this thread, so a write made meanwhile on this thread is never
 * overwritten); resolves whether it was put in place.
 */
export async function writeFileAtomicAsync(
  path: string,
  data: Uint8Array,
  options: { stillWanted?: () => boolean } = {},
): Promise<boolean> {
  const tmp = tempNameFor(path);
  const file = await open(tmp, 'w', 0o600);
  try {
    await file.writeFile(data);
    await file.sync();
  } finally {
    await file.close();
  }
  try {
    if (!options.stillWanted) await rename(tmp, path);
    else if (options.stillWanted()) renameSync(tmp, path);
    else {
      await unlink(tmp).catch(() => undefined);
      return false;
    }
    return true;
  } catch (err) {
    await unlink(tmp).catch(() => undefined);
    throw err;
  }
}

/** A temp file next to `path`, named so that removeStaleTempFiles finds it. */
function tempNameFor(path: string): string {
  return join(dirname(path), `.${basename(path)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
}

/** Removes temp files left by a process killed mid-write (older than maxAgeMs). */
export function removeStaleTempFiles(dir: string, target: string, maxAgeMs = 60_000): number {
  let removed = 0;
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return 0;
  }
  const prefix = `.${target}.`;
  for (const name of names) {
    if (!name.startsWith(prefix) || !name.endsWith('.tmp')) continue;
    const p = join(dir, name);
    try {
      if (Date.now() - statSync(p).mtimeMs > maxAgeMs) {
        unlinkSync(p);
        removed++;
      }
    } catch {
      // Another process may have renamed or removed it.
    }
  }
  return removed;
}
