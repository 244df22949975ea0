import { readFile, realpath } from 'node:fs/promises';
import { isAbsolute, relative, resolve } from 'node:path';
import { nullLogger, type Logger } from '../logger';
import { runGit, type GitResult } from './gitExec';

export type RepoReason = 'not-a-repo' | 'git-missing' | 'shallow' | 'detached' | 'no-commits';

/** What git can give for this folder. Shallow and detached repositories still work (`ok`), with a reason. */
export interface RepoState {
  ok: boolean;
  reason?: RepoReason;
  head?: string;
  shallow?: boolean;
  detached?: boolean;
}

export interface CommitInfo {
  hash: string;
  author: string;
  email: string;
  /** Committer date, unix milliseconds. */
  date: number;
  subject: string;
}

export interface FileCommit extends CommitInfo {
  /** Lines added to and removed from the file in this commit; 0 for binary files. */
  added: number;
  removed: number;
}

/** An uncommitted change, in the line numbers of the working copy (1-based). */
export interface Hunk {
  oldStart: number;
  oldLines: number;
  newStart: number;
  newLines: number;
  kind: 'added' | 'modified' | 'deleted' | 'untracked';
}

export interface CallOptions {
  signal?: AbortSignal;
  timeoutMs?: number;
}

export interface GitServiceOptions {
  logger?: Logger;
  /** Default bound for each git call. */
  timeoutMs?: number;
}

const COMMIT_FORMAT = '--format=%x01%H%x00%an%x00%ae%x00%ct%x00%s';

/**
 * The git facts the engine shows: recent commits of a file, the history of a line range, uncommitted
 * hunks and the files of a commit. Every call is bounded and cancellable, and a folder without a
 * usable repository gives empty results, never an exception.
 */
export class GitService {
  private readonly logger: Logger;
  private readonly timeoutMs: number;

  constructor(readonly root: string, options: GitServiceOptions = {}) {
    this.logger = options.logger ?? nullLogger;
    this.timeoutMs = options.timeoutMs ?? 10_000;
  }

  async isRepo(options: CallOptions = {}): Promise<boolean> {
    const r = await this.git(['rev-parse', '--is-inside-work-tree'], options);
    return r.ok && r.stdout.trim() === 'true';
  }

  async state(options: CallOptions = {}): Promise<RepoState> {
    const inside = await this.git(['rev-parse', '--is-inside-work-tree'], options);
    if (inside.failure === 'git-missing') return { ok: false, reason: 'git-missing' };
    if (!inside.ok || inside.stdout.trim() !== 'true') return { ok: false, reason: 'not-a-repo' };
    const [head, shallow, branch] = await Promise.all([
      this.git(['rev-parse', '--verify', '--quiet', 'HEAD^{commit}'], options),
      this.git(['rev-parse', '--is-shallow-repository'], options),
      this.git(['symbolic-ref', '--quiet', 'HEAD'], options),
    ]);
    if (!head.ok) return { ok: false, reason: 'no-commits' };
    const state: RepoState = { ok: true, head: head.stdout.trim() };
    if (shallow.ok && shallow.stdout.trim() === 'true') state.shallow = true;
    if (!branch.ok) state.detached = true;
    state.reason = state.shallow ? 'shallow' : state.detached ? 'detached' : undefined;
    if (!state.reason) delete state.reason;
    return state;
  }

  /** Commits that touched the file in the last `days` days, newest first, with its line counts. */
  async recentCommits(file: string, options: CallOptions & { days?: number; maxCount?: number } = {}): Promise<FileCommit[]> {
    return (await this.recentCommitsOfFiles([file], options)).get(file) ?? [];
  }

  /**
   * The same for several files from one git call: each file's newest commits (at most `maxCount`
   * each), looked for among the newest 50 commits that touched any of them (or `maxCount` for one file).
   */
  async recentCommitsOfFiles(files: readonly string[], options: CallOptions & { days?: number; maxCount?: number } = {}): Promise<Map<string, FileCommit[]>> {
    const out = new Map<string, FileCommit[]>(files.map((f) => [f, []]));
    const byRel = new Map<string, string>();
    for (const f of files) {
      const rel = await this.relativePath(f);
      if (rel !== undefined) byRel.set(rel, f);
    }
    if (!byRel.size) return out;
    const perFile = options.maxCount ?? 50;
    const args = ['log', '--no-renames', '--relative', COMMIT_FORMAT, '--numstat', '-z', `--max-count=${byRel.size === 1 ? perFile : Math.max(50, perFile * byRel.size)}`];
    if (options.days !== undefined) args.push(`--since=${Math.max(0, Math.floor(Date.now() / 1000 - options.days * 86400))}`);
    args.push('HEAD', '--', ...byRel.keys());
    const r = await this.git(args, options);
    if (!r.ok) return out;
    for (const rec of r.stdout.split('\x01')) {
      if (!rec) continue;
      const parts = rec.split('\0');
      const info = parseCommitFields(parts);
      if (!info) continue;
      for (const tok of parts.slice(5)) {
        const m = /^\n?(\d+|-)\t(\d+|-)\t([\s\S]*)$/.exec(tok);
        const file = m ? byRel.get(m[3]) : undefined;
        const list = file !== undefined ? out.get(file) : undefined;
        if (!m || !list || list.length >= perFile) continue;
        list.push({ ...info, added: m[1] === '-' ? 0 : Number(m[1]), removed: m[2] === '-' ? 0 : Number(m[2]) });
      }
    }
    return out;
  }

