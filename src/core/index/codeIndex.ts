import type { CoreConfig } from '../config';
import type { Logger } from '../logger';
import { nullLogger } from '../logger';
import { all, one } from '../store/sqlite';
import type { Store } from '../store/store';
import { CallResolver } from './callResolution';
import { GenerationMemo } from './generationMemo';
import { IndexBuilder, LAST_BUILD_KEY } from './indexBuilder';
import { CALL_COLS, CALLS, callRef, SYMBOL_COLS, SYMBOLS, toSymbol, type CallRow, type SymbolRow } from './indexRows';
import type { ImportGraph } from './importGraph';
import { IndexState } from './indexState';
import type {
  BuildOptions,
  BuildStats,
  CallerConfidence,
  CallerRef,
  DeprecatedUse,
  IndexedSymbol,
  UpdateResult,
} from './indexTypes';

// The index's door: its types are reached through it.
export type * from './indexTypes';

const RANK: Record<CallerConfidence, number> = { resolved: 0, likely: 1, name: 2 };
/** A lookup of one file's imports uses an index; one of its importers scans every import row (about 250 times dearer). */
const IMPORTS_LOOKUP_COST = 1;
const IMPORTERS_LOOKUP_COST = 250;
/** Lookups past this cost read the whole import graph instead: about what reading it costs. */
const GRAPH_LOOKUP_BUDGET = 2000;
/** Files whose deprecated uses are kept. */
const MAX_DEPRECATED_FILES = 64;
/** Call sites kept over all callers answers; names whose definition files are counted. */
const MAX_KEPT_CALLERS = 20_000;
const MAX_COUNTED_NAMES = 1024;

/**
 * The multi-language code index: definitions, call sites and imports of every code file, kept in
 * the store's index database and updated file by file when content changes.
 */
export class CodeIndex {
  private readonly state: IndexState;
  private readonly builder: IndexBuilder;
  private readonly resolution: CallResolver;
  /** Deprecated uses by file, while the index stays the same. */
  private readonly deprecatedUses = new GenerationMemo<DeprecatedUse[]>(MAX_DEPRECATED_FILES);
  /**
   * Callers by definition, and how many files define a name, while the index stays the same: every
   * cursor stop inside a function asks for its callers again (and a held key passes it twice).
   */
  private readonly callerAnswers = new GenerationMemo<CallerRef[]>(MAX_KEPT_CALLERS, (c) => Math.max(1, c.length));
  private readonly definitionFiles = new GenerationMemo<number>(MAX_COUNTED_NAMES);
  /** What single import lookups have cost since the graph was last in memory. */
  private lookupCost = 0;

  /** `gitAllowed`: false while git may not run (the workspace is then listed by walking it). */
  constructor(store: Store, root: string, config: CoreConfig, logger: Logger = nullLogger, gitAllowed?: () => boolean) {
    this.state = new IndexState(store, root);
    this.builder = new IndexBuilder(this.state, store, config, logger, gitAllowed);
    this.resolution = new CallResolver(this.state);
  }

  /** Indexes the workspace in the background: never blocks for long, reports progress, can be cancelled. */
  build(options: BuildOptions = {}): Promise<BuildStats> {
    return this.builder.build(options);
  }

  /** Re-indexes one file after a save or external change; removes it when it no longer exists. */
  updateFile(path: string): Promise<UpdateResult> {
    return this.builder.updateFile(path);
  }

  /** Re-reads the files under a folder the watcher reported alone (created or removed at once). */
  syncFolder(folder: string, signal?: AbortSignal): Promise<{ updated: number; removed: number }> {
    return this.builder.syncFolder(folder, signal);
  }

  /** Drops a file (deleted or renamed away) from the index. */
  removeFile(path: string): void {
    this.builder.removeFile(path);
  }

  /** Reads the import graph in slices before the first callers query would read it in one step (IndexState.readGraphAhead). */
  readGraphAhead(): Promise<void> {
    return this.state.readGraphAhead();
  }

