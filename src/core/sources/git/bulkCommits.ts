import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { FileHistory } from '../../cochange/fileHistory';
import { TimeSlice } from '../../timeSlice';

/** Commits with more files than this are always bulk changes. */
const MAX_FOCUSED_FILES = 100;
/** Nor is a commit focused when it touches more than this share of the tracked files… */
const BULK_SHARE = 0.2;
/** …unless it touches this many files or fewer: in a small repository every commit is a large share. */
const MIN_BULK_FILES = 10;

/**
 * Which commits are mass changes (a reformat, a rename, a dependency bump across every package):
 * they touch a file without saying anything about its code, so they are named as such and ranked
 * after focused commits. Read from the history's own columns, once per history size.
 */
export class BulkCommits {
  private sizes: Map<string, number> = new Map();
  private seen: { history: FileHistory; commits: number; tracked: number | undefined } | undefined;
  /** The files history knows that are still in the working tree, as last counted. */
  private tracked: number | undefined;

  constructor(
    private readonly root: string,
    private readonly history: () => FileHistory,
  ) {}

  /**
   * Counts the files history knows that still exist (after each history update, off the query path):
   * every path history ever saw includes the deleted ones, which would let a reformat of a whole
   * package pass as focused. Returns those files. A file system check per path ever seen: a slice
   * at a time, since tens of thousands of them held the event loop for a second.
   */
  async countTracked(slice = new TimeSlice()): Promise<string[]> {
    const paths = this.history().paths;
    const present: string[] = [];
    for (let id = 0; id < paths.size; id++) {
      const p = paths.path(id);
      if (existsSync(join(this.root, p))) present.push(p);
      await slice.pause();
    }
    this.tracked = present.length;
    return present;
  }

  /** How many files the commit changed, when it is a bulk change; undefined for a focused commit. */
  filesOf(hash: string): number | undefined {
    this.update();
    return this.sizes.get(hash);
  }

  private update(): void {
    const history = this.history();
    if (
      this.seen &&
      this.seen.history === history &&
      this.seen.commits === history.commitCount &&
      this.seen.tracked === this.tracked
    )
      return;
    const c = history.columns;
    const counts = new Uint32Array(history.commitCount);
    for (const i of c.entryCommit) if (i < counts.length) counts[i]++;
    // Until the files are counted, every path history knows: fewer commits called bulk, never more.
    const tracked = this.tracked ?? history.paths.size;
    const limit = Math.min(MAX_FOCUSED_FILES, Math.max(MIN_BULK_FILES, Math.ceil(tracked * BULK_SHARE)));
    const sizes = new Map<string, number>();
    counts.forEach((n, i) => {
      if (n > limit) sizes.set(c.hashes.toString('hex', i * c.hashBytes, (i + 1) * c.hashBytes), n);
    });
    this.sizes = sizes;
    this.seen = { history, commits: history.commitCount, tracked: this.tracked };
  }
}
