import type { Database, SqlValue } from '../store/sqlite';
import type { Store } from '../store/store';
import type { CallFact, FileFacts } from './facts';
import type { IndexState } from './indexState';
import { encodeFields } from './fieldTypes';
import { IntColumn } from './intColumn';
import type { LangId } from './languages';
import type { ResolvedImport } from './resolve';

/** One file ready to be written: its facts when it was parsed, only its stamp when it was unchanged. */
export interface PendingFile {
  path: string;
  hash: string;
  lang: LangId;
  size: number;
  mtime: number;
  facts?: FileFacts;
  imports?: ResolvedImport[];
}

/** Most parameters one statement binds; SQLite allows more, but long IN lists gain nothing. */
const CHUNK = 500;
/**
 * Held-back calls judged per transaction at the end of a build, the event loop free in between:
 * 5,000 at a time held the extension host 0.1–0.6 s each on a 6k-file repository under load, and
 * 500 still 0.4 s at load 10.
 */
const JUDGE_SLICE = 200;

const yieldToLoop = () => new Promise<void>((r) => setImmediate(r));

/**
 * Calls held back during a full build because no definition of their name had been written yet,
 * one column per field (equal strings stored once), until the build ends and says which
 * names got defined.
 */
class DeferredCalls {
  private readonly names: string[] = [];
  private readonly qualifiers: Array<string | undefined> = [];
  private readonly enclosing: Array<string | undefined> = [];
  private readonly strings = new Map<string, string>();
  private readonly lines = new IntColumn();
  private readonly columns = new IntColumn();
  readonly files = new IntColumn();
  /** The write of its file each call came from: a later write of the file makes them stale. */
  readonly writes = new IntColumn();

  /** Rows before this one were written or noted already. */
  judged = 0;

  constructor(readonly db: Database) {}

  get length(): number {
    return this.names.length;
  }

  add(file: number, write: number, call: CallFact): void {
    this.names.push(this.intern(call.name));
    this.qualifiers.push(call.qualifier === undefined ? undefined : this.intern(call.qualifier));
    this.enclosing.push(call.enclosing === undefined ? undefined : this.intern(call.enclosing));
    this.lines.push(call.line);
    this.columns.push(call.column);
    this.files.push(file);
    this.writes.push(write);
  }

  /** One copy of each string: the same few names (`expect`, `push`, `this`) come back thousands of times. */
  private intern(s: string): string {
    const known = this.strings.get(s);
    if (known !== undefined) return known;
    this.strings.set(s, s);
    return s;
  }

  name(i: number): string {
    return this.names[i];
  }

  call(i: number): CallFact {
    return {
      name: this.names[i],
      qualifier: this.qualifiers[i],
      line: this.lines.get(i),
      column: this.columns.get(i),
      enclosing: this.enclosing[i],
    };
  }
}

/**
 * Writes files' rows into the code tables. Calls are stored only when something in the workspace
 * could be what they call: a definition of that name somewhere, or a name the file imports from a
 * workspace file (`<Button/>` for a styled const, `ns.f()`). The other calls (library and runtime
 * functions: about a third of all calls) leave only a note that the file calls that name
 * (`unresolved_calls`); when a definition of the name is written later, those files are parsed again.
 */
export class IndexWriter {
  private deferred: DeferredCalls | undefined;
  /** Builds under way (a rebuild may start while another build runs): the last one to finish judges the calls. */
  private builds = 0;
  /** While calls are held back: per file id, the serial of its latest write (-1: removed). */
  private latestWrite = new Map<number, number>();
  private writeSerial = 0;
  /** Files whose noted names got defined: their calls must be read again. */
  private readonly stale = new Set<string>();

  constructor(
    private readonly state: IndexState,
    private readonly store: Store,
  ) {}

  /** From now until finishBuild(), calls to names not yet defined wait in memory instead of being judged at once. */
  beginBuild(): void {
    if (this.builds++ === 0) this.deferred = new DeferredCalls(this.state.db);
  }

  /**
   * Writes the waiting calls whose names are defined by now and notes the others, a slice per
   * transaction with the event loop free in between. Writes meanwhile keep holding their calls back
   * in the same buffer, so each slice judges names as they are at that moment.
   */
  async finishBuild(): Promise<void> {
    if (--this.builds > 0) return;
    const deferred = this.deferred;
    if (!deferred) return;
    while (deferred.judged < deferred.length) {
      // Another build took over the buffer, or the database it belongs to was reset or replaced.
      if (this.deferred !== deferred || this.builds > 0) return;
      if (deferred.db !== this.state.db) break;
      this.judgeSlice(deferred);
      await yieldToLoop();
    }
    if (this.deferred === deferred && this.builds === 0) {
      this.deferred = undefined;
      this.latestWrite = new Map();
    }
  }