  /** Settles when the import graph being read ahead is in memory (or the read was given up). */
  graphRead(): Promise<void> {
    return this.state.graphRead();
  }

  /** The workspace's code files, known from the scan on, before the build has indexed them. */
  workspaceFiles(): string[] {
    return this.state.workspaceFiles();
  }

  /** Stops the parse workers (they also stop by themselves when idle). */
  dispose(): void {
    this.builder.dispose();
  }

  /** The innermost definition whose lines contain `line` (1-based). */
  symbolAt(path: string, line: number): IndexedSymbol | undefined {
    const rel = this.state.rel(path);
    if (rel === undefined) return undefined;
    const row = one<SymbolRow>(
      this.state.db,
      `SELECT ${SYMBOL_COLS} FROM ${SYMBOLS} WHERE f.path = ? AND s.start_line <= ? AND s.end_line >= ? ORDER BY (s.end_line - s.start_line) ASC, s.start_line DESC LIMIT 1`,
      [rel, line, line],
    );
    return row && toSymbol(row);
  }

  /** Every definition of a name, exported ones first. */
  definitions(name: string): IndexedSymbol[] {
    return all<SymbolRow>(
      this.state.db,
      `SELECT ${SYMBOL_COLS} FROM ${SYMBOLS} WHERE s.name = ? ORDER BY s.exported DESC, f.path, s.start_line`,
      [name],
    ).map(toSymbol);
  }

  /** The class a Python `__init__` or a JavaScript `constructor` belongs to, defined in the same file. */
  private classOfConstructor(def: SymbolRow): SymbolRow | undefined {
    if (def.kind !== 'method' || !def.container || (def.name !== '__init__' && def.name !== 'constructor'))
      return undefined;
    const rows = all<SymbolRow>(
      this.state.db,
      `SELECT ${SYMBOL_COLS} FROM ${SYMBOLS} WHERE s.name = ? AND f.path = ? AND s.kind IN ('class', 'component') AND s.start_line <= ? AND s.end_line >= ?`,
      [def.container, def.path, def.start_line, def.end_line],
    );
    return rows[0];
  }

  /** How many files define a name: `build` in every validator of a crate says little about one of them. */
  definitionFileCount(name: string): number {
    return this.definitionFiles.get(
      this.resolution.generation(),
      name,
      () =>
        one<{ n: number }>(this.state.db, 'SELECT count(DISTINCT file) AS n FROM symbols WHERE name = ?', [name])?.n ??
        0,
    );
  }

  symbolsIn(path: string): IndexedSymbol[] {
    const rel = this.state.rel(path);
    if (rel === undefined) return [];
    return all<SymbolRow>(
      this.state.db,
      `SELECT ${SYMBOL_COLS} FROM ${SYMBOLS} WHERE f.path = ? ORDER BY s.start_line, s.end_line DESC`,
      [rel],
    ).map(toSymbol);
  }

  /**
   * Call sites of a function, method or class (constructions), best evidence first; see
   * CallerConfidence. With `path`, only definitions in that file count; with `path` and `line`, only
   * the innermost definition of that name around the line (a file may define `create` in ten classes).
   */
  callers(target: { name: string; path?: string; line?: number }, limit = 200): CallerRef[] {
    const rel = target.path === undefined ? undefined : this.state.rel(target.path);
    let defs =
      rel === undefined
        ? all<SymbolRow>(this.state.db, `SELECT ${SYMBOL_COLS} FROM ${SYMBOLS} WHERE s.name = ?`, [target.name])
        : all<SymbolRow>(
            this.state.db,
            `SELECT ${SYMBOL_COLS} FROM ${SYMBOLS} WHERE s.name = ? AND f.path = ? ORDER BY (s.end_line - s.start_line)`,
            [target.name, rel],
          );
    if (rel !== undefined && target.line !== undefined) {
      const line = target.line;
      const around = defs.find((d) => d.start_line <= line && d.end_line >= line);
      if (around) defs = [around];
    }
    if (!defs.length && rel !== undefined) {
      defs = [
        {
          path: rel,
          name: target.name,
          kind: 'function',
          start_line: 0,
          end_line: 0,
          container: null,
          exported: 1,
          deprecated: 0,
        },
      ];
    }
    // A constructor (`__init__`, `constructor`) is called by constructing its class: `Rule(…)`, `new Rule(…)`.
    defs = defs.map((d) => this.classOfConstructor(d) ?? d);
    // By the definitions asked about, not the line: every line of a function has the same callers.
    const key = [
      limit,
      target.name,
      ...defs.map((d) => [d.path, d.kind, d.name, d.container, d.start_line, d.end_line, d.exported].join('\0')),
    ].join('\0');
    return [
      ...this.callerAnswers.get(this.resolution.generation(), key, () => this.callersOf(defs, target.name, limit)),
    ];
  }

