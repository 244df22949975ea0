import { all, type Database } from '../store/sqlite';
import { PY_BUILTINS } from './extractors/pyAnnotations';
import { MAX_FAMILY, type Heritage } from './heritage';
import type { CallerConfidence, CallerRef } from './indexTypes';
import { CALL_COLS, CALLS, callRef, lastSegment, type CallRow, type SymbolRow } from './indexRows';

/** What Python's class reading asks of the field types (`FieldTypes` answers it). */
export interface PyTypeFacts {
  /** Whether `name`, as `file` writes it, is a library's (imported from outside the workspace). */
  fromLibrary(file: string, name: string): boolean;
  pyResults(): PyResults | undefined;
}

/** A search for the calls of one method across the workspace, beside those already `found`. */
export interface PyCallsQuery {
  db: Database;
  fields: PyTypeFacts;
  def: SymbolRow;
  found: readonly CallerRef[];
  onlyFile: string | undefined;
  /** The method's family: its class's bases and subclasses, by name. */
  related: ReadonlySet<string>;
  /** Whether `file` names the method's very class `type` (not another of that name). */
  reaches: (file: string, type: string) => boolean;
}
import { FIXTURE, RESULT_OF, TYPED_RECEIVER } from './facts';

/**
 * A Python call whose receiver the code types as `type`, neither the method's class nor one of its
 * family: whether it may still reach the method. Not where the receiver is a builtin, a library's
 * class (even one named like a workspace class), or a workspace class that has a method of that name
 * itself (or through its bases): that is the one called. Likely where the class has no such method (a mixin's or a template method's
 * `self.save()`, which the class mixed in provides), where it is a Protocol (matched by shape, not
 * by inheritance), and where the name is no class the workspace defines (an alias, a type variable):
 * reading the code alone cannot rule it out.
 */
export function pyOtherClass(
  db: Database,
  heritage: Heritage,
  type: string,
  method: string,
  file: string,
  fields: PyTypeFacts,
  cache: Map<string, CallerConfidence | undefined>,
): CallerConfidence | undefined {
  const name = lastSegment(type);
  if (PY_BUILTINS.has(name)) return undefined;
  const key = `${type}\0${file}`;
  if (cache.has(key)) return cache.get(key);
  let verdict: CallerConfidence | undefined;
  // A library's class (`httpx.Response` where the file imports httpx) is no workspace class of that name.
  const kinds = fields.fromLibrary(file, type) ? 'library' : classDeclares(db, heritage, name, method);
  if (kinds === 'declares' || kinds === 'library') verdict = undefined;
  else verdict = 'likely';
  cache.set(key, verdict);
  return verdict;
}

/** Whether a workspace class of this name, or a base of it, has the method; 'class' when none does; 'none' when no such class. */
function classDeclares(db: Database, heritage: Heritage, name: string, method: string): 'declares' | 'class' | 'none' {
  const exists =
    all(
      db,
      "SELECT 1 FROM symbols s JOIN files f ON f.id = s.file WHERE s.name = ? AND s.kind = 'class' AND f.lang = 'python' LIMIT 1",
      [name],
    ).length > 0;
  if (!exists) return 'none';
  const seen = new Set([name]);
  const queue = [name];
  for (let i = 0; i < queue.length && i < MAX_FAMILY; i++) {
    const supers = heritage.supersOf('python', queue[i]);
    if (supers.includes('Protocol')) return 'class';
    if (
      all(
        db,
        "SELECT 1 FROM symbols s JOIN files f ON f.id = s.file WHERE s.container = ? AND s.name = ? AND s.kind = 'method' AND f.lang = 'python' LIMIT 1",
        [queue[i], method],
      ).length
    )
      return 'declares';
    for (const s of supers) {
      if (seen.has(s)) continue;
      seen.add(s);
      queue.push(s);
    }
  }
  return 'class';
}

/** A function's result as the index knows it: its class as the `def` writes it (`typing.Generator`), and the file of the `def` (where the name is bound). */
export interface PyResult {
  type: string;
  path: string;
}

/** Most calls a result is read through: `f().a().b()`; most distinct results one query reads. */
const MAX_RESULT_DEPTH = 4;
const MAX_RESULTS = 500;
/** Most classes of a family walked up for a method's result. */
const MAX_RESULT_FAMILY = 16;
/** What awaiting gives is the class inside: a function typed as returning one of these says nothing of it. */
const AWAITABLES = new Set(['Awaitable', 'Coroutine', 'Future', 'Task']);

/**
 * The classes Python functions and methods return, by their return annotations, as one query asks
 * for them (answers are kept for the query). A call's result is written where the call is:
 * - `name`, a function: what every definition of the name agrees on;
 * - `Owner#m`, a method called on a receiver of class Owner: the `m` Owner or its nearest base
 *   defines, nothing else (`mod/Owner` when the file names the class through a module: a library's
 *   class is no workspace class of that name);
 * - `()spec#m`, a method of what another call gives (`()Factory#__call__#websocket_connect`).
 *
 * null when the workspace says nothing of one class; undefined when the name or class is not the
 * workspace's (a library's result may be anything).
 */
