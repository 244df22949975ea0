import { all, type Database } from '../store/sqlite';
import { FIELD_OF, RESULT_OF, TYPED_RECEIVER } from './facts';
import { MAX_FAMILY, type Heritage } from './heritage';
import { CALL_COLS, CALLS, callRef, lastSegment, type CallRow, type SymbolRow } from './indexRows';
import type { CallerConfidence, CallerRef } from './indexTypes';
import { PyResults } from './pythonClasses';

const JS_LANGS = "('typescript', 'tsx', 'javascript')";
/** Most distinct field receivers of one method name looked at, and most calls read through them. */
const MAX_FIELD_RECEIVERS = 10000;
const MAX_FIELD_CALLS = 20000;

/** A field's declared type, and the file that declares it (where the type's name is bound). */
export interface FieldType {
  type: string;
  path: string;
}

interface OwnerFields {
  fields: Record<string, string>;
  path: string;
}

/**
 * The types TypeScript and JavaScript classes give their fields (and interfaces their properties), or
 * Go structs, Python and PHP classes, as the index stores them, looked up through the bases: `this.metadata` in a subclass is
 * the field its base declares. A type name defined in more than one file (`Props`, `Options`) says
 * nothing. Answers are kept for the life of one query.
 */
export class FieldTypes {
  private readonly types = new Map<string, FieldType | undefined>();
  private readonly owners = new Map<string, OwnerFields | null>();
  /** Per file, the names it imports from outside the workspace (a library's `Client`). */
  private readonly libraryNames = new Map<string, Set<string>>();
  private results: PyResults | undefined;

  constructor(
    private readonly db: Database,
    private readonly heritage: Heritage,
    /** Go's structs, Python's or PHP's classes, else JavaScript's and TypeScript's classes and interfaces. */
    private readonly family: 'js' | 'go' | 'python' | 'php' = 'js',
  ) {}

  /**
   * The type (by its last name; Go's as its struct writes it) of `owner.field`, or of `owner.a.b`
   * field by field, each from the type or the nearest base that declares it; undefined when no
   * definition says, or the type's name is defined more than once.
   */
  typeOf(chain: string, file = ''): FieldType | undefined {
    // A chain from a call's result is read as the calling file names things (`()httpx/Client#build.x`).
    const fromFile = chain.startsWith(RESULT_OF) && chain.slice(0, chain.indexOf('.')).includes('/');
    if (fromFile && !file) return undefined;
    const key = fromFile ? `${file}\0${chain}` : chain;
    if (this.types.has(key)) return this.types.get(key);
    const names = chain.split('.');
    // Go's owner may name its package: `text/Segments`.
    // Python's owner may be a call's result (`()Client#build_request.headers`), as may a field (`self._transport = self._init_transport()`).
    let at: FieldType | undefined =
      names.length < 2
        ? undefined
        : names[0].startsWith(RESULT_OF)
          ? this.result(names[0], file)
          : { type: names[0].replace('/', '.'), path: '' };
    // Go writes a field's type as its file sees it (`text.Segments`): the package is the folder's name.
    for (let i = 1; i < names.length && at; i++) {
      // Python: a library's class (`lib.Request`, as the declaring file writes it) has no workspace class's fields.
      if (this.family === 'python' && at.path && this.fromLibrary(at.path, at.type)) {
        at = undefined;
        break;
      }
      const dot = at.type.lastIndexOf('.');
      at = this.fieldOf(
        at.type.slice(dot + 1),
        names[i],
        dot < 0 || this.family !== 'go' ? undefined : at.type.slice(0, dot),
      );
    }
    this.types.set(key, at);
    return at;
  }

  /**
   * Whether the chain starts from a type the file imports from outside the workspace (`c: Client`
   * with `import { Client } from 'pg'`): a workspace class of that name is not it.
   */
  ownerFromLibrary(file: string, chain: string): boolean {
    return this.fromLibrary(file, chain.slice(0, chain.indexOf('.')));
  }