  private callersOf(defs: readonly SymbolRow[], name: string, limit: number): CallerRef[] {
    const found = new Map<string, CallerRef>();
    for (const def of defs) {
      for (const ref of this.resolution.callsTo(def)) keepBest(found, ref);
    }
    if (!found.size) {
      for (const c of all<CallRow>(
        this.state.db,
        `SELECT ${CALL_COLS} FROM ${CALLS} WHERE c.name = ? ORDER BY f.path, c.line LIMIT ?`,
        [name, limit],
      )) {
        keepBest(found, { ...callRef(c), confidence: 'name' });
      }
    }
    return [...found.values()]
      .sort(
        (a, b) =>
          RANK[a.confidence] - RANK[b.confidence] ||
          (a.path < b.path ? -1 : a.path > b.path ? 1 : a.line - b.line || a.column - b.column),
      )
      .slice(0, limit);
  }

  /**
   * What a file is about in words: the names it defines, the names it calls, and the specifiers of
   * imports that leave the workspace (packages such as `swr`, `knex`, `@emotion/react`).
   */
  vocabularyOf(path: string): { definitions: string[]; calls: string[]; packages: string[] } | undefined {
    const rel = this.state.rel(path);
    if (rel === undefined) return undefined;
    const rows = all<{ k: string; n: string }>(
      this.state.db,
      "WITH f AS (SELECT id FROM files WHERE path = ?) SELECT 'f' AS k, '' AS n FROM f " +
        "UNION ALL SELECT 'd', s.name FROM symbols s, f WHERE s.file = f.id " +
        "UNION ALL SELECT 'c', c.name FROM calls c, f WHERE c.file = f.id " +
        // Library and runtime calls are kept by name only: they say what a file is about just as well.
        "UNION ALL SELECT 'c', u.name FROM unresolved_calls u, f WHERE u.file = f.id " +
        "UNION ALL SELECT 'p', i.spec FROM imports i, f WHERE i.file = f.id AND i.resolved IS NULL",
      [rel],
    );
    if (!rows.length) return undefined;
    const sets = { d: new Set<string>(), c: new Set<string>(), p: new Set<string>() };
    for (const r of rows) if (r.k !== 'f') sets[r.k as 'd' | 'c' | 'p'].add(r.n);
    return { definitions: [...sets.d], calls: [...sets.c], packages: [...sets.p] };
  }

