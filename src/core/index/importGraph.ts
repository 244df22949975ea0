import { each, type Database } from '../store/sqlite';
import type { ImportName } from './facts';
import { IntColumn } from './intColumn';
import type { ResolvedImport } from './resolve';

interface ImportRow {
  path: string;
  resolved: string | null;
  names: string;
}

/** Rows in the order they were written (the rowid), as the graph links them; `WHERE 1` takes more conditions. */
const ROWS =
  'SELECT i.rowid AS rid, f.path AS path, i.resolved AS resolved, i.names AS names FROM imports i JOIN files f ON f.id = i.file WHERE 1';

/**
 * The import rows that resolve to workspace files, held in memory by importing and imported file,
 * plus each file's module-bound names. Read once from the imports table and kept in step with every
 * write. A large workspace has tens of thousands of rows: files are numbered and rows are linked
 * lists in typed arrays, instead of a Map, an array and a Set per file and an object per row.
 */
export class ImportGraph {
  private readonly ids = new Map<string, number>();
  private readonly paths: string[] = [];
  private readonly rowNames: Array<ImportName[] | undefined> = [];
  private readonly rowFrom = new IntColumn();
  private readonly rowTo = new IntColumn();
  /** Rows of one importing file (order does not matter). */
  private readonly nextFrom = new IntColumn();
  /** Rows importing one file, in the order they were added (both ways, to unlink in place). */
  private readonly nextTo = new IntColumn();
  private readonly prevTo = new IntColumn();
  private readonly firstFrom = new IntColumn();
  private readonly firstTo = new IntColumn();
  private readonly lastTo = new IntColumn();
  private readonly freeRows: number[] = [];
  /** Per importing file: names bound to whole modules. */
  private readonly modules = new Map<number, Set<string>>();
  /** Changes with every row added or dropped: answers read from the graph know it moved on. */
  version = 0;

  static read(db: Database): ImportGraph {
    const graph = new ImportGraph();
    const addRow = ImportGraph.rowAdder(graph);
    each<ImportRow>(db, `${ROWS} ORDER BY i.rowid`, [], addRow);
    return graph;
  }

  /**
   * As read, `rowsPerQuery` rows at a time with `pause()` between: reading tens of thousands of rows
   * in one step held the editor's thread for hundreds of ms. Undefined when `unchanged()` stops
   * holding after a pause (the rows were written meanwhile): the next query then reads the graph
   * whole. 250 rows are under 2 ms of work on a quiet machine; the pause decides when to yield.
   */
  static async readInSlices(
    db: Database,
    pause: () => Promise<void>,
    unchanged: () => boolean,
    rowsPerQuery = 250,
  ): Promise<ImportGraph | undefined> {
    const graph = new ImportGraph();
    const addRow = ImportGraph.rowAdder(graph);
    for (let after = -1; ;) {
      let n = 0;
      each<ImportRow & { rid: number }>(
        db,
        `${ROWS} AND i.rowid > ? ORDER BY i.rowid LIMIT ?`,
        [after, rowsPerQuery],
        (r) => {
          n++;
          after = r.rid;
          addRow(r);
        },
      );
      if (n < rowsPerQuery) return graph;
      await pause();
      if (!unchanged()) return undefined;
    }
  }

  /** Adds rows to `graph`; equal name lists share one parsed copy (a large repository repeats a few thousand of them). */
  private static rowAdder(graph: ImportGraph): (r: ImportRow) => void {
    const lists = new Map<string, ImportName[]>();
    return (r) => {
      let names = lists.get(r.names);
      if (!names) {
        try {
          names = JSON.parse(r.names) as ImportName[];
        } catch {
          // An unreadable row resolves nothing.
          return;
        }
        lists.set(r.names, names);
      }
      graph.add(r.path, r.resolved, names);
    };
  }

  /** Forgets the rows of files that were re-indexed or removed, then adds their new rows. */
  replace(
    replaced: readonly string[],
    added: ReadonlyArray<{ path: string; imports: readonly ResolvedImport[] }>,
  ): void {
    for (const p of replaced) {
      const f = this.ids.get(p);
      if (f !== undefined) this.dropRowsOf(f);
    }
    for (const e of added) for (const i of e.imports) this.add(e.path, i.resolved, i.names);
  }

  /** Calls `visit` for each row importing `path`, in the order the rows were added. */
  forEachImporter(path: string, visit: (importer: string, names: readonly ImportName[]) => void): void {
    const t = this.ids.get(path);
    if (t === undefined) return;
    for (let r = this.firstTo.get(t); r >= 0; r = this.nextTo.get(r))
      visit(this.paths[this.rowFrom.get(r)], this.rowNames[r]!);
  }

  /** Calls `visit` for each row of `path` that imports (or re-exports from) a workspace file. */
  forEachImport(path: string, visit: (target: string, names: readonly ImportName[]) => void): void {
    const f = this.ids.get(path);
    if (f === undefined) return;
    for (let r = this.firstFrom.get(f); r >= 0; r = this.nextFrom.get(r))
      visit(this.paths[this.rowTo.get(r)], this.rowNames[r]!);
  }

  /** The files `path` imports (each once). */
  targetsOf(path: string): string[] {
    const f = this.ids.get(path);
    if (f === undefined) return [];
    const out = new Set<string>();
    for (let r = this.firstFrom.get(f); r >= 0; r = this.nextFrom.get(r)) out.add(this.paths[this.rowTo.get(r)]);
    return [...out];
  }

  /** Names `path` binds to whole modules (`import * as z`, Go package names). */
  moduleNames(path: string): ReadonlySet<string> | undefined {
    const f = this.ids.get(path);
    return f === undefined ? undefined : this.modules.get(f);
  }

  private id(path: string): number {
    let id = this.ids.get(path);
    if (id === undefined) {
      id = this.paths.length;
      this.paths.push(path);
      this.ids.set(path, id);
    }
    return id;
  }

  private add(path: string, resolved: string | null, names: ImportName[]): void {
    this.version++;
    const f = this.id(path);
    for (const n of names) {
      if (n.name === '*' && n.local !== '*' && !n.reexport) {
        let set = this.modules.get(f);
        if (!set) this.modules.set(f, (set = new Set()));
        set.add(n.local);
      }
    }
    if (resolved === null) return;
    // Rows importing a file from itself are local aliases: `export { a as b }`.
    const t = this.id(resolved);
    const r = this.freeRows.pop() ?? this.rowNames.length;
    this.rowNames[r] = names;
    this.rowFrom.set(r, f);
    this.rowTo.set(r, t);
    this.nextFrom.set(r, this.firstFrom.get(f));
    this.firstFrom.set(f, r);
    const last = this.lastTo.get(t);
    this.prevTo.set(r, last);
    this.nextTo.set(r, -1);
    if (last >= 0) this.nextTo.set(last, r);
    else this.firstTo.set(t, r);
    this.lastTo.set(t, r);
  }

  private dropRowsOf(f: number): void {
    this.version++;
    for (let r = this.firstFrom.get(f); r >= 0;) {
      const next = this.nextFrom.get(r);
      const t = this.rowTo.get(r);
      const prev = this.prevTo.get(r);
      const after = this.nextTo.get(r);
      if (prev >= 0) this.nextTo.set(prev, after);
      else this.firstTo.set(t, after);
      if (after >= 0) this.prevTo.set(after, prev);
      else this.lastTo.set(t, prev);
      this.rowNames[r] = undefined;
      this.freeRows.push(r);
      r = next;
    }
    this.firstFrom.set(f, -1);
    this.modules.delete(f);
  }
}
