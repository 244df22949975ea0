import { lstatSync, readFileSync, watch } from 'node:fs';
import ignore, { type Ignore } from 'ignore';
import { readdir } from 'node:fs/promises';
import { join, sep } from 'node:path';
import type { GitDirectories, Logger } from '../core/api/types';
import { changedNames, modifiedSince, snapshotFolder, type FolderSnapshot } from './folderPoller';

/**
 * What a watched folder stands for: a folder of the workspace, the repository folder (only HEAD and
 * packed-refs matter there) or a folder under refs/ (branches and tags: one watch per folder, never per tag).
 */
type FolderKind = 'work' | 'git' | 'refs';

interface Folder {
  readonly abs: string;
  readonly kind: FolderKind;
  /** work: root-relative ('' is the root); refs: relative to refs/ ('' is refs/ itself). */
  readonly rel: string;
  /** git: the entry names reported, as `.git/<name>`. */
  readonly names?: ReadonlySet<string>;
  handle?: { close(): void };
  /** Set while the folder is polled instead of watched (once its first look is taken). */
  snapshot?: FolderSnapshot;
  polled?: boolean;
  /** Listed at least once: later listings report nothing (they are re-checks of ignore rules). */
  listed?: boolean;
}

export interface WorkspaceWatcherOptions {
  /** Most OS watch handles held at once; folders beyond it are polled. */
  maxHandles?: number;
  /** How often polled folders are looked at (ms). */
  pollIntervalMs?: number;
  /** Folders listed, or changes handled, before the event loop gets a turn. */
  sliceSize?: number;
}

/** What the watcher asks of the root's repository (the service's `workspace` answers it). */
export interface WatchedRepository {
  gitDirectories(signal: AbortSignal): Promise<GitDirectories | undefined>;
  /** Which root-relative paths the repository ignores; undefined when that cannot be told. */
  ignoredPaths(paths: readonly string[], signal: AbortSignal): Promise<Set<string> | undefined>;
}

/** Never worth watching: other repositories' internals and installed packages. */
const SKIPPED = new Set(['.git', 'node_modules']);
const DEFAULT_POLL_INTERVAL_MS = 2000;
const DEFAULT_SLICE = 200;
/** Polled folders read at once: each may stat thousands of entries. */
const POLL_CONCURRENCY = 8;
const IGNORE_BATCH = 5000;
/**
 * File times can lag the clock a little (the kernel stamps files from a coarse clock). Kept short: a
 * file written before watching began (a checkout just before the server started) is no change to
 * report, and reporting it would fire watches made a moment later.
 */
const MTIME_SLACK_MS = 100;

/** The default ceiling: a quarter of the user's inotify budget (other programs need theirs), at most 8,192. */
function defaultMaxHandles(): number {
  try {
    const max = Number(readFileSync('/proc/sys/fs/inotify/max_user_watches', 'utf8').trim());
    if (Number.isFinite(max) && max > 0) return Math.max(64, Math.min(8192, Math.floor(max / 4)));
  } catch {
    // Not Linux, or /proc is not readable: the fixed default.
  }
  return 8192;
}

const yieldToLoop = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/**
 * Reports changes under a workspace root at a cost that follows what the repository tracks, not what
 * is on disk: one watch per folder (file names come with the events), none in git-ignored folders,
 * node_modules or the repository's object store, and only HEAD, packed-refs and the refs/ folders of
 * the repository. Folders are found and watched in slices that yield to the event loop, so requests
 * are answered during a scan or a burst of changes; past `maxHandles` the other folders are polled.
 */
export class WorkspaceWatcher {
  private readonly folders = new Map<string, Folder>();
  private handles = 0;
  private readonly maxHandles: number;
  private readonly pollIntervalMs: number;
  private readonly sliceSize: number;
  private readonly toExplore: { folder: Folder; deep: boolean; announce: boolean }[] = [];
  private readonly queued = new Set<Folder>();
  private exploring: Promise<void> | undefined;
  private readonly pending = new Map<string, { folder: Folder; name: string }>();
  private draining = false;
  private pollTimer: NodeJS.Timeout | undefined;
  private ceilingReported = false;
  private inRepo = false;
  /** Outside a repository: the root's .gitignore, if it has one. */
  private rootIgnore: Ignore | undefined;
  /** After the first scan, folders found are new: what they already hold is reported as created. */
  private scanned = false;
  private startedAt = 0;
  private readonly abort = new AbortController();
  private disposed = false;

