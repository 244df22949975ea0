import { join, posix } from 'node:path';
import { defaultConfig, type CoreConfig } from '../../config';
import { nullLogger, type Logger } from '../../logger';
import { languageOf } from '../../index/languages';
import type { SuggestionItem } from '../../types';
import { ChangedFiles } from '../changedFiles';
import {
  type RefreshStats,
  type SourceWiring,
  type SourceQuery,
  sourceQueryOf,
  type QueryContext,
  type WorkspaceSource,
} from '../sourceQuery';
import {
  DECISION_CONVENTIONS,
  DECISION_FOLDERS_SETTING,
  discoverDecisions,
  type DecisionDiscoverySummary,
  type DecisionFile,
} from './adrDiscovery';
import { writeAdrFile, type NewDecision } from './adrWriter';
import { nameOf, noteItem, type DecisionHit, type DecisionRecord } from './decisionItems';
import { rankDecisions } from './decisionRanking';
import { identifiersOf, usedIdentifier } from './codeUse';
import { DecisionCache, recordPathOf } from './decisionCache';
import { decisionStamp } from './decisionStamp';
import { detectFormat, entryView, linkables, linksToRecord, parseRecord, pickWriteFolder } from './decisionRecords';
import { DecisionLinker, prepareLinkable, type LinkableRecord, type PreparedLinkable } from './decisionLinker';
import { pickNumbered } from './decisionAnchors';
import { explicitHits, fileStem } from './explicitLinks';
import { isCodeFile, namedDefinition } from './codeFiles';
import { fileKindHits } from './fileKindLinks';
import { FileQueries, type CodeVocabulary } from './fileQueries';
import { linksOfFile, RecordBreadths } from './recordBreadth';
import { FileTexts } from './fileTexts';
import { PathListing } from './pathListing';
import { RepoTerms } from './repoTerms';
import { TimeSlice } from '../../timeSlice';

export type { DecisionRecord } from './decisionItems';
export type { CodeVocabulary } from './fileQueries';

/**
 * Decisions that govern the code under the cursor: ADR files (Nygard, MADR, log4brains,
 * reStructuredText) found anywhere in the workspace, linked explicitly (paths and globs they name,
 * `ADR-12` references and `DECISION:` notes in the code, identifiers in backticks) and by what
 * the record and the file are about (see DecisionLinker). Also records new decisions as ADR files
 * in the repository's own format.
 */
export class DecisionSource implements WorkspaceSource {
  readonly name = 'decisions';
  readonly kinds = ['decision', 'warning'] as const;
  private readonly importsOfFile: ((file: string) => string[]) | undefined;
  private readonly definitionFiles: ((name: string) => number) | undefined;
  private readonly root: string;
  private readonly config: CoreConfig;
  private readonly logger: Logger;
  private readonly now: () => number;
  private records = new Map<string, DecisionRecord>();
  /** Every file discovery took for a record, read or not: other sources leave them to this one. */
  private candidates = new Set<string>();
  private byNumber = new Map<number, DecisionRecord[]>();
  private folders: string[] = [];
  private summary: DecisionDiscoverySummary | undefined;
  private readonly repo = new RepoTerms();
  private linker: DecisionLinker | undefined;
  private code: CodeVocabulary | undefined;
  private lastCommit: ((path: string) => number | undefined) | undefined;
  private historyKnown: () => boolean = () => true;
  private readonly texts: FileTexts;
  /** The workspace's paths listed at the last refresh, and what they tell explicit links. */
  private listing = new PathListing();
  /** The records explicit links are looked for in, made again when the records change. */
  private explicit: { records: ReadonlyMap<string, DecisionRecord>; list: DecisionRecord[] } | undefined;
  /** Words of recently asked files: the cursor mostly stays in one file. */
  private readonly queries: FileQueries;

