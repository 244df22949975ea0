import { all, type Database } from '../store/sqlite';
import { ELEMENTS, METHOD_OF, RESULT_OF, resultSpec, TYPED_RECEIVER } from './facts';
import { MAX_FAMILY, methodHolder, type Heritage } from './heritage';
import { CALL_COLS, CALLS, callRef, type CallRow, type SymbolRow } from './indexRows';
import type { CallerConfidence, CallerRef } from './indexTypes';
import { BUILTIN_RESULTS } from './methodNames';

/** Most producers of call results (`f` in `f().m()`) whose return types are looked at for one method. */
const MAX_PRODUCERS = 500;
/** Most calls on call results looked at for one method. */
const MAX_RESULT_CALLS = 2000;

export interface ResultCallsQuery {
  db: Database;
  heritage: Heritage;
  /** The languages searched, as an SQL list (`('php')`). */
  langs: string;
  family: 'js' | 'php';
  def: SymbolRow;
  found: readonly CallerRef[];
  onlyFile: string | undefined;
  /** The method's family: its class's bases, interfaces and subclasses that have the method. */
  related: ReadonlySet<string>;
  /** Whether `file` names the method's very class `type` (not another of the same name). */
  named: (file: string, type: string) => boolean;
  /**
   * Whether `file` can call the function `producer` defined at `path`; undefined when every function
   * is callable from everywhere (PHP's global functions).
   */
  bindsFunction?: (file: string, def: { path: string; name: string; exported: number }) => boolean;
}

/**
 * `f().m()` and `a.f(…).m()` anywhere in the workspace, where every definition of `f` says it
 * returns a type that may have this method `m` and each such type is the method's class or one of
 * its family: a builder chain (`qb.where(…).execute()`) in a file that never names the builder,
 * `$this->getFactory()->m()`, or `$x->m()` after `$x = $loader->load()`.
 * Resolved only where a definition that returns the class is in a file that names this very class
 * (`named`), not another of the same name.
 */
export function callsOnResults(q: ResultCallsQuery): CallerRef[] {
  const rows = resultCallRows(q);
  if (!rows.length) return [];
  // JavaScript's own methods (`filter`, `map`) return no workspace type, whatever the workspace defines.
  const producers = [...new Set(rows.map((r) => resultSpec(r.qualifier!.slice(RESULT_PREFIX.length)).producer))]
    .filter((p) => !(q.family === 'js' && BUILTIN_RESULTS.has(p)))
    .slice(0, MAX_PRODUCERS);
  const facts = producerFacts(q, producers);
  const verdict = producerVerdicts(q, facts);
  const seen = new Set(q.found.map((r) => `${r.path}:${r.line}:${r.column}`));
  const out: CallerRef[] = [];
  const reaches = (file: string, producer: string) => {
    const defs = facts.functions.get(producer);
    if (!defs || facts.methods.has(producer) || !q.bindsFunction) return true;
    return defs.some((d) => q.bindsFunction!(file, d));
  };
  for (const c of rows) {
    const producer = resultSpec(c.qualifier!.slice(RESULT_PREFIX.length)).producer;
    const confidence = verdict.get(producer);
    if (confidence && !seen.has(`${c.path}:${c.line}:${c.col}`) && reaches(c.path, producer))
      out.push({ ...callRef(c), confidence, resultOf: producer });
  }
  return out;
}

const RESULT_PREFIX = `${TYPED_RECEIVER}${RESULT_OF}`;

/** The calls of the method on a call's result (`f().m()`), in the languages searched. */
function resultCallRows(q: ResultCallsQuery): CallRow[] {
  const { db, langs, def } = q;
  const prefix = RESULT_PREFIX;
  return q.onlyFile === undefined
    ? all<CallRow>(
        db,
        `SELECT ${CALL_COLS} FROM ${CALLS} WHERE c.name = ? AND c.qualifier >= ? AND c.qualifier < ? AND f.lang IN ${langs} LIMIT ${MAX_RESULT_CALLS}`,
        [def.name, prefix, `${prefix}\uffff`],
      )
    : all<CallRow>(
        db,
        `SELECT ${CALL_COLS} FROM ${CALLS} WHERE c.name = ? AND c.qualifier >= ? AND c.qualifier < ? AND f.lang IN ${langs} AND f.path = ?`,
        [def.name, prefix, `${prefix}\uffff`, q.onlyFile],
      );
}

type ProducerDefinition = { name: string; returns: string | null; kind: string; path: string; exported: number };

/** What the definitions of the producers say of their results. */
interface ProducerFacts {
  /** What each producer returns, by every definition of its name; null when one says nothing. */
  returns: Map<string, Set<string> | null>;
  /** Producers that are only functions: a call of one is the workspace's only where the file can name it. */
  functions: Map<string, Array<{ path: string; name: string; exported: number }>>;
  methods: Set<string>;
  /** Producers with a definition that returns the method's class in a file that names this class. */
  home: Set<string>;
}

// A producer may be what iterating a result gives (`getRequires[]`): its definitions are the name's.
const nameOf = (p: string) => (p.endsWith(ELEMENTS) ? p.slice(0, -ELEMENTS.length) : p);

