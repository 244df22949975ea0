import { all, type Database } from '../store/sqlite';
import { FIELD_OF, TYPED_RECEIVER } from './facts';
import { MAX_FAMILY, type Heritage } from './heritage';
import { CALL_COLS, CALLS, callRef, type CallRow, type SymbolRow } from './indexRows';
import type { CallerConfidence, CallerRef } from './indexTypes';

const JS_LANGS = "('typescript', 'tsx', 'javascript')";
/** Most calls on fields of a method's name looked at across the workspace. */
const MAX_FIELD_CALLS = 4000;

/**
 * The types TypeScript and JavaScript classes give their fields (and interfaces their properties), as
 * the index stores them, looked up through the bases: `this.metadata` in a subclass is the field its
 * base declares. Answers are kept for the life of one query.
 */
export class FieldTypes {
  private readonly types = new Map<string, string | undefined>();
  private readonly owners = new Map<string, Record<string, string> | null | undefined>();

  constructor(
    private readonly db: Database,
    private readonly heritage: Heritage,
  ) {}

  /**
   * The type (by its last name) of `owner.field`, or of `owner.a.b` field by field, each from the type
   * or the nearest base that declares it; undefined when no definition says, or the definitions of a
   * type's name disagree.
   */
  typeOf(chain: string): string | undefined {
    if (this.types.has(chain)) return this.types.get(chain);
    const names = chain.split('.');
    let type: string | undefined = names[0];
    for (let i = 1; i < names.length && type; i++) type = this.fieldOf(type, names[i]);
    if (names.length < 2) type = undefined;
    this.types.set(chain, type);
    return type;
  }

  private fieldOf(owner: string, field: string): string | undefined {
    const seen = new Set([owner]);
    const queue = [owner];
    for (let i = 0; i < queue.length && i < MAX_FAMILY; i++) {
      const fields = this.fieldsOf(queue[i]);
      if (fields === null) return undefined;
      if (fields && Object.hasOwn(fields, field)) return fields[field];
      for (const s of this.heritage.supersOf('js', queue[i])) {
        if (seen.has(s)) continue;
        seen.add(s);
        queue.push(s);
      }
    }
    return undefined;
  }

  /** The fields of the classes and interfaces of this name; null when two of them type one field differently. */
  private fieldsOf(name: string): Record<string, string> | null | undefined {
    if (this.owners.has(name)) return this.owners.get(name);
    const rows = all<{ fields: string }>(this.db, `SELECT s.fields AS fields FROM symbols s JOIN files f ON f.id = s.file WHERE s.name = ? AND s.container IS NULL AND s.fields IS NOT NULL AND s.kind IN ('class', 'interface', 'component') AND f.lang IN ${JS_LANGS}`, [name]);
    let out: Record<string, string> | null | undefined;
    for (const r of rows) {
      const fields = parseFields(r.fields);
      if (!fields) continue;
      if (!out) out = Object.assign(Object.create(null) as Record<string, string>, fields);
      else
        for (const [k, t] of Object.entries(fields)) {
          if (Object.hasOwn(out, k) && out[k] !== t) {
            out = null;
            break;
          }
          out[k] = t;
        }
      if (out === null) break;
    }
    this.owners.set(name, out);
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
 * declared type is the method's class, likely where it is one of its family (a base, an interface).
 */
export function callsOnFields(db: Database, fields: FieldTypes, def: SymbolRow, found: readonly CallerRef[], onlyFile: string | undefined, related: ReadonlySet<string>): CallerRef[] {
  const prefix = `${TYPED_RECEIVER}${FIELD_OF}`;
  const params: unknown[] = [def.name, prefix, `${prefix}\uffff`];
  if (onlyFile !== undefined) params.push(onlyFile);
  const rows = all<CallRow>(db, `SELECT ${CALL_COLS} FROM ${CALLS} WHERE c.name = ? AND c.qualifier >= ? AND c.qualifier < ?${onlyFile !== undefined ? ' AND f.path = ?' : ''} LIMIT ${MAX_FIELD_CALLS}`, params as string[]);
  if (!rows.length) return [];
  const seen = new Set(found.map((r) => `${r.path}:${r.line}:${r.column}`));
  const out: CallerRef[] = [];
  for (const c of rows) {
    if (seen.has(`${c.path}:${c.line}:${c.col}`)) continue;
    const field = c.qualifier!.slice(prefix.length);
    const type = fields.typeOf(field);
    let confidence: CallerConfidence | undefined;
    if (type === undefined) continue;
    if (type === def.container) confidence = 'resolved';
    else if (related.has(type)) confidence = 'likely';
    if (confidence === 'likely') out.push({ ...callRef(c), confidence, field, via: type });
    else if (confidence) out.push({ ...callRef(c), confidence, field });
  }
  return out;
}
