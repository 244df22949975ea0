import { existsSync, statSync, watch, type FSWatcher } from 'node:fs';
import { join, posix } from 'node:path';
import type { Logger } from '../core/api/types';

/** A debounced batch of changes: root-relative paths, or `unknown` when the OS did not say which file. */
export interface ChangeBatch {
  paths: Set<string>;
  unknown: boolean;
}

/**
 * Watches a set of folders (not recursively) and reports debounced batches of changed paths.
 *
 * Folders are watched rather than files because editors save by writing a temp file and renaming
 * it over the original, which silently ends a watch held on the old file. A folder that does not
 * exist yet is covered by its nearest existing ancestor until it appears.
 */
export class DirectoryWatcher {
  private readonly watchers = new Map<string, FSWatcher>();
  private pending: ChangeBatch = { paths: new Set(), unknown: false };
  private timer: NodeJS.Timeout | undefined;
  private firstPendingAt = 0;
  private disposed = false;

  constructor(
    private readonly root: string,
    private readonly onBatch: (batch: ChangeBatch) => void,
    private readonly logger: Logger,
    private readonly debounceMs = 100,
    /** A steady stream of writes still gets reported at least this often. */
    private readonly maxWaitMs = 500,
  ) {}

  /** Root-relative folders ('' is the root) that should be watched from now on. */
  setDirectories(dirs: Iterable<string>): void {
    if (this.disposed) return;
    const wanted = new Set<string>();
    for (const d of dirs) wanted.add(this.nearestExisting(d));
    for (const [dir, w] of this.watchers) {
      if (!wanted.has(dir)) {
        w.close();
        this.watchers.delete(dir);
      }
    }
    for (const dir of wanted) if (!this.watchers.has(dir)) this.add(dir);
  }

  watchedDirectories(): string[] {
    return [...this.watchers.keys()].sort();
  }

  dispose(): void {
    this.disposed = true;
    if (this.timer) clearTimeout(this.timer);
    for (const w of this.watchers.values()) w.close();
    this.watchers.clear();
  }

  private add(dir: string): void {
    try {
      const w = watch(join(this.root, dir), { persistent: true }, (_event, filename) => {
        this.record(dir, filename ? String(filename) : undefined);
      });
      w.on('error', (err) => {
        this.logger.debug(`mcp: stopped watching ${dir || '.'}: ${err.message}`);
        w.close();
        if (this.watchers.get(dir) === w) this.watchers.delete(dir);
        this.record(dir, undefined);
      });
      this.watchers.set(dir, w);
    } catch (err) {
      this.logger.debug(`mcp: cannot watch ${dir || '.'}: ${(err as Error).message}`);
    }
  }

  private record(dir: string, filename: string | undefined): void {
    if (this.disposed) return;
    if (filename === undefined) this.pending.unknown = true;
    else this.pending.paths.add(dir ? posix.join(dir, filename.split('\\').join('/')) : filename.split('\\').join('/'));
    const now = Date.now();
    if (!this.timer) this.firstPendingAt = now;
    else clearTimeout(this.timer);
    const wait = Math.max(0, Math.min(this.debounceMs, this.firstPendingAt + this.maxWaitMs - now));
    this.timer = setTimeout(() => this.flush(), wait);
  }

  private flush(): void {
    this.timer = undefined;
    const batch = this.pending;
    this.pending = { paths: new Set(), unknown: false };
    if (!this.disposed) this.onBatch(batch);
  }

  private nearestExisting(dir: string): string {
    let d = dir === '.' ? '' : dir;
    for (;;) {
      const abs = join(this.root, d);
      if (existsSync(abs) && isDirectory(abs)) return d;
      if (d === '') return '';
      const parent = posix.dirname(d);
      d = parent === '.' ? '' : parent;
    }
  }
}

function isDirectory(abs: string): boolean {
  try {
    return statSync(abs).isDirectory();
  } catch {
    return false;
  }
}
