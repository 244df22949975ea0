import { readFile, realpath } from 'node:fs/promises';
import { isAbsolute, relative, resolve } from 'node:path';
import { nullLogger, type Logger } from '../logger';
import {
  COMMIT_RECORD_FORMAT,
  CommitParser,
  FIRST_PARENT_LOG,
  LINE_LOG_FORMAT,
  parseLineLog,
  type CommitInfo,
} from './commitLog';
import { readRepoProfile, runGit, type GitResult, type GitRunner } from './gitExec';
import { diffWords, parseFileDiffs, parseHunks, type Hunk, type UncommittedChange } from './hunks';
import { isForgeMerge, MERGE_LOG, parseMergeTitles } from './mergeTitles';
import { dubiousOwnership, type RepoState } from './repoState';
import { addIgnoredRevisions, checkRevision, COMMIT_ID, ignoreRevsFiles } from './revisions';

export interface FileCommit extends CommitInfo {
  /** Lines added to and removed from the file in this commit; 0 for binary files. */
  added: number;
  removed: number;
}

export interface CallOptions {
  signal?: AbortSignal;
  timeoutMs?: number;
}

export interface GitServiceOptions {
  logger?: Logger;
  /** Default bound for each git call. */
  timeoutMs?: number;
  /** Runs git (default runGit). */
  run?: GitRunner;
}

/** The diff options of every zero-context patch read here: whitespace ignored as `git blame -w` does. */
const ZERO_CONTEXT_PATCH = ['-p', '-U0', '-w', '--no-color', '--no-ext-diff', '--no-textconv'];

/**
 * The git facts the engine shows: recent commits of a file, the history of a line range, uncommitted
 * hunks and the files of a commit. Every call is bounded and cancellable, and a folder without a
 * usable repository gives empty results, never an exception.
 */
export class GitService {
  private readonly logger: Logger;
  private readonly timeoutMs: number;
  private readonly run: GitRunner;

  constructor(
    readonly root: string,
    options: GitServiceOptions = {},
  ) {
    this.logger = options.logger ?? nullLogger;
    this.timeoutMs = options.timeoutMs ?? 10_000;
    this.run = options.run ?? runGit;
  }

  async isRepo(options: CallOptions = {}): Promise<boolean> {
    const r = await this.git(['rev-parse', '--is-inside-work-tree'], options);
    return r.ok && r.stdout.trim() === 'true';
  }

  async state(options: CallOptions = {}): Promise<RepoState> {
    const inside = await this.git(['rev-parse', '--is-inside-work-tree'], options);
    if (inside.failure === 'git-missing') return { ok: false, reason: 'git-missing' };
    // Stopped before git could say: no reason, so that callers do not take it for "not a repository".
    if (inside.failure === 'timeout' || inside.failure === 'aborted') return { ok: false };
    if (!inside.ok || inside.stdout.trim() !== 'true') {
      const dubious = dubiousOwnership(inside.stderr);
      return dubious === undefined
        ? { ok: false, reason: 'not-a-repo' }
        : { ok: false, reason: 'dubious-ownership', detail: dubious };
    }
    const [head, shallow, branch, profile] = await Promise.all([
      this.git(['rev-parse', '--verify', '--quiet', 'HEAD^{commit}'], options),
      this.git(['rev-parse', '--is-shallow-repository'], options),
      this.git(['symbolic-ref', '--quiet', 'HEAD'], options),
      readRepoProfile(this.root),
    ]);
    if (!head.ok) return { ok: false, reason: 'no-commits' };
    const state: RepoState = { ok: true, head: head.stdout.trim() };
    if (shallow.ok && shallow.stdout.trim() === 'true') state.shallow = true;
    if (!branch.ok) state.detached = true;
    if (profile?.partialClone) state.partialClone = true;
    state.reason = state.shallow ? 'shallow' : state.detached ? 'detached' : undefined;
    if (!state.reason) delete state.reason;
    return state;
  }

