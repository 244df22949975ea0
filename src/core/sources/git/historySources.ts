import { statSync, type Stats } from 'node:fs';
import { join } from 'node:path';
import type { CoChangeModel } from '../../cochange/cochangeModel';
import { relatedFiles, type ImportGraph, type RelatedFile } from '../../cochange/relatedFiles';
import { FileIndex } from '../../cochange/testPairing';
import { languageOf } from '../../index/languages';
import type { CommitInfo, FileCommit, GitService, Hunk, RepoState } from '../../git/gitService';
import { hunkAt } from '../../git/gitService';
import type { SourceContext, SuggestionSource } from '../../provider/provider';
import type { SuggestionItem } from '../../types';
import { formatAge } from '../sourceQuery';

const STATE_TTL_MS = 5_000;
const HISTORY_TTL_MS = 60_000;
const RELATED_CACHED = 10;
const GIT_TIMEOUT_MS = 2_500;

const REASONS: Record<NonNullable<RepoState['reason']>, string> = {
  'not-a-repo': 'Not a git repository: recent changes and “usually changes with” are off.',
  'git-missing': 'git was not found on PATH: recent changes and “usually changes with” are off.',
  'no-commits': 'The repository has no commits yet: recent changes and “usually changes with” start with the first commit.',
  shallow: 'Shallow clone: history (and so recent changes and co-change) covers only the fetched commits.',
  detached: '',
};

interface Cached<T> {
  at: number;
  value: Promise<T>;
}

/**
 * Git-backed suggestions: commits on this file and on the symbol's lines, uncommitted hunks
 * (is the cursor inside one?), recent changes to related files, and the files that usually
 * change together with this one. Results are cached per file and dropped when the file changes.
 */
export class HistorySources {
  private state: Cached<RepoState> | undefined;
  private readonly cache = new Map<string, Cached<unknown>>();
  private fileIndex: FileIndex | undefined;
  /** The last rankings, by file: one suggestion asks twice (changes of partners, then co-change). */
  private readonly relatedCache = new Map<string, { at: number; value: RelatedFile[] }>();

  constructor(
    private readonly root: string,
    private readonly git: GitService,
    private readonly cochange: CoChangeModel,
    private readonly imports: ImportGraph,
    private readonly listFiles: () => string[],
    private readonly clock: () => number,
  ) {}