  private judgeSlice(deferred: DeferredCalls): void {
    const from = deferred.judged;
    const to = Math.min(deferred.length, from + JUDGE_SLICE);
    deferred.judged = to;
    const current = (i: number) => this.latestWrite.get(deferred.files.get(i)) === deferred.writes.get(i);
    const names = new Set<string>();
    for (let i = from; i < to; i++) if (current(i)) names.add(deferred.name(i));
    const db = this.state.db;
    db.run('BEGIN');
    const stmts = { call: db.prepare(INSERT_CALL), note: db.prepare(INSERT_NOTE) };
    try {
      const defined = definedAmong(db, names);
      for (let i = from; i < to; i++) {
        if (!current(i)) continue;
        const file = deferred.files.get(i);
        if (defined.has(deferred.name(i))) stmts.call.run(callRow(file, deferred.call(i)));
        else stmts.note.run([deferred.name(i), file]);
      }
      db.run('COMMIT');
    } catch (err) {
      db.run('ROLLBACK');
      throw err;
    } finally {
      for (const st of Object.values(stmts)) st.free();
    }
    this.store.markIndexDirty();
  }

  /** Files to read again: their imports now reach the workspace, so calls they noted may be bound. */
  markStale(paths: Iterable<string>): void {
    for (const p of paths) this.stale.add(p);
  }

  /** Files whose noted names were defined by writes so far; taking them clears the list. */
  takeStale(): string[] {
    const out = [...this.stale];
    this.stale.clear();
    return out;
  }

  /** Replaces the rows of the given files (and deletes `removed`) in one transaction. */
  // eslint-disable-next-line max-lines-per-function -- one transaction writing every table of a file
  write(entries: readonly PendingFile[], removed: readonly string[] = []): void {
    if (!entries.length && !removed.length) return;
    const db = this.state.db;
    if (this.deferred && this.deferred.db !== db) this.deferred = undefined;
    const now = Date.now();
    const stmts = {
      fileId: db.prepare('SELECT id FROM files WHERE path = ?'),
      delSymbols: db.prepare('DELETE FROM symbols WHERE file = ?'),
      delCalls: db.prepare('DELETE FROM calls WHERE file = ?'),
      delImports: db.prepare('DELETE FROM imports WHERE file = ?'),
      delNotes: db.prepare('DELETE FROM unresolved_calls WHERE file = ?'),
      delTypedNames: db.prepare('DELETE FROM typed_names WHERE file = ?'),
      delFile: db.prepare('DELETE FROM files WHERE id = ?'),
      // An upsert keeps a file's id, so nothing else refers to a stale one.
      file: db.prepare(
        'INSERT INTO files (path, hash, lang, size, mtime, indexed_at) VALUES (?, ?, ?, ?, ?, ?) ' +
          'ON CONFLICT (path) DO UPDATE SET hash = excluded.hash, lang = excluded.lang, size = excluded.size, mtime = excluded.mtime, indexed_at = excluded.indexed_at',
      ),
      touch: db.prepare('UPDATE files SET size = ?, mtime = ? WHERE path = ?'),
      symbol: db.prepare(
        'INSERT INTO symbols (file, name, kind, start_line, end_line, container, exported, deprecated, returns, supers, fields) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
      ),
      call: db.prepare(INSERT_CALL),
      note: db.prepare(INSERT_NOTE),
      import: db.prepare('INSERT INTO imports (file, spec, resolved, names, line) VALUES (?, ?, ?, ?, ?)'),
      typedName: db.prepare('INSERT OR IGNORE INTO typed_names (name, type, file) VALUES (?, ?, ?)'),
    };
    const exec = (s: { run(p: SqlValue[]): void }, p: SqlValue[]) => s.run(p);
    const idOf = (path: string): number | undefined => {
      const s = stmts.fileId;
      try {
        s.bind([path]);
        return s.step() ? Number(s.get()[0]) : undefined;
      } finally {
        s.reset();
      }
    };
    const clear = (id: number) => {
      for (const s of [stmts.delSymbols, stmts.delCalls, stmts.delImports, stmts.delNotes, stmts.delTypedNames])
        exec(s, [id]);
    };
    const written: Array<{ id: number; entry: PendingFile; facts: FileFacts }> = [];
    db.run('BEGIN');
    try {
      for (const p of removed) {
        const id = idOf(p);
        if (id === undefined) continue;
        clear(id);
        exec(stmts.delFile, [id]);
        if (this.deferred) this.latestWrite.set(id, -1);
      }
      for (const e of entries) {
        if (!e.facts) {
          exec(stmts.touch, [e.size, e.mtime, e.path]);
          continue;
        }
        const old = idOf(e.path);
        if (old !== undefined) clear(old);
        exec(stmts.file, [e.path, e.hash, e.lang, e.size, e.mtime, now]);
        const id = old ?? idOf(e.path)!;
        for (const s of e.facts.symbols)
          exec(stmts.symbol, [
            id,
            s.name,
            s.kind,
            s.startLine,
            s.endLine,
            s.container ?? null,
            s.exported,
            s.deprecated ? 1 : 0,
            s.returns ?? null,
            s.supers ? s.supers.join(' ') : null,
            encodeFields(s.fields),
          ]);
        for (const i of e.imports ?? []) exec(stmts.import, [id, i.spec, i.resolved, JSON.stringify(i.names), i.line]);
        for (const [name, type] of e.facts.typedNames ?? []) exec(stmts.typedName, [name, type, id]);
        written.push({ id, entry: e, facts: e.facts });
      }
      this.writeCalls(db, written, stmts);
      this.noteDefinedNames(db, written);
      db.run('COMMIT');
    } catch (err) {
      db.run('ROLLBACK');
      this.state.dropGraph();
      throw err;
    } finally {
      for (const s of Object.values(stmts)) s.free();
      this.state.dropHeritage();
    }
    this.state.importsWritten(
      [...removed, ...written.map((w) => w.entry.path)],
      written.map((w) => ({ path: w.entry.path, imports: w.entry.imports ?? [] })),
    );
    this.store.markIndexDirty();
  }