  private readonly gitAllowed: () => boolean;
  /** Parsed records kept in the store between processes; read at the first refresh only. */
  private readonly cache: DecisionCache | undefined;
  private cacheLoaded = false;
  /** The linker's words of each record, by linker key (path, or `path#line` for a log's entry). */
  private prepared = new Map<string, PreparedLinkable>();
  private preparedChanged = false;
  /** The fingerprint of what the last discovery depended on (decisionStamp.ts). */
  private stamp: string | undefined;
  private running: Promise<RefreshStats> | undefined;
  private discoveryRuns = 0;
  /** How broad each record is (see recordBreadth.ts). */
  private readonly breadth: RecordBreadths<DecisionLinker>;
  /** The code index has been built once: before that, a breadth measure would read half the files' words. */
  private codeBuilt = false;

  constructor(ctx: SourceWiring) {
    this.root = ctx.root;
    this.importsOfFile = ctx.importsOf;
    this.definitionFiles = ctx.definitionFiles;
    this.config = ctx.config ?? defaultConfig;
    this.logger = ctx.logger ?? nullLogger;
    this.now = ctx.now ?? Date.now;
    this.gitAllowed = ctx.gitAllowed ?? (() => true);
    this.cache = ctx.store ? new DecisionCache(ctx.store, this.logger) : undefined;
    this.texts = new FileTexts(this.root, this.config.index.maxFileBytes);
    this.queries = new FileQueries(() => this.code, this.logger);
    this.breadth = new RecordBreadths({
      linker: () => (this.linker?.size && this.code && this.codeBuilt ? this.linker : undefined),
      paths: () => this.listing.paths.filter((p) => isCodeFile(p) && !this.candidates.has(p)),
      link: (linker, path) => linksOfFile(linker, path, this.texts, this.code),
      logger: this.logger,
    });
  }

  /** The workspace closed: background work stops. */
  dispose(): void {
    this.breadth.stop();
  }

  /** The decision folders found at the last refresh (root-relative). */
  get decisionFolders(): readonly string[] {
    return this.folders;
  }

  /** Where the last refresh looked and what it found, for an empty panel and `index --json`. */
  whereLooked(): DecisionDiscoverySummary {
    return (
      this.summary ?? { folders: [], conventions: DECISION_CONVENTIONS, setting: DECISION_FOLDERS_SETTING, scanned: 0 }
    );
  }

  /** All decisions known since the last refresh, by path. */
  list(): DecisionRecord[] {
    return [...this.records.values()];
  }

  /** True when the path is a decision record, or was found as one but could not be read (binary, too large). */
  isRecord(path: string): boolean {
    return this.records.has(path) || this.candidates.has(path);
  }

  /** Lets the linker read what the code index knows; call `codeChanged()` when the index changes. */
  setCodeVocabulary(code: CodeVocabulary): void {
    this.code = code;
    this.queries.clear();
  }

  /**
   * When a path was last committed, from the history index: a record's date when it states none.
   * A checkout writes every file at once, so the file's own time says when it was cloned.
   * `historyKnown`: false while history is still being read, when no commit date can be told yet.
   */
  setLastCommit(lastCommit: (path: string) => number | undefined, historyKnown: () => boolean = () => true): void {
    this.lastCommit = lastCommit;
    this.historyKnown = historyKnown;
  }

  /**
   * The record's own date, else its last commit, else its file's time (a record not committed yet).
   * While history is being read there is no date yet: a file's time would say "just now" of an old record.
   */
  private dateOf(adr: DecisionRecord): number | undefined {
    if (adr.date !== undefined) return adr.date;
    const committed = this.lastCommit?.(adr.path);
    if (committed !== undefined) return committed;
    return this.lastCommit && !this.historyKnown() ? undefined : adr.mtimeMs;
  }

  /** The code index changed: forget cached file words. */
  codeChanged(): void {
    this.queries.clear();
  }

  /** The code index was built: recount the workspace's code words too, a slice at a time. */
  async codeRebuilt(): Promise<void> {
    this.codeChanged();
    if (!this.code) return;
    try {
      await this.repo.setFileVocabulary(this.code.vocabularyByFile());
    } catch (err) {
      this.logger.debug(`Could not count defined names: ${(err as Error).message}`);
    }
    this.codeBuilt = true;
    this.breadth.start();
    await this.breadth.settled();
  }

  /** How many times records were looked for (a measure of work, for tests and logs). */
  get discoveries(): number {
    return this.discoveryRuns;
  }

