import { toRelative } from '../paths';
import { TimeSlice } from '../timeSlice';
import type { Store } from '../store/store';
import { firstColumn, one, type Database } from '../store/sqlite';
import { readEmbedders } from './fieldTypes';
import { Heritage } from './heritage';
import { ImportGraph } from './importGraph';
import { FileSet, ImportResolver, type ResolvedImport } from './resolve';

/** Yields once a slice has run for 12 ms: slices as long on a loaded machine as on a quiet one. */
function timeSlicePause(): () => Promise<void> {
  const slice = new TimeSlice();
  return () => slice.pause();
}

export const MANIFESTS_KEY = 'codeIndex.packageManifests';
/** A leading `..`, an empty, `.` or `..` segment (so also a leading `/`), a backslash or a drive colon: not already root-relative. */
const NOT_CANONICAL = /^\.\.|(^|\/)\.{0,2}(\/|$)|[\\:]/;

/**
 * The index database and what the index keeps in memory beside it (the workspace's code files, the
 * import resolver, the import graph), shared by building, resolution and queries. When the store
 * resets or replaces the database, everything remembered about the old one is dropped.
 */
export class IndexState {
  private fileSet: FileSet | undefined;
  private importResolver: ImportResolver | undefined;
  private importGraph: ImportGraph | undefined;
  private typeHeritage: Heritage | undefined;
  private readonly embedders = new Map<string, ReadonlySet<string>>();
  private seenDb: Database | undefined;
  /** Moves whenever import rows may have changed: a graph being read in slices is then stale. */
  private importEdits = 0;
  /** The graph being read ahead, of which database. */
  private graphReading: { db: Database; done: Promise<void> } | undefined;
  /** What generation() last saw, and the number it gave. */
  private seen = {
    n: 0,
    db: undefined as Database | undefined,
    changes: -1,
    graph: undefined as ImportGraph | undefined,
    graphVersion: -1,
    files: undefined as FileSet | undefined,
    filesVersion: -1,
  };

  constructor(
    private readonly store: Store,
    readonly root: string,
  ) {}

  get db(): Database {
    const db = this.store.index;
    if (db !== this.seenDb) {
      // The cache database was reset or replaced: what we remember about it is gone too.
      this.seenDb = db;
      this.fileSet = undefined;
      this.importResolver = undefined;
      this.importGraph = undefined;
      this.typeHeritage = undefined;
      this.embedders.clear();
    }
    return db;
  }

  /** The root-relative form of a path, or undefined when it is the root itself or outside it. */
  rel(path: string): string | undefined {
    // Most callers already pass the root-relative form; resolving it again only makes garbage.
    if (!NOT_CANONICAL.test(path)) return path;
    const rel = toRelative(this.root, path);
    return rel === '' ? undefined : rel;
  }

  /** Starts the file list and resolver over from a full scan. */
  resetWorkspace(paths: readonly string[], manifests: readonly string[]): ImportResolver {
    void this.db;
    this.fileSet = new FileSet(paths);
    this.importResolver = new ImportResolver(this.root, this.fileSet);
    this.importResolver.setPackageManifests([...manifests]);
    return this.importResolver;
  }

  /**
   * The workspace's code files: from the last scan while a build fills the tables (so history can
   * rank files the build has not reached yet), else the indexed ones.
   */
  workspaceFiles(): string[] {
    return this.fileSet ? this.fileSet.all() : firstColumn(this.db, 'SELECT path FROM files');
  }

  /** The import resolver over the indexed files, read from the database when nothing is in memory. */
  resolver(): ImportResolver {
    void this.db;
    if (!this.importResolver) {
      this.fileSet = new FileSet(firstColumn(this.db, 'SELECT path FROM files'));
      this.importResolver = new ImportResolver(this.root, this.fileSet);
      const manifests = one<{ value: string }>(this.db, 'SELECT value FROM meta WHERE key = ?', [MANIFESTS_KEY]);
      try {
        if (manifests) this.importResolver.setPackageManifests(JSON.parse(manifests.value) as string[]);
      } catch {
        // A damaged entry only costs workspace-package resolution until the next build.
      }
    }
    return this.importResolver;
  }

