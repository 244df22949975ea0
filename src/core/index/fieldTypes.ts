import { all, type Database } from '../store/sqlite';
import { FIELD_OF, TYPED_RECEIVER } from './facts';
import { MAX_FAMILY, type Heritage } from './heritage';
import { CALL_COLS, CALLS, callRef, type CallRow, type SymbolRow } from './indexRows';
import type { CallerConfidence, CallerRef } from './indexTypes';

const JS_LANGS = "('typescript', 'tsx', 'javascript')";
/** Most distinct field receivers of one method name looked at, and most calls read through them. */
const MAX_FIELD_RECEIVERS = 2000;
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
 * Go structs, as the index stores them, looked up through the bases: `this.metadata` in a subclass is
 * the field its base declares. A type name defined in more than one file (`Props`, `Options`) says
 * nothing. Answers are kept for the life of one query.
 */
export class FieldTypes {
  private readonly types = new Map<string, FieldType | undefined>();
  private readonly owners = new Map<string, OwnerFields | null>();

  constructor(
    private readonly db: Database,
    private readonly heritage: Heritage,
    /** Go's structs, else JavaScript's and TypeScript's classes and interfaces. */
    private readonly family: 'js' | 'go' = 'js',
  ) {}

  /**
   * The type (by its last name; Go's as its struct writes it) of `owner.field`, or of `owner.a.b`
   * field by field, each from the type or the nearest base that declares it; undefined when no
   * definition says, or the type's name is defined more than once.
   */
  typeOf(chain: string): FieldType | undefined {
    if (this.types.has(chain)) return this.types.get(chain);
    const names = chain.split('.');
    let at: FieldType | undefined = names.length > 1 ? { type: names[0], path: '' } : undefined;
    // Go writes a field's type as its file sees it (`text.Segments`); types are looked up by name.
    for (let i = 1; i < names.length && at; i++) at = this.fieldOf(at.type.slice(at.type.lastIndexOf('.') + 1), names[i]);
    this.types.set(chain, at);
    return at;
  }

  private fieldOf(owner: string, field: string): FieldType | undefined {
    const seen = new Set([owner]);
    const queue = [owner];
    for (let i = 0; i < queue.length && i < MAX_FAMILY; i++) {
      const o = this.fieldsOf(queue[i]);
      if (o === null) return undefined;
      if (o && Object.hasOwn(o.fields, field)) return { type: o.fields[field], path: o.path };
      for (const s of this.family === 'js' ? this.heritage.supersOf('js', queue[i]) : []) {
        if (seen.has(s)) continue;
        seen.add(s);
        queue.push(s);
      }
    }
    return undefined;
  }

  /** The fields of the class, interface or struct of this name; null when more than one file defines the name. */
  private fieldsOf(name: string): OwnerFields | null | undefined {
    if (this.owners.has(name)) return this.owners.get(name) ?? undefined;
    const rows = all<{ fields: string | null; path: string }>(
      this.db,
      `SELECT s.fields AS fields, f.path AS path FROM symbols s JOIN files f ON f.id = s.file WHERE s.name = ? AND s.container IS NULL AND s.kind IN ('class', 'interface', 'component') AND f.lang IN ${this.family === 'go' ? "('go')" : JS_LANGS} LIMIT 20`,
      [name],
    );
    let out: OwnerFields | null | undefined;
    if (rows.some((r) => r.path !== rows[0].path)) out = null;
    else {
      // One file may declare a name twice (an interface and a class merged): their fields together.
      for (const r of rows) {
        const fields = r.fields === null ? undefined : parseFields(r.fields);
        if (fields) out = { fields: Object.assign(out?.fields ?? (Object.create(null) as Record<string, string>), fields), path: r.path };
      }
    }
    this.owners.set(name, out ?? null);
    return out;
  }
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

/**
 * Calls of the method on a field anywhere in the workspace (`this.metadata.m()` where a base types
 * `metadata`, `this.dataSource.driver.m()`), whatever the file imports: resolved where the field's
 * declared type is the method's class (`reaches`: the declaring file names that very class), likely
 * where it is one of its family (a base, an interface).
 */
export function callsOnFields(
  db: Database,
  fields: FieldTypes,
  def: SymbolRow,
  found: readonly CallerRef[],
  onlyFile: string | undefined,
  related: ReadonlySet<string>,
  reaches: (file: string, type: string) => boolean,
): CallerRef[] {
  const prefix = `${TYPED_RECEIVER}${FIELD_OF}`;
  const where = `c.name = ? AND c.qualifier >= ? AND c.qualifier < ?${onlyFile !== undefined ? ' AND f.path = ?' : ''}`;
  const params = [def.name, prefix, `${prefix}\uffff`, ...(onlyFile !== undefined ? [onlyFile] : [])];
  // The receivers first, few; then the calls through those that are of this method's class or family.
  const verdicts = new Map<string, { confidence: CallerConfidence; via?: string }>();
  for (const { qualifier } of all<{ qualifier: string }>(db, `SELECT DISTINCT c.qualifier AS qualifier FROM ${CALLS} WHERE ${where} LIMIT ${MAX_FIELD_RECEIVERS}`, params)) {
    const at = fields.typeOf(qualifier.slice(prefix.length));
    if (!at) continue;
    if (at.type === def.container && reaches(at.path, at.type)) verdicts.set(qualifier, { confidence: 'resolved' });
    else if (related.has(at.type)) verdicts.set(qualifier, { confidence: 'likely', via: at.type });
  }
  if (!verdicts.size) return [];
  const seen = new Set(found.map((r) => `${r.path}:${r.line}:${r.column}`));
  const out: CallerRef[] = [];
  const wanted = [...verdicts.keys()];
  for (let i = 0; i < wanted.length && out.length < MAX_FIELD_CALLS; i += 500) {
    const chunk = wanted.slice(i, i + 500);
    const rows = all<CallRow>(db, `SELECT ${CALL_COLS} FROM ${CALLS} WHERE c.name = ? AND c.qualifier IN (${chunk.map(() => '?').join(',')})${onlyFile !== undefined ? ' AND f.path = ?' : ''} LIMIT ${MAX_FIELD_CALLS}`, [def.name, ...chunk, ...(onlyFile !== undefined ? [onlyFile] : [])]);
    for (const c of rows) {
      if (seen.has(`${c.path}:${c.line}:${c.col}`)) continue;
      const v = verdicts.get(c.qualifier!)!;
      const field = c.qualifier!.slice(prefix.length);
      out.push(v.via ? { ...callRef(c), confidence: v.confidence, field, via: v.via } : { ...callRef(c), confidence: v.confidence, field });
    }
  }
  return out;
}
