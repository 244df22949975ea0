import { copyFileSync, existsSync, mkdirSync, readFileSync, renameSync, statSync, type Stats } from 'node:fs';
import { join } from 'node:path';
import type { Logger } from '../logger';
import { nullLogger } from '../logger';
import { writeFileAtomic, removeStaleTempFiles } from './atomicFile';
import { withFileLock } from './fileLock';
import { durableMigrations, indexMigrations } from './migrations';
import { loadSqlJs, one, transaction, type Database } from './sqlite';
import type { SqlJsStatic } from 'sql.js';

export class StoreSchemaError extends Error {
  constructor(readonly file: string, readonly found: number, readonly known: number) {
    super(
      `${file} has schema version ${found}, but this version of Proactive Context only knows up to ${known}. ` +
        'It was written by a newer release: update Proactive Context, or point it at another state directory.',
    );
  }
}

export interface StoreNotice {
  kind: 'recovered' | 'restored';
  file: string;
  movedTo?: string;
  message: string;
}

export interface StoreOptions {
  stateDir: string;
  logger?: Logger;
  /** Delay before a durable change is written (coalesces bursts). */
  durableSaveDelayMs?: number;
  /** Delay before the index cache is written. */
  indexSaveDelayMs?: number;
  /** Delay before the index cache is written while a bulk change holds saves back (see holdIndexSaves). */
  heldIndexSaveDelayMs?: number;
}

/** A durable change: applied now, and replayed on a fresher copy if another process wrote meanwhile. Must be deterministic. */
export type DurableOp<T> = (db: Database) => T;

interface FileStamp {
  ino: number;
  size: number;
  mtimeMs: number;
}

const DURABLE = 'durable.db';
const INDEX = 'index.db';

/**
 * The engine's persistence: a durable database for user data and a rebuildable index cache, both
 * sql.js, both written atomically into the per-workspace state directory.
 */
export class Store {
  private durableDb: Database;
  private indexDb: Database;
  private pending: DurableOp<unknown>[] = [];
  private durableDirty = false;
  private indexDirty = false;
  private seen: FileStamp | undefined;
  private durableTimer: NodeJS.Timeout | undefined;
  private indexTimer: NodeJS.Timeout | undefined;
  private indexHolds = 0;
  private disposed = false;
  private readonly listeners = new Set<(n: StoreNotice) => void>();
  readonly notices: StoreNotice[] = [];

  private constructor(
    private readonly SQL: SqlJsStatic,
    readonly stateDir: string,
    private readonly logger: Logger,
    private readonly durableDelay: number,
    private readonly indexDelay: number,
    private readonly heldIndexDelay: number,
  ) {
    this.durableDb = undefined as unknown as Database;
    this.indexDb = undefined as unknown as Database;
  }

  static async open(options: StoreOptions): Promise<Store> {
    const SQL = await loadSqlJs();
    mkdirSync(options.stateDir, { recursive: true });
    const store = new Store(SQL, options.stateDir, options.logger ?? nullLogger, options.durableSaveDelayMs ?? 150, options.indexSaveDelayMs ?? 2000, options.heldIndexSaveDelayMs ?? 30_000);
    removeStaleTempFiles(options.stateDir, DURABLE);
    removeStaleTempFiles(options.stateDir, INDEX);
    store.withDurableLock(() => {
      store.durableDb = store.loadDurable();
    });
    store.indexDb = store.loadDatabase(INDEX, indexMigrations, false).db;
    return store;
  }

  get durablePath(): string {
    return join(this.stateDir, DURABLE);
  }
  get indexPath(): string {
    return join(this.stateDir, INDEX);
  }

  onNotice(listener: (n: StoreNotice) => void): { dispose(): void } {
    this.listeners.add(listener);
    for (const n of this.notices) listener(n);
    return { dispose: () => this.listeners.delete(listener) };
  }

  /** Reads durable data, first picking up what other processes wrote. */
  read<T>(fn: (db: Database) => T): T {
    this.assertOpen();
    this.refreshIfChanged();
    return fn(this.durableDb);
  }

  /** Changes durable data: applied at once in a transaction, persisted shortly after under the lock. */
  write<T>(op: DurableOp<T>, options: { immediate?: boolean } = {}): T {
    this.assertOpen();
    this.refreshIfChanged();
    const result = transaction(this.durableDb, () => op(this.durableDb));
    this.pending.push(op as DurableOp<unknown>);
    this.durableDirty = true;
    // Changes another process must see at once (subscriptions) are saved now, not coalesced.
    if (options.immediate) this.flushDurable();
    else this.scheduleDurable();
    return result;
  }

