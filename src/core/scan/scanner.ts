import { lstat, open, readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import ignore, { type Ignore } from 'ignore';
import type { CoreConfig } from '../config';
import type { Logger } from '../logger';
import { nullLogger } from '../logger';
import { runGit } from '../git/gitExec';
import { trimEndOf } from '../../shared/text';

/** A file of the workspace, by root-relative forward-slash path. */
export interface ScannedFile {
  readonly path: string;
  readonly size: number;
  /** Modification time in milliseconds since the epoch. */
  readonly mtime: number;
}

export interface ScanCap {
  readonly reason: 'files' | 'time';
  readonly limit: number;
}

export interface ScanResult {
  readonly files: ScannedFile[];
  /** Whether the file list came from git (tracked + untracked, not ignored) or from walking the tree. */
  readonly source: 'git' | 'walk';
  readonly skipped: { readonly binary: number; readonly tooLarge: number };
  /** Set when the scan stopped early; the list holds what was found before the cap. */
  readonly capped?: ScanCap;
  readonly ms: number;
}

export interface ScanOptions {
  readonly signal?: AbortSignal;
  readonly logger?: Logger;
  /** Limit for the `git ls-files` call. */
  readonly gitTimeoutMs?: number;
  /** Only the files under this root-relative folder. */
  readonly under?: string;
  /** List by walking the tree (honouring .gitignore) instead of asking git: no git process starts. */
  readonly noGit?: boolean;
  /** True for a file read before at this size and time: it is text, so it is not opened to check. */
  readonly seen?: (file: ScannedFile) => boolean;
}

/** Folders never worth indexing, even when nothing ignores them. */
const ALWAYS_SKIPPED_DIRS = new Set(['.git', 'node_modules']);
const SNIFF_BYTES = 8192;
const STAT_BATCH = 32;

/**
 * Lists the files of `root` that git would track (tracked and untracked-but-not-ignored), without
 * binaries and oversized files, capped by `config.index.maxFiles` and `config.index.timeBudgetMs`.
 */
export async function scanWorkspace(root: string, config: CoreConfig, options: ScanOptions = {}): Promise<ScanResult> {
  const started = Date.now();
  const logger = options.logger ?? nullLogger;
  const { maxFiles, maxFileBytes, timeBudgetMs } = config.index;
  const deadline = started + timeBudgetMs;

  let source: 'git' | 'walk' = 'git';
  let candidates: AsyncIterable<string> | Iterable<string>;
  const under = options.under === undefined ? undefined : trimEndOf(options.under, '/');
  const listed = options.noGit
    ? undefined
    : await gitListFiles(root, options.gitTimeoutMs ?? Math.min(timeBudgetMs, 60000), options.signal, under).catch(
        (err: Error) => {
          logger.debug(`Not using git to list files of ${root}: ${err.message}`);
          return undefined;
        },
      );
  if (listed) {
    candidates = listed;
  } else {
    source = 'walk';
    candidates = under ? filterUnder(walkTree(root, options.signal), under) : walkTree(root, options.signal);
  }

  const files: ScannedFile[] = [];
  const skipped = { binary: 0, tooLarge: 0 };
  let capped: ScanCap | undefined;
  let batch: string[] = [];

  const flush = async (): Promise<void> => {
    const checked = await Promise.all(batch.map((p) => inspect(root, p, maxFileBytes, options.seen)));
    batch = [];
    for (const c of checked) {
      if (c === 'binary') skipped.binary++;
      else if (c === 'large') skipped.tooLarge++;
      else if (c && files.length < maxFiles) files.push(c);
    }
  };

  for await (const rel of candidates) {
    options.signal?.throwIfAborted();
    if (files.length + batch.length >= maxFiles) {
      await flush();
      if (files.length >= maxFiles) {
        capped = { reason: 'files', limit: maxFiles };
        break;
      }
    }
    if (Date.now() >= deadline) {
      capped = { reason: 'time', limit: timeBudgetMs };
      break;
    }
    batch.push(rel);
    if (batch.length >= STAT_BATCH) await flush();
  }
  if (!capped) await flush();
  if (capped)
    logger.warn(
      `Workspace scan of ${root} stopped at ${capped.reason === 'files' ? `${capped.limit} files` : `${capped.limit} ms`}.`,
    );
  return { files, source, skipped, capped, ms: Date.now() - started };
}

/** What {@link listWorkspacePaths} found: paths only, nothing opened. */
export interface PathListing {
  readonly paths: string[];
  readonly source: 'git' | 'walk';
  /** Set when the listing stopped at `maxPaths` or the time budget. */
  readonly capped?: ScanCap;
}

/**
 * The root-relative paths of `root` that git would track (tracked and untracked-but-not-ignored), or
 * of a .gitignore-aware walk outside git, without reading any file. Cheap enough to find a handful
 * of folders by name in a large tree.
 */
export async function listWorkspacePaths(
  root: string,
  options: { signal?: AbortSignal; timeoutMs?: number; maxPaths?: number; noGit?: boolean } = {},
): Promise<PathListing> {
  const timeoutMs = options.timeoutMs ?? 30000;
  const maxPaths = options.maxPaths ?? 200000;
  const listed = options.noGit ? undefined : await gitListFiles(root, timeoutMs, options.signal).catch(() => undefined);
  if (listed)
    return listed.length > maxPaths
      ? { paths: listed.slice(0, maxPaths), source: 'git', capped: { reason: 'files', limit: maxPaths } }
      : { paths: listed, source: 'git' };
  const paths: string[] = [];
  const deadline = Date.now() + timeoutMs;
  for await (const rel of walkTree(root, options.signal)) {
    if (paths.length >= maxPaths) return { paths, source: 'walk', capped: { reason: 'files', limit: maxPaths } };
    if (Date.now() >= deadline) return { paths, source: 'walk', capped: { reason: 'time', limit: timeoutMs } };
    paths.push(rel);
  }
  return { paths, source: 'walk' };
}

/** True when the buffer looks binary (a NUL byte in its first 8 KB), the rule git uses. */
export function looksBinary(buf: Uint8Array): boolean {
  const n = Math.min(buf.length, SNIFF_BYTES);
  for (let i = 0; i < n; i++) if (buf[i] === 0) return true;
  return false;
}

async function inspect(
  root: string,
  rel: string,
  maxBytes: number,
  seen?: (file: ScannedFile) => boolean,
): Promise<ScannedFile | 'binary' | 'large' | undefined> {
  const abs = join(root, rel);
  try {
    // lstat: a symlink may point outside the root, which is never read.
    const s = await lstat(abs);
    if (!s.isFile()) return undefined;
    if (s.size > maxBytes) return 'large';
    const file = { path: rel, size: s.size, mtime: Math.round(s.mtimeMs) };
    if (s.size > 0 && !seen?.(file)) {
      const fh = await open(abs, 'r');
      try {
        const buf = Buffer.alloc(Math.min(SNIFF_BYTES, s.size));
        const { bytesRead } = await fh.read(buf, 0, buf.length, 0);
        if (looksBinary(buf.subarray(0, bytesRead))) return 'binary';
      } finally {
        await fh.close();
      }
    }
    return file;
  } catch {
    // Deleted since listing, unreadable, or a dangling symlink: not part of the workspace.
    return undefined;
  }
}

/** `git ls-files` from the root; undefined output means "not a git work tree" (or no git). */
async function* filterUnder(paths: AsyncIterable<string>, under: string): AsyncGenerator<string> {
  for await (const p of paths) if (p.startsWith(under + '/')) yield p;
}

async function gitListFiles(root: string, timeoutMs: number, signal?: AbortSignal, under?: string): Promise<string[]> {
  // `:(literal)` so that a folder named with `*` or `?` is not read as a pattern.
  const args = [
    'ls-files',
    '-z',
    '--cached',
    '--others',
    '--exclude-standard',
    ...(under ? ['--', `:(literal)${under}`] : []),
  ];
  const r = await runGit(args, { cwd: root, timeoutMs, signal, maxBytes: 256 * 1024 * 1024 });
  if (!r.ok)
    throw new Error(`git ls-files: ${r.failure}${r.stderr.trim() ? ` (${r.stderr.trim().split('\n')[0]})` : ''}`);
  const seen = new Set<string>();
  for (const p of r.stdout.split('\0')) {
    if (!p) continue;
    const first = p.split('/', 1)[0];
    if (ALWAYS_SKIPPED_DIRS.has(first) || p.includes('/node_modules/')) continue;
    seen.add(p); // --cached lists unmerged paths once per stage
  }
  return [...seen];
}

interface IgnoreLayer {
  /** Root-relative folder holding the .gitignore, '' for the root. */
  readonly dir: string;
  readonly rules: Ignore;
}

/** Walks the tree outside git, honouring every .gitignore on the way down. */
async function* walkTree(root: string, signal?: AbortSignal): AsyncGenerator<string> {
  const stack: { dir: string; layers: IgnoreLayer[] }[] = [{ dir: '', layers: [] }];
  while (stack.length) {
    signal?.throwIfAborted();
    const { dir, layers: parentLayers } = stack.pop()!;
    const abs = dir ? join(root, dir) : root;
    let entries;
    try {
      entries = await readdir(abs, { withFileTypes: true });
    } catch {
      continue;
    }
    let layers = parentLayers;
    if (entries.some((e) => e.name === '.gitignore' && e.isFile())) {
      try {
        const text = await readFile(join(abs, '.gitignore'), 'utf8');
        layers = [...parentLayers, { dir, rules: ignore().add(text) }];
      } catch {
        // Unreadable .gitignore: keep the parent's rules.
      }
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    const subdirs: string[] = [];
    for (const e of entries) {
      const rel = dir ? `${dir}/${e.name}` : e.name;
      if (e.isDirectory()) {
        if (ALWAYS_SKIPPED_DIRS.has(e.name) || isIgnored(layers, rel, true)) continue;
        subdirs.push(rel);
      } else if (e.isFile()) {
        if (!isIgnored(layers, rel, false)) yield rel;
      }
    }
    for (let i = subdirs.length - 1; i >= 0; i--) stack.push({ dir: subdirs[i], layers });
  }
}

function isIgnored(layers: readonly IgnoreLayer[], rel: string, isDir: boolean): boolean {
  for (const layer of layers) {
    const local = layer.dir ? rel.slice(layer.dir.length + 1) : rel;
    if (layer.rules.ignores(isDir ? local + '/' : local)) return true;
  }
  return false;
}
