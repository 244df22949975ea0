import { createHash } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { CoreConfig } from '../config';
import type { Logger } from '../logger';
import { nullLogger } from '../logger';
import { toRelative } from '../paths';
import { looksBinary, scanWorkspace, type ScanCap, type ScannedFile } from '../scan/scanner';
import type { Store } from '../store/store';
import { all, one, type Database, type SqlValue } from '../store/sqlite';
import { extractFacts, type FileFacts, type ImportName, type SymbolKind } from './extract';
import { isResolutionConfig } from './packageResolver';
import { familyOf, languageOf, parserFor, type LangId } from './languages';
import { FileSet, ImportResolver, type ResolvedImport } from './resolve';

export interface IndexProgress {
  done: number;
  total: number;
}

export interface BuildOptions {
  onProgress?: (p: IndexProgress) => void;
  signal?: AbortSignal;
  /** Use this file list instead of scanning the workspace. */
  files?: readonly ScannedFile[];
}

export interface BuildStats {
  /** Code files considered. */
  files: number;
  /** Files parsed in this run (new or changed content). */
  parsed: number;
  /** Files left as they were (same content hash). */
  skipped: number;
  /** Files that could not be read or parsed. */
  failed: number;
  /** Rows in the index after the run. */
  symbols: number;
  calls: number;
  imports: number;
  ms: number;
  capped?: ScanCap;
}

export interface IndexedSymbol {
  path: string;
  name: string;
  kind: SymbolKind;
  startLine: number;
  endLine: number;
  /** The class (for methods) or the dotted TypeScript namespace (for functions inside one). */
  container?: string;
  exported: boolean;
  deprecated: boolean;
}

/**
 * How sure a caller is:
 * - `resolved`: the callee is bound to the definition through imports: named, renamed, default,
 *   namespace (`ns.f()`, also nested: `z.core.f()`), star imports, `export … from` chains and local
 *   aliases (`export { a as b }`), imports of workspace packages (package.json `exports`), Python
 *   re-imports; or it lives in the same file, the same Go/Java/C# package folder, or the same
 *   TypeScript namespace. For methods: a static call through the class name, `this.m()` in the file
 *   defining the class, or a bare call there (Java, C#).
 * - `likely`: a method call `x.m()` in a file where the method's class is in scope (defined or
 *   imported), the receiver's type unknown; receivers that name a whole module (`z.m()` with
 *   `import * as z`) are not counted.
 * - `name`: only the name matches; returned only when no resolved or likely caller exists.
 */
export type CallerConfidence = 'resolved' | 'likely' | 'name';

export interface CallerRef {
  path: string;
  line: number;
  column: number;
  enclosing?: string;
  confidence: CallerConfidence;
}

export interface DeprecatedUse {
  name: string;
  line: number;
  column: number;
  enclosing?: string;
  confidence: Exclude<CallerConfidence, 'name'>;
  definition: { path: string; line: number; endLine: number; container?: string };
}

export interface UpdateResult {
  status: 'parsed' | 'unchanged' | 'removed' | 'skipped';
  ms: number;
}

interface SymbolRow {
  path: string;
  name: string;
  kind: string;
  start_line: number;
  end_line: number;
  container: string | null;
  exported: number;
  deprecated: number;
}

interface CallRow {
  path: string;
  name: string;
  qualifier: string | null;
  line: number;
  col: number;
  enclosing: string | null;
}

/** In `file`, the definition is reachable as the expression `path` (`sum`, `m.add`, `z.core.toDotPath`). */
interface Binding {
  file: string;
  path: string;
}

interface ImportGraph {
  /** Import rows by the file they resolve to. */
  importers: Map<string, Array<{ path: string; names: ImportName[] }>>;
  /** Per importing file: names bound to whole modules. */
  modules: Map<string, Set<string>>;
  /** Per importing file: the files its rows resolve to, to drop them when it changes. */
  targets: Map<string, Set<string>>;
}

interface PendingFile {
  path: string;
  hash: string;
  lang: LangId;
  size: number;
  mtime: number;
  facts?: FileFacts;
  imports?: ResolvedImport[];
}

const RANK: Record<CallerConfidence, number> = { resolved: 0, likely: 1, name: 2 };
const SELF_RECEIVERS = new Set(['this', 'self', 'Self', 'super', 'base']);
const SLICE_MS = 12;
const READ_AHEAD = 8;
const PARSE_LIMIT_MS = 3000;
/** Minified bundles: one enormous line each, nothing a reader navigates. */
const MINIFIED = /\.min\.(js|mjs|cjs)$/;
const MAX_BINDING_STEPS = 5000;
const LAST_BUILD_KEY = 'codeIndex.lastBuild';
/** Rows of the code tables carry a file id; queries give the path back under the old column name. */
const SYMBOL_COLS = 'f.path AS path, s.name AS name, s.kind AS kind, s.start_line AS start_line, s.end_line AS end_line, s.container AS container, s.exported AS exported, s.deprecated AS deprecated';
const SYMBOLS = 'symbols s JOIN files f ON f.id = s.file';
const CALL_COLS = 'f.path AS path, c.name AS name, c.qualifier AS qualifier, c.line AS line, c.col AS col, c.enclosing AS enclosing';
const CALLS = 'calls c JOIN files f ON f.id = c.file';
const MANIFESTS_KEY = 'codeIndex.packageManifests';
/** A leading `..`, an empty, `.` or `..` segment (so also a leading `/`), a backslash or a drive colon: not already root-relative. */
const NOT_CANONICAL = /^\.\.|(^|\/)\.{0,2}(\/|$)|[\\:]/;