  /** A resolution config (go.mod, Cargo.toml, tsconfig, package.json) changed: read configs afresh. */
  invalidateResolverConfig(): void {
    this.importResolver?.invalidateConfig();
  }

  /** Forgets a file that is no longer part of the workspace. */
  forgetFile(rel: string): void {
    this.fileSet?.delete(rel);
  }

  /** The import rows in memory, by imported file, plus each file's module-bound names. */
  graph(): ImportGraph {
    // Through the getter: a reset or replaced database drops the graph built from the old one.
    void this.db;
    this.importGraph ??= ImportGraph.read(this.db);
    return this.importGraph;
  }

  /**
   * Reads the import graph ahead of the first query that needs it, a slice of rows per turn of the
   * event loop; that query would read it in one step. Gives up, leaving it to that query, when the
   * database is replaced or import rows are written meanwhile.
   */
  readGraphAhead(pause = timeSlicePause(), rowsPerQuery?: number): Promise<void> {
    const db = this.store.openedIndex;
    if (!db) return Promise.resolve();
    // Through the getter (the database is open: nothing is opened): a graph of a replaced database is dropped.
    if (this.db !== db || this.importGraph) return Promise.resolve();
    if (this.graphReading?.db === db) return this.graphReading.done;
    const edits = this.importEdits;
    const same = () => this.store.openedIndex === db && this.importEdits === edits && !this.importGraph;
    const reading = {
      db,
      done: ImportGraph.readInSlices(db, pause, same, rowsPerQuery).then((graph) => {
        if (graph && same() && this.db === db) this.importGraph = graph;
      }),
    };
    this.graphReading = reading;
    const ended = () => {
      if (this.graphReading === reading) this.graphReading = undefined;
    };
    reading.done.then(ended, ended);
    return reading.done;
  }

  /**
   * Settles when the read ahead under way (if any) has ended, read or given up (never rejects: a
   * query that follows reads the graph itself and meets any error there).
   */
  graphRead(): Promise<void> {
    return this.graphReading?.done.catch(() => undefined) ?? Promise.resolve();
  }

  /** Import rows were written for these files: the graph in memory, if any, follows them. */
  importsWritten(
    replaced: readonly string[],
    added: ReadonlyArray<{ path: string; imports: readonly ResolvedImport[] }>,
  ): void {
    this.importEdits++;
    this.importGraph?.replace(replaced, added);
  }

  /** The graph if it is in memory; undefined when the next query reads it anew anyway. */
  loadedGraph(): ImportGraph | undefined {
    void this.db;
    return this.importGraph;
  }

  dropGraph(): void {
    this.importEdits++;
    this.importGraph = undefined;
  }

  /** What the classes and interfaces extend and implement, read from the database after each write. */
  heritage(): Heritage {
    void this.db;
    this.typeHeritage ??= Heritage.read(this.db);
    return this.typeHeritage;
  }

  /** Go: the structs that embed `type`, a few levels deep, read once per state of the definitions. */
  goEmbedders(type: string): ReadonlySet<string> {
    let out = this.embedders.get(type);
    if (!out) this.embedders.set(type, (out = readEmbedders(this.db, type)));
    return out;
  }

  /**
   * A number that changes whenever anything a query reads may have changed: the database replaced or
   * written (SQLite's count of changed rows, whichever code wrote them, rolled back or not), the
   * import graph or the file list changed in place, dropped or read anew. Answers kept under one
   * generation are valid while it lasts.
   */
  generation(): number {
    const db = this.db;
    const changes = one<{ n: number }>(db, 'SELECT total_changes() AS n')?.n ?? -1;
    const s = this.seen;
    const graph = this.importGraph;
    const files = this.fileSet;
    if (
      db !== s.db ||
      changes !== s.changes ||
      graph !== s.graph ||
      (graph?.version ?? -1) !== s.graphVersion ||
      files !== s.files ||
      (files?.version ?? -1) !== s.filesVersion
    ) {
      this.seen = {
        n: s.n + 1,
        db,
        changes,
        graph,
        graphVersion: graph?.version ?? -1,
        files,
        filesVersion: files?.version ?? -1,
      };
    }
    return this.seen.n;
  }

  /** Definitions were written: the heritage is read afresh when next asked for. */
  dropHeritage(): void {
    this.typeHeritage = undefined;
    this.embedders.clear();
  }
}