  /**
   * Refreshes only when something discovery depends on changed since the last refresh, told by stat
   * calls alone: a long-lived process answers each question without listing the workspace again.
   * True when it refreshed.
   */
  async refreshIfChanged(signal?: AbortSignal): Promise<boolean> {
    if (this.running) await this.running.catch(() => undefined);
    if (this.stamp !== undefined && this.stamp === this.currentStamp()) return false;
    await this.refresh(signal);
    return true;
  }

  refresh(signal?: AbortSignal): Promise<RefreshStats> {
    const run = this.discover(signal);
    this.running = run;
    const done = (): void => {
      if (this.running === run) this.running = undefined;
    };
    run.then(done, done);
    return run;
  }

  private currentStamp(known?: ReadonlyMap<string, DecisionRecord>): string {
    return decisionStamp(
      this.root,
      { folders: this.folders, candidates: this.candidates, configured: this.config.decisionFolders },
      (path) => known?.get(path),
    );
  }

  private async discover(signal?: AbortSignal): Promise<RefreshStats> {
    const started = performance.now();
    this.discoveryRuns++;
    this.stamp = undefined;
    const found = await discoverDecisions(this.root, {
      configured: this.config.decisionFolders,
      signal,
      noGit: !this.gitAllowed(),
    });
    this.summary = found.summary;
    this.folders = found.folders.map((f) => f.path);
    if (found.paths !== this.listing.paths) {
      await this.countPathWords(found.paths);
      this.listing = new PathListing(found.paths);
    }
    if (this.cache && !this.cacheLoaded) {
      this.cacheLoaded = true;
      // A fresh process starts from the records parsed by the last one; each is checked like an in-memory one.
      if (!this.records.size) ({ records: this.records, prepared: this.prepared } = this.cache.load());
    }
    const place = new Map<string, DecisionFile>(found.files.map((f) => [f.path, f]));
    this.candidates = new Set(place.keys());
    const next = new Map<string, DecisionRecord>();
    const changedFiles = new ChangedFiles({
      root: this.root,
      previous: this.records,
      maxBytes: this.config.index.maxFileBytes,
      logger: this.logger,
      signal,
      messages: {
        tooLarge: (path, size, limit) =>
          `Skipped ${path}: ${size} bytes is over the ${limit}-byte limit for decision records.`,
        binary: (path) => `Skipped ${path}: it is named like a decision record but holds binary content.`,
      },
    });
    let changed = false;
    const slice = new TimeSlice();
    for (const file of changedFiles.visit(place.keys())) {
      await slice.pause();
      const path = file.path;
      const where = place.get(path)!;
      if (file.kind === 'unchanged') {
        // The same file may have moved between folders' roles (a renamed area folder).
        next.set(path, { ...file.entry, folder: where.folder, area: where.area });
        continue;
      }
      changed = true;
      this.forgetPrepared(path);
      if (file.kind === 'skipped') continue;
      const record = parseRecord(path, file.text, where, file.stamp, (e) => linksToRecord(e, path, place));
      changedFiles.markParsed();
      if (record.status === 'unknown' && !record.entries)
        this.logger.debug(`${path} has no status; it is treated as 'unknown'.`);
      next.set(path, record);
    }
    if (next.size !== this.records.size) changed = true;
    this.records = next;
    // The records as they were read: a file changed while this refresh read it differs from its stamp.
    this.stamp = this.currentStamp(next);
    if (changed || !this.linker) this.rebuildIndexes();
    else this.linker = this.makeLinker();
    // The records or the workspace's words changed: measure again, beside the answers given meanwhile.
    this.breadth.start();
    if (changed || this.preparedChanged) {
      for (const key of this.prepared.keys()) if (!next.has(recordPathOf(key, next))) this.prepared.delete(key);
      this.cache?.save(next, this.prepared);
      this.preparedChanged = false;
    }
    return {
      files: found.files.length,
      parsed: changedFiles.parsed,
      skipped: changedFiles.skipped,
      entries: next.size,
      ms: performance.now() - started,
    };
  }

  /** One entry of a decision log, as a record of its own. */
  private entryRecord(path: string, line: number): DecisionRecord | undefined {
    const log = this.records.get(path);
    const i = log?.entries?.findIndex((x) => x.line === line) ?? -1;
    return log?.entries && i >= 0 ? entryView(log, log.entries[i], i) : undefined;
  }

