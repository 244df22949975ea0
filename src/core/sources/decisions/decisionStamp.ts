import { readFileSync, statSync } from 'node:fs';
import { dirname, isAbsolute, join, posix, resolve } from 'node:path';

/** Deepest a root may sit below the top of its git work tree for its git folder to be found. */
const MAX_GIT_LOOKUP_DEPTH = 40;

/** What decision discovery found last time: the paths a fingerprint is taken over. */
export interface StampedDiscovery {
  folders: readonly string[];
  /** Every file taken for a record, read or not (root-relative). */
  candidates: Iterable<string>;
  /** The settings' folders, which decide what is found as much as the files do. */
  configured: readonly string[];
}

/**
 * A fingerprint of what decision discovery depends on, taken with stat calls only (no git process):
 * the git index and HEAD (a checkout, a commit, `git add`), the adr-tools and log4brains settings
 * files, every folder holding a record and the folders above it (a record added, removed or
 * renamed there), and every record file's time and size (`known` gives the ones read, as they were
 * read, so a change made while they were being read still shows). A record created in a folder
 * that held none, and not yet added to git, is left to the file watcher of a long-lived process.
 */
export function decisionStamp(
  root: string,
  found: StampedDiscovery,
  known: (path: string) => { mtimeMs: number; size: number } | undefined = () => undefined,
): string {
  const parts: string[] = [JSON.stringify(found.configured), gitStamp(root)];
  for (const f of ['.adr-dir', '.log4brains.yml']) parts.push(`${f}=${statStamp(join(root, f))}`);
  const dirs = new Set<string>();
  const addDir = (dir: string): void => {
    for (let d = dir; d && d !== '.' && !dirs.has(d); d = posix.dirname(d)) dirs.add(d);
  };
  for (const folder of found.folders) addDir(folder);
  const files = [...found.candidates].sort();
  for (const path of files) addDir(posix.dirname(path));
  for (const dir of [...dirs].sort()) parts.push(`${dir}/=${statStamp(join(root, dir))}`);
  for (const path of files) {
    const read = known(path);
    parts.push(`${path}=${read ? `${read.mtimeMs}:${read.size}` : statStamp(join(root, path))}`);
  }
  return parts.join('\n');
}

/** Time and size, or '-' when there is nothing there. */
function statStamp(abs: string): string {
  const st = statSync(abs, { throwIfNoEntry: false });
  return st ? `${st.mtimeMs}:${st.size}` : '-';
}

/** The git index's and HEAD's stamps, found from the root upwards (a `.git` file points to a worktree's own folder). */
function gitStamp(root: string): string {
  let dir = resolve(root);
  for (let i = 0; i < MAX_GIT_LOOKUP_DEPTH; i++) {
    const dotGit = join(dir, '.git');
    const st = statSync(dotGit, { throwIfNoEntry: false });
    if (st) {
      const gitDir = st.isDirectory() ? dotGit : pointedGitDir(dir, dotGit);
      if (gitDir) return `git=${statStamp(join(gitDir, 'index'))};${statStamp(join(gitDir, 'HEAD'))}`;
    }
    const up = dirname(dir);
    if (up === dir) break;
    dir = up;
  }
  return 'git=-';
}

function pointedGitDir(dir: string, dotGit: string): string | undefined {
  try {
    const line = /^gitdir:[ \t]*(\S[^\r\n]*)/m.exec(readFileSync(dotGit, 'utf8').slice(0, 4096));
    if (!line) return undefined;
    const target = line[1].trim();
    return isAbsolute(target) ? target : join(dir, target);
  } catch {
    return undefined;
  }
}