  constructor(
    private readonly root: string,
    /** A root-relative path changed (created, modified or deleted); repository moves come as `.git/HEAD`, `.git/refs/…`, `.git/packed-refs`. */
    private readonly onChange: (path: string, deleted: boolean) => void,
    private readonly logger: Logger,
    private readonly repository: WatchedRepository,
    options: WorkspaceWatcherOptions = {},
  ) {
    this.maxHandles = options.maxHandles ?? defaultMaxHandles();
    this.pollIntervalMs = options.pollIntervalMs ?? DEFAULT_POLL_INTERVAL_MS;
    this.sliceSize = Math.max(1, options.sliceSize ?? DEFAULT_SLICE);
  }

  /** Finds and watches the folders; settles once the first scan is done (changes are reported meanwhile). */
  async start(): Promise<void> {
    this.startedAt = Date.now();
    const git = await this.repository.gitDirectories(this.abort.signal);
    if (this.disposed) return;
    this.inRepo = git !== undefined;
    if (!git) this.rootIgnore = readRootIgnore(this.root);
    // The repository's folders come first, so that commit triggers keep their watches whatever the ceiling.
    if (git) {
      const sameDir = git.gitDir === git.commonDir;
      this.attach(git.gitDir, 'git', '', new Set(sameDir ? ['HEAD', 'packed-refs'] : ['HEAD']));
      if (!sameDir) this.attach(git.commonDir, 'git', '', new Set(['packed-refs']));
      this.queueExplore(this.attach(join(git.commonDir, 'refs'), 'refs', ''));
    }
    this.queueExplore(this.attach(this.root, 'work', ''));
    await this.settled();
    this.scanned = true;
    if (this.disposed) return;
    const polled = this.polledCount();
    this.logger.info(
      `File watching: ${this.handles} folder watch${this.handles === 1 ? '' : 'es'}${polled ? `, ${polled} folders polled` : ''} under ${this.root}${this.inRepo ? ' (git-ignored folders skipped)' : ''}.`,
    );
  }

  /** Settles when every folder found so far has been listed and watched. */
  settled(): Promise<void> {
    return this.exploring ?? Promise.resolve();
  }

  /** OS watch handles held now; never more than the ceiling. */
  handleCount(): number {
    return this.handles;
  }

  /** Absolute paths of the folders that hold a watch handle. */
  watchedFolders(): string[] {
    return [...this.folders.values()].filter((f) => f.handle).map((f) => f.abs);
  }

  polledCount(): number {
    let n = 0;
    for (const f of this.folders.values()) if (f.polled) n++;
    return n;
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.abort.abort();
    clearTimeout(this.pollTimer);
    for (const f of this.folders.values()) f.handle?.close();
    this.folders.clear();
    this.pending.clear();
    this.toExplore.length = 0;
    this.handles = 0;
  }

  private attach(abs: string, kind: FolderKind, rel: string, names?: ReadonlySet<string>): Folder {
    const folder: Folder = { abs, kind, rel, names };
    this.folders.set(abs, folder);
    if (this.handles < this.maxHandles) {
      try {
        const w = watch(abs, { persistent: true }, (_event, filename) => {
          if (filename) this.record(folder, String(filename));
        });
        w.on('error', (err) => {
          this.logger.debug(`File watching: stopped watching ${abs}: ${err.message}`);
          this.release(folder);
        });
        folder.handle = w;
        this.handles++;
        return folder;
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code;
        if (code === 'ENOENT' || code === 'ENOTDIR') return folder;
        // The system-wide budget is spent (other programs hold watches too): poll from here on.
        this.logger.debug(`File watching: cannot watch ${abs}: ${(err as Error).message}`);
        if (code === 'ENOSPC' || code === 'EMFILE')
          this.reportCeiling(`the system's watch limit was reached after ${this.handles}`);
      }
    } else {
      this.reportCeiling(`the limit of ${this.maxHandles} folder watches (--max-watches) was reached`);
    }
    this.poll(folder);
    return folder;
  }

