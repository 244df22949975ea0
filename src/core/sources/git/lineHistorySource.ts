import type { CoChangeModel } from '../../cochange/cochangeModel';
import type { FileRevision } from '../../cochange/fileHistory';
import type { GitService } from '../../git/gitService';
import type { Hunk } from '../../git/hunks';
import { rangeBefore, touches, type LineRange } from '../../git/lineRanges';
import type { SuggestionItem } from '../../types';
import type { QueryContext, SuggestionSource } from '../sourceQuery';
import type { BulkCommits } from './bulkCommits';
import { commitItem } from './commitItems';
import { FileDiffCache } from './fileDiffCache';
import type { MergedWork } from './mergedWork';

/**
 * The file's newest commits diffed first for the lines' history; while the lines have fewer commits
 * than are shown, older ones follow in batches twice as large, up to MAX_REVISIONS over all its names.
 * In a long, busy file a function's own last change is often older than the file's last 20 commits.
 */
const FIRST_BATCH = 20;
const MAX_REVISIONS = 320;
const SHOWN = 5;
/** Renames followed back. */
const MAX_RENAMES = 3;
/** Hard bound on the whole answer, within the provider's per-source limit; the query's signal can end it sooner. */
const TIMEOUT_MS = 2_500;

/**
 * The commits that changed the lines of the definition at the cursor: the file's newest commits from
 * the history index, diffed in one `git diff-tree --stdin` (no walk of history), with the lines
 * followed back through each diff and across renames, as `git log -L` does. As `git blame -w
 * --ignore-revs-file` does, a change of whitespace alone and a commit listed to be ignored (a mass
 * reformat) do not count as changing the lines. Slow next to the index,
 * so the engine asks it in a second pass that enriches the first answer, never before it.
 */
export class LineHistorySource implements SuggestionSource {
  readonly name = 'line history';
  readonly kinds = ['change'] as const;
  /** Asked only to enrich a first answer. */
  readonly slow = true;
  private readonly cache = new Map<string, Promise<SuggestionItem[]>>();
  /** The files' diffs already read: the next definition of a file starts no git process. */
  private readonly diffs: FileDiffCache;

  constructor(
    git: GitService,
    private readonly cochange: CoChangeModel,
    private readonly hunksOf: (file: string) => Promise<Hunk[]>,
    /** The commits blame is told to look past. */
    private readonly ignoredRevisions: () => Promise<ReadonlySet<string>>,
    private readonly merged?: MergedWork,
    private readonly bulk?: BulkCommits,
  ) {
    this.diffs = new FileDiffCache(git);
  }

  /**
   * Forget the answers for a file (it was saved), or for every file (HEAD moved). The diffs of
   * commits stay true whatever is saved; they are dropped with the rest when HEAD moves.
   */
  invalidate(path?: string): void {
    if (!path) {
      this.cache.clear();
      this.diffs.clear();
    } else for (const key of this.cache.keys()) if (key.startsWith(`${path}\0`)) this.cache.delete(key);
  }

  async collect(ctx: QueryContext): Promise<SuggestionItem[]> {
    const file = ctx.query.currentFile;
    const range = ctx.symbolRange;
    if (!file || !range || range.startLine < 1 || range.endLine < range.startLine || !this.cochange.repoState?.ok)
      return [];
    // The range is in the lines of the working copy; history knows the lines of HEAD.
    const atHead = rangeBefore(await this.hunksOf(file), { start: range.startLine, end: range.endLine });
    if (!atHead || ctx.signal.aborted) return [];
    const key = `${file}\0${atHead.start}-${atHead.end}\0${this.cochange.lastMined ?? ''}`;
    let answer = this.cache.get(key);
    if (!answer) {
      const signal = AbortSignal.any([ctx.signal, AbortSignal.timeout(TIMEOUT_MS)]);
      answer = this.commitsOfLines(file, atHead, signal).then((commits) => {
        // A stopped answer is partial: the next query asks again.
        if (signal.aborted) this.cache.delete(key);
        return commits.map((c) => commitItem(file, c, 0.9, `changed ${range.name}`, range));
      });
      this.cache.set(key, answer);
      if (this.cache.size > 200) this.cache.delete(this.cache.keys().next().value as string);
    }
    const items = await answer;
    // Each time, not once with the cached answer: a merge whose look was cut short is looked at again.
    await this.merged?.retitle(items, ctx.signal);
    return items;
  }

  private async commitsOfLines(file: string, range: LineRange, signal: AbortSignal): Promise<FileRevision[]> {
    const options = { signal, timeoutMs: TIMEOUT_MS };
    const ignored = await this.ignoredRevisions();
    const out: FileRevision[] = [];
    let path = file;
    let lines: LineRange | undefined = range;
    let before = Number.POSITIVE_INFINITY;
    let budget = MAX_REVISIONS;
    let batch = FIRST_BATCH;
    for (let renames = 0; lines && renames <= MAX_RENAMES && budget > 0;) {
      const revisions = this.cochange.history.revisions(path, Math.min(batch, budget), before);
      if (!revisions.length) break;
      budget -= revisions.length;
      batch *= 2;
      const diffs = await this.diffs.diffs(path, revisions, options);
      let renamed: { from: string; at: number } | undefined;
      for (const rev of revisions) {
        let hunks = diffs.get(rev.hash);
        // No diff (a binary file, or git stopped): the lines cannot be followed further.
        if (!hunks || signal.aborted) return out;
        // Written whole here: a new file, or an old one under a new name.
        const from =
          rev.parent && isWholeFile(hunks)
            ? await this.diffs.renamedFrom(path, rev.hash, rev.parent, options)
            : undefined;
        if (from && rev.parent) {
          hunks = await this.diffs.renameDiff(from, path, rev.hash, rev.parent, options);
          if (!hunks) return out;
          renamed = { from, at: rev.index };
        }
        // A listed reformat is looked through, as blame does: the lines are followed on past it. So is
        // a bulk change (a sweep, a scaffold): it touched these lines without being about them.
        if (touches(hunks, lines) && !ignored.has(rev.hash) && this.bulk?.filesOf(rev.hash) === undefined)
          out.push(rev);
        lines = rangeBefore(hunks, lines);
        if (!lines || out.length >= SHOWN || renamed) break;
        before = rev.index;
      }
      if (!lines || out.length >= SHOWN) break;
      if (renamed) {
        path = renamed.from;
        before = renamed.at;
        renames++;
      }
    }
    return out.slice(0, SHOWN);
  }
}

function isWholeFile(hunks: readonly Hunk[]): boolean {
  return hunks.length === 1 && hunks[0].oldStart === 0 && hunks[0].oldLines === 0;
}