const yieldToLoop = () => new Promise<void>((r) => setImmediate(r));

/**
 * The multi-language code index: definitions, call sites and imports of every code file, kept in
 * the store's index database and updated file by file when content changes.
 */
export class CodeIndex {
  private fileSet: FileSet | undefined;
  private resolver: ImportResolver | undefined;
  private importGraph: ImportGraph | undefined;
  private seenDb: Database | undefined;

  constructor(
    private readonly store: Store,
    private readonly root: string,
    private readonly config: CoreConfig,
    private readonly logger: Logger = nullLogger,
  ) {}

  private get db(): Database {
    const db = this.store.index;
    if (db !== this.seenDb) {
      // The cache database was reset or replaced: what we remember about it is gone too.
      this.seenDb = db;
      this.fileSet = undefined;
      this.resolver = undefined;
      this.importGraph = undefined;
    }
    return db;
  }

  // ------------------------------------------------------------ building

  /** Indexes the workspace in the background: never blocks for long, reports progress, can be cancelled. */
  async build(options: BuildOptions = {}): Promise<BuildStats> {
    // Saving copies the whole cache: during the build, save rarely; the end of the build saves soon after.
    const release = this.store.holdIndexSaves();
    try {
      return await this.buildAll(options);
    } finally {
      release();
    }
  }

  private async buildAll(options: BuildOptions): Promise<BuildStats> {
    const started = Date.now();
    const { signal, onProgress } = options;
    let capped: ScanCap | undefined;
    let scanned = options.files;
    if (!scanned) {
      const scan = await scanWorkspace(this.root, this.config, { signal, logger: this.logger });
      scanned = scan.files;
      capped = scan.capped;
    }
    const code = scanned.filter((f) => languageOf(f.path) && !MINIFIED.test(f.path) && f.size <= this.config.index.maxFileBytes);
    const known = new Map<string, { hash: string; size: number; mtime: number }>();
    for (const r of all<{ path: string; hash: string; size: number; mtime: number }>(this.db, 'SELECT path, hash, size, mtime FROM files')) known.set(r.path, r);

    this.fileSet = new FileSet(code.map((f) => f.path));
    this.resolver = new ImportResolver(this.root, this.fileSet);
    const manifests = scanned.filter((f) => f.path === 'package.json' || f.path.endsWith('/package.json')).map((f) => f.path);
    this.resolver.setPackageManifests(manifests);
    this.db.run('INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)', [MANIFESTS_KEY, JSON.stringify(manifests)]);

    // Files gone from the workspace (unless the scan was cut short and simply did not reach them).
    if (!capped) {
      const present = new Set(code.map((f) => f.path));
      const gone = [...known.keys()].filter((p) => !present.has(p));
      if (gone.length) this.writeBatch([], gone);
    }

    const stats: BuildStats = { files: code.length, parsed: 0, skipped: 0, failed: 0, symbols: 0, calls: 0, imports: 0, ms: 0, capped };
    let batch: PendingFile[] = [];
    let sliceStart = Date.now();
    const total = code.length;
    onProgress?.({ done: 0, total });
    // Parsing gets its own budget: a scan that used up its budget still leaves time to index what it found.
    const deadline = Date.now() + this.config.index.timeBudgetMs;
    // Reads run a few files ahead so the disk works while the parser does.
    const reads = new Map<number, Promise<Buffer | undefined>>();
    const needsRead = (j: number) => {
      const prev = known.get(code[j].path);
      return !(prev && prev.size === code[j].size && prev.mtime === code[j].mtime);
    };
    const readAhead = (from: number) => {
      for (let j = from; j < Math.min(code.length, from + READ_AHEAD); j++) {
        if (!reads.has(j) && needsRead(j)) reads.set(j, readFile(join(this.root, code[j].path)).catch(() => undefined));
      }
    };
    for (let i = 0; i < code.length; i++) {
      if (Date.now() >= deadline) {
        // Out of time: keep what is done; the next build continues from the unchanged-file shortcut.
        capped = { reason: 'time', limit: this.config.index.timeBudgetMs };
        stats.capped = capped;
        this.logger.warn(`Code index stopped after ${i} of ${code.length} files: time budget of ${capped.limit} ms reached.`);
        break;
      }
      if (signal?.aborted) {
        this.writeBatch(batch);
        throw signal.reason instanceof Error ? signal.reason : new Error('Indexing was cancelled.');
      }
      const f = code[i];
      const prev = known.get(f.path);
      if (!needsRead(i)) {
        stats.skipped++;
      } else {
        readAhead(i);
        const content = reads.get(i);
        reads.delete(i);
        const entry = await this.prepare(f.path, f, prev?.hash, content);
        if (entry === 'unchanged') {
          stats.skipped++;
          batch.push({ path: f.path, hash: prev!.hash, lang: languageOf(f.path)!, size: f.size, mtime: f.mtime });
        } else if (entry) {
          stats.parsed++;
          batch.push(entry);
        } else stats.failed++;
      }
      if (Date.now() - sliceStart >= SLICE_MS || i === code.length - 1) {
        this.writeBatch(batch);
        batch = [];
        onProgress?.({ done: i + 1, total });
        await yieldToLoop();
        sliceStart = Date.now();
      }
    }
    this.writeBatch(batch);
    const counts = this.counts();
    Object.assign(stats, counts, { ms: Date.now() - started });
    this.db.run('INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)', [LAST_BUILD_KEY, JSON.stringify({ ...stats, at: Date.now() })]);
    this.store.markIndexDirty();
    this.logger.info(`Code index: ${stats.files} files (${stats.parsed} parsed, ${stats.skipped} unchanged, ${stats.failed} failed) in ${stats.ms} ms`);
    return stats;
  }

