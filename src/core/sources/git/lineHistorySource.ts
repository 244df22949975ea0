import type { CoChangeModel } from '../../cochange/cochangeModel';
import type { FileRevision } from '../../cochange/fileHistory';
import type { GitService, Hunk } from '../../git/gitService';
import { rangeBefore, touches, type LineRange } from '../../git/lineRanges';
import type { SourceContext, SuggestionSource } from '../../provider/provider';
import type { SuggestionItem } from '../../types';
import { formatAge } from '../sourceQuery';
import { commitItem } from './commitItems';

/** The file's newest commits that are diffed for the lines' history. */
const REVISIONS = 20;
const SHOWN = 5;
/** Hard bound on the one git call; the asking query's signal can end it sooner. */
const TIMEOUT_MS = 2_500;

/**
 * The commits that changed the lines of the definition at the cursor: the file's newest commits from
 * the history index, diffed in one `git diff-tree --stdin` (no walk of history), with the lines
 * followed back through each diff. Slow next to the index, so the engine asks it in a second pass
 * that enriches the first answer, never before it.
 */
export class LineHistorySource implements SuggestionSource {
  readonly name = 'line history';
  readonly kinds = ['change'] as const;
  private readonly cache = new Map<string, Promise<SuggestionItem[]>>();

  constructor(
    private readonly git: GitService,
    private readonly cochange: CoChangeModel,
    private readonly hunksOf: (file: string) => Promise<Hunk[]>,
  ) {}

  /** Forget the answers for a file (it was saved), or for every file (HEAD moved). */
  invalidate(path?: string): void {
    if (!path) this.cache.clear();
    else for (const key of this.cache.keys()) if (key.startsWith(`${path}\0`)) this.cache.delete(key);
  }

  async collect(ctx: SourceContext): Promise<SuggestionItem[]> {
    const file = ctx.query.currentFile;
    const range = ctx.symbolRange;
    if (!file || !range || range.startLine < 1 || range.endLine < range.startLine || !this.cochange.repoState?.ok) return [];
    // The range is in the lines of the working copy; history knows the lines of HEAD.
    const atHead = rangeBefore(await this.hunksOf(file), { start: range.startLine, end: range.endLine });
    if (!atHead || ctx.signal.aborted) return [];
    const key = `${file}\0${atHead.start}-${atHead.end}\0${this.cochange.lastMined ?? ''}`;
    let answer = this.cache.get(key);
    if (!answer) {
      answer = this.commitsOfLines(file, atHead, ctx.signal).then((commits) =>
        commits.map((c) => commitItem(file, c, ctx.now, 0.9, `changed ${range.name} ${formatAge(c.date, ctx.now)}`, range)),
      );
      this.cache.set(key, answer);
      if (this.cache.size > 200) this.cache.delete(this.cache.keys().next().value as string);
    }
    const items = await answer;
    // A cancelled call found nothing: the next query asks again.
    if (ctx.signal.aborted) this.cache.delete(key);
    return items;
  }

  private async commitsOfLines(file: string, range: LineRange, signal: AbortSignal): Promise<FileRevision[]> {
    const revisions = this.cochange.history.revisions(file, REVISIONS);
    if (!revisions.length) return [];
    const diffs = await this.git.fileDiffs(file, revisions, { signal, timeoutMs: TIMEOUT_MS });
    if (signal.aborted || diffs.size === 0) return [];
    const out: FileRevision[] = [];
    let lines: LineRange | undefined = range;
    for (const rev of revisions) {
      const hunks = diffs.get(rev.hash);
      // No diff (a binary file, or git stopped): the lines cannot be followed further.
      if (!hunks) break;
      if (touches(hunks, lines)) out.push(rev);
      lines = rangeBefore(hunks, lines);
      if (!lines || out.length >= SHOWN) break;
    }
    return out;
  }
}