  /**
   * Commits that touched the file in the last `days` days, newest first, with its line counts, as
   * `git log --first-parent` walks them: a merged branch is its merge commit. The engine answers this
   * from its history index; this asks git (for the chat's explanations and to check the index).
   */
  async recentCommits(
    file: string,
    options: CallOptions & { days?: number; maxCount?: number; now?: number } = {},
  ): Promise<FileCommit[]> {
    const rel = await this.relativePath(file);
    if (rel === undefined) return [];
    const args = [
      ...FIRST_PARENT_LOG,
      `--format=${COMMIT_RECORD_FORMAT}`,
      '--numstat',
      '-z',
      `--max-count=${options.maxCount ?? 50}`,
    ];
    if (options.days !== undefined)
      args.push(`--since=${Math.max(0, Math.floor((options.now ?? Date.now()) / 1000 - options.days * 86400))}`);
    args.push('HEAD', '--', rel);
    const r = await this.git(args, options);
    if (!r.ok) return [];
    const out: FileCommit[] = [];
    const merges: string[] = [];
    const parser = new CommitParser(true, (c) => {
      const i = c.files.indexOf(rel);
      if (i < 0) return;
      out.push({
        hash: c.hash,
        author: c.author,
        email: c.email,
        date: c.time,
        subject: c.subject,
        added: c.added[i],
        removed: c.removed[i],
      });
      if (isForgeMerge(c.subject)) merges.push(c.hash);
    });
    parser.push(Buffer.from(r.stdout, 'utf8'));
    parser.end();
    if (merges.length) {
      const m = await this.git([...MERGE_LOG, '--no-walk=unsorted', '--stdin'], {
        ...options,
        input: `${merges.join('\n')}\n`,
      });
      const titles = m.ok ? parseMergeTitles(m.stdout) : undefined;
      for (const c of out) c.subject = titles?.get(c.hash) ?? c.subject;
    }
    return out;
  }

  /**
   * Commits that changed lines start..end of the file (as they are at HEAD), newest first, without
   * those blame is told to skip (`ignoredRevisions`). `git log -L` has no way to ignore whitespace.
   */
  async lineHistory(
    file: string,
    start: number,
    end: number,
    options: CallOptions & { maxCount?: number } = {},
  ): Promise<CommitInfo[]> {
    const rel = await this.relativePath(file);
    if (rel === undefined || start < 1 || end < start) return [];
    const [r, ignored] = await Promise.all([
      this.git(
        [
          'log',
          LINE_LOG_FORMAT,
          '--no-patch',
          '--no-ext-diff',
          '--no-textconv',
          `--max-count=${options.maxCount ?? 20}`,
          `-L${start},${end}:${rel}`,
          'HEAD',
        ],
        options,
      ),
      this.ignoredRevisions(options),
    ]);
    if (!r.ok) return [];
    return parseLineLog(r.stdout).filter((info) => !ignored.has(info.hash));
  }

  /**
   * Uncommitted changes of the file against HEAD; an untracked file is one hunk covering all of it.
   * `status` is the file's two-letter code when a status of the whole tree already gave it.
   */
  async uncommittedHunks(file: string, options: CallOptions & { status?: string } = {}): Promise<Hunk[]> {
    return (await this.uncommittedChange(file, options)).hunks;
  }

  /** The same hunks, with the words of the changed lines. */
  async uncommittedChange(file: string, options: CallOptions & { status?: string } = {}): Promise<UncommittedChange> {
    const none: UncommittedChange = { hunks: [], words: [] };
    const rel = await this.relativePath(file);
    if (rel === undefined) return none;
    let code = options.status;
    if (code === undefined) {
      // One status call says whether there is anything to diff: most files are clean.
      const status = await this.git(
        [
          'status',
          '--porcelain=v1',
          '-z',
          '--untracked-files=all',
          '--ignored=matching',
          '--ignore-submodules=all',
          '--',
          rel,
        ],
        options,
      );
      if (!status.ok) return none;
      code = status.stdout.split('\0').find(Boolean)?.slice(0, 2);
    }
    if (code === undefined || code === '!!') return none;
    if (code === '??') {
      const lines = await countLines(resolve(this.root, rel));
      return lines === undefined
        ? none
        : { hunks: [{ oldStart: 0, oldLines: 0, newStart: 1, newLines: lines, kind: 'untracked' }], words: [] };
    }
    const diff = (base: string) =>
      this.git(
        ['diff', '--no-color', '--no-ext-diff', '--no-textconv', '--ignore-submodules=all', '-U0', base, '--', rel],
        options,
      );
    let r = await diff('HEAD');
    // Before the first commit, compare with the empty tree.
    if (!r.ok && r.failure === 'exit') r = await diff('4b825dc642cb6eb9a060e54bf8d69288fbee4904');
    return r.ok ? { hunks: parseHunks(r.stdout), words: diffWords(r.stdout) } : none;
  }