export class PyResults {
  private readonly memo = new Map<string, PyResult | null | undefined>();

  constructor(
    private readonly db: Database,
    private readonly heritage: Heritage,
    /** Whether `file` imports this name from outside the workspace. */
    private readonly fromLibrary: (file: string, name: string) => boolean,
  ) {}

  /** The result of the call `spec` in `file`. */
  of(spec: string, file: string, depth = 0): PyResult | null | undefined {
    // A module path, or a fixture (which conftest.py gives it depends on the folder): read as this file sees it.
    const key = spec.includes('/') || spec.includes(FIXTURE) ? `${file}\0${spec}` : spec;
    if (this.memo.has(key)) return this.memo.get(key);
    if (this.memo.size >= MAX_RESULTS) return null;
    const result = this.read(spec, file, depth);
    this.memo.set(key, result);
    return result;
  }

  private read(spec: string, file: string, depth: number): PyResult | null | undefined {
    const hash = spec.lastIndexOf('#');
    const method = spec.slice(hash + 1);
    if (hash < 0 && spec.startsWith(FIXTURE)) return this.fixture(spec.slice(FIXTURE.length), file);
    if (hash < 0 && spec.includes('/')) {
      // A module's function (`requests/session`): a library module's result is none of the workspace's classes.
      if (this.fromLibrary(file, spec.slice(0, spec.indexOf('/')))) return undefined;
      return this.returns(
        "s.name = ? AND s.kind = 'function' AND s.container IS NULL",
        [method.slice(method.lastIndexOf('/') + 1)],
        200,
      );
    }
    if (hash < 0) return this.returns("s.name = ? AND s.kind IN ('function', 'method')", [method], 200);
    let owner = spec.slice(0, hash);
    if (owner.startsWith(RESULT_OF)) {
      const inner = depth < MAX_RESULT_DEPTH ? this.of(owner.slice(RESULT_OF.length), file, depth + 1) : null;
      if (!inner) return inner;
      owner = lastSegment(inner.type);
    } else if (owner.includes('/')) {
      if (this.fromLibrary(file, owner.slice(0, owner.indexOf('/')))) return undefined;
      owner = owner.slice(owner.lastIndexOf('/') + 1);
    }
    const files = all<{ path: string }>(
      this.db,
      "SELECT DISTINCT f.path AS path FROM symbols s JOIN files f ON f.id = s.file WHERE s.name = ? AND s.kind = 'class' AND s.container IS NULL AND f.lang = 'python' LIMIT 2",
      [owner],
    );
    // No such class: a library's or a builtin's. Two of that name: which one, unread.
    if (files.length !== 1) return files.length ? null : undefined;
    const seen = new Set([owner]);
    const queue = [owner];
    for (let i = 0; i < queue.length && i < MAX_RESULT_FAMILY; i++) {
      const found = this.returns("s.container = ? AND s.name = ? AND s.kind = 'method'", [queue[i], method], 8);
      if (found !== undefined) return found;
      for (const s of this.heritage.supersOf('python', queue[i])) {
        if (seen.has(s)) continue;
        seen.add(s);
        queue.push(s);
      }
    }
    return null;
  }

  /**
   * What the fixture `name` gives a test in `file`, as pytest finds it: defined in the test's own
   * module, else in the conftest.py nearest up its folders. undefined when neither defines it (a
   * plugin's fixture may be anything).
   */
  private fixture(name: string, file: string): PyResult | null | undefined {
    const rows = all<{ returns: string | null; path: string }>(
      this.db,
      "SELECT s.returns AS returns, f.path AS path FROM symbols s JOIN files f ON f.id = s.file WHERE s.name = ? AND s.kind = 'function' AND s.container IS NULL AND f.lang = 'python' AND (f.path = ? OR f.path = 'conftest.py' OR f.path LIKE '%/conftest.py') LIMIT 200",
      [name, file],
    );
    const dir = file.includes('/') ? file.slice(0, file.lastIndexOf('/') + 1) : '';
    let best: typeof rows = [];
    let bestDepth = -1;
    for (const r of rows) {
      const own = r.path === file;
      const folder = r.path.slice(0, r.path.length - 'conftest.py'.length);
      if (!own && !dir.startsWith(folder)) continue;
      const depth = own ? Number.MAX_SAFE_INTEGER : folder.length;
      if (depth > bestDepth) {
        best = [r];
        bestDepth = depth;
      } else if (depth === bestDepth) best.push(r);
    }
    if (!best.length) return undefined;
    const types = new Set(best.map((r) => r.returns));
    if (types.size !== 1 || best[0].returns === null) return null;
    return { type: best[0].returns, path: best[0].path };
  }

