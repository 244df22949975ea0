import { runGit } from '../git/gitExec';
import type { Logger } from '../logger';
import { streamCommits } from './commitStream';
import type { FileHistory } from './fileHistory';

export interface LineCountOptions {
  cwd: string;
  /** Commits from this time on (unix ms) need their line counts: the recent-changes window. */
  since: number;
  timeoutMs: number;
  signal: AbortSignal;
  logger: Logger;
}

/**
 * Reads the line counts of the window's commits that have none yet, walking back from the newest
 * uncounted one as `git log --since` does (so it ends where the window's answers end). History is
 * mined without them: counting lines reads every blob, which on a long history costs more than the
 * rest of mining, and in a partial clone would fetch every blob ever committed.
 * Says whether anything changed.
 */
export async function countWindowLines(history: FileHistory, o: LineCountOptions): Promise<boolean> {
  const cut = history.cutBefore(o.since);
  let i = history.countedFrom - 1;
  if (i <= cut) return false;
  const newest = i;
  for (let attempt = 0; i > cut; attempt++) {
    let matched = true;
    const res = await streamCommits(
      {
        cwd: o.cwd,
        range: history.commit(i).hash,
        lines: true,
        since: Math.floor(o.since / 1000),
        timeoutMs: o.timeoutMs,
        signal: o.signal,
      },
      (c) => {
        if (matched) matched = history.setLineCounts(i--, c);
      },
    );
    if (!matched) {
      o.logger.warn(
        'Counting lines read other commits than the ones mined; the counts will be read again after the next update.',
      );
      return false;
    }
    if (res.ok) break;
    if (res.failure === 'aborted' || res.failure === 'timeout') return i < newest;
    // Most often a missing object: that commit is read file by file, and the walk goes on past it.
    const hash = history.commit(i).hash;
    const counted = await countFileByFile(o.cwd, hash, history.parentOf(i), history.filesOf(i), o);
    history.setLineCounts(i, {
      hash,
      files: [...counted.keys()],
      added: [...counted.values()].map((v) => v[0]),
      removed: [...counted.values()].map((v) => v[1]),
    });
    o.logger.warn(
      `Could not count the lines of every file of commit ${hash.slice(0, 12)} (${res.stderr?.trim().split('\n')[0] ?? res.failure}); ${counted.size} counted one by one, the rest shown without them.`,
    );
    i--;
    if (attempt === MAX_SKIPPED) {
      o.logger.warn('Too many commits could not be counted; older recent changes are shown without line counts.');
      break;
    }
  }
  history.markCountedFrom(cut + 1);
  return true;
}

/** Commits that may fail to count (missing objects) before the rest of the window is given up. */
const MAX_SKIPPED = 5;

/** Paths per git call: well within any command line. */
const PATHS_PER_CALL = 200;
const MAX_CALLS = 64;

/**
 * The line counts of one commit's files against its first parent, halving the list of files on each
 * failure so that the files whose blobs cannot be read are the only ones left without.
 */
async function countFileByFile(
  cwd: string,
  commit: string,
  parent: string | undefined,
  files: string[],
  o: LineCountOptions,
): Promise<Map<string, [number, number]>> {
  const out = new Map<string, [number, number]>();
  const parts: string[][] = [];
  for (let k = 0; k < files.length; k += PATHS_PER_CALL) parts.push(files.slice(k, k + PATHS_PER_CALL));
  for (let calls = 0; parts.length && calls < MAX_CALLS && !o.signal.aborted; calls++) {
    const part = parts.pop()!;
    const r = await runGit(
      [
        '--literal-pathspecs',
        'diff-tree',
        '-r',
        '--no-renames',
        '--no-ext-diff',
        '--no-textconv',
        '--relative',
        '--numstat',
        '-z',
        ...(parent ? [parent, commit] : ['--root', commit]),
        '--',
        ...part,
      ],
      { cwd, timeoutMs: o.timeoutMs, signal: o.signal },
    );
    if (r.ok) {
      // "added<TAB>removed<TAB>path" per file, "-" for binary files.
      for (const rec of r.stdout.split('\0')) {
        const m = /^\n?(\d+|-)\t(\d+|-)\t([\s\S]+)$/.exec(rec);
        if (m) out.set(m[3], [m[1] === '-' ? 0 : Number(m[1]), m[2] === '-' ? 0 : Number(m[2])]);
      }
    } else if (part.length > 1) parts.push(part.slice(0, part.length >> 1), part.slice(part.length >> 1));
  }
  return out;
}
