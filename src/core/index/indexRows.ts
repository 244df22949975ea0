import type { SymbolKind } from './facts';
import type { CallerRef, IndexedSymbol } from './indexTypes';

// The code tables' rows as queries read them, and the SQL that reads them.

export interface SymbolRow {
  path: string;
  name: string;
  kind: string;
  start_line: number;
  end_line: number;
  container: string | null;
  exported: number;
  deprecated: number;
}

export interface CallRow {
  path: string;
  name: string;
  qualifier: string | null;
  line: number;
  col: number;
  enclosing: string | null;
}

/** Rows of the code tables carry a file id; queries give the path back under the old column name. */
export const SYMBOL_COLS =
  'f.path AS path, s.name AS name, s.kind AS kind, s.start_line AS start_line, s.end_line AS end_line, s.container AS container, s.exported AS exported, s.deprecated AS deprecated';
export const SYMBOLS = 'symbols s JOIN files f ON f.id = s.file';
export const CALL_COLS =
  'f.path AS path, c.name AS name, c.qualifier AS qualifier, c.line AS line, c.col AS col, c.enclosing AS enclosing';
export const CALLS = 'calls c JOIN files f ON f.id = c.file';

export function toSymbol(r: SymbolRow): IndexedSymbol {
  return {
    path: r.path,
    name: r.name,
    kind: r.kind as SymbolKind,
    startLine: r.start_line,
    endLine: r.end_line,
    container: r.container ?? undefined,
    exported: r.exported > 0,
    deprecated: r.deprecated === 1,
  };
}

export function callRef(c: CallRow): Omit<CallerRef, 'confidence'> {
  return { path: c.path, line: c.line, column: c.col, enclosing: c.enclosing ?? undefined };
}

/** The last name of a qualified one: `Route` for `mux.Route` or `A::Route`. */
export function lastSegment(q: string): string {
  // A scan rather than split(/::|\./): it runs for every binding and call a query judges, and a split
  // builds an array of every segment each time.
  let start = 0;
  for (let i = 0; i < q.length; i++) {
    const ch = q.charCodeAt(i);
    if (ch === 46 /* . */) start = i + 1;
    else if (ch === 58 /* : */ && q.charCodeAt(i + 1) === 58) start = ++i + 1;
  }
  return start === 0 ? q : q.slice(start);
}