  /**
   * For each indexed file that defines, imports or calls anything: the names it defines and the packages it
   * imports (blank for a skipped file), for word statistics, and every name it uses (defines, imports or
   * calls, skipped files too), for how many files share a word.
   */
  vocabularyByFile(
    skip?: (path: string) => boolean,
  ): { path: string; names: string; packages: string; uses: string }[] {
    const byFile = new Map<number, { path: string; names: string; packages: string; uses: string }>();
    const skipped = new Set<number>();
    const paths = new Map<number, string>();
    for (const r of all<{ id: number; path: string }>(this.state.db, 'SELECT id, path FROM files')) {
      paths.set(Number(r.id), r.path);
      if (skip?.(r.path)) skipped.add(Number(r.id));
    }
    const entry = (file: number) =>
      byFile.get(file) ??
      byFile.set(file, { path: paths.get(file) ?? '', names: '', packages: '', uses: '' }).get(file)!;
    const use = (file: number, v: string | null) => {
      const e = entry(file);
      if (v) e.uses = e.uses ? `${e.uses} ${v}` : v;
      return e;
    };
    // Grouped scans instead of a sub-query per file: the same rows, a fraction of the time.
    for (const r of all<{ file: number; v: string | null }>(
      this.state.db,
      "SELECT file, group_concat(name, ' ') AS v FROM symbols GROUP BY file",
    )) {
      const e = use(Number(r.file), r.v);
      if (!skipped.has(Number(r.file))) e.names = r.v ?? '';
    }
    for (const r of all<{ file: number; v: string | null }>(
      this.state.db,
      "SELECT file, group_concat(spec, ' ') AS v FROM imports WHERE resolved IS NULL GROUP BY file",
    )) {
      const e = use(Number(r.file), r.v);
      if (!skipped.has(Number(r.file))) e.packages = r.v ?? '';
    }
    for (const table of ['calls', 'unresolved_calls'])
      for (const r of all<{ file: number; v: string | null }>(
        this.state.db,
        `SELECT file, group_concat(DISTINCT name) AS v FROM ${table} GROUP BY file`,
      ))
        use(Number(r.file), r.v?.replaceAll(',', ' ') ?? null);
    return [...byFile.values()];
  }

  /** Workspace files this file imports. */
  importsOf(path: string): string[] {
    const rel = this.state.rel(path);
    if (rel === undefined) return [];
    const graph = this.graphOrLookup(IMPORTS_LOOKUP_COST);
    const targets = graph
      ? graph.targetsOf(rel)
      : all<{ v: string }>(
          this.state.db,
          'SELECT DISTINCT i.resolved AS v FROM imports i JOIN files f ON f.id = i.file WHERE f.path = ? AND i.resolved IS NOT NULL',
          [rel],
        ).map((r) => r.v);
    return targets.filter((t) => t !== rel).sort();
  }

  /** Workspace files that import this file. */
  importersOf(path: string): string[] {
    const rel = this.state.rel(path);
    if (rel === undefined) return [];
    const out = new Set<string>();
    const graph = this.graphOrLookup(IMPORTERS_LOOKUP_COST);
    if (!graph) {
      for (const r of all<{ v: string }>(
        this.state.db,
        'SELECT DISTINCT f.path AS v FROM imports i JOIN files f ON f.id = i.file WHERE i.resolved = ?',
        [rel],
      ))
        if (r.v !== rel) out.add(r.v);
      return [...out].sort();
    }
    graph.forEachImporter(rel, (importer) => {
      if (importer !== rel) out.add(importer);
    });
    return [...out].sort();
  }

  /**
   * The import graph when it is in memory or lookups have cost enough to read it whole; undefined
   * while single lookups are cheaper. Reading the graph takes most of a second on a large
   * repository: a one-shot process asking about one file answers from a few lookups instead, and
   * a long-lived one reads the graph after its first queries.
   */
  private graphOrLookup(cost: number): ImportGraph | undefined {
    const loaded = this.state.loadedGraph();
    if (loaded) return loaded;
    this.lookupCost += cost;
    return this.lookupCost > GRAPH_LOOKUP_BUDGET ? this.state.graph() : undefined;
  }

  /**
   * Calls in a file to definitions marked deprecated, resolved by the same rules as callers(). Kept
   * per file while the index stays the same: every cursor stop in the file asks again.
   */
  deprecatedUsedIn(path: string): DeprecatedUse[] {
    const rel = this.state.rel(path);
    if (rel === undefined) return [];
    // The names the file calls are part of the kept answer: a file that calls nothing deprecated,
    // most files, asks SQLite nothing on its next stops either.
    return [
      ...this.deprecatedUses.get(this.resolution.generation(), rel, () => {
        const defs = this.deprecatedCalledIn(rel);
        return defs.length ? this.usesOfDeprecated(rel, defs) : [];
      }),
    ];
  }