  /** Re-indexes one file after a save or external change; removes it when it no longer exists. */
  async updateFile(path: string): Promise<UpdateResult> {
    const started = performance.now();
    const rel = this.rel(path);
    const done = (status: UpdateResult['status']): UpdateResult => ({ status, ms: performance.now() - started });
    if (rel === undefined) return done('skipped');
    if (isResolutionConfig(rel) || /(^|\/)go\.mod$|(^|\/)Cargo\.toml$/.test(rel)) {
      this.resolver?.invalidateConfig();
      if (rel === 'package.json' || rel.endsWith('/package.json')) this.notePackageManifest(rel, existsSync(join(this.root, rel)));
      if (isResolutionConfig(rel)) this.reresolveScriptImports();
      return done('skipped');
    }
    const lang = languageOf(rel);
    if (!lang || MINIFIED.test(rel)) return done('skipped');
    let st;
    try {
      st = await stat(join(this.root, rel));
    } catch {
      this.removeFile(rel);
      return done('removed');
    }
    if (!st.isFile()) return done('skipped');
    if (st.size > this.config.index.maxFileBytes) {
      this.removeFile(rel);
      return done('skipped');
    }
    this.ensureResolver().files.add(rel);
    const prev = one<{ hash: string }>(this.db, 'SELECT hash FROM files WHERE path = ?', [rel]);
    const entry = await this.prepare(rel, { path: rel, size: st.size, mtime: Math.round(st.mtimeMs) }, prev?.hash);
    if (entry === 'unchanged') {
      this.db.run('UPDATE files SET size = ?, mtime = ? WHERE path = ?', [st.size, Math.round(st.mtimeMs), rel]);
      this.store.markIndexDirty();
      return done('unchanged');
    }
    if (!entry) {
      this.removeFile(rel);
      return done('skipped');
    }
    this.writeBatch([entry]);
    this.store.markIndexDirty();
    return done('parsed');
  }

  /** Drops a file (deleted or renamed away) from the index. */
  removeFile(path: string): void {
    const rel = this.rel(path);
    if (rel === undefined) return;
    this.fileSet?.delete(rel);
    this.writeBatch([], [rel]);
    this.store.markIndexDirty();
  }

  // ------------------------------------------------------------ queries

  /** The innermost definition whose lines contain `line` (1-based). */
  symbolAt(path: string, line: number): IndexedSymbol | undefined {
    const rel = this.rel(path);
    if (rel === undefined) return undefined;
    const row = one<SymbolRow>(
      this.db,
      `SELECT ${SYMBOL_COLS} FROM ${SYMBOLS} WHERE f.path = ? AND s.start_line <= ? AND s.end_line >= ? ORDER BY (s.end_line - s.start_line) ASC, s.start_line DESC LIMIT 1`,
      [rel, line, line],
    );
    return row && toSymbol(row);
  }

  /** Every definition of a name, exported ones first. */
  definitions(name: string): IndexedSymbol[] {
    return all<SymbolRow>(this.db, `SELECT ${SYMBOL_COLS} FROM ${SYMBOLS} WHERE s.name = ? ORDER BY s.exported DESC, f.path, s.start_line`, [name]).map(toSymbol);
  }

  symbolsIn(path: string): IndexedSymbol[] {
    const rel = this.rel(path);
    if (rel === undefined) return [];
    return all<SymbolRow>(this.db, `SELECT ${SYMBOL_COLS} FROM ${SYMBOLS} WHERE f.path = ? ORDER BY s.start_line, s.end_line DESC`, [rel]).map(toSymbol);
  }

