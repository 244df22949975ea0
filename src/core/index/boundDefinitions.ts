import { all, type Database } from '../store/sqlite';
import type { ImportGraph } from './importGraph';

/** Most files a name is followed through (imports, then re-exports, `export *` included). */
const MAX_STEPS = 32;

/**
 * The kinds of the top-level definitions a JavaScript or TypeScript file's name stands for: one it
 * declares, or one it imports, followed through re-exports and `export *` to the file that defines
 * it. `ns.Name` reads `Name` from the module `ns` is bound to. `['module']` for a whole module
 * (`import * as ns`); undefined when the name is not found (a local variable, a library's name).
 */
export function boundKinds(db: Database, graph: ImportGraph, file: string, name: string): string[] | undefined {
  const dot = name.indexOf('.');
  const head = dot < 0 ? name : name.slice(0, dot);
  const rest = dot < 0 ? undefined : name.slice(dot + 1);
  if (rest?.includes('.')) return undefined;
  const own = kindsIn(db, file, head);
  if (own.length) return rest === undefined ? own : undefined;
  let found: Array<{ file: string; name: string }> = [];
  graph.forEachImport(file, (target, names) => {
    for (const n of names) if (!n.reexport && n.local === head) found.push({ file: target, name: n.name });
  });
  if (found.length !== 1) return undefined;
  if (found[0].name === '*') {
    if (rest === undefined) return ['module'];
    found = [{ file: found[0].file, name: rest }];
  } else if (rest !== undefined) return undefined;
  return definitionKinds(db, graph, found[0].file, found[0].name);
}

/** What `name` exported from `file` is, following re-exports breadth first. */
function definitionKinds(db: Database, graph: ImportGraph, file: string, name: string): string[] | undefined {
  const queue = [{ file, name }];
  const seen = new Set([`${file}\0${name}`]);
  for (let i = 0; i < queue.length && i < MAX_STEPS; i++) {
    const at = queue[i];
    const kinds = kindsIn(db, at.file, at.name);
    if (kinds.length) return kinds;
    graph.forEachImport(at.file, (target, names) => {
      for (const n of names) {
        if (!n.reexport) continue;
        const next = n.local === at.name && n.name !== '*' ? n.name : n.name === '*' && n.local === '*' ? at.name : undefined;
        if (next === undefined || seen.has(`${target}\0${next}`)) continue;
        seen.add(`${target}\0${next}`);
        queue.push({ file: target, name: next });
      }
    });
  }
  return undefined;
}

function kindsIn(db: Database, file: string, name: string): string[] {
  return all<{ kind: string }>(db, 'SELECT DISTINCT s.kind AS kind FROM symbols s JOIN files f ON f.id = s.file WHERE f.path = ? AND s.name = ? AND s.container IS NULL', [file, name]).map((r) => r.kind);
}