  /** Commits that changed lines start..end of the file (as they are at HEAD), newest first. */
  async lineHistory(file: string, start: number, end: number, options: CallOptions & { maxCount?: number } = {}): Promise<CommitInfo[]> {
    const rel = await this.relativePath(file);
    if (rel === undefined || start < 1 || end < start) return [];
    const r = await this.git(['log', COMMIT_FORMAT, '--no-patch', `--max-count=${options.maxCount ?? 20}`, `-L${start},${end}:${rel}`, 'HEAD'], options);
    if (!r.ok) return [];
    const out: CommitInfo[] = [];
    for (const rec of r.stdout.split('\x01')) {
      const info = parseCommitFields(rec.split('\0'));
      if (info) out.push({ ...info, subject: info.subject.replace(/\n[\s\S]*$/, '') });
    }
    return out;
  }

  /** Uncommitted changes of the file against HEAD; an untracked file is one hunk covering all of it. */
  async uncommittedHunks(file: string, options: CallOptions = {}): Promise<Hunk[]> {
    const rel = await this.relativePath(file);
    if (rel === undefined) return [];
    // One status call says whether there is anything to diff: most files are clean.
    const status = await this.git(['status', '--porcelain=v1', '-z', '--untracked-files=all', '--ignored=matching', '--', rel], options);
    if (!status.ok) return [];
    const code = status.stdout.split('\0').find(Boolean)?.slice(0, 2);
    if (code === undefined || code === '!!') return [];
    if (code === '??') {
      const lines = await countLines(resolve(this.root, rel));
      return lines === undefined ? [] : [{ oldStart: 0, oldLines: 0, newStart: 1, newLines: lines, kind: 'untracked' }];
    }
    const diff = (base: string) => this.git(['diff', '--no-color', '--no-ext-diff', '-U0', base, '--', rel], options);
    let r = await diff('HEAD');
    // Before the first commit, compare with the empty tree.
    if (!r.ok && r.failure === 'exit') r = await diff('4b825dc642cb6eb9a060e54bf8d69288fbee4904');
    return r.ok ? parseHunks(r.stdout) : [];
  }

  /** Files a commit changed against its first parent, relative to the root (files outside it are left out). */
  async changedFiles(commit: string, options: CallOptions = {}): Promise<string[]> {
    if (!/^[0-9a-zA-Z_./~^@{}-]+$/.test(commit) || commit.startsWith('-')) return [];
    const r = await this.git(['diff-tree', '--no-commit-id', '--no-renames', '-r', '-m', '--first-parent', '--root', '--relative', '--name-only', '-z', commit, '--'], options);
    if (!r.ok) return [];
    return [...new Set(r.stdout.split('\0').filter(Boolean))];
  }

  private git(args: string[], options: CallOptions): Promise<GitResult> {
    return runGit(args, { cwd: this.root, timeoutMs: options.timeoutMs ?? this.timeoutMs, signal: options.signal }).then((r) => {
      if (!r.ok && r.failure !== 'exit') this.logger.debug(`git ${args[0]}: ${r.failure}`);
      return r;
    });
  }

  /** The file relative to the root, or undefined when it lies outside. */
  private async relativePath(file: string): Promise<string | undefined> {
    const abs = isAbsolute(file) ? file : resolve(this.root, file);
    let rel = relative(this.root, abs);
    if (rel.startsWith('..') || isAbsolute(rel)) {
      // The root may be reached through a symlink.
      const real = await realpath(this.root).catch(() => this.root);
      rel = relative(real, abs);
      if (rel.startsWith('..') || isAbsolute(rel)) return undefined;
    }
    return rel.split('\\').join('/');
  }
}

function parseCommitFields(parts: string[]): CommitInfo | undefined {
  if (parts.length < 5 || !/^[0-9a-f]{7,64}$/.test(parts[0])) return undefined;
  return { hash: parts[0], author: parts[1], email: parts[2], date: Number(parts[3]) * 1000, subject: parts[4].replace(/\n+$/, '') };
}

/** Parses the `@@ -a,b +c,d @@` headers of a zero-context diff. */
export function parseHunks(diff: string): Hunk[] {
  const hunks: Hunk[] = [];
  const re = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/gm;
  let m: RegExpExecArray | null;
  while ((m = re.exec(diff))) {
    const oldLines = m[2] === undefined ? 1 : Number(m[2]);
    const newLines = m[4] === undefined ? 1 : Number(m[4]);
    hunks.push({
      oldStart: Number(m[1]),
      oldLines,
      newStart: Number(m[3]),
      newLines,
      kind: oldLines === 0 ? 'added' : newLines === 0 ? 'deleted' : 'modified',
    });
  }
  return hunks;
}

/** The hunk the cursor line (1-based) is in; a deletion counts on the lines around where it was. */
export function hunkAt(hunks: readonly Hunk[], line: number): Hunk | undefined {
  for (const h of hunks) {
    if (h.newLines > 0 && line >= h.newStart && line < h.newStart + h.newLines) return h;
    if (h.newLines === 0 && (line === h.newStart || line === h.newStart + 1)) return h;
  }
  return undefined;
}

async function countLines(path: string): Promise<number | undefined> {
  try {
    const text = await readFile(path, 'utf8');
    if (!text) return 0;
    const n = text.split('\n').length;
    return text.endsWith('\n') ? n - 1 : n;
  } catch {
    return undefined;
  }
}