  /**
   * Call sites of a function, method or class (constructions), best evidence first; see
   * CallerConfidence. With `path`, only definitions in that file count; with `path` and `line`, only
   * the innermost definition of that name around the line (a file may define `create` in ten classes).
   */
  callers(target: { name: string; path?: string; line?: number }, limit = 200): CallerRef[] {
    const rel = target.path === undefined ? undefined : this.rel(target.path);
    let defs = rel === undefined
      ? all<SymbolRow>(this.db, `SELECT ${SYMBOL_COLS} FROM ${SYMBOLS} WHERE s.name = ?`, [target.name])
      : all<SymbolRow>(this.db, `SELECT ${SYMBOL_COLS} FROM ${SYMBOLS} WHERE s.name = ? AND f.path = ? ORDER BY (s.end_line - s.start_line)`, [target.name, rel]);
    if (rel !== undefined && target.line !== undefined) {
      const line = target.line;
      const around = defs.find((d) => d.start_line <= line && d.end_line >= line);
      if (around) defs = [around];
    }
    if (!defs.length && rel !== undefined) {
      defs = [{ path: rel, name: target.name, kind: 'function', start_line: 0, end_line: 0, container: null, exported: 1, deprecated: 0 }];
    }
    const found = new Map<string, CallerRef>();
    for (const def of defs) {
      for (const ref of this.callsTo(def)) keepBest(found, ref);
    }
    if (!found.size) {
      for (const c of all<CallRow>(this.db, `SELECT ${CALL_COLS} FROM ${CALLS} WHERE c.name = ? ORDER BY f.path, c.line LIMIT ?`, [target.name, limit])) {
        keepBest(found, { ...callRef(c), confidence: 'name' });
      }
    }
    return [...found.values()]
      .sort((a, b) => RANK[a.confidence] - RANK[b.confidence] || (a.path < b.path ? -1 : a.path > b.path ? 1 : a.line - b.line || a.column - b.column))
      .slice(0, limit);
  }

  /**
   * What a file is about in words: the names it defines, the names it calls, and the specifiers of
   * imports that leave the workspace (packages such as `swr`, `knex`, `@emotion/react`).
   */
  vocabularyOf(path: string): { definitions: string[]; calls: string[]; packages: string[] } | undefined {
    const rel = this.rel(path);
    if (rel === undefined) return undefined;
    const rows = all<{ k: string; n: string }>(
      this.db,
      "WITH f AS (SELECT id FROM files WHERE path = ?) SELECT 'f' AS k, '' AS n FROM f " +
        "UNION ALL SELECT 'd', s.name FROM symbols s, f WHERE s.file = f.id " +
        "UNION ALL SELECT 'c', c.name FROM calls c, f WHERE c.file = f.id " +
        "UNION ALL SELECT 'p', i.spec FROM imports i, f WHERE i.file = f.id AND i.resolved IS NULL",
      [rel],
    );
    if (!rows.length) return undefined;
    const sets = { d: new Set<string>(), c: new Set<string>(), p: new Set<string>() };
    for (const r of rows) if (r.k !== 'f') sets[r.k as 'd' | 'c' | 'p'].add(r.n);
    return { definitions: [...sets.d], calls: [...sets.c], packages: [...sets.p] };
  }

  /** For each indexed file that defines or imports anything: the names it defines and the packages it imports, for word statistics. */
  vocabularyByFile(): { names: string; packages: string }[] {
    const byFile = new Map<number, { names: string; packages: string }>();
    const entry = (file: number) => byFile.get(file) ?? byFile.set(file, { names: '', packages: '' }).get(file)!;
    // Two grouped scans instead of a sub-query per file: the same rows, a fraction of the time.
    for (const r of all<{ file: number; v: string | null }>(this.db, "SELECT file, group_concat(name, ' ') AS v FROM symbols GROUP BY file")) entry(Number(r.file)).names = r.v ?? '';
    for (const r of all<{ file: number; v: string | null }>(this.db, "SELECT file, group_concat(spec, ' ') AS v FROM imports WHERE resolved IS NULL GROUP BY file")) entry(Number(r.file)).packages = r.v ?? '';
    return [...byFile.values()];
  }

  /** Workspace files this file imports. */
  importsOf(path: string): string[] {
    const rel = this.rel(path);
    if (rel === undefined) return [];
    // Answered from the import graph held in memory: related-file ranking asks this for many candidates per query.
    const out: string[] = [];
    for (const t of this.graph().targets.get(rel) ?? []) if (t !== rel) out.push(t);
    return out.sort();
  }

  /** Workspace files that import this file. */
  importersOf(path: string): string[] {
    const rel = this.rel(path);
    if (rel === undefined) return [];
    const out = new Set<string>();
    for (const row of this.graph().importers.get(rel) ?? []) if (row.path !== rel) out.add(row.path);
    return [...out].sort();
  }

  /** Calls in a file to definitions marked deprecated, resolved by the same rules as callers(). */
  deprecatedUsedIn(path: string): DeprecatedUse[] {
    const rel = this.rel(path);
    if (rel === undefined) return [];
    const names = all<{ name: string }>(this.db, 'SELECT DISTINCT c.name AS name FROM calls c JOIN files f ON f.id = c.file WHERE f.path = ?', [rel]).map((r) => r.name);
    const defs: SymbolRow[] = [];
    for (let i = 0; i < names.length; i += 500) {
      const chunk = names.slice(i, i + 500);
      defs.push(...all<SymbolRow>(this.db, `SELECT ${SYMBOL_COLS} FROM ${SYMBOLS} WHERE s.deprecated = 1 AND s.name IN (${chunk.map(() => '?').join(',')})`, chunk));
    }
    const out = new Map<string, DeprecatedUse>();
    for (const def of defs) {
      for (const ref of this.callsTo(def, rel)) {
        if (ref.confidence === 'name') continue;
        const key = `${ref.line}:${ref.column}`;
        const prev = out.get(key);
        if (prev && RANK[prev.confidence] <= RANK[ref.confidence]) continue;
        out.set(key, {
          name: def.name,
          line: ref.line,
          column: ref.column,
          enclosing: ref.enclosing,
          confidence: ref.confidence,
          definition: { path: def.path, line: def.start_line, endLine: def.end_line, container: def.container ?? undefined },
        });
      }
    }
    return [...out.values()].sort((a, b) => a.line - b.line || a.column - b.column);
  }