function producerFacts(q: ResultCallsQuery, producers: readonly string[]): ProducerFacts {
  const { db, def } = q;
  const facts: ProducerFacts = { returns: new Map(), functions: new Map(), methods: new Set(), home: new Set() };
  const { returns, functions, methods, home } = facts;
  // PHP: a method of a class the code names (`ContainerBuilder#getDefinition`): that class's, or a base's.
  for (const producer of producers) {
    if (!producer.includes(METHOD_OF)) continue;
    methods.add(producer);
    const r = phpOwnedResult(db, q.heritage, producer);
    if (!r) continue;
    returns.set(producer, r.type === null ? null : new Set([r.type]));
    if (r.type !== null && r.type === def.container && q.named(r.path, r.type)) home.add(producer);
  }
  const byName = definitionsByName(q, [...new Set(producers.filter((p) => !p.includes(METHOD_OF)).map(nameOf))]);
  for (const producer of producers) {
    if (producer.includes(METHOD_OF)) continue;
    const element = producer.endsWith(ELEMENTS);
    for (const d of byName.get(nameOf(producer)) ?? []) {
      if (d.kind === 'function') {
        const list = functions.get(producer);
        if (!list) functions.set(producer, [d]);
        else list.push(d);
      } else methods.add(producer);
      // Iterating a result gives its elements (`Link[]`); a result that is no such array, something unread.
      const type =
        d.returns === null
          ? null
          : !element
            ? d.returns
            : d.returns.endsWith(ELEMENTS)
              ? d.returns.slice(0, -ELEMENTS.length)
              : null;
      if (type !== null && type === def.container && q.named(d.path, type)) home.add(producer);
      const types = returns.get(producer);
      if (types === null) continue;
      if (type === null) returns.set(producer, null);
      else if (types) types.add(type);
      else returns.set(producer, new Set([type]));
    }
  }
  return facts;
}

/** Every function and method definition of the names, by name, read in chunks. */
function definitionsByName(q: ResultCallsQuery, names: readonly string[]): Map<string, ProducerDefinition[]> {
  const byName = new Map<string, ProducerDefinition[]>();
  for (let i = 0; i < names.length; i += 500) {
    const chunk = names.slice(i, i + 500);
    const defs = all<ProducerDefinition>(
      q.db,
      `SELECT s.name AS name, s.returns AS returns, s.kind AS kind, f.path AS path, s.exported AS exported FROM symbols s JOIN files f ON f.id = s.file WHERE s.name IN (${chunk.map(() => '?').join(',')}) AND s.kind IN ('function', 'method') AND f.lang IN ${q.langs}`,
      chunk,
    );
    for (const d of defs) {
      const list = byName.get(d.name);
      if (!list) byName.set(d.name, [d]);
      else list.push(d);
    }
  }
  return byName;
}

/** Producers whose every possible result type is the method's class or family: how surely their calls reach it. */
function producerVerdicts(q: ResultCallsQuery, facts: ProducerFacts): Map<string, CallerConfidence | undefined> {
  const { def } = q;
  const ours = (t: string) => t === def.container || q.related.has(t);
  const mayHaveAny = methodHolder(q.db, q.heritage, def.name, q.langs, q.family);
  const verdict = new Map<string, CallerConfidence | undefined>();
  for (const [producer, types] of facts.returns) {
    if (!types) continue;
    // A type that has no method of this name (a shape, an interface without it) is not what the call is on.
    const possible = [...types].filter((t) => ours(t) || mayHaveAny(t));
    if (possible.length && possible.every(ours))
      verdict.set(
        producer,
        possible.length === 1 && possible[0] === def.container && facts.home.has(producer) ? 'resolved' : 'likely',
      );
  }
  return verdict;
}

/**
 * PHP: what the method of `Owner#method` returns, from the class or the nearest base that defines it
 * (null when it declares nothing, or its definitions disagree), with that definition's file;
 * undefined when neither the class nor a base in the workspace defines it (a library's).
 */
export function phpOwnedResult(
  db: Database,
  heritage: Heritage,
  spec: string,
): { type: string | null; path: string } | undefined {
  const at = spec.indexOf(METHOD_OF);
  const owner = spec.slice(0, at);
  const method = spec.slice(at + METHOD_OF.length);
  const seen = new Set([owner]);
  const queue = [owner];
  for (let i = 0; i < queue.length && i < MAX_FAMILY; i++) {
    const rows = all<{ returns: string | null; path: string }>(
      db,
      "SELECT s.returns AS returns, f.path AS path FROM symbols s JOIN files f ON f.id = s.file WHERE s.container = ? AND s.name = ? AND s.kind = 'method' AND f.lang = 'php' LIMIT 8",
      [queue[i], method],
    );
    if (rows.length)
      return { type: rows.every((r) => r.returns === rows[0].returns) ? rows[0].returns : null, path: rows[0].path };
    for (const s of heritage.supersOf('php', queue[i])) {
      if (seen.has(s)) continue;
      seen.add(s);
      queue.push(s);
    }
  }
  return undefined;
}
