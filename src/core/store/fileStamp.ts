import { statSync, type Stats } from 'node:fs';

/** Which version of a file is on disk: another process's save changes it. */
export interface FileStamp {
  ino: number;
  size: number;
  mtimeMs: number;
}

/** The stamp of a file now, or undefined when it does not exist. */
export function stamp(path: string): FileStamp | undefined {
  let s: Stats;
  try {
    s = statSync(path);
  } catch {
    return undefined;
  }
  return { ino: s.ino, size: s.size, mtimeMs: s.mtimeMs };
}

/** True when the file changed (appeared, disappeared or was rewritten) since `seen` was taken. */
export function stampChanged(seen: FileStamp | undefined, now: FileStamp | undefined): boolean {
  if (!now && !seen) return false;
  if (!now || !seen) return true;
  return now.ino !== seen.ino || now.size !== seen.size || now.mtimeMs !== seen.mtimeMs;
}
