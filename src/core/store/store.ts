import { existsSync, mkdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Logger } from '../logger';
import { nullLogger } from '../logger';
import { writeFileAtomic, writeFileAtomicAsync, removeStaleTempFiles } from './atomicFile';
import { withFileLock } from './fileLock';
import { durableMigrations, indexMigrations, migrate, migrateInTurns, userVersion } from './migrations';
import { stamp, stampChanged, type FileStamp } from './fileStamp';
import { readDatabase } from './databaseFile';
import { IndexSaves } from './indexSaves';
import { guardCorruption, moveAside, VerifiedStamps } from './recovery';
import { SaveSchedule } from './saveSchedule';
import { loadSqlJs, transaction, type Database } from './sqlite';
import {
  asStoreWriteError,
  StoreWriteError,
  unwritableNotice,
  writeProblemOf,
  type StoreWriteProblem,
} from './writeErrors';
import type { SqlJsStatic } from 'sql.js';
import {
  StoreSchemaError,
  type BackgroundFileWriter,
  type DurableOp,
  type FileWriter,
  type StoreNotice,
  type StoreOptions,
} from './storeTypes';

// The store's public types live in their own module; re-exported so callers keep one import.
export { StoreSchemaError, type DurableOp, type FileWriter, type StoreNotice, type StoreOptions } from './storeTypes';

const DURABLE = 'durable.db';
const INDEX = 'index.db';

/**
 * The engine's persistence: a durable database for user data and a rebuildable index cache, both
 * sql.js, both written atomically into the per-workspace state directory.
 */
export class Store {
  private durableDb: Database;
  /** Loaded on first use: commands that touch only durable data never read the index cache. */
  private indexDb: Database | undefined;
  /** The index cache being opened ahead of use (openIndex), with its schema version as read. */
  private indexOpening: { db: Database; version: number; done?: Promise<void> } | undefined;
  private pending: DurableOp<unknown>[] = [];
  private durableDirty = false;
  private seen: FileStamp | undefined;
  private readonly durableSaves: SaveSchedule;
  private readonly indexSaves: IndexSaves;
  private disposed = false;
  private readonly listeners = new Set<(n: StoreNotice) => void>();
  private readonly indexStamps: VerifiedStamps;
  /** Set when the state directory took no write at open: data is read, and changes stay in memory. */
  private unwritable: { problem: StoreWriteProblem; code: string } | undefined;
  /** The last save failure logged, so a retry every few hundred ms does not repeat it. */
  private lastSaveError: string | undefined;
  readonly notices: StoreNotice[] = [];

  private constructor(
    private readonly SQL: SqlJsStatic,
    readonly stateDir: string,
    private readonly logger: Logger,
    durableDelays: { soon: number; quiet: number; quietAtMost: number },
    indexDelays: { delayMs: number; heldDelayMs: number },
    private readonly writeFile: FileWriter,
    writeInBackground: BackgroundFileWriter,
  ) {
    this.durableDb = undefined as unknown as Database;
    this.indexStamps = new VerifiedStamps(join(stateDir, INDEX + '.verified'));
    this.durableSaves = new SaveSchedule(() => this.saveOnTimer(), durableDelays);
    const what = 'save the index cache';
    this.indexSaves = new IndexSaves({
      ...indexDelays,
      exportIndex: () => (this.indexDb && !this.unwritable ? this.indexDb.export() : undefined),
      writeNow: (data) => this.save(this.indexPath, data, what),
      writeInBackground: (data, stillWanted) =>
        writeInBackground(this.indexPath, data, stillWanted).catch((err: unknown) => {
          throw asStoreWriteError(err, this.stateDir, `${what} ${this.indexPath}`);
        }),
      saved: () => this.indexStamps.record(this.indexPath),
      warn: (err) =>
        this.logger.warn(
          err instanceof StoreWriteError
            ? err.message
            : `Could not save the index cache ${this.indexPath}: ${(err as Error).message}`,
        ),
    });
  }

