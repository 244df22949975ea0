import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { CoreConfig } from '../config';
import type { Logger } from '../logger';
import { looksBinary, scanWorkspace, type ScanCap, type ScannedFile } from '../scan/scanner';
import { trimEndOf } from '../text';
import { all, one } from '../store/sqlite';
import type { Store } from '../store/store';
import { extractFacts } from './extract';
import type { FileFacts } from './facts';
import type { IndexState } from './indexState';
import { MANIFESTS_KEY } from './indexState';
import type { BuildOptions, BuildStats, UpdateResult } from './indexTypes';
import { familyOf, languageOf, parserFor } from './languages';
import { isResolutionConfig } from './packageResolver';
import { IndexWriter, type PendingFile } from './indexWriter';

const SLICE_MS = 12;
const READ_AHEAD = 8;
const PARSE_LIMIT_MS = 3000;
/** Minified bundles: one enormous line each, nothing a reader navigates. */
const MINIFIED = /\.min\.(js|mjs|cjs)$/;
export const LAST_BUILD_KEY = 'codeIndex.lastBuild';
/**
 * Raised whenever extraction finds something different in the same file (a language's rules, a new
 * kind of fact). It prefixes each file's stored content hash, so files indexed by an older version
 * are parsed again on the next build, one by one, even if that build runs out of time.
 */
const EXTRACTION_VERSION = 15;
const HASH_PREFIX = `x${EXTRACTION_VERSION}:`;

const yieldToLoop = () => new Promise<void>((r) => setImmediate(r));

/**
 * Fills the code tables: scans the workspace, reads and parses changed files a slice at a time,
 * and writes each file's definitions, calls and resolved imports in one transaction per batch.
 */
export class IndexBuilder {
  private readonly writer: IndexWriter;

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
    let scanned = options.files;
    if (!scanned) {
      const scan = await scanWorkspace(this.root, this.config, {
        signal,
        logger: this.logger,
        noGit: !this.gitAllowed(),
      });
      scanned = scan.files;
      capped = scan.capped;
    }
    const code = scanned.filter(
      (f) => languageOf(f.path) && !MINIFIED.test(f.path) && f.size <= this.config.index.maxFileBytes,
    );
    const known = new Map<string, { hash: string; size: number; mtime: number }>();
    for (const r of all<{ path: string; hash: string; size: number; mtime: number }>(
      this.state.db,
      'SELECT path, hash, size, mtime FROM files',
    ))
      known.set(r.path, r);

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
    // Reads run a few files ahead so the disk works while the parser does.
    const reads = new Map<number, Promise<Buffer | undefined>>();
    const needsRead = (j: number) => {
      const prev = known.get(code[j].path);
      return !(prev && prev.hash.startsWith(HASH_PREFIX) && prev.size === code[j].size && prev.mtime === code[j].mtime);
    };
    const readAhead = (from: number) => {
      for (let j = from; j < Math.min(code.length, from + READ_AHEAD); j++) {
        if (!reads.has(j) && needsRead(j))
          reads.set(
            j,
            readFile(join(this.root, code[j].path)).catch(() => undefined),
          );
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
    if (!signal?.aborted) await this.reindexStale(signal);
    const counts = this.counts();
    Object.assign(stats, counts, { ms: Date.now() - started });
    this.state.db.run('INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)', [
      LAST_BUILD_KEY,
      JSON.stringify({ ...stats, at: Date.now() }),
    ]);
    this.store.markIndexDirty();
    this.logger.info(
      `Code index: ${stats.files} files (${stats.parsed} parsed, ${stats.skipped} unchanged, ${stats.failed} failed) in ${stats.ms} ms`,
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
   * workspace), so their calls are stored. A slice at a time, like the build.
   */
  private async reindexStale(signal?: AbortSignal): Promise<void> {
    // A re-read file defines nothing new unless it changed on disk meanwhile: a few rounds settle it.
    for (let round = 0; round < 3 && !signal?.aborted; round++) {
      const paths = this.writer.takeStale();
      if (!paths.length) return;
      let batch: PendingFile[] = [];
      let sliceStart = Date.now();
      for (const rel of paths) {
        if (signal?.aborted) break;
        let st;
        try {
          st = await stat(join(this.root, rel));
        } catch {
          continue; // Gone: the next update or build of it drops it.
        }
        const entry = await this.prepare(rel, { path: rel, size: st.size, mtime: Math.round(st.mtimeMs) }, undefined);
        if (entry && entry !== 'unchanged') batch.push(entry);
        if (Date.now() - sliceStart >= SLICE_MS) {
          this.writer.write(batch);
          batch = [];
          await yieldToLoop();
          sliceStart = Date.now();
        }
      }
      this.writer.write(batch);
    }
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
      const db = this.state.db;
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
    const hash = HASH_PREFIX + createHash('sha1').update(buf).digest('hex');
    if (hash === prevHash) return 'unchanged';
    let parser;
    try {
      parser = await parserFor(lang);
    } catch (err) {
      this.warnOnce(
        `lang:${lang}`,
        `Cannot load the ${lang} grammar; ${lang} files are not indexed: ${(err as Error).message}`,
      );
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
    const resolver = this.state.resolver();
    const imports = facts.imports.flatMap((imp) => resolver.resolve(rel, lang, imp));
    return { path: rel, hash, lang, size: f.size, mtime: f.mtime, facts, imports };
  }
}
