import { readdirSync, statSync, watch, type FSWatcher } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import { runGit } from '../git/gitExec';
import type { Logger } from '../logger';
import type { SuggestionItem } from '../types';
import type { Trigger } from './trigger';

const MAX_COMMITS = 20;
/** Folders of branch refs watched at most (each a watch handle); past it, commits on deeper branches are noticed from HEAD and other processes. */
const MAX_HEAD_FOLDERS = 64;

/** Where git keeps a work tree's HEAD (its git dir) and the refs it shares (the common dir). */
interface GitDirs {
  gitDir: string;
  commonDir: string;
}

/**
 * Notices HEAD moving (a commit, a pull, a checkout) where git really records it: HEAD in the work
 * tree's git dir, branches and packed-refs in the common dir. For a linked work tree or a submodule
 * those are outside the root, and for a root inside a repository they are above it, so a watcher of
 * the root alone never sees them.
 */
export class GitHeadWatcher {
  private head: string | undefined;
  private readonly watchers: FSWatcher[] = [];
  private readonly headFolders = new Set<string>();
  private disposed = false;

  constructor(
    private readonly root: string,
    private readonly logger: Logger,
    /** Called (often several times for one move) when HEAD may have moved. */
    private readonly onMaybeMoved: () => void,
  ) {}

  /** Learns the current HEAD and starts watching git's files; resolves when both are done. */
  async start(): Promise<void> {
    const [head, dirs] = await Promise.all([this.currentHead(), gitDirs(this.root)]);
    this.head ??= head;
    if (this.disposed || !dirs) return;
    if (dirs.gitDir === dirs.commonDir) this.watchDir(dirs.gitDir, (name) => name === 'HEAD' || name === 'packed-refs');
    else {
      this.watchDir(dirs.gitDir, (name) => name === 'HEAD');
      this.watchDir(dirs.commonDir, (name) => name === 'packed-refs');
    }
    // A commit on a branch rewrites only the branch's ref, never HEAD itself. One watch per folder of
    // branches (`feature/x` lives in a folder): a recursive watch would take one per ref file, tags
    // included, which is a hundred thousand in some repositories.
    this.watchHeads(join(dirs.commonDir, 'refs', 'heads'));
  }

  /** The commits HEAD moved over since this process last looked, newest first, their files relative to the root. */
  async commitsSinceLastLook(): Promise<Trigger[]> {
    const head = await this.currentHead();
    const from = this.head;
    this.head = head;
    if (!head || !from || head === from) return [];
    // --relative: paths as the root sees them when it is a folder inside the repository.
    const r = await runGit(
      [
        'log',
        `--max-count=${MAX_COMMITS}`,
        '--no-renames',
        '--relative',
        '--name-only',
        '--format=%x01%H%x00%s%x00%b%x00',
        `${from}..${head}`,
      ],
      { cwd: this.root, timeoutMs: 10_000 },
    );
    if (!r.ok) return [];
    const out: Trigger[] = [];
    for (const chunk of r.stdout.split('\x01').slice(1)) {
      const [hash, subject, body, rest] = chunk.split('\x00');
      if (!hash) continue;
      const files = (rest ?? '')
        .split('\n')
        .map((l) => l.trim())
        .filter(Boolean);
      const lead: SuggestionItem[] = [
        {
          type: 'change',
          title: subject || hash.slice(0, 10),
          summary: `${hash.slice(0, 10)} · ${files.length} file${files.length === 1 ? '' : 's'}: ${files.slice(0, 5).join(', ')}${files.length > 5 ? ', …' : ''}`,
          relevanceScore: 0.9,
          reason: 'a new commit',
          location: { path: files[0] ?? '', commit: hash },
          entityId: `commit:${hash}`,
        },
      ];
      out.push({
        type: 'commit',
        source: `${hash.slice(0, 10)} ${subject}`.trim(),
        key: `c:${hash}`,
        files,
        text: `${subject}\n${body ?? ''}`,
        lead,
        focus: files[0] ? { file: files[0] } : undefined,
      });
    }
    return out;
  }

  dispose(): void {
    this.disposed = true;
    for (const w of this.watchers.splice(0)) w.close();
  }

  /** Watches a folder of branch refs and, as they appear, the folders inside it, up to MAX_HEAD_FOLDERS. */
  private watchHeads(dir: string): void {
    if (this.disposed || this.headFolders.has(dir) || this.headFolders.size >= MAX_HEAD_FOLDERS) return;
    this.headFolders.add(dir);
    this.watchDir(dir, (name) => {
      const sub = join(dir, name);
      if (!name.endsWith('.lock') && isFolder(sub)) this.watchHeads(sub);
      return true;
    });
    for (const name of subfolders(dir)) this.watchHeads(join(dir, name));
  }

  private watchDir(dir: string, relevant: (name: string) => boolean): void {
    try {
      const w = watch(dir, { persistent: false }, (_kind, name) => {
        // No name: the OS could not say which file; look anyway.
        if (!name || relevant(name.toString())) this.onMaybeMoved();
      });
      w.on('error', (err) => this.logger.debug(`Watching ${dir} for commits stopped: ${err.message}`));
      this.watchers.push(w);
    } catch (err) {
      this.logger.debug(
        `Cannot watch ${dir} for commits (${(err as Error).message}); commits are noticed from changes other processes report`,
      );
    }
  }

  private async currentHead(): Promise<string | undefined> {
    const r = await runGit(['rev-parse', '--verify', '-q', 'HEAD'], { cwd: this.root, timeoutMs: 5000 });
    return r.ok ? r.stdout.trim() || undefined : undefined;
  }
}

/** The git dir and common dir of the work tree holding `root`, as absolute paths; undefined outside a repository. */
async function gitDirs(root: string): Promise<GitDirs | undefined> {
  const r = await runGit(['rev-parse', '--path-format=absolute', '--git-dir', '--git-common-dir'], {
    cwd: root,
    timeoutMs: 5000,
  });
  if (r.ok) {
    const [gitDir, commonDir] = r.stdout.split('\n').map((l) => l.trim());
    if (gitDir && commonDir) return { gitDir, commonDir };
  }
  // git before 2.31 has no --path-format: both come relative to the root, or absolute.
  const old = await runGit(['rev-parse', '--git-dir', '--git-common-dir'], { cwd: root, timeoutMs: 5000 });
  if (!old.ok) return undefined;
  const [gitDir, commonDir] = old.stdout.split('\n').map((l) => l.trim());
  if (!gitDir) return undefined;
  const abs = (p: string) => (isAbsolute(p) ? p : resolve(root, p));
  return { gitDir: abs(gitDir), commonDir: abs(commonDir || gitDir) };
}

function isFolder(path: string): boolean {
  try {
    return statSync(path, { throwIfNoEntry: false })?.isDirectory() ?? false;
  } catch {
    return false;
  }
}

function subfolders(dir: string): string[] {
  try {
    return readdirSync(dir, { withFileTypes: true })
      .filter((e) => e.isDirectory())
      .map((e) => e.name);
  } catch {
    return [];
  }
}