  stats(): { files: number; symbols: number; calls: number; imports: number; byLanguage: Record<string, number>; lastBuild?: BuildStats & { at: number } } {
    const byLanguage: Record<string, number> = {};
    for (const r of all<{ lang: string; n: number }>(this.db, 'SELECT lang, count(*) AS n FROM files GROUP BY lang')) byLanguage[r.lang ?? 'other'] = r.n;
    const files = Object.values(byLanguage).reduce((a, b) => a + b, 0);
    const last = one<{ value: string }>(this.db, 'SELECT value FROM meta WHERE key = ?', [LAST_BUILD_KEY]);
    let lastBuild: (BuildStats & { at: number }) | undefined;
    try {
      lastBuild = last ? JSON.parse(last.value) : undefined;
    } catch {
      lastBuild = undefined;
    }
    return { files, ...this.counts(), byLanguage, lastBuild };
  }

  // ------------------------------------------------------------ internals

  private rel(path: string): string | undefined {
    // Most callers already pass the root-relative form; resolving it again only makes garbage.
    if (!NOT_CANONICAL.test(path)) return path;
    const rel = toRelative(this.root, path);
    return rel === '' ? undefined : rel;
  }

  /** Adds or drops a package.json in the list that bare imports of workspace packages resolve through. */
  private notePackageManifest(rel: string, exists: boolean): void {
    const resolver = this.ensureResolver();
    const row = one<{ value: string }>(this.db, 'SELECT value FROM meta WHERE key = ?', [MANIFESTS_KEY]);
    let list: string[] = [];
    try {
      list = row ? (JSON.parse(row.value) as string[]) : [];
    } catch {
      // Rebuilt from the next full scan; until then this change is the list.
    }
    const next = exists ? [...new Set([...list, rel])] : list.filter((p) => p !== rel);
    if (next.length === list.length && next.every((p, i) => p === list[i])) return;
    this.db.run('INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)', [MANIFESTS_KEY, JSON.stringify(next)]);
    this.store.markIndexDirty();
    resolver.setPackageManifests(next);
  }

  /**
   * After a tsconfig, jsconfig or package.json changed: resolves every stored JS/TS import again
   * from its specifier (nothing is re-parsed) and keeps the rows whose target moved.
   */
  private reresolveScriptImports(): void {
    const started = performance.now();
    const resolver = this.ensureResolver();
    const rows = all<{ id: number; path: string; spec: string; resolved: string | null }>(this.db, 'SELECT i.rowid AS id, f.path AS path, i.spec AS spec, i.resolved AS resolved FROM imports i JOIN files f ON f.id = i.file');
    const moved: [string | null, number][] = [];
    for (const r of rows) {
      const lang = languageOf(r.path);
      if (!lang || familyOf(lang) !== 'js') continue;
      const next = resolver.resolve(r.path, lang, { spec: r.spec, names: [], line: 0 })[0]?.resolved ?? null;
      if (next !== r.resolved) moved.push([next, r.id]);
    }
    if (moved.length) {
      const db = this.db;
      const stmt = db.prepare('UPDATE imports SET resolved = ? WHERE rowid = ?');
      try {
        db.run('BEGIN');
        for (const [resolved, id] of moved) stmt.run([resolved, id]);
        db.run('COMMIT');
      } catch (err) {
        db.run('ROLLBACK');
        throw err;
      } finally {
        stmt.free();
      }
      this.importGraph = undefined;
      this.store.markIndexDirty();
    }
    this.logger.debug(`Resolution config changed: ${moved.length} of ${rows.length} imports now point elsewhere (${Math.round(performance.now() - started)} ms)`);
  }

  private ensureResolver(): ImportResolver {
    if (!this.resolver) {
      this.fileSet = new FileSet(all<{ path: string }>(this.db, 'SELECT path FROM files').map((r) => r.path));
      this.resolver = new ImportResolver(this.root, this.fileSet);
      const manifests = one<{ value: string }>(this.db, 'SELECT value FROM meta WHERE key = ?', [MANIFESTS_KEY]);
      try {
        if (manifests) this.resolver.setPackageManifests(JSON.parse(manifests.value) as string[]);
      } catch {
        // A damaged entry only costs workspace-package resolution until the next build.
      }
    }
    return this.resolver;
  }

  private readonly warned = new Set<string>();

  private warnOnce(key: string, message: string): void {
    if (this.warned.has(key)) return;
    this.warned.add(key);
    this.logger.warn(message);
  }

  private counts(): { symbols: number; calls: number; imports: number } {
    const n = (table: string) => Number(one<{ n: number }>(this.db, `SELECT count(*) AS n FROM ${table}`)?.n ?? 0);
    return { symbols: n('symbols'), calls: n('calls'), imports: n('imports') };
  }