  /** Whether the file imports this name (the first of a dotted one) from outside the workspace. */
  fromLibrary(file: string, name: string): boolean {
    if (this.family === 'go') return false;
    if (!this.libraryNames.has(file)) this.readLibraryNames([file]);
    const dot = name.indexOf('.');
    return this.libraryNames.get(file)!.has(dot < 0 ? name : name.slice(0, dot));
  }

  /** Reads, in a few queries, the names these files import from outside the workspace. */
  readLibraryNames(files: Iterable<string>): void {
    if (this.family === 'go') return;
    const todo = [...new Set(files)].filter((f) => !this.libraryNames.has(f));
    for (const f of todo) this.libraryNames.set(f, new Set());
    for (let i = 0; i < todo.length; i += 500) {
      const chunk = todo.slice(i, i + 500);
      for (const r of all<{ path: string; names: string }>(
        this.db,
        `SELECT f.path AS path, i.names AS names FROM imports i JOIN files f ON f.id = i.file WHERE f.path IN (${chunk.map(() => '?').join(',')}) AND i.resolved IS NULL`,
        chunk,
      )) {
        const names = this.libraryNames.get(r.path)!;
        try {
          const list: unknown = JSON.parse(r.names);
          if (Array.isArray(list))
            for (const n of list as Array<{ local?: unknown }>) if (typeof n?.local === 'string') names.add(n.local);
        } catch {
          // An unreadable row names nothing.
        }
      }
    }
  }

  /** Python's results for this query: what functions and methods return. */
  pyResults(): PyResults | undefined {
    if (this.family !== 'python') return undefined;
    return (this.results ??= new PyResults(this.db, this.heritage, (file, name) => this.fromLibrary(file, name)));
  }

  /** What a Python call (RESULT_OF and its spec, written in `file`) returns, and the file whose `def` says so. */
  private result(marker: string, file: string): FieldType | undefined {
    return this.pyResults()?.of(marker.slice(RESULT_OF.length), file) ?? undefined;
  }

  private fieldOf(owner: string, field: string, pkg?: string): FieldType | undefined {
    const seen = new Set([owner]);
    const queue: Array<{ name: string; pkg?: string }> = [{ name: owner, pkg }];
    for (let i = 0; i < queue.length && i < MAX_FAMILY; i++) {
      const o = this.fieldsOf(queue[i].name, queue[i].pkg);
      if (o === null) {
        // The type itself unknown: nothing. A base unknown (a library's): the search ends there.
        if (i === 0) return undefined;
        continue;
      }
      if (Object.hasOwn(o.fields, field))
        return o.fields[field].startsWith(RESULT_OF)
          ? this.result(o.fields[field], o.path)
          : { type: o.fields[field], path: o.path };
      // Go promotes the fields of an embedded struct (a field named by its type, of its package or another).
      const supers: Array<{ name: string; pkg?: string }> =
        this.family === 'go'
          ? embedded(o)
          : this.heritage.supersOf(this.family, queue[i].name).map((name) => ({ name }));
      for (const s of supers) {
        const key = s.pkg ? `${s.pkg}/${s.name}` : s.name;
        if (seen.has(key)) continue;
        seen.add(key);
        queue.push(s);
      }
    }
    return undefined;
  }

  /**
   * The type of `owner.field` when several files define a type named `owner` but only one of them
   * declares that field (by its own fields, not a base's); undefined otherwise. For a guess at what a
   * value is (its name's usual type), where the file gives no import to tell the owners apart.
   */
  fieldOfOnly(owner: string, field: string): FieldType | undefined {
    const rows = all<{ fields: string; path: string }>(
      this.db,
      `SELECT s.fields AS fields, f.path AS path FROM symbols s JOIN files f ON f.id = s.file WHERE s.name = ? AND s.container IS NULL AND s.fields IS NOT NULL AND f.lang IN ${JS_LANGS} LIMIT 50`,
      [owner],
    );
    const holders = rows
      .map((r) => ({ path: r.path, type: parseFields(r.fields)?.[field] }))
      .filter((h) => h.type !== undefined);
    return holders.length && holders.every((h) => h.path === holders[0].path && h.type === holders[0].type)
      ? { type: holders[0].type!, path: holders[0].path }
      : undefined;
  }

