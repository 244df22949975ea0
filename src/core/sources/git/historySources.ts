import { statSync, type Stats } from 'node:fs';
import { join } from 'node:path';
import type { CoChangeModel } from '../../cochange/cochangeModel';
import { relatedFiles, type ImportGraph, type RelatedFile } from '../../cochange/relatedFiles';
import { hasChangeEvidence, partnerScore } from '../../cochange/partnerEvidence';
import { FileIndex } from '../../cochange/testPairing';
import { WorkspaceTerms } from '../../cochange/workspaceTerms';
import { languageOf } from '../../index/languages';
import type { GitService } from '../../git/gitService';
import { hunkAt, type Hunk, type UncommittedChange } from '../../git/hunks';
import type { RepoState } from '../../git/repoState';
import { WorkingTreeStatus } from '../../git/workingTree';
import type { SuggestionItem } from '../../types';
import { recentWindowStart } from '../../cochange/recentWindow';
import { TimeSlice } from '../../timeSlice';
import { type QueryContext, type SuggestionSource } from '../sourceQuery';
import { BulkCommits } from './bulkCommits';
import { commitItem, lineCounts } from './commitItems';
import { LineHistorySource } from './lineHistorySource';
import { MergedWork } from './mergedWork';

const RELATED_TTL_MS = 5_000;
const RELATED_CACHED = 10;
/** Partners one query offers the panel, of the ranked ones that have the evidence to be shown. */
const COCHANGE_ITEMS = 8;
const HUNK_TIMEOUT_MS = 2_500;
const RECENT_COMMITS = 8;
/** Focused commits a file without a definition at the cursor shows, older than the recent window if need be. */
const FILE_COMMITS = 3;

const REPO_REASONS: Record<NonNullable<RepoState['reason']>, string> = {
  'not-a-repo': 'Not a git repository: recent changes and “usually changes with” are off.',
  'dubious-ownership':
    'Git does not read this repository because another user owns it: recent changes and “usually changes with” are off.',
  'git-missing': 'git was not found on PATH: recent changes and “usually changes with” are off.',
  'no-commits':
    'The repository has no commits yet: recent changes and “usually changes with” start with the first commit.',
  shallow: 'Shallow clone: history (and so recent changes and co-change) covers only the fetched commits.',
  detached: '',
};
const PARTIAL_CLONE = 'Partial clone: line counts are off so that nothing is fetched from the remote.';
const READING = 'Reading git history: recent commits and “usually changes with” follow when it is done.';

interface CachedHunks {
  /** The file as it was when asked: a save changes it even when no change event arrives. */
  stamp: string;
  value: Promise<UncommittedChange>;
}

/**
 * History-backed suggestions: commits on this file and on the files that usually change with it,
 * from the engine's own history index, and uncommitted hunks (is the cursor inside one?). Git is not
 * asked for a file the last whole-tree status saw clean, and once per save for one changed since.
 */
export class HistorySources {
  private readonly hunks = new Map<string, CachedHunks>();
  /** Each file's stamp (mtime and size) when it was last said to have changed. */
  private readonly toldStamps = new Map<string, string>();
  private fileIndex: FileIndex | undefined;
  /** The file list the file index was built from. */
  private fileIndexPaths: readonly string[] | undefined;
  /** The files history knows that are still there, as last counted: partners for a file the index does not parse. */
  private present: readonly string[] = [];
  private everyFileIndex: FileIndex | undefined;
  /** The file index being built in slices, and the list of files it is built from. */
  private preparing: { paths: readonly string[]; done: Promise<void> } | undefined;
  /** Bumped whenever the index of every file is dropped: one built meanwhile is stale. */
  private everyEpoch = 0;
  /** The last rankings, by file: one suggestion asks twice (changes of partners, then co-change). */
  private readonly relatedCache = new Map<string, { at: number; value: RelatedFile[] }>();
  /** The last ranking that took a file's uncommitted change into account, for that change's words. */
  private changeRanking: { path: string; words: readonly string[]; at: number; value: RelatedFile[] } | undefined;
  private readonly lineHistory: LineHistorySource;
  private readonly merged: MergedWork;
  private readonly bulk: BulkCommits;
  private readonly tree: WorkingTreeStatus;
  private readonly terms: WorkspaceTerms;
  /** The commits blame is told to look past (mass reformats), as last read: the query path asks git nothing. */
  private ignored: ReadonlySet<string> = new Set();
  private ignoredRead: Promise<ReadonlySet<string>> | undefined;