  /** Stores the calls something in the workspace may answer; holds back or notes the rest. */
  private writeCalls(
    db: Database,
    written: ReadonlyArray<{ id: number; entry: PendingFile; facts: FileFacts }>,
    stmts: Record<'call' | 'note', { run(p: SqlValue[]): void }>,
  ): void {
    const unknown = new Set<string>();
    const bound = written.map((w) => importedFromWorkspace(w.entry.imports));
    written.forEach((w, i) => {
      for (const c of w.facts.calls) if (!isBound(c, bound[i])) unknown.add(c.name);
    });
    // Symbols of this batch are already in the table: a call and its definition may arrive together.
    const defined = definedAmong(db, unknown);
    written.forEach((w, i) => {
      const serial = ++this.writeSerial;
      if (this.deferred) this.latestWrite.set(w.id, serial);
      const noted = new Set<string>();
      for (const c of w.facts.calls) {
        if (isBound(c, bound[i]) || defined.has(c.name)) stmts.call.run(callRow(w.id, c));
        else if (this.deferred) this.deferred.add(w.id, serial, c);
        else if (!noted.has(c.name)) {
          noted.add(c.name);
          stmts.note.run([c.name, w.id]);
        }
      }
    });
  }

  /** Other files that call names these files now define were stored without those calls: they go on the stale list. */
  private noteDefinedNames(db: Database, written: ReadonlyArray<{ entry: PendingFile; facts: FileFacts }>): void {
    const names = new Set<string>();
    for (const w of written) for (const s of w.facts.symbols) names.add(s.name);
    const self = new Set(written.map((w) => w.entry.path));
    for (const chunk of chunks([...names])) {
      const stmt = db.prepare(
        `SELECT DISTINCT f.path AS path FROM unresolved_calls u JOIN files f ON f.id = u.file WHERE u.name IN (${chunk.map(() => '?').join(',')})`,
      );
      try {
        stmt.bind(chunk);
        while (stmt.step()) {
          const path = String(stmt.get()[0]);
          if (!self.has(path)) this.stale.add(path);
        }
      } finally {
        stmt.free();
      }
    }
  }
}

const INSERT_CALL = 'INSERT INTO calls (file, name, qualifier, line, col, enclosing) VALUES (?, ?, ?, ?, ?, ?)';
const INSERT_NOTE = 'INSERT OR IGNORE INTO unresolved_calls (name, file) VALUES (?, ?)';

function callRow(file: number, c: CallFact): SqlValue[] {
  return [file, c.name, c.qualifier ?? null, c.line, c.column, c.enclosing ?? null];
}

/** The names a file binds by importing workspace files. */
function importedFromWorkspace(imports: readonly ResolvedImport[] | undefined): Set<string> {
  const out = new Set<string>();
  for (const i of imports ?? []) {
    if (i.resolved === null) continue;
    for (const n of i.names) if (!n.reexport && n.local !== '*') out.add(n.local);
  }
  return out;
}

/** `f()` or `f.g()` / `f.g.h()` where the file imports `f` from the workspace. */
function isBound(c: CallFact, bound: ReadonlySet<string>): boolean {
  if (bound.has(c.name)) return true;
  if (!c.qualifier) return false;
  const dot = c.qualifier.search(/[.:]/);
  return bound.has(dot < 0 ? c.qualifier : c.qualifier.slice(0, dot));
}

/** Which of these names some definition in the index carries. */
function definedAmong(db: Database, names: Iterable<string>): Set<string> {
  const out = new Set<string>();
  for (const chunk of chunks([...names])) {
    const stmt = db.prepare(`SELECT DISTINCT name FROM symbols WHERE name IN (${chunk.map(() => '?').join(',')})`);
    try {
      stmt.bind(chunk);
      while (stmt.step()) out.add(String(stmt.get()[0]));
    } finally {
      stmt.free();
    }
  }
  return out;
}

function chunks<T>(list: readonly T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < list.length; i += CHUNK) out.push(list.slice(i, i + CHUNK));
  return out;
}
