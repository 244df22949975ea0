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

/**
 * Lists files under root (root-relative, forward slashes) breadth first, including git-ignored
 * folders (test reports live there), never following symlinks, bounded by depth and count.
 */
export function walkFiles(root: string, options: WalkOptions): WalkResult {
  const files: string[] = [];
  let seen = 0;
  let capped = false;
  let level: string[] = [''];
  for (let depth = 0; depth <= options.maxDepth && level.length; depth++) {
    const next: string[] = [];
    for (const dir of level) {
      if (options.signal?.aborted) return { files, capped: true };
      let entries: Dirent[];
      try {
        entries = readdirSync(dir ? join(root, dir) : root, { withFileTypes: true });
      } catch {
        continue;
      }
      for (const e of entries) {
        if (++seen > options.maxEntries) return { files, capped: true };
        const rel = dir ? `${dir}/${e.name}` : e.name;
        if (e.isDirectory()) {
          if (NEVER_WALK.has(e.name)) continue;
          if (options.enterDir && !options.enterDir(rel, e.name)) continue;
          if (depth === options.maxDepth) capped = true;
          else next.push(rel);
        } else if (e.isFile()) files.push(rel);
      }
    }
    level = next;
  }
  return { files, capped };
}

/** Folders read at once by walkFilesAsync. */
const READ_TOGETHER = 16;

/**
 * walkFiles without holding the thread: folders are read asynchronously, a few at a time, and the
 * result (files, order, caps) is the same.
 */
export async function walkFilesAsync(root: string, options: WalkOptions): Promise<WalkResult> {
  const files: string[] = [];
  let seen = 0;
  let capped = false;
  let level: string[] = [''];
  for (let depth = 0; depth <= options.maxDepth && level.length; depth++) {
    const next: string[] = [];
    for (let i = 0; i < level.length; i += READ_TOGETHER) {
      if (options.signal?.aborted) return { files, capped: true };
      const dirs = level.slice(i, i + READ_TOGETHER);
      const listed = await Promise.all(
        dirs.map((dir) => readdir(dir ? join(root, dir) : root, { withFileTypes: true }).catch((): Dirent[] => [])),
      );
      for (let d = 0; d < dirs.length; d++) {
        const dir = dirs[d];
        for (const e of listed[d]) {
          if (++seen > options.maxEntries) return { files, capped: true };
          const rel = dir ? `${dir}/${e.name}` : e.name;
          if (e.isDirectory()) {
            if (NEVER_WALK.has(e.name)) continue;
            if (options.enterDir && !options.enterDir(rel, e.name)) continue;
            if (depth === options.maxDepth) capped = true;
            else next.push(rel);
          } else if (e.isFile()) files.push(rel);
        }
      }
    }
    level = next;
  }
  return { files, capped };
}