  constructor(
    private readonly root: string,
    private readonly git: GitService,
    private readonly cochange: CoChangeModel,
    private readonly imports: ImportGraph,
    private readonly listFiles: () => string[],
    private readonly clock: () => number,
    /** How long the file indexes are built before the event loop runs (tests yield at every step). */
    private readonly slice: () => TimeSlice = () => new TimeSlice(),
  ) {
    this.merged = new MergedWork(git);
    this.bulk = new BulkCommits(root, () => cochange.history);
    this.lineHistory = new LineHistorySource(
      git,
      cochange,
      (file) => this.uncommittedHunks(file),
      () => this.ignoredRevisions(),
      this.merged,
      this.bulk,
    );
    this.tree = new WorkingTreeStatus(git);
    this.terms = new WorkspaceTerms(root);
  }

  /** Reads the words of every code file (after the code index is built), off the query path. */
  async refreshTerms(signal?: AbortSignal): Promise<void> {
    await this.terms.refresh(this.sharedPaths(this.listFiles()), signal);
    this.relatedCache.clear();
  }

  /** The words of every code file, once read (a team snapshot carries them). */
  termFiles(): ReturnType<WorkspaceTerms['files']> {
    return this.terms.files();
  }

  /** Words a team snapshot knows for files unchanged since: the next refresh reads only the others. */
  seedTerms(files: Parameters<WorkspaceTerms['seed']>[0]): void {
    this.terms.seed(files);
  }

  /**
   * Takes a status of the whole tree, so that queries on clean files need no git call, and reads the
   * list of commits blame looks past, which HEAD may have changed, and counts the tracked files that
   * say which commits are bulk changes (after each history update).
   */
  async refreshWorkingTree(signal?: AbortSignal): Promise<void> {
    if (!this.cochange.repoState?.ok) return;
    const counting = this.bulk.countTracked(this.slice()).then((present) => {
      this.present = present;
      this.dropEveryFileIndex();
    });
    await Promise.all([counting, this.tree.refresh({ signal, timeoutMs: 30_000 }), this.readIgnored()]);
  }

  /** HEAD moved: other files may differ from it now, and history answers change. */
  headMoved(): void {
    this.tree.forget();
    this.invalidate();
  }

  /** Forget what was cached about a file (it was saved), or about every file (HEAD moved). */
  invalidate(path?: string): void {
    this.lineHistory.invalidate(path);
    if (!path) {
      this.hunks.clear();
      this.toldStamps.clear();
      this.keepFileIndexIfSameFiles();
      this.dropEveryFileIndex();
      this.relatedCache.clear();
      this.changeRanking = undefined;
      return;
    }
    // One save is often told twice (the watcher at once, the index after its quiet time): the
    // second telling of the same content must not ask git again.
    const stat = this.stat(path);
    const stamp = stat ? `${stat.mtimeMs}:${stat.size}` : 'absent';
    if (this.toldStamps.get(path) !== stamp) {
      this.toldStamps.delete(path);
      this.toldStamps.set(path, stamp);
      if (this.toldStamps.size > 1000) this.toldStamps.delete(this.toldStamps.keys().next().value as string);
      this.hunks.delete(path);
      this.tree.fileChanged(path);
    }
    if (languageOf(path)) void this.terms.fileChanged(path);
    // The file index knows names only: an edit keeps it, a file coming or going rebuilds it.
    // Its imports may have changed, and so the rankings of the files around it.
    this.relatedCache.clear();
    this.changeRanking = undefined;
    // Only code files are in the list: a README or JSON save never changes it.
    if (this.fileIndex && languageOf(path) && this.fileIndex.has(path) !== this.isFile(path))
      this.fileIndex = undefined;
    if (this.everyFileIndex?.has(path) && !this.isFile(path)) {
      this.present = this.present.filter((p) => p !== path);
      this.dropEveryFileIndex();
    }
  }

