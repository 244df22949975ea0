import { existsSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { CoreConfig } from '../config';
import type { Logger } from '../logger';
import { scanWorkspace, type ScanCap, type ScannedFile } from '../scan/scanner';
import { trimEndOf } from '../../shared/text';
import { all, one, runEach } from '../store/sqlite';
import type { Store } from '../store/store';
import type { IndexState } from './indexState';
import { MANIFESTS_KEY } from './indexState';
import type { BuildOptions, BuildStats, UpdateResult } from './indexTypes';
import { familyOf, languageOf } from './languages';
import { isResolutionConfig } from './packageResolver';
import { IndexWriter, type PendingFile } from './indexWriter';
import { HASH_PREFIX, type ParseOutcome } from './parseFile';
import { defaultParseWorkers, InProcessParser, ParserPool, type FileParser } from './parserPool';

const SLICE_MS = 12;
/** Files written per transaction at most: a slice's writes stay short however fast the parses come. */
const WRITE_BATCH = 32;
/** Minified bundles: one enormous line each, nothing a reader navigates. */
const MINIFIED = /\.min\.(js|mjs|cjs)$/;
export const LAST_BUILD_KEY = 'codeIndex.lastBuild';

const yieldToLoop = () => new Promise<void>((r) => setImmediate(r));

/**
 * Fills the code tables: scans the workspace, reads and parses changed files a slice at a time,
 * and writes each file's definitions, calls and resolved imports in one transaction per batch.
 */
export class IndexBuilder {
  private readonly writer: IndexWriter;
  private parserInstance: FileParser | undefined;

  constructor(
    private readonly state: IndexState,
    private readonly store: Store,
    private readonly config: CoreConfig,
    private readonly logger: Logger,
    /** False while git may not run: the workspace is listed by a walk that honours .gitignore. */
    private readonly gitAllowed: () => boolean = () => true,
  ) {
    this.writer = new IndexWriter(state, store);
  }

  /** Parse workers start with the first parse, as configured then. */
  private get parser(): FileParser {
    if (!this.parserInstance) {
      const size = this.config.index.workers ?? defaultParseWorkers();
      this.parserInstance = size > 0 ? new ParserPool({ size, logger: this.logger }) : new InProcessParser();
    }
    return this.parserInstance;
  }

  /** Stops the parse workers. */
  dispose(): void {
    this.parserInstance?.dispose();
  }

  private get root(): string {
    return this.state.root;
  }

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

  // eslint-disable-next-line max-lines-per-function -- the build phases share their counters, caps and cancellation
  private async buildAll(options: BuildOptions): Promise<BuildStats> {
    const started = Date.now();
    const { signal, onProgress } = options;
    let capped: ScanCap | undefined;
    const known = new Map<string, { hash: string; size: number; mtime: number }>();
    for (const r of all<{ path: string; hash: string; size: number; mtime: number }>(
      this.state.db,
      'SELECT path, hash, size, mtime FROM files',
    ))
      known.set(r.path, r);
    // Same stamp as when it was indexed: the file is read neither to sniff it nor to hash it.
    const unchanged = (f: ScannedFile) => {
      const prev = known.get(f.path);
      return !!prev && prev.hash.startsWith(HASH_PREFIX) && prev.size === f.size && prev.mtime === f.mtime;
    };
    let scanned = options.files;
    if (!scanned) {
      const scan = await scanWorkspace(this.root, this.config, {
        signal,
        logger: this.logger,
        noGit: !this.gitAllowed(),
        seen: unchanged,
      });
      scanned = scan.files;
      capped = scan.capped;
    }
    const code = scanned.filter(
      (f) => languageOf(f.path) && !MINIFIED.test(f.path) && f.size <= this.config.index.maxFileBytes,
    );

    const manifests = scanned
      .filter((f) => f.path === 'package.json' || f.path.endsWith('/package.json'))
      .map((f) => f.path);
    this.state.resetWorkspace(
      code.map((f) => f.path),
      manifests,
    );
    this.state.db.run('INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)', [
      MANIFESTS_KEY,
      JSON.stringify(manifests),
    ]);

    // Files gone from the workspace (unless the scan was cut short and simply did not reach them).
    if (!capped) {
      const present = new Set(code.map((f) => f.path));
      const gone = [...known.keys()].filter((p) => !present.has(p));
      if (gone.length) this.writer.write([], gone);
    }

    const stats: BuildStats = {
      files: code.length,
      parsed: 0,
      skipped: 0,
      failed: 0,
      read: 0,
      symbols: 0,
      calls: 0,
      imports: 0,
      ms: 0,
      capped,
    };
    let batch: PendingFile[] = [];
    let sliceStart = Date.now();
    const total = code.length;
    onProgress?.({ done: 0, total });
    // Parsing gets its own budget: a scan that used up its budget still leaves time to index what it found.
    const deadline = Date.now() + this.config.index.timeBudgetMs;
    // Files are read and parsed a window ahead (in the parse workers, or on this thread as reads
    // complete); their facts are resolved and written here, in order, so the index is the same either way.
    const parses = new Map<number, Promise<ParseOutcome>>();
    const needsRead = (j: number) => !unchanged(code[j]);
    const window = this.parser.window;
    let ahead = 0;
    const parseAhead = (from: number) => {
      for (ahead = Math.max(ahead, from); ahead < Math.min(code.length, from + window); ahead++) {
        const j = ahead;
        if (needsRead(j)) parses.set(j, this.parse(code[j].path, known.get(code[j].path)?.hash));
      }
    };
    // Calls to names not defined yet wait until every file is written: their definition may come later.
    this.writer.beginBuild();
    try {
      for (let i = 0; i < code.length; i++) {
        if (Date.now() >= deadline) {
          // Out of time: keep what is done; the next build continues from the unchanged-file shortcut.
          capped = { reason: 'time', limit: this.config.index.timeBudgetMs };
          stats.capped = capped;
          this.logger.warn(
            `Code index stopped after ${i} of ${code.length} files: time budget of ${capped.limit} ms reached.`,
          );
          break;
        }
        if (signal?.aborted) {
          this.writer.write(batch);
          throw signal.reason instanceof Error ? signal.reason : new Error('Indexing was cancelled.');
        }
        const f = code[i];
        const prev = known.get(f.path);
        if (!needsRead(i)) {
          stats.skipped++;
        } else {
          stats.read++;
          parseAhead(i);
          const parsed = parses.get(i)!;
          parses.delete(i);
          const entry = this.prepared(f.path, f, await parsed);
          if (entry === 'unchanged') {
            stats.skipped++;
            batch.push({ path: f.path, hash: prev!.hash, lang: languageOf(f.path)!, size: f.size, mtime: f.mtime });
          } else if (entry) {
            stats.parsed++;
            batch.push(entry);
          } else stats.failed++;
        }
        if (Date.now() - sliceStart >= SLICE_MS || batch.length >= WRITE_BATCH || i === code.length - 1) {
          this.writer.write(batch);
          batch = [];
          onProgress?.({ done: i + 1, total });
          await yieldToLoop();
          sliceStart = Date.now();
        }
      }
      this.writer.write(batch);
    } finally {
      await this.writer.finishBuild();
    }
    if (!signal?.aborted) stats.read += await this.reindexStale(signal);
    const counts = this.counts();
    Object.assign(stats, counts, { ms: Date.now() - started });
    this.state.db.run('INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)', [
      LAST_BUILD_KEY,
      JSON.stringify({ ...stats, at: Date.now() }),
    ]);
    this.store.markIndexDirty();
    this.logger.info(
      `Code index: ${stats.files} files (${stats.parsed} parsed, ${stats.skipped} unchanged, ${stats.failed} failed; ${stats.read} read) in ${stats.ms} ms`,
    );
    return stats;
  }

  /**
   * Brings the files under one folder in line with the disk, after the watcher reported the folder
   * alone (created or removed at once): new and changed files are parsed, gone ones removed.
   */
  async syncFolder(folder: string, signal?: AbortSignal): Promise<{ updated: number; removed: number }> {
    const relPath = this.state.rel(folder);
    const rel = relPath === undefined ? undefined : trimEndOf(relPath, '/');
    if (!rel) return { updated: 0, removed: 0 };
    const scan = await scanWorkspace(this.root, this.config, {
      signal,
      logger: this.logger,
      under: rel,
      noGit: !this.gitAllowed(),
    });
    const present = new Set(scan.files.filter((f) => languageOf(f.path)).map((f) => f.path));
    let removed = 0;
    if (!scan.capped) {
      const prefix = `${rel}/`;
      for (const r of all<{ path: string }>(this.state.db, 'SELECT path FROM files WHERE substr(path, 1, ?) = ?', [
        prefix.length,
        prefix,
      ])) {
        if (present.has(r.path)) continue;
        this.removeFile(r.path);
        removed++;
      }
    }
    let updated = 0;
    for (const path of present) {
      if (signal?.aborted) break;
      if ((await this.updateFile(path)).status === 'parsed') updated++;
    }
    return { updated, removed };
  }

  /** Re-indexes one file after a save or external change; removes it when it no longer exists. */
  async updateFile(path: string): Promise<UpdateResult> {
    const started = performance.now();
    const rel = this.state.rel(path);
    const done = (status: UpdateResult['status']): UpdateResult => ({ status, ms: performance.now() - started });
    if (rel === undefined) return done('skipped');
    if (isResolutionConfig(rel) || /(^|\/)go\.mod$|(^|\/)Cargo\.toml$/.test(rel)) {
      this.state.invalidateResolverConfig();
      if (rel === 'package.json' || rel.endsWith('/package.json'))
        this.notePackageManifest(rel, existsSync(join(this.root, rel)));
      if (isResolutionConfig(rel)) {
        this.reresolveScriptImports();
        await this.reindexStale();
      }
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
    this.state.resolver().files.add(rel);
    const prev = one<{ hash: string }>(this.state.db, 'SELECT hash FROM files WHERE path = ?', [rel]);
    const entry = await this.prepare(rel, { path: rel, size: st.size, mtime: Math.round(st.mtimeMs) }, prev?.hash);
    if (entry === 'unchanged') {
      this.state.db.run('UPDATE files SET size = ?, mtime = ? WHERE path = ?', [st.size, Math.round(st.mtimeMs), rel]);
      this.store.markIndexDirty();
      return done('unchanged');
    }
    if (!entry) {
      this.removeFile(rel);
      return done('skipped');
    }
    this.writer.write([entry]);
    await this.reindexStale();
    this.store.markIndexDirty();
    return done('parsed');
  }

  /**
   * Parses again the files that noted calls to names defined since (or whose imports now reach the
   * workspace), so their calls are stored. A slice at a time, like the build. Returns how many files it read.
   */
  private async reindexStale(signal?: AbortSignal): Promise<number> {
    let read = 0;
    // A re-read file defines nothing new unless it changed on disk meanwhile: a few rounds settle it.
    for (let round = 0; round < 3 && !signal?.aborted; round++) {
      const paths = this.writer.takeStale();
      if (!paths.length) return read;
      read += paths.length;
      let batch: PendingFile[] = [];
      let sliceStart = Date.now();
      // Parsed a window ahead, like the build; each file's stamp is read before its parse is asked.
      const window = this.parser.window;
      const ahead = new Map<
        number,
        Promise<{ st: { size: number; mtime: number }; outcome: ParseOutcome } | undefined>
      >();
      const ask = (j: number) => {
        const rel = paths[j];
        ahead.set(
          j,
          stat(join(this.root, rel)).then(
            async (st) => ({
              st: { size: st.size, mtime: Math.round(st.mtimeMs) },
              outcome: await this.parse(rel, undefined),
            }),
            () => undefined, // Gone: the next update or build of it drops it.
          ),
        );
      };
      for (let j = 0; j < Math.min(window, paths.length); j++) ask(j);
      for (let i = 0; i < paths.length; i++) {
        if (signal?.aborted) break;
        if (i + window < paths.length) ask(i + window);
        const rel = paths[i];
        const got = await ahead.get(i)!;
        ahead.delete(i);
        if (!got) continue;
        const entry = this.prepared(rel, { path: rel, ...got.st }, got.outcome);
        if (entry && entry !== 'unchanged') batch.push(entry);
        if (Date.now() - sliceStart >= SLICE_MS || batch.length >= WRITE_BATCH) {
          this.writer.write(batch);
          batch = [];
          await yieldToLoop();
          sliceStart = Date.now();
        }
      }
      this.writer.write(batch);
    }
    return read;
  }

  /** Drops a file (deleted or renamed away) from the index. */
  removeFile(path: string): void {
    const rel = this.state.rel(path);
    if (rel === undefined) return;
    this.state.forgetFile(rel);
    this.writer.write([], [rel]);
    this.store.markIndexDirty();
  }

  /** Adds or drops a package.json in the list that bare imports of workspace packages resolve through. */
  private notePackageManifest(rel: string, exists: boolean): void {
    const resolver = this.state.resolver();
    const row = one<{ value: string }>(this.state.db, 'SELECT value FROM meta WHERE key = ?', [MANIFESTS_KEY]);
    let list: string[] = [];
    try {
      list = row ? (JSON.parse(row.value) as string[]) : [];
    } catch {
      // Rebuilt from the next full scan; until then this change is the list.
    }
    const next = exists ? [...new Set([...list, rel])] : list.filter((p) => p !== rel);
    if (next.length === list.length && next.every((p, i) => p === list[i])) return;
    this.state.db.run('INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)', [MANIFESTS_KEY, JSON.stringify(next)]);
    this.store.markIndexDirty();
    resolver.setPackageManifests(next);
  }

  /**
   * After a tsconfig, jsconfig or package.json changed: resolves every stored JS/TS import again
   * from its specifier (nothing is re-parsed) and keeps the rows whose target moved.
   */
  private reresolveScriptImports(): void {
    const started = performance.now();
    const resolver = this.state.resolver();
    const rows = all<{ id: number; path: string; spec: string; resolved: string | null }>(
      this.state.db,
      'SELECT i.rowid AS id, f.path AS path, i.spec AS spec, i.resolved AS resolved FROM imports i JOIN files f ON f.id = i.file',
    );
    const moved: [string | null, number][] = [];
    const nowBound = new Set<string>();
    for (const r of rows) {
      const lang = languageOf(r.path);
      if (!lang || familyOf(lang) !== 'js') continue;
      const next = resolver.resolve(r.path, lang, { spec: r.spec, names: [], line: 0 })[0]?.resolved ?? null;
      if (next === r.resolved) continue;
      moved.push([next, r.id]);
      // Calls through names it imports from there were only noted, not stored.
      if (r.resolved === null) nowBound.add(r.path);
    }
    if (moved.length) {
      runEach(this.state.db, 'UPDATE imports SET resolved = ? WHERE rowid = ?', moved);
      this.state.dropGraph();
      this.store.markIndexDirty();
    }
    this.writer.markStale(nowBound);
    this.logger.debug(
      `Resolution config changed: ${moved.length} of ${rows.length} imports now point elsewhere (${Math.round(performance.now() - started)} ms)`,
    );
  }

  private readonly warned = new Set<string>();

  private warnOnce(key: string, message: string): void {
    if (this.warned.has(key)) return;
    this.warned.add(key);
    this.logger.warn(message);
  }

  counts(): { symbols: number; calls: number; imports: number } {
    const n = (table: string) =>
      Number(one<{ n: number }>(this.state.db, `SELECT count(*) AS n FROM ${table}`)?.n ?? 0);
    return { symbols: n('symbols'), calls: n('calls'), imports: n('imports') };
  }

  /** Reads and parses one file in the parse workers (or here); a parser that throws skips the file. */
  private parse(rel: string, prevHash: string | undefined): Promise<ParseOutcome> {
    const req = {
      root: this.root,
      path: rel,
      lang: languageOf(rel)!,
      maxFileBytes: this.config.index.maxFileBytes,
      prevHash,
    };
    return this.parser.parse(req).catch((err: unknown): ParseOutcome => ({
      kind: 'skipped',
      log: { level: 'warn', message: `Could not index ${rel}: ${err instanceof Error ? err.message : String(err)}` },
    }));
  }

  /** Reads, hashes and (when the content changed) parses one file; nothing is written yet. */
  private async prepare(
    rel: string,
    f: Pick<ScannedFile, 'path' | 'size' | 'mtime'>,
    prevHash: string | undefined,
  ): Promise<PendingFile | 'unchanged' | undefined> {
    if (!languageOf(rel)) return undefined;
    return this.prepared(rel, f, await this.parse(rel, prevHash));
  }

  /** A parse's outcome made ready to write: its imports resolved against the workspace. */
  private prepared(
    rel: string,
    f: Pick<ScannedFile, 'path' | 'size' | 'mtime'>,
    outcome: ParseOutcome,
  ): PendingFile | 'unchanged' | undefined {
    if (outcome.kind === 'unchanged') return 'unchanged';
    if (outcome.kind === 'skipped') {
      const log = outcome.log;
      if (log?.once) this.warnOnce(log.once, log.message);
      else if (log) this.logger[log.level](log.message);
      return undefined;
    }
    const lang = languageOf(rel)!;
    const resolver = this.state.resolver();
    const imports = outcome.facts.imports.flatMap((imp) => resolver.resolve(rel, lang, imp));
    return { path: rel, hash: outcome.hash, lang, size: f.size, mtime: f.mtime, facts: outcome.facts, imports };
  }
}
