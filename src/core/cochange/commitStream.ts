import { readMergeTitles } from '../git/mergeTitles';
import { COMMIT_RECORD_FORMAT, CommitParser, FIRST_PARENT_LOG } from '../git/commitLog';
import type { MinedCommit } from './fileHistory';
import { streamParsed, type HistoryOptions, type HistoryResult } from './historyStream';

export interface CommitStreamOptions extends HistoryOptions {
  /**
   * Count each file's added and removed lines (`--numstat`). That reads every blob of the range, so
   * whole histories are read without (file names only, from trees) and counted for a recent window.
   */
  lines: boolean;
  /** Stop the walk at the first commit older than this (unix seconds), as `--since` does. */
  since?: number;
  /** A merge a forge made ("Merge pull request #12 from …") gets the request's title as its subject. */
  mergeTitles?: boolean;
}

/**
 * Reads `git log --first-parent` with each commit's parents, committer time, author, subject and
 * files, newest first: what both the co-change counts and the file history need, in one pass. A
 * merge is its diff against its first parent.
 */
export async function streamCommits(
  options: CommitStreamOptions,
  onCommit: (c: MinedCommit) => void,
): Promise<HistoryResult> {
  const revs: string[] = [];
  if (options.maxCount) revs.push(`--max-count=${options.maxCount}`);
  if (options.since !== undefined) revs.push(`--since=${Math.max(0, Math.floor(options.since))}`);
  revs.push(options.range ?? 'HEAD', '--');
  const args = [
    ...FIRST_PARENT_LOG,
    `--format=${COMMIT_RECORD_FORMAT}`,
    '-z',
    options.lines ? '--numstat' : '--name-status',
    ...revs,
  ];
  let emit = onCommit;
  if (options.mergeTitles) {
    // The forge's merges alone first, on the same walk (a fraction of its time): the stream needs their titles.
    const titles = await readMergeTitles({
      cwd: options.cwd,
      revArgs: ['--first-parent', ...revs],
      timeoutMs: options.timeoutMs,
      signal: options.signal,
    });
    if (titles.size) emit = (c) => onCommit(titles.has(c.hash) ? { ...c, subject: titles.get(c.hash)! } : c);
  }
  return streamParsed(args, options, new CommitParser(options.lines, emit));
}