  /**
   * Files likely to change with `path`, strongest first. `changeWords` (the words of its uncommitted
   * change) bring in and lift the files that name what the change is about.
   */
  related(path: string, limit = 10, changeWords?: readonly string[]): RelatedFile[] {
    const now = this.clock();
    if (changeWords?.length) {
      const last = this.changeRanking;
      if (
        last &&
        last.path === path &&
        last.words === changeWords &&
        now - last.at < RELATED_TTL_MS &&
        limit <= RELATED_CACHED
      )
        return last.value.slice(0, limit);
      const value = this.rank(path, now, changeWords);
      this.changeRanking = { path, words: changeWords, at: now, value };
      return value.slice(0, limit);
    }
    const hit = this.relatedCache.get(path);
    if (hit && now - hit.at < RELATED_TTL_MS && limit <= RELATED_CACHED) return hit.value.slice(0, limit);
    const value = this.rank(path, now);
    this.relatedCache.delete(path);
    this.relatedCache.set(path, { at: now, value });
    if (this.relatedCache.size > 50) this.relatedCache.delete(this.relatedCache.keys().next().value as string);
    return value.slice(0, limit);
  }

  /**
   * Builds the file indexes a ranking of `path` needs, in slices, unless they are built: the first
   * ranking after the list of files changed then no longer builds them in one step.
   */
  async prepareFileIndexes(path: string): Promise<void> {
    if (!this.fileIndex) await this.prepareFileIndex();
    if (languageOf(path) || !this.present.length || this.everyFileIndex) return;
    const epoch = this.everyEpoch;
    const every = new Set([...this.sharedPaths(this.listFiles()), ...this.present]);
    const index = await FileIndex.build(every, this.slice());
    if (epoch === this.everyEpoch) this.everyFileIndex ??= index;
  }

  private prepareFileIndex(): Promise<void> {
    const paths = this.listFiles();
    if (this.preparing && samePaths(this.preparing.paths, paths)) return this.preparing.done;
    const preparing = {
      paths,
      done: FileIndex.build(this.sharedPaths(paths), this.slice()).then((index) => {
        if (this.preparing === preparing) this.preparing = undefined;
        // A ranking meanwhile built its own; files came or went since the list was taken.
        if (this.fileIndex || !samePaths(paths, this.listFiles())) return;
        this.fileIndex = index;
        this.fileIndexPaths = paths;
      }),
    };
    this.preparing = preparing;
    return preparing.done;
  }

  private dropEveryFileIndex(): void {
    this.everyFileIndex = undefined;
    this.everyEpoch++;
  }

  /**
   * The file index depends on the list of files only, and building it is one step of 0.5–1.5 s on a
   * 6k-file repository under load: a history pass or a scan that lists the same files keeps it.
   */
  private keepFileIndexIfSameFiles(): void {
    if (!this.fileIndex) return;
    const paths = this.listFiles();
    const kept = this.fileIndexPaths;
    if (!kept || !samePaths(kept, paths)) this.fileIndex = undefined;
  }

  private rank(path: string, now: number, changeWords?: readonly string[]): RelatedFile[] {
    return relatedFiles(
      path,
      {
        cochange: this.cochange,
        broad: this.cochange.broad,
        imports: this.imports,
        files: this.filesFor(path),
        terms: this.terms.similarity(),
        now,
        changeWords,
      },
      RELATED_CACHED,
    );
  }

  /**
   * The files that may be ranked with `path`: the code files, and for a file the code index does not
   * parse (a style sheet, a config, a Kotlin class) every file history knows that is still there, so
   * that its test, its lock file or its other half (also unparsed) can show.
   */
  private filesFor(path: string): FileIndex {
    if (!this.fileIndex) {
      this.fileIndexPaths = this.listFiles();
      this.fileIndex = new FileIndex(this.sharedPaths(this.fileIndexPaths));
    }
    if (languageOf(path) || !this.present.length) return this.fileIndex;
    this.everyFileIndex ??= new FileIndex(new Set([...this.sharedPaths(this.listFiles()), ...this.present]));
    return this.everyFileIndex;
  }

  /**
   * The uncommitted hunks of a file: none for a file the last whole-tree status saw clean, else
   * asked of git once until the file is saved or HEAD moves.
   */
  uncommittedHunks(path: string): Promise<Hunk[]> {
    return this.uncommittedChange(path).then((c) => c.hunks);
  }