  /** Go: the structs a struct of this name (in the folder named `pkg`) embeds, a few levels deep, each with its package folder's name. */
  embeddedIn(name: string, pkg: string | undefined, depth = 0): Array<{ name: string; pkg?: string }> {
    const o = this.family !== 'go' || depth > 2 ? null : this.fieldsOf(name, pkg);
    return o ? embedded(o).flatMap((e) => [e, ...this.embeddedIn(e.name, e.pkg, depth + 1)]) : [];
  }

  /**
   * The fields of the class, interface or struct of this name (for Go, in a folder named `pkg` when
   * given); null when more than one file defines the name, as a class, an interface or a type.
   */
  private fieldsOf(name: string, pkg?: string): OwnerFields | null {
    const key = pkg ? `${pkg}/${name}` : name;
    const known = this.owners.get(key);
    if (known !== undefined) return known;
    let rows = all<{ fields: string | null; path: string }>(
      this.db,
      `SELECT s.fields AS fields, f.path AS path FROM symbols s JOIN files f ON f.id = s.file WHERE s.name = ? AND s.container IS NULL AND s.kind IN ('class', 'interface', 'component', 'type', 'enum') AND f.lang IN ${this.family === 'js' ? JS_LANGS : `('${this.family}')`} LIMIT 50`,
      [name],
    );
    if (pkg) rows = rows.filter((r) => folderName(r.path) === pkg);
    let out = null as OwnerFields | null;
    if (rows.length && !rows.some((r) => r.path !== rows[0].path)) {
      out = { fields: Object.create(null) as Record<string, string>, path: rows[0].path };
      // One file may declare a name twice (an interface and a class merged): their fields together.
      for (const r of rows) {
        const fields = r.fields === null ? undefined : parseFields(r.fields);
        if (fields) Object.assign(out.fields, fields);
      }
    }
    this.owners.set(key, out);
    return out;
  }
}

/** A Go struct's embedded structs, each with the package folder it is in: another's as written (`ast.BaseNode`), else the struct's own. */
function embedded(o: OwnerFields): Array<{ name: string; pkg?: string }> {
  const out: Array<{ name: string; pkg?: string }> = [];
  for (const [name, type] of Object.entries(o.fields)) {
    const dot = type.lastIndexOf('.');
    if (name === type.slice(dot + 1)) out.push({ name, pkg: dot < 0 ? folderName(o.path) : type.slice(0, dot) });
  }
  return out;
}

export function folderName(path: string): string {
  const dir = path.slice(0, Math.max(0, path.lastIndexOf('/')));
  return dir.slice(dir.lastIndexOf('/') + 1);
}

function parseFields(text: string): Record<string, string> | undefined {
  try {
    const v: unknown = JSON.parse(text);
    if (!v || typeof v !== 'object' || Array.isArray(v)) return undefined;
    const out: Record<string, string> = Object.create(null) as Record<string, string>;
    for (const [k, t] of Object.entries(v)) if (typeof t === 'string') out[k] = t;
    return out;
  } catch {
    return undefined;
  }
}

/** How a field's type is stored with its class: JSON, field name to type. */
export function encodeFields(fields: Record<string, string> | undefined): string | null {
  return fields && Object.keys(fields).length ? JSON.stringify(fields) : null;
}

/** A search for the calls of one method across the workspace, beside those already `found`. */
export interface WorkspaceCallsQuery {
  db: Database;
  fields: FieldTypes;
  def: SymbolRow;
  found: readonly CallerRef[];
  onlyFile: string | undefined;
  /** The method's family: its class's bases and subclasses, by name. */
  related: ReadonlySet<string>;
  /** Whether `file` names the method's very class `type` (not another of that name). */
  reaches: (file: string, type: string) => boolean;
}

/**
 * Calls of the method on a field anywhere in the workspace (`this.metadata.m()` where a base types
 * `metadata`, `this.dataSource.driver.m()`), whatever the file imports: resolved where the field's
 * declared type is the method's class (`reaches`: the declaring file names that very class), likely
 * where it is one of its family (a base, an interface).
 */