  /** Reads, hashes and (when the content changed) parses one file; nothing is written yet. */
  private async prepare(
    rel: string,
    f: Pick<ScannedFile, 'path' | 'size' | 'mtime'>,
    prevHash: string | undefined,
    content?: Promise<Buffer | undefined>,
  ): Promise<PendingFile | 'unchanged' | undefined> {
    const lang = languageOf(rel);
    if (!lang) return undefined;
    let buf: Buffer | undefined;
    try {
      buf = content ? await content : await readFile(join(this.root, rel));
    } catch (err) {
      this.logger.debug(`Cannot read ${rel}: ${(err as Error).message}`);
    }
    if (!buf) return undefined;
    if (buf.length > this.config.index.maxFileBytes || looksBinary(buf)) return undefined;
    const hash = createHash('sha1').update(buf).digest('hex');
    if (hash === prevHash) return 'unchanged';
    let parser;
    try {
      parser = await parserFor(lang);
    } catch (err) {
      this.warnOnce(`lang:${lang}`, `Cannot load the ${lang} grammar; ${lang} files are not indexed: ${(err as Error).message}`);
      return undefined;
    }
    // A pathological file (generated, minified) must not hold the indexer: give up after a while.
    const giveUpAt = performance.now() + PARSE_LIMIT_MS;
    const tree = parser.parse(buf.toString('utf8'), null, { progressCallback: () => performance.now() > giveUpAt });
    if (!tree) {
      parser.reset();
      this.logger.debug(`Not indexing ${rel}: parsing took longer than ${PARSE_LIMIT_MS} ms.`);
      return undefined;
    }
    let facts: FileFacts;
    try {
      facts = extractFacts(lang, tree);
    } catch (err) {
      this.logger.warn(`Could not index ${rel}: ${(err as Error).message}`);
      return undefined;
    } finally {
      tree.delete();
    }
    const resolver = this.ensureResolver();
    const imports = facts.imports.flatMap((imp) => resolver.resolve(rel, lang, imp));
    return { path: rel, hash, lang, size: f.size, mtime: f.mtime, facts, imports };
  }

  /** Replaces the rows of the given files (and deletes `removed`) in one transaction. */
  private writeBatch(entries: readonly PendingFile[], removed: readonly string[] = []): void {
    if (!entries.length && !removed.length) return;
    const db = this.db;
    const now = Date.now();
    const stmts = {
      fileId: db.prepare('SELECT id FROM files WHERE path = ?'),
      delSymbols: db.prepare('DELETE FROM symbols WHERE file = ?'),
      delCalls: db.prepare('DELETE FROM calls WHERE file = ?'),
      delImports: db.prepare('DELETE FROM imports WHERE file = ?'),
      delFile: db.prepare('DELETE FROM files WHERE id = ?'),
      // An upsert keeps a file's id, so nothing else refers to a stale one.
      file: db.prepare(
        'INSERT INTO files (path, hash, lang, size, mtime, indexed_at) VALUES (?, ?, ?, ?, ?, ?) ' +
          'ON CONFLICT (path) DO UPDATE SET hash = excluded.hash, lang = excluded.lang, size = excluded.size, mtime = excluded.mtime, indexed_at = excluded.indexed_at',
      ),
      touch: db.prepare('UPDATE files SET size = ?, mtime = ? WHERE path = ?'),
      symbol: db.prepare('INSERT INTO symbols (file, name, kind, start_line, end_line, container, exported, deprecated) VALUES (?, ?, ?, ?, ?, ?, ?, ?)'),
      call: db.prepare('INSERT INTO calls (file, name, qualifier, line, col, enclosing) VALUES (?, ?, ?, ?, ?, ?)'),
      import: db.prepare('INSERT INTO imports (file, spec, resolved, names, line) VALUES (?, ?, ?, ?, ?)'),
    };
    const exec = (s: { run(p: SqlValue[]): void }, p: SqlValue[]) => s.run(p);
    const idOf = (path: string): number | undefined => {
      const s = stmts.fileId;
      try {
        s.bind([path]);
        return s.step() ? Number(s.get()[0]) : undefined;
      } finally {
        s.reset();
      }
    };
    const clear = (id: number) => {
      for (const s of [stmts.delSymbols, stmts.delCalls, stmts.delImports]) exec(s, [id]);
    };
    db.run('BEGIN');
    try {
      for (const p of removed) {
        const id = idOf(p);
        if (id === undefined) continue;
        clear(id);
        exec(stmts.delFile, [id]);
      }
      for (const e of entries) {
        if (!e.facts) {
          exec(stmts.touch, [e.size, e.mtime, e.path]);
          continue;
        }
        const old = idOf(e.path);
        if (old !== undefined) clear(old);
        exec(stmts.file, [e.path, e.hash, e.lang, e.size, e.mtime, now]);
        const id = old ?? idOf(e.path)!;
        for (const s of e.facts.symbols) exec(stmts.symbol, [id, s.name, s.kind, s.startLine, s.endLine, s.container ?? null, s.exported, s.deprecated ? 1 : 0]);
        for (const c of e.facts.calls) exec(stmts.call, [id, c.name, c.qualifier ?? null, c.line, c.column, c.enclosing ?? null]);
        for (const i of e.imports ?? []) exec(stmts.import, [id, i.spec, i.resolved, JSON.stringify(i.names), i.line]);
      }
      db.run('COMMIT');
    } catch (err) {
      db.run('ROLLBACK');
      this.importGraph = undefined;
      throw err;
    } finally {
      for (const s of Object.values(stmts)) s.free();
    }
    this.updateGraph(entries, removed);
    this.store.markIndexDirty();
  }

