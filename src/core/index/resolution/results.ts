import { all } from '../../store/sqlite';
import { ELEMENTS, METHOD_OF } from '../facts';
import { lastSegment } from '../indexRows';
import type { IndexState } from '../indexState';
import { BUILTIN_RESULTS } from '../methodNames';
import { phpOwnedResult } from '../resultCalls';
import { JS_LANGS, type Family } from './query';

/**
 * The type a Go (or, with `js`, a JavaScript and TypeScript) function or method named `name` returns, when every definition of the name agrees;
 * null when the workspace defines it without one type (the receiver stays unknown); undefined when
 * the workspace does not define it at all (a library's function, whose result is no workspace type).
 */
export function resultType(
  state: IndexState,
  name: string,
  cache: Map<string, string | null | undefined>,
  family: Family,
): string | null | undefined {
  if (cache.has(name)) return cache.get(name);
  // A built-in's result (`rows.filter(…)`) is no workspace type, even where the workspace defines a `filter`.
  if (family === 'js' && BUILTIN_RESULTS.has(name)) return undefined;
  // PHP: a method of a class the code names (`ContainerBuilder#getDefinition`): a library's gives no workspace type.
  if (family === 'php' && name.includes(METHOD_OF)) {
    const owned = phpOwnedResult(state.db, state.heritage(), name);
    const type = owned ? owned.type : undefined;
    cache.set(name, type);
    return type;
  }
  // PHP: what iterating the result of `name` gives (`getRequires[]`): the elements of the array it returns.
  const element = family === 'php' && name.endsWith(ELEMENTS);
  const base = element ? name.slice(0, -ELEMENTS.length) : name;
  const rows = all<{ returns: string | null }>(
    state.db,
    `SELECT s.returns AS returns FROM symbols s JOIN files f ON f.id = s.file WHERE s.name = ? AND s.kind IN ('function', 'method') AND f.lang IN ${family === 'js' ? JS_LANGS : `('${family}')`}`,
    [base],
  );
  if (element)
    for (const r of rows) r.returns = r.returns?.endsWith(ELEMENTS) ? r.returns.slice(0, -ELEMENTS.length) : null;
  const types = new Set(rows.map((r) => (r.returns === null ? null : lastSegment(r.returns))));
  const type = !rows.length ? undefined : types.size === 1 && !types.has(null) ? rows[0].returns : null;
  cache.set(name, type);
  return type;
}