  /**
   * Every decision as users and links see it: a decision log as its entries (each with its own title,
   * status, text and what it names, opened at its heading), any other record as itself.
   */
  listEntries(): DecisionRecord[] {
    if (this.explicit?.records !== this.records) {
      const list: DecisionRecord[] = [];
      for (const r of this.records.values()) {
        if (!r.entries) list.push(r);
        else r.entries.forEach((e, i) => list.push(entryView(r, e, i)));
      }
      this.explicit = { records: this.records, list };
    }
    return this.explicit.list;
  }

  /** A record by the linker's key: its path, or `path#line` for an entry of a log. */
  private recordByKey(key: string): DecisionRecord | undefined {
    const record = this.records.get(key);
    if (record) return record;
    const hash = key.lastIndexOf('#');
    return hash < 0 ? undefined : this.entryRecord(key.slice(0, hash), Number(key.slice(hash + 1)));
  }

  /** A name the workspace defines elsewhere, or one of its folders or file names. */
  private isOwnName(name: string, file: string): boolean {
    if (this.listing.hasSegment(name)) return true;
    const defined = this.definitionFiles?.(name) ?? 0;
    return defined > 1 || (defined === 1 && !this.definesHere(name, file));
  }

  private definesHere(name: string, file: string): boolean {
    try {
      return this.code?.vocabularyOf(file)?.definitions.includes(name) ?? false;
    } catch {
      return false;
    }
  }

  private rebuildIndexes(): void {
    this.byNumber = new Map();
    for (const r of this.records.values()) {
      if (r.number === undefined) continue;
      const list = this.byNumber.get(r.number) ?? [];
      list.push(r);
      this.byNumber.set(r.number, list);
    }
    this.linker = this.makeLinker();
  }

  /** Word counts over the workspace's paths: counted once per listing, kept for the next process. */
  private async countPathWords(paths: readonly string[]): Promise<void> {
    const kept = this.cache?.loadPathCounts(paths);
    if (kept) return this.repo.restorePaths(kept);
    await this.repo.setPaths(paths);
    this.cache?.savePathCounts(paths, this.repo.pathCounts());
  }

  /** Drops the linker words of a record that changed (and of its log entries). */
  private forgetPrepared(path: string): void {
    for (const key of this.prepared.keys()) if (key === path || key.startsWith(`${path}#`)) this.prepared.delete(key);
  }

  /** A record's linker words, split once per version of its file. */
  private preparedOf(r: LinkableRecord): PreparedLinkable {
    let p = this.prepared.get(r.path);
    if (!p) {
      this.prepared.set(r.path, (p = prepareLinkable(r)));
      this.preparedChanged = true;
    }
    return p;
  }

  private makeLinker(): DecisionLinker {
    return new DecisionLinker(linkables(this.records.values()), this.repo, (r) => this.preparedOf(r));
  }

  collect(ctx: QueryContext): Promise<SuggestionItem[]> {
    return Promise.resolve(this.query(sourceQueryOf(ctx, this.importsOfFile)));
  }