  /** The import rows in memory, by imported file, plus each file's module-bound names; rebuilt after writes. */
  private graph(): ImportGraph {
    // Through the getter: a reset or replaced database drops the graph built from the old one.
    void this.db;
    if (!this.importGraph) {
      const graph: ImportGraph = { importers: new Map(), modules: new Map(), targets: new Map() };
      // Every row read is a fresh copy of its strings: share equal paths and equal name lists instead
      // (a large repository repeats a few thousand paths and import lists over tens of thousands of rows).
      const paths = new Map<string, string>();
      const path = (p: string) => paths.get(p) ?? (paths.set(p, p), p);
      const lists = new Map<string, ImportName[]>();
      for (const r of all<{ path: string; resolved: string | null; names: string }>(this.db, 'SELECT f.path AS path, i.resolved AS resolved, i.names AS names FROM imports i JOIN files f ON f.id = i.file')) {
        let names = lists.get(r.names);
        if (!names) {
          try {
            names = JSON.parse(r.names) as ImportName[];
          } catch {
            // An unreadable row resolves nothing.
            continue;
          }
          lists.set(r.names, names);
        }
        addImportRow(graph, path(r.path), r.resolved === null ? null : path(r.resolved), names);
      }
      this.importGraph = graph;
    }
    return this.importGraph;
  }

  /** Keeps the in-memory graph in step with a write instead of rebuilding it on the next query. */
  private updateGraph(entries: readonly PendingFile[], removed: readonly string[]): void {
    const graph = this.importGraph;
    if (!graph) return;
    const replaced = [...removed, ...entries.filter((e) => e.facts).map((e) => e.path)];
    for (const p of replaced) {
      for (const t of graph.targets.get(p) ?? []) {
        const rows = graph.importers.get(t)?.filter((r) => r.path !== p);
        if (rows?.length) graph.importers.set(t, rows);
        else graph.importers.delete(t);
      }
      graph.targets.delete(p);
      graph.modules.delete(p);
    }
    for (const e of entries) for (const i of e.facts ? e.imports ?? [] : []) addImportRow(graph, e.path, i.resolved, i.names);
  }

  /**
   * Where a top-level name of `defPath` is reachable, following imports, re-exports (`export … from`,
   * `export *`, `export * as ns`), local aliases and namespace objects, breadth first.
   */
  private bindingsOf(defPath: string, name: string, isDefault: boolean): Binding[] {
    const out: Binding[] = [{ file: defPath, path: name }];
    const lang = languageOf(defPath);
    const family = lang && familyOf(lang);
    if (family === 'go' || family === 'java' || family === 'csharp') {
      // One package (or namespace folder) shares its top-level names without imports.
      const dir = defPath.includes('/') ? defPath.slice(0, defPath.lastIndexOf('/')) : '';
      const ext = defPath.slice(defPath.lastIndexOf('.'));
      for (const f of this.ensureResolver().files.inDir(dir)) if (f !== defPath && f.endsWith(ext)) out.push({ file: f, path: name });
    }
    const { importers } = this.graph();
    const queue: Array<[string, string]> = [[defPath, name]];
    const seen = new Set<string>([`${defPath}\0${name}`]);
    const reach = (file: string, path: string, binds: boolean) => {
      const key = `${file}\0${path}`;
      if (seen.has(key)) return;
      seen.add(key);
      if (binds) out.push({ file, path });
      queue.push([file, path]);
    };
    let steps = 0;
    for (let qi = 0; qi < queue.length && steps < MAX_BINDING_STEPS; qi++) {
      const [file, n] = queue[qi];
      const dot = n.indexOf('.');
      const head = dot < 0 ? n : n.slice(0, dot);
      const rest = dot < 0 ? '' : n.slice(dot);
      for (const row of importers.get(file) ?? []) {
        steps++;
        // Re-exports pass the name on without binding it; imports bind it (and may pass it on again).
        for (const entry of row.names) {
          const binds = !entry.reexport;
          if (entry.name === head && entry.local !== '*') reach(row.path, entry.local + rest, binds);
          else if (entry.name === 'default' && isDefault && file === defPath && n === name) reach(row.path, entry.local, binds);
          else if (entry.name === '*' && entry.local === '*') reach(row.path, n, binds);
          else if (entry.name === '*') reach(row.path, `${entry.local}.${n}`, binds);
        }
      }
    }
    return out;
  }