  private reportCeiling(why: string): void {
    if (this.ceilingReported) return;
    this.ceilingReported = true;
    this.logger.warn(
      `File watching: ${why}; further folders are polled every ${(this.pollIntervalMs / 1000).toFixed(1)} s instead.`,
    );
  }

  private release(folder: Folder): void {
    if (!folder.handle) return;
    folder.handle.close();
    folder.handle = undefined;
    this.handles--;
  }

  /** Stops watching a folder that went away, and everything below it. */
  private forget(abs: string): void {
    const prefix = abs + sep;
    for (const [key, f] of this.folders) {
      if (key !== abs && !key.startsWith(prefix)) continue;
      this.release(f);
      this.folders.delete(key);
      this.queued.delete(f);
    }
  }

  private queueExplore(folder: Folder, deep = false, announce = false): void {
    if (this.disposed || this.queued.has(folder)) return;
    this.queued.add(folder);
    this.toExplore.push({ folder, deep, announce });
    this.exploring ??= this.explore()
      .catch((err: Error) => this.logger.warn(`File watching: could not list folders: ${err.message}`))
      .finally(() => (this.exploring = undefined));
  }

  /** Lists queued folders a slice at a time and watches their sub-folders that the repository does not ignore. */
  private async explore(): Promise<void> {
    while (this.toExplore.length && !this.disposed) {
      const slice = this.toExplore.splice(0, this.sliceSize);
      for (const { folder } of slice) this.queued.delete(folder);
      const listed = await Promise.all(slice.map((item) => this.list(item)));
      if (this.disposed) return;
      const found: { parent: Folder; deep: boolean; abs: string; rel: string }[] = [];
      for (const { folder, deep, dirs, missed } of listed) {
        if (this.folders.get(folder.abs) !== folder) continue;
        for (const name of missed) this.record(folder, name);
        for (const name of dirs) {
          if (folder.kind === 'work' && SKIPPED.has(name)) continue;
          found.push({
            parent: folder,
            deep,
            abs: join(folder.abs, name),
            rel: folder.rel ? `${folder.rel}/${name}` : name,
          });
        }
      }
      const ignored = await this.ignoredAmong(found.filter((f) => f.parent.kind === 'work').map((f) => f.rel));
      if (this.disposed) return;
      for (const f of found) {
        const known = this.folders.get(f.abs);
        if (f.parent.kind === 'work' && ignored.has(f.rel)) {
          // An ignore rule added since the folder was found.
          if (known) this.forget(f.abs);
          continue;
        }
        if (known) {
          if (f.deep) this.queueExplore(known, true);
          continue;
        }
        if (this.folders.get(f.parent.abs) !== f.parent) continue;
        this.queueExplore(this.attach(f.abs, f.parent.kind, f.rel), false, this.scanned);
      }
      await yieldToLoop();
    }
  }

  /** A folder's sub-folders, and the files in it that changed while it had no watch yet. */
  private async list(item: {
    folder: Folder;
    deep: boolean;
    announce: boolean;
  }): Promise<{ folder: Folder; deep: boolean; dirs: string[]; missed: string[] }> {
    const { dirs, files } = await entriesOf(item.folder.abs);
    // A new folder's files are all new; during the first scan, only those written since it began.
    let missed: string[] = [];
    const first = !item.folder.listed;
    item.folder.listed = true;
    if (first && item.announce) missed = files;
    else if (first && !this.scanned && item.folder.kind === 'work')
      missed = await modifiedSince(item.folder.abs, files, this.startedAt - MTIME_SLACK_MS);
    return { folder: item.folder, deep: item.deep, dirs, missed };
  }

  private async ignoredAmong(rels: string[]): Promise<Set<string>> {
    const out = new Set<string>();
    if (!this.inRepo) {
      for (const rel of rels) if (this.rootIgnore?.ignores(rel + '/')) out.add(rel);
      return out;
    }
    for (let i = 0; i < rels.length && !this.disposed; i += IGNORE_BATCH) {
      const chunk = rels.slice(i, i + IGNORE_BATCH);
      const r = await this.repository.ignoredPaths(chunk, this.abort.signal);
      // A path inside a submodule makes git refuse the whole batch: watch those folders rather than lose them.
      if (!r) this.logger.debug(`File watching: git could not tell which of ${chunk.length} folders are ignored`);
      for (const p of r ?? []) out.add(p);
    }
    return out;
  }