  query(q: SourceQuery): SuggestionItem[] {
    const hits: DecisionHit[] = [];
    const notes: SuggestionItem[] = [];
    const file = q.file;
    const symbol = namedDefinition(q.symbol, file, this.definitionFiles);
    const inline = file ? this.texts.get(file, q.fileText) : undefined;
    if (file && inline) for (const note of inline.scan.notes) notes.push(noteItem(file, note, q));
    hits.push(
      ...explicitHits(this.listEntries(), {
        file,
        symbol,
        inline: inline?.scan,
        range: q.symbolRange,
        byPath: (p) => this.byPath(p),
        byNumber: (n) => (file && n !== undefined ? pickNumbered(this.byNumber.get(n) ?? [], file) : undefined),
        coverage: (m) => this.listing.coverageOf(m),
        filesNamed: (stem) => this.listing.filesNamed(stem),
        filesNamedWith: (words) => this.listing.filesNamedWith(words),
        siblingsOf: (f) => this.listing.siblingsOf(f),
      }),
    );
    if (file && !languageOf(file)) hits.push(...this.kindHits(file));
    // The strongest link by words alone: records shown must come near it too, as they did before it needed evidence.
    let unspecific = 0;
    if (file && this.linker?.size) {
      let used: Set<string> | undefined;
      for (const l of this.linker.link(file, this.queries.of(file, q, inline?.text))) {
        const adr = this.recordByKey(l.path);
        if (!adr) continue;
        if (l.unspecific) {
          // Words in common, and the file uses a name the record writes as code: that is specific.
          used ??= identifiersOf(inline?.text ?? '');
          const id = usedIdentifier(adr.links, used, (name) => this.isOwnName(name, file));
          if (id) {
            const reason = `this file uses \`${id}\`, which ${nameOf(adr)} names`;
            hits.push({ adr, score: l.strength, kind: 'text', reason, evidence: { kind: 'uses', words: [id] } });
          } else unspecific = Math.max(unspecific, l.strength);
        } else hits.push({ adr, score: l.strength, kind: 'text', reason: l.reason, evidence: l.evidence });
      }
    }
    return rankDecisions({
      file,
      hits,
      notes,
      unspecific,
      breadthOf: (key) => this.breadth.of(key),
      successorOf: (adr) => this.successorOf(adr),
      dateOf: (adr) => this.dateOf(adr),
    });
  }

  /** A file the code index does not parse: what the records say of its kind, name and folders. */
  private kindHits(file: string): DecisionHit[] {
    return fileKindHits(this.listEntries(), {
      file,
      filesNamed: (base) => this.listing.filesNamed(fileStem(base)),
      coverage: (m) => this.listing.coverageOf(m),
    });
  }

  /** Records matching free text, best first (memory subscriptions and searches). */
  search(text: string, limit: number): DecisionRecord[] {
    if (!this.linker) return [];
    // An entry of a log is found on its own, with its own title and text.
    return this.linker
      .search(text, limit)
      .map((h) => this.recordByKey(h.path))
      .filter((r): r is DecisionRecord => r !== undefined);
  }

  /** Writes a new ADR into the decision folder in the format of the newest existing one; returns its root-relative path. */
  async recordDecision(input: NewDecision): Promise<string> {
    if (!this.folders.length && !this.records.size) await this.refresh();
    const folder = pickWriteFolder(this.root, this.records.values(), this.folders);
    const format = detectFormat(this.records.values(), folder);
    const name = writeAdrFile(join(this.root, folder), input, format, this.now());
    const path = folder && folder !== '.' ? `${folder}/${name}` : name;
    this.logger.info(`Recorded decision ${path}`);
    await this.refresh();
    return path;
  }

  private successorOf(adr: DecisionRecord): DecisionRecord | undefined {
    const ref = adr.supersededBy;
    if (ref?.target) {
      const byLink = this.records.get(posix.normalize(posix.join(posix.dirname(adr.path), ref.target)));
      if (byLink) return byLink;
    }
    if (ref?.number !== undefined) return this.findByNumber(ref.number, adr.folder);
    // The successor may only say "Supersedes" on its side.
    for (const r of this.records.values())
      if (r.supersedes.some((s) => s.number === adr.number && adr.number !== undefined && r.folder === adr.folder))
        return r;
    return undefined;
  }

  private findByNumber(n: number | undefined, folder?: string): DecisionRecord | undefined {
    const list = n === undefined ? undefined : this.byNumber.get(n);
    return list?.find((r) => r.folder === folder) ?? list?.[0];
  }

  private byPath(p: string): DecisionRecord | undefined {
    const clean = p.replace(/^\.?\//, '');
    const exact = this.records.get(clean);
    if (exact) return exact;
    for (const r of this.records.values()) if (r.path.endsWith('/' + clean)) return r;
    const named = /(?:^|\/)(\d+)[-_]([^/]*)$/.exec(clean);
    if (!named) return undefined;
    // A record moved aside without its number (`historic-adrs/signing-image-urls.md`) is the one the name
    // means; the number alone may since have gone to another record.
    for (const r of this.records.values()) if (r.path.endsWith('/' + named[2])) return r;
    return this.findByNumber(Number(named[1]));
  }
}