  /** The same, with the words of the changed lines; one git call serves both. */
  uncommittedChange(path: string): Promise<UncommittedChange> {
    const stat = this.stat(path);
    const tree = this.tree.stateOf(path, stat?.mtimeMs);
    if (tree.kind === 'clean') return Promise.resolve({ hunks: [], words: [] });
    const stamp = stat ? `${stat.mtimeMs}:${stat.size}` : 'absent';
    const hit = this.hunks.get(path);
    if (hit && hit.stamp === stamp) return hit.value;
    // Shared by later queries, so not bound to the asking query's cancellation; the timeout bounds it.
    const value = this.git
      .uncommittedChange(path, { timeoutMs: HUNK_TIMEOUT_MS, status: tree.kind === 'changed' ? tree.code : undefined })
      .catch((err: unknown) => {
        this.hunks.delete(path);
        throw err;
      });
    this.hunks.set(path, { stamp, value });
    if (this.hunks.size > 500) this.hunks.delete(this.hunks.keys().next().value as string);
    return value;
  }

  /** The commits `git blame` is told to look past; they are not shown as changes of a file or its lines. */
  ignoredRevisions(): Promise<ReadonlySet<string>> {
    return this.ignoredRead ?? this.readIgnored();
  }

  private readIgnored(): Promise<ReadonlySet<string>> {
    const read: Promise<ReadonlySet<string>> = this.git.ignoredRevisions({ timeoutMs: HUNK_TIMEOUT_MS }).then(
      (set) => {
        if (this.ignoredRead === read) this.ignored = set;
        return set;
      },
      // Unreadable now: what was read before still holds.
      () => this.ignored,
    );
    this.ignoredRead = read;
    return read;
  }

  /** Says why history gives nothing, when it cannot; true when it can. */
  historyUsable(ctx: QueryContext): boolean {
    const state = this.cochange.repoState;
    if (!state) {
      ctx.note(READING);
      return false;
    }
    if (!state.ok) {
      const reason = REPO_REASONS[state.reason ?? 'not-a-repo'];
      // Git's own words carry the fix (the safe.directory command for this folder).
      ctx.note(state.reason === 'dubious-ownership' && state.detail ? `${reason} Git says: ${state.detail}` : reason);
      return false;
    }
    if (state.reason && REPO_REASONS[state.reason]) ctx.note(REPO_REASONS[state.reason]);
    if (state.partialClone) ctx.note(PARTIAL_CLONE);
    return true;
  }

  /** Commits that changed the lines at the cursor: slow, for the second pass that enriches an answer. */
  lineHistorySource(): SuggestionSource {
    return this.lineHistory;
  }

  changeSource(): SuggestionSource {
    return { name: 'git history', kinds: ['change'], collect: (ctx) => this.changes(ctx) };
  }

  cochangeSource(): SuggestionSource {
    return {
      name: 'co-change',
      kinds: ['cochange'],
      collect: async (ctx) => {
        const file = ctx.query.currentFile;
        if (!file || !this.cochange.repoState?.ok) return [];
        // What the file's uncommitted change is about; a failed diff leaves the ranking to history.
        const [change] = await Promise.all([
          this.uncommittedChange(file).catch((): UncommittedChange => ({ hunks: [], words: [] })),
          this.prepareFileIndexes(file),
        ]);
        // Pair counts leave out large change sets: a file changed only in those still has a history.
        const commits = this.cochange.commitsOf(file);
        const known = commits > 0 || this.cochange.history.recent(file, 1).length > 0;
        return this.related(file, RELATED_CACHED, change.words)
          .filter((r) => hasChangeEvidence(r, { path: file, hasHistory: known, commits }))
          .slice(0, COCHANGE_ITEMS)
          .map((r) => ({
            type: 'cochange' as const,
            title: r.path,
            summary: r.reasons.join('; '),
            relevanceScore: partnerScore(r, { path: file, hasHistory: known, commits }),
            reason: r.reasons.slice(0, 2).join('; ') || 'related to this file',
            location: { path: r.path },
            entityId: `cochange:${r.path}`,
            meta: r.support ? { support: r.support } : undefined,
          }));
      },
    };
  }