  /**
   * Every file under the root that differs from HEAD or is untracked, with its two-letter status
   * code, relative to the root; undefined when git could not say.
   */
  async changedPaths(options: CallOptions = {}): Promise<Map<string, string> | undefined> {
    const prefix = await this.git(['rev-parse', '--show-prefix'], options);
    if (!prefix.ok) return undefined;
    const under = prefix.stdout.trim();
    const r = await this.git(
      ['status', '--porcelain=v1', '-z', '--untracked-files=all', '--no-renames', '--ignore-submodules=all', '--', '.'],
      { ...options, maxBytes: 16 * 1024 * 1024 },
    );
    if (!r.ok) return undefined;
    const out = new Map<string, string>();
    // "XY path", paths relative to the repository's top.
    for (const rec of r.stdout.split('\0')) {
      if (rec.length > 3 && rec.startsWith(under, 3)) out.set(rec.slice(3 + under.length), rec.slice(0, 2));
    }
    return out;
  }

  /** Files a commit changed against its first parent, relative to the root (files outside it are left out). */
  async changedFiles(commit: string, options: CallOptions = {}): Promise<string[]> {
    if (checkRevision(commit)) return [];
    const r = await this.git(
      [
        'diff-tree',
        '--no-commit-id',
        '--no-renames',
        '-r',
        '-m',
        '--first-parent',
        '--root',
        '--relative',
        '--name-only',
        '-z',
        '--end-of-options',
        commit,
        '--',
      ],
      options,
    );
    if (!r.ok) return [];
    return [...new Set(r.stdout.split('\0').filter(Boolean))];
  }

  /**
   * Commits that `git blame` is told to look past (mass reformats, renames of a symbol everywhere):
   * those listed in the files of `blame.ignoreRevsFile`, or else in `.git-blame-ignore-revs`, the file
   * forges read by convention. Files are read as committed at HEAD and only inside the repository;
   * one full commit id per line, `#` comments.
   */
  async ignoredRevisions(options: CallOptions = {}): Promise<Set<string>> {
    const out = new Set<string>();
    const configured = await this.git(['config', '--get-all', 'blame.ignoreRevsFile'], options);
    for (const path of ignoreRevsFiles(configured.ok ? configured.stdout : undefined)) {
      const r = await this.git(['cat-file', 'blob', `HEAD:${path}`], { ...options, maxBytes: 4 * 1024 * 1024 });
      if (r.ok) addIgnoredRevisions(r.stdout, out);
    }
    return out;
  }

  /**
   * The zero-context diff of the file in each commit against the parent given (the empty tree when
   * none), from one `git diff-tree --stdin`: no walk of history, however long it is.
   */
  async fileDiffs(
    file: string,
    revisions: readonly { hash: string; parent?: string }[],
    options: CallOptions = {},
  ): Promise<Map<string, Hunk[]>> {
    const rel = await this.relativePath(file);
    const valid = revisions.filter(
      (r) => COMMIT_ID.test(r.hash) && (r.parent === undefined || COMMIT_ID.test(r.parent)),
    );
    if (rel === undefined || !valid.length) return new Map();
    const input = valid.map((r) => (r.parent ? `${r.hash} ${r.parent}` : r.hash)).join('\n') + '\n';
    // Whitespace is ignored as `git blame -w` ignores it: a commit that only re-indents or reformats
    // within lines changes no line. It comes with its id and no hunk, and lines map through it 1:1.
    const r = await this.git(
      ['diff-tree', '--stdin', '--root', ...ZERO_CONTEXT_PATCH, '--no-renames', '--relative', '--', rel],
      { ...options, input, maxBytes: 16 * 1024 * 1024 },
    );
    return r.ok ? parseFileDiffs(r.stdout) : new Map();
  }

