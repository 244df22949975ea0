import { all, type Database } from '../store/sqlite';
import type { FieldTypes } from './fieldTypes';
import { PY_BUILTINS } from './extractors/pyAnnotations';
import { MAX_FAMILY, type Heritage } from './heritage';
import type { CallerConfidence, CallerRef } from './indexTypes';
import { CALL_COLS, CALLS, callRef, lastSegment, type CallRow, type SymbolRow } from './indexRows';
import { RESULT_OF, TYPED_RECEIVER } from './facts';


/**
 * A Python call whose receiver the code types as `type`, neither the method's class nor one of its
 * family: whether it may still reach the method. Not where the receiver is a builtin, a library's
 * class, or a workspace class that has a method of that name itself (or through its bases): that is
 * the one called. Likely where the class has no such method (a mixin's or a template method's
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
  fields: FieldTypes,
  cache: Map<string, CallerConfidence | undefined>,
): CallerConfidence | undefined {
  const name = lastSegment(type);
  if (PY_BUILTINS.has(name)) return undefined;
  const key = `${type}\0${file}`;
  if (cache.has(key)) return cache.get(key);
  let verdict: CallerConfidence | undefined;
  const kinds = classDeclares(db, heritage, name, method);
  if (kinds === 'declares') verdict = undefined;
  else if (kinds === 'class') verdict = 'likely';
  else verdict = fields.fromLibrary(file, type) ? undefined : 'likely';
  cache.set(key, verdict);
  return verdict;
}

/** Whether a workspace class of this name, or a base of it, has the method; 'class' when none does; 'none' when no such class. */
function classDeclares(db: Database, heritage: Heritage, name: string, method: string): 'declares' | 'class' | 'none' {
  const exists = all(db, "SELECT 1 FROM symbols s JOIN files f ON f.id = s.file WHERE s.name = ? AND s.kind = 'class' AND f.lang = 'python' LIMIT 1", [name]).length > 0;
  if (!exists) return 'none';
  const seen = new Set([name]);
  const queue = [name];
  for (let i = 0; i < queue.length && i < MAX_FAMILY; i++) {
    const supers = heritage.supersOf('python', queue[i]);
    if (supers.includes('Protocol')) return 'class';
    if (all(db, "SELECT 1 FROM symbols s JOIN files f ON f.id = s.file WHERE s.container = ? AND s.name = ? AND s.kind = 'method' AND f.lang = 'python' LIMIT 1", [queue[i], method]).length) return 'declares';
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

/** Most calls a result is read through: `f().a().b()`. */
const MAX_RESULT_DEPTH = 4;

/**
 * The class a Python function or method returns, by its return annotation. `Owner#m` is a method
 * called on a receiver of class Owner: the `m` Owner or its nearest base defines. The owner may be
 * a call's result itself (`()Factory#__call__#websocket_connect`: what calling a Factory gives, then
 * its `websocket_connect`). A bare name is what every definition of the name agrees on. null when
 * the workspace defines the name without one class; undefined when it does not define it (a
 * library's function, whose result may be anything).
 */
export function pyResultType(db: Database, heritage: Heritage, name: string, depth = 0): PyResult | null | undefined {
  const hash = name.lastIndexOf('#');
  const method = name.slice(hash + 1);
  if (hash >= 0) {
    let owner = name.slice(0, hash);
    if (owner.startsWith(RESULT_OF)) {
      const inner = depth < MAX_RESULT_DEPTH ? pyResultType(db, heritage, owner.slice(RESULT_OF.length), depth + 1) : null;
      if (!inner) return inner;
      owner = lastSegment(inner.type);
    }
    const seen = new Set([owner]);
    const queue = [owner];
    for (let i = 0; i < queue.length && i < MAX_FAMILY; i++) {
      const rows = all<{ returns: string | null; path: string }>(
        db,
        "SELECT s.returns AS returns, f.path AS path FROM symbols s JOIN files f ON f.id = s.file WHERE s.container = ? AND s.name = ? AND s.kind = 'method' AND f.lang = 'python' LIMIT 8",
        [queue[i], method],
      );
      if (rows.length) return oneResult(rows);
      for (const s of heritage.supersOf('python', queue[i])) {
        if (seen.has(s)) continue;
        seen.add(s);
        queue.push(s);
      }
    }
    // Calling an instance, entering a `with`: only its class's own protocol says what that gives.
    if (method.startsWith('__')) return null;
  }
  const rows = all<{ returns: string | null; path: string }>(
    db,
    "SELECT s.returns AS returns, f.path AS path FROM symbols s JOIN files f ON f.id = s.file WHERE s.name = ? AND s.kind IN ('function', 'method') AND f.lang = 'python' LIMIT 200",
    [method],
  );
  return rows.length ? oneResult(rows) : undefined;
}

function oneResult(rows: ReadonlyArray<{ returns: string | null; path: string }>): PyResult | null {
  const types = new Set(rows.map((r) => (r.returns === null ? null : lastSegment(r.returns))));
  return types.size === 1 && !types.has(null) ? { type: rows[0].returns!, path: rows[0].path } : null;
}

/** Most calls of one name on a call's result read across the workspace, and most distinct producers asked about. */
const MAX_RESULT_CALLS = 2000;
const MAX_RESULT_PRODUCERS = 500;

/**
 * `x.m()` anywhere in the workspace where `x` is what a call returns (`client = factory(app)`, then
 * `with client.websocket_connect(…) as ws`, `ws.send_text(…)`), in files that never name the
 * method's class: resolved where the call's annotation says it returns this class, likely where it
 * returns one of its family.
 */
export function pyCallsOnResults(db: Database, heritage: Heritage, def: SymbolRow, found: readonly CallerRef[], onlyFile: string | undefined, related: ReadonlySet<string>): CallerRef[] {
  const prefix = `${TYPED_RECEIVER}${RESULT_OF}`;
  const where = `c.name = ? AND c.qualifier >= ? AND c.qualifier < ? AND f.lang = 'python'${onlyFile !== undefined ? ' AND f.path = ?' : ''}`;
  const rows = all<CallRow>(db, `SELECT ${CALL_COLS} FROM ${CALLS} WHERE ${where} LIMIT ${MAX_RESULT_CALLS}`, [def.name, prefix, `${prefix}\uffff`, ...(onlyFile !== undefined ? [onlyFile] : [])]);
  const seen = new Set(found.map((r) => `${r.path}:${r.line}:${r.column}`));
  const verdicts = new Map<string, CallerConfidence | undefined>();
  const out: CallerRef[] = [];
  for (const c of rows) {
    if (seen.has(`${c.path}:${c.line}:${c.col}`)) continue;
    let verdict = verdicts.get(c.qualifier!);
    if (!verdicts.has(c.qualifier!)) {
      if (verdicts.size >= MAX_RESULT_PRODUCERS) break;
      const result = pyResultType(db, heritage, c.qualifier!.slice(prefix.length));
      const type = result ? lastSegment(result.type) : undefined;
      verdict = type === undefined ? undefined : type === def.container ? 'resolved' : related.has(type) ? 'likely' : undefined;
      verdicts.set(c.qualifier!, verdict);
    }
    if (verdict) out.push({ ...callRef(c), confidence: verdict, resultOf: producerName(c.qualifier!.slice(prefix.length)) });
  }
  return out;
}

/** The call a result comes from, as a reader knows it: `websocket_connect` for `()()Factory#__call__#websocket_connect#__enter__`. */
function producerName(spec: string): string {
  let s = spec;
  for (let i = 0; i < MAX_RESULT_DEPTH && (s.endsWith('#__enter__') || s.endsWith('#__call__')); i++) s = s.slice(0, s.lastIndexOf('#'));
  while (s.startsWith(RESULT_OF)) s = s.slice(RESULT_OF.length);
  return s.slice(s.lastIndexOf('#') + 1);
}