  /** The one class the matching definitions return; null when they disagree or one says none; undefined when none matches. */
  private returns(where: string, params: string[], limit: number): PyResult | null | undefined {
    const rows = all<{ returns: string | null; path: string }>(
      this.db,
      `SELECT s.returns AS returns, f.path AS path FROM symbols s JOIN files f ON f.id = s.file WHERE ${where} AND f.lang = 'python' LIMIT ${limit}`,
      params,
    );
    if (!rows.length) return undefined;
    const types = new Set(rows.map((r) => (r.returns === null ? null : lastSegment(r.returns))));
    if (types.size !== 1 || types.has(null) || AWAITABLES.has(lastSegment(rows[0].returns!))) return null;
    return { type: rows[0].returns!, path: rows[0].path };
  }
}

/** Most calls of one name on a call's result read across the workspace. */
const MAX_RESULT_CALLS = 2000;

/**
 * `x.m()` anywhere in the workspace where `x` is what a call returns (`client = factory(app)`, then
 * `with client.websocket_connect(…) as ws`, `ws.send_text(…)`), in files that never name the
 * method's class: resolved where the call's annotation says it returns this very class (`reaches`:
 * the file of the `def` names it), likely where it returns one of its family. A chain that starts
 * from a function counts only where the file can call that function (`binds`); one that starts from
 * a pytest fixture (`def test_x(runner): runner.invoke(…)`), where the fixture reaches the test.
 */
export function pyCallsOnResults(query: PyCallsQuery, binds: (file: string, fn: string) => boolean): CallerRef[] {
  const { db, fields, def, found, onlyFile, related, reaches } = query;
  const results = fields.pyResults();
  if (!results) return [];
  const prefix = `${TYPED_RECEIVER}${RESULT_OF}`;
  const where = `c.name = ? AND c.qualifier >= ? AND c.qualifier < ? AND f.lang = 'python'${onlyFile !== undefined ? ' AND f.path = ?' : ''}`;
  const rows = all<CallRow>(db, `SELECT ${CALL_COLS} FROM ${CALLS} WHERE ${where} LIMIT ${MAX_RESULT_CALLS}`, [
    def.name,
    prefix,
    `${prefix}\uffff`,
    ...(onlyFile !== undefined ? [onlyFile] : []),
  ]);
  const seen = new Set(found.map((r) => `${r.path}:${r.line}:${r.column}`));
  const out: CallerRef[] = [];
  for (const c of rows) {
    if (seen.has(`${c.path}:${c.line}:${c.col}`)) continue;
    const spec = c.qualifier!.slice(prefix.length);
    const fn = rootFunction(spec);
    // A fixture needs no binding: pytest gives it to the test from its module or a conftest.py above it.
    if (fn !== undefined && !fn.startsWith(FIXTURE) && !binds(c.path, fn)) continue;
    const result = results.of(spec, c.path);
    if (!result || fields.fromLibrary(result.path, result.type)) continue;
    const type = lastSegment(result.type);
    const verdict =
      type === def.container && reaches(result.path, type) ? 'resolved' : related.has(type) ? 'likely' : undefined;
    if (verdict) out.push({ ...callRef(c), confidence: verdict, resultOf: producerName(spec) });
  }
  return out;
}

/**
 * The function a chain of calls starts from (`get` in `()()get#json`, `session` in `()()requests/session#get`),
 * or undefined when it starts from a class's method.
 */
function rootFunction(spec: string): string | undefined {
  let s = spec;
  for (let i = 0; i <= MAX_RESULT_DEPTH; i++) {
    const hash = s.lastIndexOf('#');
    if (hash < 0) return s.startsWith(FIXTURE) ? s : s.slice(s.lastIndexOf('/') + 1);
    const owner = s.slice(0, hash);
    if (!owner.startsWith(RESULT_OF)) return undefined;
    s = owner.slice(RESULT_OF.length);
  }
  return undefined;
}

/** The call a result comes from, as a reader knows it: `websocket_connect` for `()()Factory#__call__#websocket_connect#__enter__`. */
function producerName(spec: string): string {
  let s = spec;
  for (let i = 0; i < MAX_RESULT_DEPTH && (s.endsWith('#__enter__') || s.endsWith('#__call__')); i++)
    s = s.slice(0, s.lastIndexOf('#'));
  while (s.startsWith(RESULT_OF)) s = s.slice(RESULT_OF.length);
  s = s.slice(s.lastIndexOf('#') + 1);
  return s.slice(s.lastIndexOf('/') + 1);
}

/** Whether the workspace has a Python module at this dotted path (`flask.json`: `…/flask/json.py` or `…/flask/json/__init__.py`). */
export function pyModuleExists(db: Database, dotted: string): boolean {
  const rel = dotted.replace(/\./g, '/');
  for (const file of [`${rel}.py`, `${rel}/__init__.py`]) {
    if (
      all(db, "SELECT 1 FROM files WHERE lang = 'python' AND (path = ? OR substr(path, -?) = ?) LIMIT 1", [
        file,
        file.length + 1,
        `/${file}`,
      ]).length
    )
      return true;
  }
  return false;
}