export function callsOnFields(query: WorkspaceCallsQuery): CallerRef[] {
  const { db, fields, def, found, onlyFile, related, reaches } = query;
  const prefix = `${TYPED_RECEIVER}${FIELD_OF}`;
  const where = `c.name = ? AND c.qualifier >= ? AND c.qualifier < ?${onlyFile !== undefined ? ' AND f.path = ?' : ''}`;
  const params = [def.name, prefix, `${prefix}\uffff`, ...(onlyFile !== undefined ? [onlyFile] : [])];
  // The receivers first, few; then the calls through those that are of this method's class or family.
  const verdicts = new Map<string, { confidence: CallerConfidence; via?: string }>();
  for (const { qualifier } of all<{ qualifier: string }>(
    db,
    `SELECT DISTINCT c.qualifier AS qualifier FROM ${CALLS} WHERE ${where} LIMIT ${MAX_FIELD_RECEIVERS}`,
    params,
  )) {
    const at = fields.typeOf(qualifier.slice(prefix.length));
    if (!at) continue;
    const type = lastSegment(at.type);
    if (type === def.container && reaches(at.path, type)) verdicts.set(qualifier, { confidence: 'resolved' });
    else if (related.has(type)) verdicts.set(qualifier, { confidence: 'likely', via: type });
  }
  if (!verdicts.size) return [];
  const seen = new Set(found.map((r) => `${r.path}:${r.line}:${r.column}`));
  const out: CallerRef[] = [];
  const wanted = [...verdicts.keys()];
  for (let i = 0; i < wanted.length && out.length < MAX_FIELD_CALLS; i += 500) {
    const chunk = wanted.slice(i, i + 500);
    const rows = all<CallRow>(
      db,
      `SELECT ${CALL_COLS} FROM ${CALLS} WHERE c.name = ? AND c.qualifier IN (${chunk.map(() => '?').join(',')})${onlyFile !== undefined ? ' AND f.path = ?' : ''} LIMIT ${MAX_FIELD_CALLS}`,
      [def.name, ...chunk, ...(onlyFile !== undefined ? [onlyFile] : [])],
    );
    fields.readLibraryNames(rows.map((c) => c.path));
    for (const c of rows) {
      const field = c.qualifier!.slice(prefix.length);
      if (seen.has(`${c.path}:${c.line}:${c.col}`) || fields.ownerFromLibrary(c.path, field)) continue;
      const v = verdicts.get(c.qualifier!)!;
      out.push(
        v.via
          ? { ...callRef(c), confidence: v.confidence, field, via: v.via }
          : { ...callRef(c), confidence: v.confidence, field },
      );
    }
  }
  return out;
}

/** Most structs read per level when looking for those that embed a type. */
const MAX_EMBEDDERS = 500;

/**
 * Go: the structs (by name) that embed `type`, or embed one that does, a few levels deep: each has
 * `type`'s methods promoted to it. An embedded field is named by its type.
 */
export function readEmbedders(db: Database, type: string): Set<string> {
  const out = new Set<string>();
  let frontier = [type];
  for (let depth = 0; depth < 3 && frontier.length; depth++) {
    const next: string[] = [];
    for (const t of frontier) {
      const rows = all<{ name: string; fields: string }>(
        db,
        `SELECT s.name AS name, s.fields AS fields FROM symbols s JOIN files f ON f.id = s.file WHERE s.fields LIKE ? AND f.lang = 'go' LIMIT ${MAX_EMBEDDERS}`,
        [`%"${t}":"%`],
      );
      for (const r of rows) {
        const f = parseFields(r.fields);
        const written = f && Object.hasOwn(f, t) ? f[t] : undefined;
        if (
          written === undefined ||
          written.slice(written.lastIndexOf('.') + 1) !== t ||
          out.has(r.name) ||
          r.name === type
        )
          continue;
        out.add(r.name);
        next.push(r.name);
      }
    }
    frontier = next;
  }
  return out;
}
