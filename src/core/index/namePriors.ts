import type { Database } from 'sql.js';
import { all } from '../store/sqlite';
import type { FieldTypes } from './fieldTypes';
import { CALL_COLS, CALLS, callRef, lastSegment, type CallRow, type SymbolRow } from './indexRows';
import type { CallerRef } from './indexTypes';

// What a JavaScript or TypeScript value usually is, by its name, where nothing here declares its type.
// A callback's `c` in `app.get('/', (c) => c.json(…))` is typed only by the signature of the method it
// is passed to, which takes a type checker to read; but the workspace's own declarations of `c`
// (`(c: Context, next: Next)` in its middleware) say what such a `c` is.

/** Fewest files whose declarations must agree on a name's type. */
const MIN_FILES = 3;
/** Share of the files declaring a name that must give it the same type. */
const MIN_SHARE = 0.8;
/** Most calls of one method name looked at across files that never name its class. */
const MAX_CALLS = 4000;
const PLAIN_NAME = /^[A-Za-z_$][\w$]{0,63}$/;
/** Most names in a receiver read through fields: `c.req.raw`. */
const MAX_CHAIN = 4;
const JS_FILE = /\.(?:[cm]?[jt]sx?)$/;
const JS_LANGS = "('typescript', 'tsx', 'javascript')";

/** The types the workspace declares for names, read once per name and query. */
export class NamePriors {
  private readonly memo = new Map<string, string | null>();
  private readonly receivers = new Map<string, string | null>();
  private readonly kinds = new Map<string, Set<string>>();

  constructor(
    private readonly db: Database,
    private readonly fields: FieldTypes,
  ) {}

  /**
   * The type of a receiver nothing in its file types: a plain name's, by typeOf(), or a field of one
   * (`c.req` where `c` is a Context and Context declares `req: HonoRequest`). Null when not known.
   */
  receiverType(receiver: string): string | null {
    let t = this.receivers.get(receiver);
    if (t !== undefined) return t;
    const parts = receiver.split('.');
    t = parts.length > MAX_CHAIN || !parts.every((p) => PLAIN_NAME.test(p)) ? null : this.typeOf(parts[0]);
    if (t !== null && parts.length > 1) {
      // A library value's field may hold anything (`ref.current` of a `RefObject<Editor>`): unknown.
      // Of types named alike (Hono has four `Context`s), the one that declares the field.
      let field = this.kindsOf(t).size ? this.fields.typeOf(`${t}.${parts.slice(1).join('.')}`) : undefined;
      if (!field && this.kindsOf(t).size) {
        const first = this.fields.fieldOfOnly(t, parts[1]);
        field =
          first &&
          (parts.length === 2 ? first : this.fields.typeOf(`${lastSegment(first.type)}.${parts.slice(2).join('.')}`));
      }
      t = field ? lastSegment(field.type) : null;
    }
    this.receivers.set(receiver, t);
    return t;
  }

  /**
   * The type (by its last name) that the declarations of `name` across the workspace agree on: at
   * least MIN_FILES files and MIN_SHARE of those declaring it. Null when they do not agree, or `name`
   * is no plain identifier (`this`, `a.b`, a typed receiver).
   */
  typeOf(name: string): string | null {
    let t = this.memo.get(name);
    if (t !== undefined) return t;
    t = null;
    if (PLAIN_NAME.test(name) && name !== 'this' && name !== 'super') {
      const rows = all<{ type: string; n: number }>(
        this.db,
        'SELECT type, COUNT(*) AS n FROM typed_names WHERE name = ? GROUP BY type ORDER BY n DESC',
        [name],
      );
      const total = rows.reduce((s, r) => s + r.n, 0);
      if (rows.length && rows[0].n >= MIN_FILES && rows[0].n >= MIN_SHARE * total) t = rows[0].type;
    }
    this.memo.set(name, t);
    return t;
  }

  /**
   * Whether the workspace declares the receiver (a name, or a field of one) as some other type than the
   * method's class or its family: a class, interface or enum of its own, or a library's type (`res:
   * Response`). A name that is only a type alias may stand for the class itself (`type Ctx = Context<Env>`), so it says nothing.
   */
  declaresOther(receiver: string, container: string | null, family: ReadonlySet<string>): boolean {
    const t = this.receiverType(receiver);
    if (t === null || t === container || family.has(t)) return false;
    const kinds = this.kindsOf(t);
    return !kinds.has('type') || kinds.has('class') || kinds.has('interface');
  }

  /** The kinds of the workspace's top-level JavaScript and TypeScript definitions of this name (none: a library's). */
  private kindsOf(name: string): Set<string> {
    let kinds = this.kinds.get(name);
    if (!kinds) {
      kinds = new Set(
        all<{ kind: string }>(
          this.db,
          `SELECT DISTINCT s.kind AS kind FROM symbols s JOIN files f ON f.id = s.file WHERE s.name = ? AND s.container IS NULL AND f.lang IN ${JS_LANGS}`,
          [name],
        ).map((r) => r.kind),
      );
      this.kinds.set(name, kinds);
    }
    return kinds;
  }
}

/**
 * Calls of the method `def` on a plain name (or a field of one) that nothing in its file types, in files the search by
 * bindings did not reach (they never name the class): likely when the workspace's declarations of that
 * name agree it is the class.
 */
export function callsByNamePrior(
  db: Database,
  def: SymbolRow,
  found: readonly CallerRef[],
  onlyFile: string | undefined,
  priors: NamePriors,
  isModuleName: (file: string, name: string) => boolean,
): CallerRef[] {
  const inFile = onlyFile !== undefined ? ' AND f.path = ?' : '';
  const tail = onlyFile !== undefined ? [onlyFile] : [];
  // The receivers' names first, few; then the calls on those the workspace declares as the class itself
  // (a value its base or interface types may be any of its family's: `res: Response`).
  const names = all<{ q: string }>(
    db,
    `SELECT DISTINCT c.qualifier AS q FROM ${CALLS} WHERE c.name = ? AND c.qualifier IS NOT NULL${inFile} LIMIT ${MAX_CALLS}`,
    [def.name, ...tail],
  )
    .map((r) => r.q)
    .filter((q) => priors.receiverType(q) === def.container);
  if (!names.length) return [];
  const seen = new Set(found.map((r) => `${r.path}:${r.line}:${r.column}`));
  const out: CallerRef[] = [];
  for (let i = 0; i < names.length; i += 500) {
    const chunk = names.slice(i, i + 500);
    const rows = all<CallRow>(
      db,
      `SELECT ${CALL_COLS} FROM ${CALLS} WHERE c.name = ? AND c.qualifier IN (${chunk.map(() => '?').join(',')})${inFile} LIMIT ${MAX_CALLS}`,
      [def.name, ...chunk, ...tail],
    );
    for (const c of rows) {
      const key = `${c.path}:${c.line}:${c.col}`;
      if (!JS_FILE.test(c.path) || seen.has(key) || isModuleName(c.path, c.qualifier!.split('.')[0])) continue;
      seen.add(key);
      out.push({ ...callRef(c), confidence: 'likely', usualReceiver: c.qualifier! });
    }
  }
  return out;
}