  /**
   * Reads and changes durable data as one step no other process can interleave with: under the
   * lock, on the newest file, saved before the lock is released. For check-then-act changes (a
   * limit, a claim) that must hold across processes; returns what `op` returns.
   */
  transact<T>(op: DurableOp<T>): T {
    this.assertOpen();
    return this.withDurableLock(() => {
      if (this.changedOnDisk()) this.reloadDurable();
      const result = transaction(this.durableDb, () => op(this.durableDb));
      this.durableDirty = true;
      this.saveDurableLocked();
      return result;
    });
  }

  /** The rebuildable index cache. Call markIndexDirty() after changing it. */
  get index(): Database {
    this.assertOpen();
    return this.indexDb;
  }

  markIndexDirty(): void {
    this.indexDirty = true;
    if (!this.indexTimer && !this.disposed) {
      this.indexTimer = setTimeout(() => {
        this.indexTimer = undefined;
        this.flushIndex();
      }, this.indexHolds > 0 ? this.heldIndexDelay : this.indexDelay);
      this.indexTimer.unref?.();
    }
  }

  /**
   * Spaces out index saves while a bulk change (a cold build) runs: every save copies the whole
   * cache, so saving every few seconds costs memory and time for nothing. Call the returned function
   * when done; pending changes are then saved after the usual delay. flush() still saves at once.
   */
  holdIndexSaves(): () => void {
    this.indexHolds++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.indexHolds--;
      if (this.indexHolds === 0 && this.indexDirty && !this.disposed) {
        clearTimeout(this.indexTimer);
        this.indexTimer = undefined;
        this.markIndexDirty();
      }
    };
  }

  /** Drops the index cache and starts it empty; durable data is untouched. */
  resetIndex(): void {
    this.assertOpen();
    this.indexDb.close();
    this.indexDb = new this.SQL.Database();
    migrate(this.indexDb, indexMigrations, 0);
    this.indexDirty = true;
    this.flushIndex();
  }

  /** Writes everything pending now. */
  flush(): void {
    if (this.disposed) return;
    this.flushDurable();
    this.flushIndex();
  }

  dispose(): void {
    if (this.disposed) return;
    try {
      this.flush();
    } finally {
      clearTimeout(this.durableTimer);
      clearTimeout(this.indexTimer);
      this.disposed = true;
      this.durableDb.close();
      this.indexDb.close();
    }
  }

  stats(): { stateDir: string; durableBytes: number; indexBytes: number; schema: { durable: number; index: number } } {
    const size = (p: string) => (existsSync(p) ? statSync(p).size : 0);
    return {
      stateDir: this.stateDir,
      durableBytes: size(this.durablePath),
      indexBytes: size(this.indexPath),
      schema: { durable: userVersion(this.durableDb), index: userVersion(this.indexDb) },
    };
  }

  // --- internals ---

  private assertOpen(): void {
    if (this.disposed) throw new Error('The Proactive Context store is closed.');
  }

  private scheduleDurable(): void {
    if (this.durableTimer || this.disposed) return;
    this.durableTimer = setTimeout(() => {
      this.durableTimer = undefined;
      try {
        this.flushDurable();
      } catch (err) {
        this.logger.error(`Could not save ${this.durablePath}: ${(err as Error).message}`);
        this.scheduleDurable();
      }
    }, this.durableDelay);
    this.durableTimer.unref?.();
  }

  private flushDurable(): void {
    clearTimeout(this.durableTimer);
    this.durableTimer = undefined;
    if (!this.durableDirty) return;
    this.withDurableLock(() => {
      if (this.changedOnDisk()) this.reloadDurable();
      this.saveDurableLocked();
    });
  }

  /** Writes the durable database and its copy; the caller holds the lock and has the newest data. */
  private saveDurableLocked(): void {
    clearTimeout(this.durableTimer);
    this.durableTimer = undefined;
    const data = this.durableDb.export();
    writeFileAtomic(this.durablePath, data);
    // A second copy lets a later corruption of the main file be recovered without loss.
    writeFileAtomic(this.durablePath + '.bak', data);
    this.seen = stamp(this.durablePath);
    this.pending = [];
    this.durableDirty = false;
  }

  private flushIndex(): void {
    clearTimeout(this.indexTimer);
    this.indexTimer = undefined;
    if (!this.indexDirty) return;
    try {
      writeFileAtomic(this.indexPath, this.indexDb.export());
      this.indexDirty = false;
    } catch (err) {
      this.logger.warn(`Could not save the index cache ${this.indexPath}: ${(err as Error).message}`);
    }
  }

  private refreshIfChanged(): void {
    if (!this.changedOnDisk()) return;
    this.withDurableLock(() => {
      if (this.changedOnDisk()) this.reloadDurable();
    });
  }

  private changedOnDisk(): boolean {
    const now = stamp(this.durablePath);
    if (!now && !this.seen) return false;
    if (!now || !this.seen) return true;
    return now.ino !== this.seen.ino || now.size !== this.seen.size || now.mtimeMs !== this.seen.mtimeMs;
  }

  /** Loads the newest file from disk and replays this process's unsaved changes on top of it. */
  private reloadDurable(): void {
    const fresh = this.loadDurable();
    for (const op of this.pending) {
      try {
        transaction(fresh, () => op(fresh));
      } catch (err) {
        this.logger.warn(`A change could not be merged with another process's data and was dropped: ${(err as Error).message}`);
      }
    }
    this.durableDb.close();
    this.durableDb = fresh;
  }

  private loadDurable(): Database {
    const { db, migrated } = this.loadDatabase(DURABLE, durableMigrations, true);
    this.seen = stamp(this.durablePath);
    if (migrated) this.durableDirty = true;
    return db;
  }

  private withDurableLock<T>(fn: () => T): T {
    return withFileLock(join(this.stateDir, DURABLE + '.lock'), fn);
  }

  private loadDatabase(name: string, migrations: readonly string[], hasBackup: boolean): { db: Database; migrated: boolean } {
    const path = join(this.stateDir, name);
    let db: Database | undefined;
    if (existsSync(path)) {
      db = this.tryOpen(path);
      if (!db) {
        const movedTo = `${path}.corrupt-${new Date().toISOString().replace(/[:.]/g, '-')}`;
        try {
          renameSync(path, movedTo);
        } catch {
          // Unreadable and unmovable: start clean in memory; the next save replaces it.
        }
        const backup = hasBackup ? this.tryOpen(path + '.bak') : undefined;
        if (backup) {
          copyFileSync(path + '.bak', path);
          db = backup;
          this.notify({ kind: 'restored', file: path, movedTo, message: `The Proactive Context data file ${name} was damaged. It was moved to ${movedTo} and restored from its last good copy.` });
        } else {
          this.notify({
            kind: 'recovered',
            file: path,
            movedTo,
            message: hasBackup
              ? `The Proactive Context data file ${name} was damaged and had no usable copy. It was moved to ${movedTo}; starting with empty data.`
              : `The Proactive Context index cache was damaged. It was moved to ${movedTo} and will be rebuilt.`,
          });
        }
      }
    }
    db ??= new this.SQL.Database();
    const version = userVersion(db);
    if (version > migrations.length) {
      db.close();
      throw new StoreSchemaError(path, version, migrations.length);
    }
    migrate(db, migrations, version);
    // An upgraded cache may have dropped whole tables: give the space back instead of carrying it in memory.
    if (!hasBackup && version > 0 && version < migrations.length) db.exec('VACUUM');
    return { db, migrated: version < migrations.length };
  }

  private tryOpen(path: string): Database | undefined {
    let db: Database | undefined;
    try {
      db = new this.SQL.Database(readFileSync(path));
      one(db, 'SELECT count(*) AS n FROM sqlite_master');
      return db;
    } catch (err) {
      this.logger.warn(`Cannot read ${path}: ${(err as Error).message}`);
      db?.close();
      return undefined;
    }
  }

  private notify(n: StoreNotice): void {
    this.notices.push(n);
    this.logger.warn(n.message);
    for (const l of this.listeners) l(n);
  }
}

function migrate(db: Database, migrations: readonly string[], from: number): void {
  for (let v = from; v < migrations.length; v++) {
    db.exec('BEGIN');
    try {
      db.exec(migrations[v]);
      db.exec(`PRAGMA user_version = ${v + 1}`);
      db.exec('COMMIT');
    } catch (err) {
      db.exec('ROLLBACK');
      throw new Error(`Schema migration ${v + 1} failed: ${(err as Error).message}`);
    }
  }
}

function userVersion(db: Database): number {
  const row = one<{ user_version: number }>(db, 'PRAGMA user_version');
  return Number(row?.user_version ?? 0);
}

function stamp(path: string): FileStamp | undefined {
  let s: Stats;
  try {
    s = statSync(path);
  } catch {
    return undefined;
  }
  return { ino: s.ino, size: s.size, mtimeMs: s.mtimeMs };
}