  // eslint-disable-next-line complexity -- the ranking signals of one query, in order
  private async changes(ctx: QueryContext): Promise<SuggestionItem[]> {
    const file = ctx.query.currentFile;
    if (!file) return [];
    const items: SuggestionItem[] = [];
    const now = ctx.now;
    const range = ctx.symbolRange;
    const symbol = range?.name;
    const usable = this.historyUsable(ctx);
    // Not a repository (or no git): nothing to diff either.
    if (!usable && this.cochange.repoState) return items;
    const hunks = await this.uncommittedHunks(file);
    const cursor = ctx.query.cursorPosition?.line;
    const inside = cursor !== undefined ? hunkAt(hunks, cursor) : undefined;
    const mtime = this.stat(file)?.mtimeMs ?? 0;
    for (const h of hunks.slice(0, 10)) {
      const start = h.newStart;
      const end = h.newLines > 0 ? h.newStart + h.newLines - 1 : h.newStart;
      const here = h === inside;
      const inSymbol = Boolean(symbol && range && start <= range.endLine && end >= range.startLine);
      const what =
        h.kind === 'untracked'
          ? 'New file, not yet committed'
          : h.kind === 'deleted'
            ? `Uncommitted deletion near line ${start}`
            : start === end
              ? `Uncommitted change at line ${start}`
              : `Uncommitted change at lines ${start}–${end}`;
      items.push({
        type: 'change',
        title: what,
        summary:
          h.kind === 'untracked'
            ? `${file} is not in git yet.`
            : `${h.oldLines} line${h.oldLines === 1 ? '' : 's'} replaced by ${h.newLines} since the last commit.`,
        relevanceScore: here ? 0.95 : inSymbol ? 0.8 : 0.55,
        reason: here
          ? 'you are editing inside this uncommitted change'
          : inSymbol
            ? `uncommitted change inside ${symbol}`
            : 'uncommitted change in this file',
        location: { path: file, line: start, endLine: end },
        entityId: `hunk:${file}:${h.oldStart}:${h.oldLines}`,
        timestamp: mtime || undefined,
        meta: { uncommitted: true },
      });
    }
    if (!usable) return items;
    const history = this.cochange.history;
    const since = recentWindowStart(now, history.newestTime, ctx.config.recentChangeDays);
    // A listed mass reformat touched the file but changed nothing a reader looks for.
    const ignored = this.ignored;
    // Only commits of this file, each once: another file's commits belong to its own panel.
    const commits = history.recent(file, RECENT_COMMITS, since, ignored);
    // With no definition at the cursor there is no line history to fall back on (a style sheet, a
    // config, a language the index does not parse): the file's last commits stand for it, however old.
    const focused = (c: { hash: string }) => this.bulk.filesOf(c.hash) === undefined;
    let shown = commits.filter(focused).length;
    if (!range && shown < FILE_COMMITS) {
      const seen = new Set(commits.map((c) => c.hash));
      for (const c of history.recent(file, RECENT_COMMITS, undefined, ignored)) {
        if (shown >= FILE_COMMITS || commits.length >= RECENT_COMMITS) break;
        if (seen.has(c.hash)) continue;
        commits.push(c);
        if (focused(c)) shown++;
      }
    }
    // A bulk change says nothing about this file's code: it is shown, labelled, only when the file
    // has no focused commit to show instead.
    const listed = shown > 0 ? commits.filter(focused) : commits;
    for (const c of listed) {
      // The age has a column of its own and the group says these are the file's changes: the reason
      // says how much the commit changed here. Counts are read for the recent window only; older
      // commits mined with theirs (a catch-up's) say the same as any other index would.
      const counted = c.added !== undefined && c.date >= since;
      const lines = counted ? lineCounts(c.added!, c.removed ?? 0) : 'changed this file';
      items.push(commitItem(file, c, 0.6, lines, undefined, this.bulk.filesOf(c.hash)));
    }
    await this.merged.retitle(items, ctx.signal);
    return items;
  }

  /** The history's own copies of the paths it knows, so that a path is held once. */
  private sharedPaths(paths: readonly string[]): string[] {
    const table = this.cochange.history.paths;
    return paths.map((p) => {
      const id = table.find(p);
      return id === undefined ? p : table.path(id);
    });
  }

  private isFile(path: string): boolean {
    return Boolean(this.stat(path)?.isFile());
  }

  private stat(path: string): Stats | undefined {
    try {
      return statSync(join(this.root, path), { throwIfNoEntry: false });
    } catch {
      // A parent that became a file (ENOTDIR), a name too long, no permission: nothing we can use.
      return undefined;
    }
  }
}

function samePaths(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((p, i) => p === b[i]);
}

export type { Hunk };