  static async open(options: StoreOptions): Promise<Store> {
    const SQL = await loadSqlJs();
    try {
      mkdirSync(options.stateDir, { recursive: true });
    } catch (err) {
      throw asStoreWriteError(err, options.stateDir, `create the state directory ${options.stateDir}`);
    }
    const writeFile = options.writeFile ?? writeFileAtomic;
    const store = new Store(
      SQL,
      options.stateDir,
      options.logger ?? nullLogger,
      {
        soon: options.durableSaveDelayMs ?? 150,
        quiet: options.quietSaveDelayMs ?? 10_000,
        quietAtMost: options.quietSaveMaxDelayMs ?? 60_000,
      },
      { delayMs: options.indexSaveDelayMs ?? 2000, heldDelayMs: options.heldIndexSaveDelayMs ?? 30_000 },
      writeFile,
      options.writeFileInBackground ?? ((path, data, stillWanted) => writeFileAtomicAsync(path, data, { stillWanted })),
    );
    removeStaleTempFiles(options.stateDir, DURABLE);
    removeStaleTempFiles(options.stateDir, INDEX);
    removeStaleTempFiles(options.stateDir, DURABLE + '.lock');
    removeStaleTempFiles(options.stateDir, DURABLE + '.lock.break');
    try {
      store.withDurableLock(() => {
        store.durableDb = store.loadDurable();
      });
    } catch (err) {
      const problem = writeProblemOf(err);
      if (!problem) throw err;
      // A read-only or full state directory still serves reads (listing subscriptions, suggestions):
      // open from what is on disk, keep changes in memory, and say so once.
      store.unwritable = problem;
      store.durableDb = store.loadDurable();
      store.notify({
        kind: 'unwritable',
        file: options.stateDir,
        message: unwritableNotice(options.stateDir, problem),
      });
    }
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

  /**
   * Changes durable data: applied at once in a transaction, persisted shortly after under the lock.
   * An immediate write (subscriptions) runs entirely under the lock, on the newest data on disk, and
   * is saved before it returns: a check inside `op` (a limit, a uniqueness rule) then holds across
   * processes, and when `op` throws nothing is changed anywhere. A quiet write (a log of what was
   * shown) is saved once writes stop for a while, or with the next other save, flush or dispose.
   */
  write<T>(op: DurableOp<T>, options: { immediate?: boolean; quiet?: boolean } = {}): T {
    this.assertOpen();
    // A change the user asked for (a subscription) is refused whole rather than kept where it would be lost.
    if (options.immediate && this.unwritable)
      throw new StoreWriteError(
        this.stateDir,
        `save the change to ${this.durablePath}`,
        this.unwritable.problem,
        this.unwritable.code,
      );
    if (options.immediate) {
      return this.withDurableLock(() => {
        if (this.changedOnDisk()) this.reloadDurable();
        const result = transaction(this.durableDb, () => op(this.durableDb));
        this.pending.push(op);
        this.durableDirty = true;
        this.durableSaves.cancel();
        try {
          this.saveDurableLocked();
        } catch (err) {
          // Kept in memory and in the pending list: retried shortly, and merged if another process writes first.
          this.scheduleDurable();
          throw err;
        }
        return result;
      });
    }
    this.refreshIfChanged();
    const result = transaction(this.durableDb, () => op(this.durableDb));
    this.pending.push(op);
    this.durableDirty = true;
    if (options.quiet) {
      if (!this.disposed) this.durableSaves.whenQuiet();
    } else this.scheduleDurable();
    return result;
  }

  /** The rebuildable index cache. Call markIndexDirty() after changing it. */
  get index(): Database {
    this.assertOpen();
    if (!this.indexDb) {
      // Being opened ahead: finished here, at once.
      const opening = this.indexOpening;
      this.indexOpening = undefined;
      this.indexDb = this.guardIndex(this.loadDatabase(INDEX, indexMigrations, false, opening).db);
    }
    return this.indexDb;
  }

  /** The index cache when it is open; never opens it (a check between slices of background work). */
  get openedIndex(): Database | undefined {
    return this.disposed ? undefined : this.indexDb;
  }

  /**
   * Opens the index cache ahead of its first use, a turn of the event loop between its migrations:
   * the first suggestion pass then finds it open instead of migrating a fresh cache in one step.
   */
  openIndex(): Promise<void> {
    if (this.indexDb || this.disposed) return Promise.resolve();
    if (this.indexOpening?.done) return this.indexOpening.done;
    return this.openInTurns(this.readDatabase(INDEX, false));
  }

  /** index.db was replaced on disk (by a team index snapshot) by `db`'s content, opened and checked by the caller: it takes the loaded cache's place, unsaved, without a second read and check. */
  adoptIndex(db: Database): Promise<void> {
    this.assertOpen();
    this.dropOpening();
    this.indexSaves.discard();
    this.indexDb?.close();
    this.indexDb = undefined;
    this.indexStamps.record(this.indexPath);
    return this.openInTurns(db);
  }

  private openInTurns(db: Database): Promise<void> {
    const opening: NonNullable<Store['indexOpening']> = { db, version: userVersion(db) };
    this.indexOpening = opening;
    opening.done = migrateInTurns(db, indexMigrations, opening.version, () => this.indexOpening === opening).then(
      () => {
        if (this.indexOpening !== opening) return;
        this.indexOpening = undefined;
        this.indexDb = this.guardIndex(this.loadDatabase(INDEX, indexMigrations, false, opening).db);
      },
    );
    return opening.done;
  }

  markIndexDirty(): void {
    this.indexSaves.markDirty();
  }

  /**
   * Spaces out index saves while a bulk change (a cold build) runs: every save copies the whole
   * cache, so saving every few seconds costs memory and time for nothing. Call the returned function
   * when done; pending changes are then saved after the usual delay. flush() still saves at once.
   */
  holdIndexSaves(): () => void {
    return this.indexSaves.hold();
  }

  /** Drops the index cache and starts it empty; durable data is untouched. */
  resetIndex(): void {
    this.assertOpen();
    this.dropOpening();
    this.indexDb?.close();
    this.indexDb = this.guardIndex(new this.SQL.Database());
    migrate(this.indexDb, indexMigrations, 0);
    this.indexSaves.discard();
    this.indexSaves.flush(true);
  }

  /** Writes everything pending now. */
  flush(): void {
    if (this.disposed) return;
    this.flushDurable();
    this.indexSaves.flush();
  }

  dispose(): void {
    if (this.disposed) return;
    try {
      this.flush();
    } finally {
      this.durableSaves.cancel();
      this.indexSaves.stop();
      this.disposed = true;
      this.durableDb.close();
      this.indexDb?.close();
      this.dropOpening();
    }
  }

  private dropOpening(): void {
    this.indexOpening?.db.close();
    this.indexOpening = undefined;
  }

  stats(): { stateDir: string; durableBytes: number; indexBytes: number; schema: { durable: number; index: number } } {
    const size = (p: string) => (existsSync(p) ? statSync(p).size : 0);
    return {
      stateDir: this.stateDir,
      durableBytes: size(this.durablePath),
      indexBytes: size(this.indexPath),
      schema: { durable: userVersion(this.durableDb), index: userVersion(this.index) },
    };
  }

  // --- internals ---

  private assertOpen(): void {
    if (this.disposed) throw new Error('The Proactive Context store is closed.');
  }

  private scheduleDurable(): void {
    if (!this.disposed) this.durableSaves.soon();
  }

  private saveOnTimer(): void {
    try {
      this.flushDurable();
      this.lastSaveError = undefined;
    } catch (err) {
      const message = (err as Error).message;
      if (message !== this.lastSaveError)
        this.logger.error(err instanceof StoreWriteError ? message : `Could not save ${this.durablePath}: ${message}`);
      this.lastSaveError = message;
      this.scheduleDurable();
    }
  }

  private flushDurable(): void {
    this.durableSaves.cancel();
    if (!this.durableDirty || this.unwritable) return;
    this.withDurableLock(() => {
      if (this.changedOnDisk()) this.reloadDurable();
      this.saveDurableLocked();
    });
  }

  /** Writes the durable database and its copy; the caller holds the lock and has merged what is on disk. */
  private saveDurableLocked(): void {
    const data = this.durableDb.export();
    this.save(this.durablePath, data, 'save subscriptions and other data to');
    // A second copy lets a later corruption of the main file be recovered without loss. It is always
    // a whole, checked database: the in-memory one just exported, never a damaged or empty file.
    // Not synced: it is only read when the synced main file is damaged, and writes happen under the
    // lock, so each fsync saved is time other processes do not wait.
    this.save(this.durablePath + '.bak', data, 'save the copy', { fsync: false });
    this.seen = stamp(this.durablePath);
    this.pending = [];
    this.durableDirty = false;
  }

  private refreshIfChanged(): void {
    if (!this.changedOnDisk()) return;
    this.withDurableLock(() => {
      if (this.changedOnDisk()) this.reloadDurable();
    });
  }

  private changedOnDisk(): boolean {
    return stampChanged(this.seen, stamp(this.durablePath));
  }

  /** Loads the newest file from disk and replays this process's unsaved changes on top of it. */
  private reloadDurable(): void {
    const fresh = this.loadDurable();
    for (const op of this.pending) {
      try {
        transaction(fresh, () => op(fresh));
      } catch (err) {
        this.logger.warn(
          `A change could not be merged with another process's data and was dropped: ${(err as Error).message}`,
        );
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
    // No other process can write a directory this one cannot: reading needs no lock then.
    if (this.unwritable) return fn();
    const lock = join(this.stateDir, DURABLE + '.lock');
    try {
      // Waiters queue fairly; ten seconds covers a queue of busy writers on a loaded machine.
      return withFileLock(lock, fn, { timeoutMs: 10_000, staleMs: 20_000 });
    } catch (err) {
      throw asStoreWriteError(err, this.stateDir, `lock ${lock}`);
    }
  }

  /** Writes a whole file of the state directory; a full disk or read-only folder becomes an error that says what to do. */
  private save(path: string, data: Uint8Array, what: string, options?: { fsync?: boolean }): void {
    try {
      this.writeFile(path, data, options);
    } catch (err) {
      throw asStoreWriteError(err, this.stateDir, `${what} ${path}`);
    }
  }

  private loadDatabase(
    name: string,
    migrations: readonly string[],
    hasBackup: boolean,
    opened?: { db: Database; version: number },
  ): { db: Database; migrated: boolean } {
    const path = join(this.stateDir, name);
    const db = opened?.db ?? this.readDatabase(name, hasBackup);
    const version = opened?.version ?? userVersion(db);
    if (version > migrations.length) {
      db.close();
      throw new StoreSchemaError(path, version, migrations.length);
    }
    migrate(db, migrations, userVersion(db));
    // An upgraded cache may have dropped whole tables: give the space back instead of carrying it in memory.
    if (!hasBackup && version > 0 && version < migrations.length) db.exec('VACUUM');
    return { db, migrated: version < migrations.length };
  }

  /** The database file as it is on disk (checked, restored or moved aside), or a new one. */
  private readDatabase(name: string, hasBackup: boolean): Database {
    return readDatabase(
      {
        SQL: this.SQL,
        stateDir: this.stateDir,
        indexStamps: this.indexStamps,
        writable: !this.unwritable,
        save: (path, data, what) => this.save(path, data, what),
        notify: (n) => this.notify(n),
      },
      name,
      hasBackup,
    );
  }

  /**
   * The index cache may still hold a damaged page that no check found (it changed after it was
   * read): the first "malformed" error moves the file aside, starts the cache empty for a rebuild,
   * says so once, and names the file in the error.
   */
  private guardIndex(db: Database): Database {
    return guardCorruption(db, (err) => {
      if (this.indexDb !== db) return undefined;
      this.indexCorrupted(err);
      return new Error(
        `The index cache ${this.indexPath} is damaged (${err.message}); it was moved aside and will be rebuilt.`,
      );
    });
  }

  private indexCorrupted(err: Error): void {
    const movedTo = existsSync(this.indexPath) ? moveAside(this.indexPath) : undefined;
    this.notify({
      kind: 'recovered',
      file: this.indexPath,
      movedTo,
      message: `The Proactive Context index cache ${this.indexPath} was damaged (${err.message}).${movedTo ? ` It was moved to ${movedTo}` : ' It'} and will be rebuilt.`,
    });
    const damaged = this.indexDb;
    this.indexDb = this.guardIndex(new this.SQL.Database());
    migrate(this.indexDb, indexMigrations, 0);
    try {
      damaged?.close();
    } catch {
      // Closing a damaged database may fail too.
    }
    this.indexSaves.discard();
    this.markIndexDirty();
  }

  private notify(n: StoreNotice): void {
    this.notices.push(n);
    this.logger.warn(n.message);
    for (const l of this.listeners) l(n);
  }
}