  /**
   * Subjects of the commits a merge brought in that changed the file, newest first: what a plain
   * `Merge branch 'stable'` carried. Empty when the commit is not a merge or brought none.
   */
  async mergedSubjects(
    merge: string,
    file: string,
    options: CallOptions & { maxCount?: number } = {},
  ): Promise<string[]> {
    const rel = await this.relativePath(file);
    if (rel === undefined || !COMMIT_ID.test(merge)) return [];
    const r = await this.git(
      [
        'log',
        '--no-merges',
        '--format=%s',
        '-z',
        `--max-count=${options.maxCount ?? 20}`,
        `${merge}^1..${merge}^2`,
        '--',
        rel,
      ],
      options,
    );
    return r.ok
      ? r.stdout
          .split('\0')
          .map((s) => s.trim())
          .filter(Boolean)
      : [];
  }

  /** The path the file had before `commit` renamed it (against `parent`), if it did. */
  async renamedFrom(
    file: string,
    commit: string,
    parent: string,
    options: CallOptions = {},
  ): Promise<string | undefined> {
    const rel = await this.relativePath(file);
    if (rel === undefined || !COMMIT_ID.test(commit) || !COMMIT_ID.test(parent)) return undefined;
    // Trees only, whatever the commit's size; "R<score>", old path, new path.
    const r = await this.git(['diff-tree', '-r', '-M', '--relative', '--name-status', '-z', parent, commit], {
      ...options,
      maxBytes: 16 * 1024 * 1024,
    });
    if (!r.ok) return undefined;
    const tokens = r.stdout.split('\0');
    for (let i = 0; i < tokens.length - 1;) {
      const status = tokens[i];
      if (status.startsWith('R') || status.startsWith('C')) {
        if (status.startsWith('R') && tokens[i + 2] === rel) return tokens[i + 1];
        i += 3;
      } else i += 2;
    }
    return undefined;
  }

  /** The zero-context diff of a file that `commit` renamed from `from` (against `parent`), in the new file's lines. */
  async renameDiff(
    from: string,
    file: string,
    commit: string,
    parent: string,
    options: CallOptions = {},
  ): Promise<Hunk[] | undefined> {
    const [old, rel] = await Promise.all([this.relativePath(from), this.relativePath(file)]);
    if (old === undefined || rel === undefined || !COMMIT_ID.test(commit) || !COMMIT_ID.test(parent)) return undefined;
    const r = await this.git(['diff-tree', '-M', ...ZERO_CONTEXT_PATCH, '--relative', parent, commit, '--', old, rel], {
      ...options,
      maxBytes: 16 * 1024 * 1024,
    });
    return r.ok ? parseHunks(r.stdout) : undefined;
  }

  /**
   * The file as committed at `ref` ('' when it did not exist there). The revision comes from outside
   * (a link in an answer): only a commit id or HEAD, HEAD~N, HEAD^ is taken, never an option.
   */
  async fileAtRevision(ref: string, file: string, options: CallOptions = {}): Promise<string> {
    const bad = checkRevision(ref);
    if (bad) throw new Error(bad);
    const rel = await this.relativePath(file);
    if (rel === undefined) throw new Error(`${file} is outside ${this.root}.`);
    const r = await this.git(['cat-file', 'blob', '--end-of-options', `${ref}:./${rel}`], {
      ...options,
      maxBytes: 16 * 1024 * 1024,
    });
    return r.ok ? r.stdout : '';
  }

  private git(args: string[], options: CallOptions & { input?: string; maxBytes?: number }): Promise<GitResult> {
    // Paths are names, never patterns: a file called `[id].ts` is that file only.
    return this.run(['--literal-pathspecs', ...args], {
      cwd: this.root,
      timeoutMs: options.timeoutMs ?? this.timeoutMs,
      signal: options.signal,
      input: options.input,
      maxBytes: options.maxBytes,
    }).then((r) => {
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