  private record(folder: Folder, name: string): void {
    // The repository folder changes at every git command (index, locks, logs): only HEAD and packed-refs matter.
    if (this.disposed || (folder.names && !folder.names.has(name))) return;
    this.pending.set(join(folder.abs, name), { folder, name });
    if (this.draining) return;
    this.draining = true;
    setImmediate(() => this.drain());
  }

  /** Handles recorded changes a slice at a time: a burst of thousands of files never holds the loop. */
  private drain(): void {
    let n = 0;
    for (const [abs, { folder, name }] of this.pending) {
      this.pending.delete(abs);
      if (this.folders.get(folder.abs) === folder) this.deliver(folder, name, abs);
      if (++n >= this.sliceSize) break;
    }
    if (this.pending.size && !this.disposed) setImmediate(() => this.drain());
    else this.draining = false;
  }

  private deliver(folder: Folder, name: string, abs: string): void {
    const st = lstatSync(abs, { throwIfNoEntry: false });
    const isDir = st?.isDirectory() ?? false;
    if (!isDir && this.folders.has(abs)) this.forget(abs);
    switch (folder.kind) {
      case 'git':
        if (folder.names?.has(name)) this.onChange(`.git/${name}`, !st);
        return;
      case 'refs':
        if (name.endsWith('.lock')) return;
        if (isDir && !this.folders.has(abs)) this.queueExplore(folder);
        this.onChange(`.git/refs/${folder.rel ? `${folder.rel}/` : ''}${name}`, !st);
        return;
      case 'work':
        if (SKIPPED.has(name)) return;
        if (isDir && !this.folders.has(abs)) this.queueExplore(folder);
        // New ignore rules may hide or reveal folders anywhere below.
        if (name === '.gitignore') this.queueExplore(folder, true);
        this.onChange(folder.rel ? `${folder.rel}/${name}` : name, !st);
    }
  }

  private poll(folder: Folder): void {
    folder.polled = true;
    void snapshotFolder(folder.abs).then((snap) => {
      if (this.folders.get(folder.abs) === folder) folder.snapshot = snap ?? new Map();
    });
    this.pollTimer ??= setTimeout(() => void this.pollOnce(), this.pollIntervalMs);
  }

  /** One look at every polled folder, a few at a time; the changes found go the same way as watch events. */
  private async pollOnce(): Promise<void> {
    const began = Date.now();
    const polled = [...this.folders.values()].filter((f) => f.polled && f.snapshot);
    for (let i = 0; i < polled.length && !this.disposed; i += POLL_CONCURRENCY) {
      await Promise.all(
        polled.slice(i, i + POLL_CONCURRENCY).map(async (f) => {
          const now = await snapshotFolder(f.abs);
          if (this.disposed || this.folders.get(f.abs) !== f || !f.snapshot || !now) return;
          const names = changedNames(f.snapshot, now);
          f.snapshot = now;
          for (const name of names) this.record(f, name);
        }),
      );
      await yieldToLoop();
    }
    if (this.disposed) return;
    // On a tree so large that one look takes a while, rest four times as long: polling stays a background cost.
    this.pollTimer = setTimeout(() => void this.pollOnce(), Math.max(this.pollIntervalMs, 4 * (Date.now() - began)));
  }
}

function readRootIgnore(root: string): Ignore | undefined {
  try {
    return ignore().add(readFileSync(join(root, '.gitignore'), 'utf8'));
  } catch {
    return undefined;
  }
}

/** Names of a folder's sub-folders (symbolic links are not followed) and other entries; none when it is gone. */
async function entriesOf(abs: string): Promise<{ dirs: string[]; files: string[] }> {
  const out = { dirs: [] as string[], files: [] as string[] };
  try {
    for (const e of await readdir(abs, { withFileTypes: true })) (e.isDirectory() ? out.dirs : out.files).push(e.name);
  } catch {
    // Gone meanwhile: its parent reports that.
  }
  return out;
}
