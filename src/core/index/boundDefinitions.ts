import { all, type Database } from '../store/sqlite';
import { CONTAINER_KINDS, type SymbolKind } from './facts';
import type { TypeDefinition } from './heritage';
import type { ImportGraph } from './importGraph';
import type { CallerConfidence } from './indexTypes';
import type { SymbolRow } from './indexRows';

/** Most files a name is followed through (imports, then re-exports, `export *` included). */
const MAX_STEPS = 32;

/**
 * The kinds of the top-level definitions a JavaScript or TypeScript file's name stands for: one it
 * declares, or one it imports, followed through re-exports and `export *` to the file that defines
 * it. `ns.Name` reads `Name` from the module `ns` is bound to. `['module']` for a whole module
 * (`import * as ns`); undefined when the name is not found (a local variable, a library's name).
 */
export function boundKinds(db: Database, graph: ImportGraph, file: string, name: string): string[] | undefined {
  return boundDefinition(db, graph, file, name)?.kinds;
}

/** Where a file's name is defined (see boundKinds): the defining file, the name there, and its kinds. */
export function boundDefinition(
  db: Database,
  graph: ImportGraph,
  file: string,
  name: string,
): { file: string; name: string; kinds: string[] } | undefined {
  const dot = name.indexOf('.');
  const head = dot < 0 ? name : name.slice(0, dot);
  const rest = dot < 0 ? undefined : name.slice(dot + 1);
  if (rest?.includes('.')) return undefined;
  const own = kindsIn(db, file, head);
  if (own.length) return rest === undefined ? { file, name: head, kinds: own } : undefined;
  let found: Array<{ file: string; name: string }> = [];
  graph.forEachImport(file, (target, names) => {
    for (const n of names) if (!n.reexport && n.local === head) found.push({ file: target, name: n.name });
  });
  if (found.length !== 1) return undefined;
  if (found[0].name === '*') {
    if (rest === undefined) return { ...found[0], kinds: ['module'] };
    found = [{ file: found[0].file, name: rest }];
  } else if (rest !== undefined) return undefined;
  return definitionIn(db, graph, found[0].file, found[0].name);
}

/** Where `name` exported from `file` is defined, following re-exports breadth first. */
function definitionIn(
  db: Database,
  graph: ImportGraph,
  file: string,
  name: string,
): { file: string; name: string; kinds: string[] } | undefined {
  const queue = [{ file, name }];
  const seen = new Set([`${file}\0${name}`]);
  for (let i = 0; i < queue.length && i < MAX_STEPS; i++) {
    const at = queue[i];
    const kinds = kindsIn(db, at.file, at.name);
    if (kinds.length) return { ...at, kinds };
    graph.forEachImport(at.file, (target, names) => {
      for (const n of names) {
        if (!n.reexport) continue;
        const next =
          n.local === at.name && n.name !== '*' ? n.name : n.name === '*' && n.local === '*' ? at.name : undefined;
        if (next === undefined || seen.has(`${target}\0${next}`)) continue;
        seen.add(`${target}\0${next}`);
        queue.push({ file: target, name: next });
      }
    });
  }
  return undefined;
}

function kindsIn(db: Database, file: string, name: string): string[] {
  return all<{ kind: string }>(
    db,
    'SELECT DISTINCT s.kind AS kind FROM symbols s JOIN files f ON f.id = s.file WHERE f.path = ? AND s.name = ? AND s.container IS NULL',
    [file, name],
  ).map((r) => r.kind);
}

/** What the definitions of a producer that a file imports say of its result; NOT_BOUND when they say nothing. */
export interface BoundResult {
  confidence?: CallerConfidence;
  via?: string;
}
export const NOT_BOUND: BoundResult = Object.freeze({});

/** For one method's callers: what names in the calling files are bound to, each read once. */
export class BoundNames {
  private readonly classes = new Map<string, boolean>();
  private readonly results = new Map<string, BoundResult>();
  private readonly producers = new Map<string, Array<{ returns: string | null; path: string; exported: number }>>();
  private readonly types = new Map<string, BoundResult>();

  constructor(
    private readonly db: Database,
    private readonly graph: ImportGraph,
    private readonly def: SymbolRow,
    private readonly family: readonly TypeDefinition[],
    private readonly binds: (file: string, d: { path: string; name: string; exported: number }) => boolean,
  ) {}

  /** Whether `name` in `file` is a class or an enum of the workspace (and nothing else of that name). */
  namesClass(file: string, name: string): boolean {
    const key = `${file}\0${name}`;
    let v = this.classes.get(key);
    if (v === undefined) {
      const kinds = boundKinds(this.db, this.graph, file, name);
      this.classes.set(key, (v = !!kinds?.length && kinds.every((k) => k === 'class' || k === 'enum')));
    }
    return v;
  }

  /**
   * What a JavaScript or TypeScript call of the function `producer` in `file` gives the method's
   * callers, by the definitions of that name the file imports, when they agree on a type the index
   * finds: the method's own class (resolved), a class of its family (likely, through it), or another
   * type (no call of the method). NOT_BOUND when the file reaches none of them, or the type is not found.
   */
  result(producer: string, file: string): BoundResult {
    const key = `${file}\0${producer}`;
    let v = this.results.get(key);
    if (!v) {
      let rows = this.producers.get(producer);
      if (!rows) {
        rows = all<{ returns: string | null; path: string; exported: number }>(
          this.db,
          "SELECT s.returns AS returns, f.path AS path, s.exported AS exported FROM symbols s JOIN files f ON f.id = s.file WHERE s.name = ? AND s.kind = 'function' AND s.container IS NULL AND f.lang IN ('typescript', 'tsx', 'javascript') LIMIT 50",
          [producer],
        );
        this.producers.set(producer, rows);
      }
      const bound = rows.filter((r) => this.binds(file, { path: r.path, name: producer, exported: r.exported }));
      v =
        !bound.length || bound.some((r) => r.returns === null || r.returns !== bound[0].returns)
          ? NOT_BOUND
          : this.typeResult(bound[0].path, bound[0].returns!);
      this.results.set(key, v);
    }
    return v;
  }

  /** What a value of `type`, as `file` names it, is to the method's callers. */
  private typeResult(file: string, type: string): BoundResult {
    const key = `${file}\0${type}`;
    let v = this.types.get(key);
    if (!v) {
      const found = boundDefinition(this.db, this.graph, file, type);
      if (!found || !found.kinds.some((k) => CONTAINER_KINDS.includes(k as SymbolKind))) v = NOT_BOUND;
      else if (found.file === this.def.path && found.name === this.def.container) v = { confidence: 'resolved' };
      else if (this.family.some((d) => d.path === found.file && d.name === found.name))
        v = { confidence: 'likely', via: found.name };
      else v = {};
      this.types.set(key, v);
    }
    return v;
  }
}