  /** Forget what was cached about a file (it was saved, or HEAD moved). */
  invalidate(path?: string): void {
    if (!path) {
      this.cache.clear();
      this.state = undefined;
      this.fileIndex = undefined;
      this.relatedCache.clear();
      return;
    }
    for (const key of this.cache.keys()) if (key.endsWith(`\u0000${path}`) || key.includes(`\u0000${path}\u0000`)) this.cache.delete(key);
    // The file index knows names only: an edit keeps it, a file coming or going rebuilds it.
    // Its imports may have changed, and so the rankings of the files around it.
    this.relatedCache.clear();
    // Only code files are in the list: a README or JSON save never changes it.
    if (this.fileIndex && languageOf(path) && this.fileIndex.has(path) !== this.isFile(path)) this.fileIndex = undefined;
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

  related(path: string, limit = 10): RelatedFile[] {
    const now = this.clock();
    const hit = this.relatedCache.get(path);
    if (hit && now - hit.at < STATE_TTL_MS && limit <= RELATED_CACHED) return hit.value.slice(0, limit);
    this.fileIndex ??= new FileIndex(this.listFiles());
    const value = relatedFiles(path, { cochange: this.cochange, broad: this.cochange.broad, imports: this.imports, files: this.fileIndex, now }, Math.max(limit, RELATED_CACHED));
    this.relatedCache.delete(path);
    this.relatedCache.set(path, { at: now, value });
    if (this.relatedCache.size > 50) this.relatedCache.delete(this.relatedCache.keys().next().value as string);
    return value.slice(0, limit);
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
        if (!file) return [];
        const state = await this.repoState();
        if (!state.ok) return [];
        return this.related(file, 8).map((r) => ({
          type: 'cochange' as const,
          title: r.path,
          summary: r.reasons.join('; '),
          relevanceScore: r.score,
          reason: r.reasons.slice(0, 2).join('; ') || 'related to this file',
          location: { path: r.path },
          entityId: `cochange:${r.path}`,
          meta: r.support ? { support: r.support } : undefined,
        }));
      },
    };
  }

  /**
   * Cached answers are shared by later queries, so they are computed without the asking query's
   * cancellation (a cancelled query would otherwise leave "not a repository" or "no commits" in
   * the cache); each git call is still bounded by its timeout.
   */
  private async repoState(): Promise<RepoState> {
    const now = this.clock();
    if (!this.state || now - this.state.at > STATE_TTL_MS) this.state = { at: now, value: this.git.state({ timeoutMs: GIT_TIMEOUT_MS }) };
    return this.state.value;
  }

  private cached<T>(key: string, make: () => Promise<T>, ttl = HISTORY_TTL_MS): Promise<T> {
    const now = this.clock();
    const hit = this.cache.get(key) as Cached<T> | undefined;
    if (hit && now - hit.at < ttl) return hit.value;
    const value = make().catch((err) => {
      this.cache.delete(key);
      throw err;
    });
    this.cache.set(key, { at: now, value });
    if (this.cache.size > 2000) this.cache.delete(this.cache.keys().next().value as string);
    return value;
  }

  private async changes(ctx: SourceContext): Promise<SuggestionItem[]> {
    const file = ctx.query.currentFile;
    if (!file) return [];
    const state = await this.repoState();
    if (!state.ok) {
      ctx.note(REASONS[state.reason ?? 'not-a-repo']);
      return [];
    }
    if (state.reason && REASONS[state.reason]) ctx.note(REASONS[state.reason]);
    const days = ctx.config.recentChangeDays;
    const opts = { timeoutMs: GIT_TIMEOUT_MS };
    const range = ctx.symbolRange;
    const mtime = this.stat(file)?.mtimeMs ?? 0;
    const [commits, lineCommits, hunks] = await Promise.all([
      this.cached(`c\u0000${days}\u0000${file}`, () => this.git.recentCommits(file, { ...opts, days, maxCount: 8 })),
      range ? this.cached(`l\u0000${range.startLine}-${range.endLine}\u0000${file}`, () => this.git.lineHistory(file, range.startLine, range.endLine, { ...opts, maxCount: 5 })) : Promise.resolve([] as CommitInfo[]),
      this.cached(`h\u0000${mtime}\u0000${file}`, () => this.git.uncommittedHunks(file, opts), 10_000),
    ]);
    const now = ctx.now;
    const items: SuggestionItem[] = [];
    const cursor = ctx.query.cursorPosition?.line;
    const symbol = range?.name;
    for (const c of lineCommits) {
      items.push(commitItem(file, c, now, 0.9, `changed ${symbol ?? `lines ${range?.startLine}–${range?.endLine}`} ${formatAge(c.date, now)}`, range));
    }
    for (const c of commits as FileCommit[]) {
      items.push(commitItem(file, c, now, 0.6, `changed this file ${formatAge(c.date, now)} (+${c.added} −${c.removed})`));
    }
    const inside = cursor !== undefined ? hunkAt(hunks, cursor) : undefined;
    for (const h of hunks.slice(0, 10)) {
      const start = h.newStart;
      const end = h.newLines > 0 ? h.newStart + h.newLines - 1 : h.newStart;
      const here = h === inside;
      const what = h.kind === 'untracked' ? 'New file, not yet committed' : h.kind === 'deleted' ? `Uncommitted deletion near line ${start}` : start === end ? `Uncommitted change at line ${start}` : `Uncommitted change at lines ${start}–${end}`;
      items.push({
        type: 'change',
        title: what,
        summary: h.kind === 'untracked' ? `${file} is not in git yet.` : `${h.oldLines} line${h.oldLines === 1 ? '' : 's'} replaced by ${h.newLines} since the last commit.`,
        relevanceScore: here ? 0.95 : symbol && range && start <= range.endLine && end >= range.startLine ? 0.8 : 0.55,
        reason: here ? 'you are editing inside this uncommitted change' : symbol && range && start <= range.endLine && end >= range.startLine ? `uncommitted change inside ${symbol}` : 'uncommitted change in this file',
        location: { path: file, line: start, endLine: end },
        entityId: `hunk:${file}:${h.oldStart}:${h.oldLines}`,
        timestamp: mtime || undefined,
        meta: { uncommitted: true },
      });
    }
    // What changed lately in the files that usually change with this one.
    if (ctx.config.enabledKinds.change) {
      const partners = this.related(file, 3).filter((r) => (r.support ?? 0) > 0);
      const paths = partners.map((p) => p.path);
      // One git call for all of them; the key names every path so a change to any one drops it.
      const latest = paths.length ? await this.cached(`p\u0000${days}\u0000${paths.join('\u0000')}`, () => this.git.recentCommitsOfFiles(paths, { ...opts, days, maxCount: 1 })) : new Map<string, FileCommit[]>();
      for (const p of partners) {
        for (const c of latest.get(p.path) ?? []) {
          items.push(commitItem(p.path, c, now, 0.4, `changed ${p.path} ${formatAge(c.date, now)}; it usually changes with this file`));
        }
      }
    }
    return items;
  }
}

function commitItem(path: string, c: CommitInfo, now: number, score: number, reason: string, range?: { startLine: number; endLine: number }): SuggestionItem {
  const short = c.hash.slice(0, 7);
  return {
    type: 'change',
    title: c.subject || `(no message) ${short}`,
    summary: `${c.author} · ${short} · ${formatAge(c.date, now)}`,
    relevanceScore: score,
    reason,
    location: { path, line: range?.startLine, endLine: range?.endLine, commit: c.hash },
    entityId: `commit:${c.hash}:${path}`,
    timestamp: c.date,
    meta: { author: c.author, commit: short },
  };
}

export type { Hunk };