  /** The definitions marked deprecated whose name a file calls. */
  private deprecatedCalledIn(rel: string): SymbolRow[] {
    const names = all<{ name: string }>(
      this.state.db,
      'SELECT DISTINCT c.name AS name FROM calls c JOIN files f ON f.id = c.file WHERE f.path = ?',
      [rel],
    ).map((r) => r.name);
    const defs: SymbolRow[] = [];
    for (let i = 0; i < names.length; i += 500) {
      const chunk = names.slice(i, i + 500);
      defs.push(
        ...all<SymbolRow>(
          this.state.db,
          `SELECT ${SYMBOL_COLS} FROM ${SYMBOLS} WHERE s.deprecated = 1 AND s.name IN (${chunk.map(() => '?').join(',')})`,
          chunk,
        ),
      );
    }
    return defs;
  }

  private usesOfDeprecated(rel: string, defs: readonly SymbolRow[]): DeprecatedUse[] {
    const out = new Map<string, DeprecatedUse>();
    const alsoCurrent = new Map<string, boolean>();
    // `x.Descriptor()` on an instance may be any Descriptor: when another definition of the name is
    // not deprecated (generated protobuf types deprecate theirs, the workspace's own types do not), only a resolved call warns.
    const ambiguous = (name: string) => {
      let v = alsoCurrent.get(name);
      if (v === undefined)
        alsoCurrent.set(
          name,
          (v = !!one<{ n: number }>(
            this.state.db,
            'SELECT 1 AS n FROM symbols WHERE name = ? AND deprecated = 0 LIMIT 1',
            [name],
          )),
        );
      return v;
    };
    // Inside a definition that is deprecated itself (the old API calling the older one, or itself), a use is expected.
    const retired = all<{ start_line: number; end_line: number }>(
      this.state.db,
      'SELECT s.start_line, s.end_line FROM symbols s JOIN files f ON f.id = s.file WHERE f.path = ? AND s.deprecated = 1',
      [rel],
    );
    const inRetired = (line: number) => retired.some((r) => r.start_line <= line && line <= r.end_line);
    for (const def of defs) {
      for (const ref of this.resolution.callsTo(def, rel)) {
        if (ref.confidence === 'name' || (ref.confidence === 'likely' && ambiguous(def.name)) || inRetired(ref.line))
          continue;
        const key = `${ref.line}:${ref.column}`;
        const prev = out.get(key);
        if (prev && RANK[prev.confidence] <= RANK[ref.confidence]) continue;
        out.set(key, {
          name: def.name,
          line: ref.line,
          column: ref.column,
          enclosing: ref.enclosing,
          confidence: ref.confidence,
          definition: {
            path: def.path,
            line: def.start_line,
            endLine: def.end_line,
            container: def.container ?? undefined,
          },
        });
      }
    }
    return [...out.values()].sort((a, b) => a.line - b.line || a.column - b.column);
  }

  stats(): {
    files: number;
    symbols: number;
    calls: number;
    imports: number;
    byLanguage: Record<string, number>;
    lastBuild?: BuildStats & { at: number };
  } {
    const byLanguage: Record<string, number> = {};
    for (const r of all<{ lang: string; n: number }>(
      this.state.db,
      'SELECT lang, count(*) AS n FROM files GROUP BY lang',
    ))
      byLanguage[r.lang ?? 'other'] = r.n;
    const files = Object.values(byLanguage).reduce((a, b) => a + b, 0);
    const last = one<{ value: string }>(this.state.db, 'SELECT value FROM meta WHERE key = ?', [LAST_BUILD_KEY]);
    let lastBuild: (BuildStats & { at: number }) | undefined;
    try {
      lastBuild = last ? (JSON.parse(last.value) as BuildStats & { at: number }) : undefined;
    } catch {
      lastBuild = undefined;
    }
    return { files, ...this.builder.counts(), byLanguage, lastBuild };
  }
}

function keepBest(found: Map<string, CallerRef>, ref: CallerRef): void {
  const key = `${ref.path}:${ref.line}:${ref.column}`;
  const prev = found.get(key);
  if (!prev || RANK[ref.confidence] < RANK[prev.confidence]) found.set(key, ref);
}
