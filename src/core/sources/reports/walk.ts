import { readdirSync, type Dirent } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';

/** Folders never walked: dependencies, VCS data, tool caches. */
export const NEVER_WALK = new Set([
  'node_modules',
  '.git',
  '.hg',
  '.svn',
  'bower_components',
  '.venv',
  'venv',
  '__pycache__',
  '.tox',
  '.mypy_cache',
  '.pytest_cache',
  '.gradle',
  '.idea',
  '.vscode-test',
  '.vscode-test-cache',
  '.next',
  '.nuxt',
  '.turbo',
  '.cache',
  '.yarn',
  '.pnpm-store',
  '.terraform',
  '.dart_tool',
  '.angular',
  '.parcel-cache',
]);

export interface WalkOptions {
  maxDepth: number;
  maxEntries: number;
  /** Return false to skip a folder (root-relative path). */
  enterDir?: (rel: string, name: string) => boolean;
  signal?: AbortSignal;
}

export interface WalkResult {
  files: string[];
  /** True when the depth or entry cap cut the walk short. */
  capped: boolean;
}

/** What both walks keep: the files found, the entries seen, and the folders of the level being read. */
class Walk {
  readonly files: string[] = [];
  depth = 0;
  level: string[] = [''];
  private next: string[] = [];
  private seen = 0;
  private capped = false;

  constructor(
    private readonly root: string,
    private readonly options: WalkOptions,
  ) {}

  /** True while a level within the depth has folders to read. */
  get going(): boolean {
    return this.depth <= this.options.maxDepth && this.level.length > 0;
  }

  pathOf(dir: string): string {
    return dir ? join(this.root, dir) : this.root;
  }

  /** Takes the entries of a folder of this level; false once the entry cap is passed. */
  add(dir: string, entries: readonly Dirent[]): boolean {
    for (const e of entries) {
      if (++this.seen > this.options.maxEntries) return false;
      const rel = dir ? `${dir}/${e.name}` : e.name;
      if (e.isDirectory()) {
        if (NEVER_WALK.has(e.name)) continue;
        if (this.options.enterDir && !this.options.enterDir(rel, e.name)) continue;
        if (this.depth === this.options.maxDepth) this.capped = true;
        else this.next.push(rel);
      } else if (e.isFile()) this.files.push(rel);
    }
    return true;
  }

  nextLevel(): void {
    this.level = this.next;
    this.next = [];
    this.depth++;
  }

  /** Cut short (cancelled, or too many entries). */
  stopped(): WalkResult {
    return { files: this.files, capped: true };
  }

  result(): WalkResult {
    return { files: this.files, capped: this.capped };
  }
}

/**
 * Lists files under root (root-relative, forward slashes) breadth first, including git-ignored
 * folders (test reports live there), never following symlinks, bounded by depth and count.
 */
export function walkFiles(root: string, options: WalkOptions): WalkResult {
  const walk = new Walk(root, options);
  for (; walk.going; walk.nextLevel()) {
    for (const dir of walk.level) {
      if (options.signal?.aborted) return walk.stopped();
      let entries: Dirent[];
      try {
        entries = readdirSync(walk.pathOf(dir), { withFileTypes: true });
      } catch {
        continue;
      }
      if (!walk.add(dir, entries)) return walk.stopped();
    }
  }
  return walk.result();
}

/** Folders read at once by walkFilesAsync. */
const READ_TOGETHER = 16;

/**
 * walkFiles without holding the thread: folders are read asynchronously, a few at a time, and the
 * result (files, order, caps) is the same.
 */
export async function walkFilesAsync(root: string, options: WalkOptions): Promise<WalkResult> {
  const walk = new Walk(root, options);
  for (; walk.going; walk.nextLevel()) {
    const level = walk.level;
    for (let i = 0; i < level.length; i += READ_TOGETHER) {
      if (options.signal?.aborted) return walk.stopped();
      const dirs = level.slice(i, i + READ_TOGETHER);
      const listed = await Promise.all(
        dirs.map((dir) => readdir(walk.pathOf(dir), { withFileTypes: true }).catch((): Dirent[] => [])),
      );
      for (let d = 0; d < dirs.length; d++) if (!walk.add(dirs[d], listed[d])) return walk.stopped();
    }
  }
  return walk.result();
}