  /** Calls that reach one definition, optionally only those inside one file. */
  private callsTo(def: SymbolRow, onlyFile?: string): CallerRef[] {
    const out: CallerRef[] = [];
    const isMethod = def.kind === 'method' && !!def.container;
    // A function in a TypeScript namespace is bound through the outermost namespace: `A.B.f`.
    const nsPath = !isMethod && def.container ? def.container.split('.') : [];
    const bound = isMethod ? def.container! : nsPath.length ? nsPath[0] : def.name;
    const suffix = nsPath.length ? [...nsPath.slice(1), def.name].join('.') : '';
    const bindings = this.bindingsOf(def.path, bound, def.exported === 2).filter((b) => onlyFile === undefined || b.file === onlyFile);
    const family = familyOf(languageOf(def.path) ?? 'typescript');
    const implicitThis = family === 'java' || family === 'csharp';
    const looseQualifier = family === 'rust' || family === 'python';
    const { modules } = this.graph();
    // Where the method's own class (or Rust impl, whose methods sit in the type's file) spans.
    const classSpans = isMethod
      ? all<{ start_line: number; end_line: number }>(this.db, "SELECT s.start_line AS start_line, s.end_line AS end_line FROM symbols s JOIN files f ON f.id = s.file WHERE f.path = ? AND s.name = ? AND s.kind IN ('class', 'interface')", [def.path, def.container!])
      : [];
    const insideClass = (c: CallRow) =>
      c.path === def.path && (family === 'rust' || family === 'go' || classSpans.some((r) => c.line >= r.start_line && c.line <= r.end_line));

    // Each binding names the callee it expects in one file; fetch only those calls, once per name and file.
    const full = (b: Binding) => (isMethod ? `${b.path}.${def.name}` : suffix ? `${b.path}.${suffix}` : b.path);
    const wanted = new Map<string, Set<string>>();
    for (const b of bindings) {
      const f = full(b);
      const callee = f.slice(f.lastIndexOf('.') + 1);
      let files = wanted.get(callee);
      if (!files) wanted.set(callee, (files = new Set()));
      files.add(b.file);
    }
    const byName = new Map<string, Map<string, CallRow[]>>();
    for (const [callee, fileSet] of wanted) {
      const byFile = new Map<string, CallRow[]>();
      const files = [...fileSet];
      for (let i = 0; i < files.length; i += 500) {
        const chunk = files.slice(i, i + 500);
        const rows = all<CallRow>(this.db, `SELECT ${CALL_COLS} FROM ${CALLS} WHERE c.name = ? AND f.path IN (${chunk.map(() => '?').join(',')})`, [callee, ...chunk]);
        for (const r of rows) {
          let list = byFile.get(r.path);
          if (!list) byFile.set(r.path, (list = []));
          list.push(r);
        }
      }
      byName.set(callee, byFile);
    }

    for (const b of bindings) {
      const f = full(b);
      const at = f.lastIndexOf('.');
      const calls = byName.get(f.slice(at + 1))?.get(b.file);
      if (!calls) continue;
      if (!isMethod) {
        const qualifier = at < 0 ? null : f.slice(0, at);
        for (const c of calls) {
          const q = c.qualifier === null ? null : c.qualifier.replace(/::/g, '.');
          const match =
            q === qualifier ||
            (looseQualifier && q !== null && qualifier !== null && lastSegment(q) === lastSegment(qualifier)) ||
            // Inside the namespace's own file its members are called unqualified.
            (suffix !== '' && q === null && b.file === def.path);
          if (match) out.push({ ...callRef(c), confidence: 'resolved' });
        }
        continue;
      }
      // `b.path` names the class; the method is called on it or on one of its instances.
      const moduleNames = modules.get(b.file);
      for (const c of calls) {
        const q = c.qualifier === null ? null : c.qualifier.replace(/::/g, '.');
        let confidence: CallerConfidence | undefined;
        if (q === null) confidence = implicitThis && insideClass(c) ? 'resolved' : undefined;
        else if (q === b.path) confidence = 'resolved';
        // `z.max()` with `import * as z`: a module's function, not a method of an instance.
        else if (moduleNames?.has(q)) confidence = undefined;
        // `this.m()` inside the class itself; elsewhere (another class, a subclass) it may be another m.
        else if (SELF_RECEIVERS.has(q)) confidence = insideClass(c) ? 'resolved' : 'likely';
        else confidence = 'likely';
        if (confidence) out.push({ ...callRef(c), confidence });
      }
    }
    return out;
  }
}

function addImportRow(graph: ImportGraph, path: string, resolved: string | null, names: ImportName[]): void {
  for (const n of names) {
    if (n.name === '*' && n.local !== '*' && !n.reexport) {
      let set = graph.modules.get(path);
      if (!set) graph.modules.set(path, (set = new Set()));
      set.add(n.local);
    }
  }
  if (resolved === null) return;
  let list = graph.importers.get(resolved);
  if (!list) graph.importers.set(resolved, (list = []));
  // Rows importing a file from itself are local aliases: `export { a as b }`.
  list.push({ path, names });
  let targets = graph.targets.get(path);
  if (!targets) graph.targets.set(path, (targets = new Set()));
  targets.add(resolved);
}

function lastSegment(q: string): string {
  const parts = q.split(/::|\./);
  return parts[parts.length - 1];
}

function callRef(c: CallRow): Omit<CallerRef, 'confidence'> {
  return { path: c.path, line: c.line, column: c.col, enclosing: c.enclosing ?? undefined };
}

function keepBest(found: Map<string, CallerRef>, ref: CallerRef): void {
  const key = `${ref.path}:${ref.line}:${ref.column}`;
  const prev = found.get(key);
  if (!prev || RANK[ref.confidence] < RANK[prev.confidence]) found.set(key, ref);
}

function toSymbol(r: SymbolRow): IndexedSymbol {
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
