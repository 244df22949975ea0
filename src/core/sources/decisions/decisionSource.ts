import { readFileSync, statSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { join, posix } from 'node:path';
import Fuse from 'fuse.js';
import { defaultConfig, type CoreConfig } from '../../config';
import { nullLogger, type Logger } from '../../logger';
import { toRelative } from '../../paths';
import { all, run, transaction } from '../../store/sqlite';
import type { Store } from '../../store/store';
import type { SuggestionItem } from '../../types';
import { GENERIC_NAMES, identifierWords, looksBinary } from '../docs/markdown';
import { ChangedFiles } from '../changedFiles';
import { score, type RefreshStats, type SignalSource, type SourceContext, type SourceQuery } from '../sourceQuery';
import { adrDirSetting, discoverDecisionFolders, listAdrFiles, LOOSE_DECISION_FOLDERS } from './adrDiscovery';
import { extractLinks, type AdrLinks } from './adrLinks';
import { parseAdr, type ParsedAdr } from './adrParser';
import { DEFAULT_FORMAT, writeAdrFile, type AdrFormat, type NewDecision } from './adrWriter';
import { scanInline, type InlineScan } from './inlineRefs';

/** A decision record held in memory between refreshes. */
export interface DecisionRecord extends ParsedAdr {
  path: string;
  folder: string;
  /** Number as written in the file name (`0003`), or padded to 4 digits. */
  label: string;
  mtimeMs: number;
  size: number;
  links: AdrLinks;
}

/** Link strengths, strongest first (explicit path > symbol > module/folder > text). */
const SCORE = {
  inline: 0.95,
  file: 0.9,
  glob: 0.86,
  dir: 0.82,
  symbolCode: 0.75,
  symbolProse: 0.7,
  moduleCode: 0.62,
  moduleWord: 0.52,
  folderTitle: 0.48,
  folderWord: 0.42,
  text: 0.35,
};
const STRONG = 0.6;

interface Hit {
  adr: DecisionRecord;
  score: number;
  reason: string;
  kind: string;
  line?: number;
}

/**
 * Decisions that govern the code under the cursor: ADR files (Nygard, MADR, log4brains) linked by the
 * paths, globs and identifiers they name, by `ADR-12` references and `DECISION:` notes in the code, and
 * by text relevance. Also records new decisions as ADR files in the repository's own format.
 */
export class DecisionSource implements SignalSource {
  readonly name = 'decisions';
  private readonly root: string;
  private readonly store?: Store;
  private readonly config: CoreConfig;
  private readonly logger: Logger;
  private readonly now: () => number;
  private records = new Map<string, DecisionRecord>();
  private byNumber = new Map<number, DecisionRecord[]>();
  private folders: string[] = [];
  private fuse: Fuse<DecisionRecord> | undefined;
  private ftsFresh = false;
  private readonly inlineCache = new Map<string, { mtimeMs: number; size: number; scan: InlineScan }>();
  /** Text and fuzzy matches per (symbol, module, folder): the cursor mostly stays in one place. */
  private textCache = new Map<string, { path: string; score: number; kind: string; reason: string }[]>();

  constructor(ctx: SourceContext) {
    this.root = ctx.root;
    this.store = ctx.store;
    this.config = ctx.config ?? defaultConfig;
    this.logger = ctx.logger ?? nullLogger;
    this.now = ctx.now ?? Date.now;
  }

  /** The decision folders found at the last refresh (root-relative). */
  get decisionFolders(): readonly string[] {
    return this.folders;
  }

  /** All decisions known since the last refresh, by path. */
  list(): DecisionRecord[] {
    return [...this.records.values()];
  }

  async refresh(signal?: AbortSignal): Promise<RefreshStats> {
    const started = performance.now();
    this.folders = discoverDecisionFolders(this.root, this.config.decisionFolders);
    const files = listAdrFiles(this.root, this.folders);
    const folderOf = new Map(files.map((f) => [f.path, f.folder]));
    const next = new Map<string, DecisionRecord>();
    const changedFiles = new ChangedFiles({
      root: this.root,
      previous: this.records,
      maxBytes: this.config.index.maxFileBytes,
      logger: this.logger,
      signal,
      messages: {
        tooLarge: (path, size, limit) => `Skipped ${path}: ${size} bytes is over the ${limit}-byte limit for decision records.`,
        binary: (path) => `Skipped ${path}: it is named .md but holds binary content.`,
      },
    });
    let changed = false;
    for (const file of changedFiles.visit(folderOf.keys())) {
      const path = file.path;
      if (file.kind === 'unchanged') {
        next.set(path, file.entry);
        continue;
      }
      changed = true;
      if (file.kind === 'skipped') continue;
      const folder = folderOf.get(path)!;
      const name = path.slice(path.lastIndexOf('/') + 1);
      const adr = parseAdr(name, file.text);
      changedFiles.markParsed();
      if (LOOSE_DECISION_FOLDERS.has(folder) && adr.number === undefined && adr.status === 'unknown') continue;
      if (adr.status === 'unknown') this.logger.debug(`${path} has no status; it is treated as 'unknown'.`);
      const digits = /^(?:adr[-_]?)?(\d+)[-_]/i.exec(name)?.[1];
      const label = digits ?? (adr.number !== undefined ? String(adr.number).padStart(4, '0') : name.replace(/\.md$/i, ''));
      const links = extractLinks(adr.body, adr.sectionList[0]?.line ?? 1, posix.dirname(path));
      next.set(path, { ...adr, path, folder, label, ...file.stamp, links });
    }
    if (next.size !== this.records.size) changed = true;
    this.records = next;
    if (changed || !this.ftsFresh) this.rebuildIndexes();
    return { files: files.length, parsed: changedFiles.parsed, skipped: changedFiles.skipped, entries: next.size, ms: performance.now() - started };
  }

  private rebuildIndexes(): void {
    this.textCache = new Map();
    this.byNumber = new Map();
    for (const r of this.records.values()) {
      if (r.number === undefined) continue;
      const list = this.byNumber.get(r.number) ?? [];
      list.push(r);
      this.byNumber.set(r.number, list);
    }
    this.fuse = new Fuse([...this.records.values()], { keys: ['title'], includeScore: true, threshold: 0.35, ignoreLocation: true });
    if (this.store) {
      const db = this.store.index;
      transaction(db, () => {
        run(db, 'DELETE FROM decisions_fts');
        for (const r of this.records.values()) run(db, 'INSERT INTO decisions_fts (path, title, body) VALUES (?, ?, ?)', [r.path, r.title, r.body]);
      });
      this.store.markIndexDirty();
    }
    this.ftsFresh = true;
  }

  query(q: SourceQuery): SuggestionItem[] {
    const hits = new Map<string, Hit>();
    const add = (h: Hit) => {
      const prev = hits.get(h.adr.path);
      if (!prev || prev.score < h.score) hits.set(h.adr.path, h);
    };
    const items: SuggestionItem[] = [];
    const file = q.file;

    if (file) {
      const scan = this.inlineScan(file, q.fileText);
      for (const ref of scan.refs) {
        const adr = ref.path ? this.byPath(ref.path) : this.findByNumber(ref.number);
        if (adr) add({ adr, score: SCORE.inline, kind: 'inline', reason: `line ${ref.line} of ${file} refers to ${ref.text}`, line: ref.line });
      }
      for (const note of scan.notes) items.push(this.noteItem(file, note, q));
      for (const adr of this.records.values()) {
        for (const p of adr.links.paths) {
          if (!p.match(file)) continue;
          const s = p.kind === 'file' ? SCORE.file : p.kind === 'glob' ? SCORE.glob : SCORE.dir;
          const verb = p.kind === 'file' ? 'names' : p.kind === 'glob' ? 'covers' : 'governs';
          add({ adr, score: s, kind: p.kind, reason: `ADR ${adr.label} ${verb} ${p.text}${p.kind === 'file' ? '' : ` (${file} is under it)`}`, line: p.line });
        }
      }
    }

    const symbol = q.symbol && /^[A-Za-z_$][\w$.]*$/.test(q.symbol) ? q.symbol.split('.').pop()! : undefined;
    const stem = file ? fileStem(file) : undefined;
    const folder = file ? parentFolder(file) : undefined;
    for (const adr of this.records.values()) {
      const L = adr.links;
      if (symbol && symbol.length >= 3) {
        const code = L.codeIdentifiers.get(symbol);
        if (code !== undefined) add({ adr, score: SCORE.symbolCode, kind: 'symbol', reason: `ADR ${adr.label} mentions \`${symbol}\``, line: code });
        else {
          const prose = L.camelWords.get(symbol);
          if (prose !== undefined) add({ adr, score: SCORE.symbolProse, kind: 'symbol', reason: `ADR ${adr.label} mentions ${symbol}`, line: prose });
        }
      }
      if (stem && !GENERIC_NAMES.has(stem.toLowerCase())) {
        const code = L.codeIdentifiers.get(stem) ?? L.camelWords.get(stem);
        if (code !== undefined && stem.length >= 4) add({ adr, score: SCORE.moduleCode, kind: 'module', reason: `ADR ${adr.label} mentions \`${stem}\` (this module)`, line: code });
        else if (stem.length >= 4 && L.words.has(stem.toLowerCase())) add({ adr, score: SCORE.moduleWord, kind: 'module', reason: `ADR ${adr.label} mentions "${stem}" (this module's name)` });
      }
      if (folder && folder.length >= 4 && !GENERIC_NAMES.has(folder)) {
        if (adr.title.toLowerCase().split(/[^a-z0-9_]+/).includes(folder)) add({ adr, score: SCORE.folderTitle, kind: 'folder', reason: `ADR ${adr.label}'s title mentions ${folder} (this file's folder)` });
        else if (L.words.has(folder)) add({ adr, score: SCORE.folderWord, kind: 'folder', reason: `ADR ${adr.label} mentions ${folder} (this file's folder)` });
      }
    }

    this.textMatches(symbol, stem, folder, add);

    const out = new Map<string, SuggestionItem>();
    const put = (item: SuggestionItem) => {
      const prev = out.get(item.entityId);
      if (!prev || prev.relevanceScore < item.relevanceScore) out.set(item.entityId, item);
    };
    for (const h of hits.values()) {
      const adr = h.adr;
      const retired = adr.status === 'superseded' || adr.status === 'deprecated';
      if (retired && h.score >= STRONG) {
        const successor = this.successorOf(adr);
        put(this.retiredWarning(adr, successor, h));
        if (successor) put(this.decisionItem(successor, h.score * 0.95, `supersedes ADR ${adr.label}; ${h.reason}`, h.kind));
        continue;
      }
      const factor = retired ? 0.4 : adr.status === 'rejected' ? 0.6 : adr.status === 'proposed' || adr.status === 'unknown' ? 0.9 : 1;
      put(this.decisionItem(adr, h.score * factor, h.reason, h.kind, h.line));
    }
    for (const i of items) put(i);
    return [...out.values()].sort((a, b) => b.relevanceScore - a.relevanceScore);
  }

  /** Writes a new ADR into the decision folder in the format of the newest existing one; returns its root-relative path. */
  async recordDecision(input: NewDecision): Promise<string> {
    if (!this.folders.length && !this.records.size) await this.refresh();
    const folder = this.pickWriteFolder();
    const format = this.detectFormat(folder);
    const name = writeAdrFile(join(this.root, folder), input, format, this.now());
    const path = `${folder}/${name}`;
    this.logger.info(`Recorded decision ${path}`);
    await this.refresh();
    return path;
  }

  private pickWriteFolder(): string {
    const counts = new Map<string, number>();
    for (const r of this.records.values()) counts.set(r.folder, (counts.get(r.folder) ?? 0) + 1);
    // adr-tools creates the folder `.adr-dir` names; otherwise prefer the first discovered folder that holds ADRs.
    const configured = adrDirSetting(this.root);
    if (configured) return configured;
    return this.folders.find((f) => counts.get(f)) ?? this.folders.find((f) => !LOOSE_DECISION_FOLDERS.has(f)) ?? 'docs/adr';
  }

  private detectFormat(folder: string): AdrFormat {
    const inFolder = [...this.records.values()].filter((r) => r.folder === folder);
    if (!inFolder.length) return DEFAULT_FORMAT;
    const newest = inFolder.reduce((a, b) => ((b.number ?? -1) > (a.number ?? -1) || ((b.number ?? -1) === (a.number ?? -1) && (b.date ?? 0) > (a.date ?? 0)) ? b : a));
    const digits = /^(?:adr[-_]?)?(\d+)[-_]/i.exec(newest.path.slice(newest.path.lastIndexOf('/') + 1))?.[1];
    return { style: newest.style, titleStyle: newest.titleStyle, bullet: newest.bullet ?? '*', padding: digits?.length ?? 4 };
  }

  private textMatches(symbol: string | undefined, stem: string | undefined, folder: string | undefined, add: (h: Hit) => void): void {
    const key = `${symbol ?? ''}|${stem ?? ''}|${folder ?? ''}`;
    let found = this.textCache.get(key);
    if (!found) {
      found = [];
      const collect = (h: Hit) => found!.push({ path: h.adr.path, score: h.score, kind: h.kind, reason: h.reason });
      this.computeTextMatches(symbol, stem, folder, collect);
      if (this.textCache.size >= 256) this.textCache.delete(this.textCache.keys().next().value as string);
      this.textCache.set(key, found);
    }
    for (const f of found) {
      const adr = this.records.get(f.path);
      if (adr) add({ adr, score: f.score, kind: f.kind, reason: f.reason });
    }
  }

  private computeTextMatches(symbol: string | undefined, stem: string | undefined, folder: string | undefined, add: (h: Hit) => void): void {
    const terms = new Set<string>();
    for (const t of [symbol, stem, folder]) if (t) for (const w of identifierWords(t)) if (!GENERIC_NAMES.has(w)) terms.add(w);
    if (!terms.size) return;
    if (this.store) {
      const match = [...terms].map((t) => `"${t}"`).join(' OR ');
      let rows: { path: string }[] = [];
      try {
        rows = all<{ path: string }>(this.store.index, 'SELECT path FROM decisions_fts WHERE decisions_fts MATCH ? LIMIT 50', [match]);
      } catch (err) {
        this.logger.debug(`Decision text search failed: ${(err as Error).message}`);
      }
      for (const { path } of rows) {
        const adr = this.records.get(path);
        if (!adr) continue;
        const found = [...terms].filter((t) => adr.links.words.has(t) || adr.title.toLowerCase().includes(t));
        if (!found.length) continue;
        add({ adr, score: SCORE.text * (0.5 + (0.5 * found.length) / terms.size), kind: 'text', reason: `ADR ${adr.label} talks about ${found.join(', ')}` });
      }
    }
    if (this.fuse) {
      for (const name of [symbol, stem]) {
        if (!name || name.length < 4 || GENERIC_NAMES.has(name.toLowerCase())) continue;
        const phrase = identifierWords(name).join(' ');
        if (!phrase) continue;
        for (const r of this.fuse.search(phrase, { limit: 3 })) {
          const s = 1 - (r.score ?? 1);
          if (s < 0.65) continue;
          add({ adr: r.item, score: SCORE.text * 0.9 * s, kind: 'fuzzy', reason: `ADR ${r.item.label}'s title "${r.item.title}" resembles ${name}` });
        }
      }
    }
  }

  private decisionItem(adr: DecisionRecord, s: number, reason: string, kind: string, line?: number): SuggestionItem {
    const meta: Record<string, string | number | boolean> = { status: adr.status, link: kind };
    if (adr.number !== undefined) meta.number = adr.number;
    if (adr.deciders.length) meta.deciders = adr.deciders.join(', ');
    if (adr.date !== undefined) meta.date = new Date(adr.date).toISOString().slice(0, 10);
    if (line !== undefined) meta.mentionLine = line;
    return {
      type: 'decision',
      title: `ADR ${adr.label}: ${adr.title}`,
      summary: adr.summary,
      relevanceScore: score(s),
      reason,
      location: { path: adr.path, adr: adr.label },
      entityId: `decision:${adr.path}`,
      timestamp: adr.date ?? adr.mtimeMs,
      meta,
    };
  }

  private retiredWarning(adr: DecisionRecord, successor: DecisionRecord | undefined, h: Hit): SuggestionItem {
    const title = successor
      ? `Governed by superseded ADR ${adr.label} — see ADR ${successor.label}: ${successor.title}`
      : adr.status === 'superseded'
        ? `Governed by superseded ADR ${adr.label}: ${adr.title}`
        : `Governed by deprecated ADR ${adr.label}: ${adr.title}`;
    const summary = successor
      ? `ADR ${adr.label} "${adr.title}" was superseded by ADR ${successor.label} "${successor.title}"; check that this code follows the newer decision.`
      : `ADR ${adr.label} "${adr.title}" is ${adr.status}${adr.statusText ? ` (${firstLine(adr.statusText)})` : ''}; this code may rely on a decision that no longer holds.`;
    const meta: Record<string, string | number | boolean> = { status: adr.status, link: h.kind };
    if (successor) meta.successor = successor.path;
    return {
      type: 'warning',
      title,
      summary,
      relevanceScore: score(h.score),
      reason: h.reason,
      location: { path: adr.path, adr: adr.label },
      entityId: `warning:decision:${adr.path}`,
      timestamp: adr.date ?? adr.mtimeMs,
      meta,
    };
  }

  private noteItem(file: string, note: { line: number; endLine: number; text: string }, q: SourceQuery): SuggestionItem {
    const near =
      (q.symbolRange && note.line >= q.symbolRange.start - 3 && note.line <= q.symbolRange.end) || (q.line !== undefined && Math.abs(note.line - q.line) <= 15);
    const short = note.text.length > 80 ? note.text.slice(0, 79).trimEnd() + '…' : note.text;
    const hash = createHash('sha1').update(note.text).digest('hex').slice(0, 10);
    return {
      type: 'decision',
      title: `Decision note: ${short}`,
      summary: note.text,
      relevanceScore: score(near ? 0.92 : 0.8),
      reason: `DECISION: note at line ${note.line} of ${file}${near ? ', next to the cursor' : ''}`,
      location: { path: file, line: note.line, endLine: note.endLine },
      entityId: `decision:${file}#note-${hash}`,
      meta: { status: 'note' },
    };
  }

  private successorOf(adr: DecisionRecord): DecisionRecord | undefined {
    const ref = adr.supersededBy;
    if (ref?.target) {
      const byLink = this.records.get(posix.normalize(posix.join(posix.dirname(adr.path), ref.target)));
      if (byLink) return byLink;
    }
    if (ref?.number !== undefined) return this.findByNumber(ref.number, adr.folder);
    // The successor may only say "Supersedes" on its side.
    for (const r of this.records.values()) if (r.supersedes.some((s) => s.number === adr.number && adr.number !== undefined && r.folder === adr.folder)) return r;
    return undefined;
  }

  private findByNumber(n: number | undefined, folder?: string): DecisionRecord | undefined {
    if (n === undefined) return undefined;
    const list = this.byNumber.get(n);
    if (!list) return undefined;
    return list.find((r) => r.folder === folder) ?? list[0];
  }

  private byPath(p: string): DecisionRecord | undefined {
    const clean = p.replace(/^\.?\//, '');
    const exact = this.records.get(clean);
    if (exact) return exact;
    for (const r of this.records.values()) if (r.path.endsWith('/' + clean)) return r;
    const n = /(?:^|\/)(\d+)[-_][^/]*$/.exec(clean)?.[1];
    return n !== undefined ? this.findByNumber(Number(n)) : undefined;
  }

  private inlineScan(file: string, text: string | undefined): InlineScan {
    if (text !== undefined) return scanInline(text);
    if (toRelative(this.root, file) === undefined) return { refs: [], notes: [] };
    const abs = join(this.root, file);
    try {
      const st = statSync(abs);
      const cached = this.inlineCache.get(file);
      if (cached && cached.mtimeMs === st.mtimeMs && cached.size === st.size) return cached.scan;
      if (st.size > this.config.index.maxFileBytes) return { refs: [], notes: [] };
      const buf = readFileSync(abs);
      const scan = looksBinary(buf) ? { refs: [], notes: [] } : scanInline(buf.toString('utf8'));
      if (this.inlineCache.size > 64) this.inlineCache.delete(this.inlineCache.keys().next().value as string);
      this.inlineCache.set(file, { mtimeMs: st.mtimeMs, size: st.size, scan });
      return scan;
    } catch {
      return { refs: [], notes: [] };
    }
  }
}

function fileStem(file: string): string {
  const base = file.slice(file.lastIndexOf('/') + 1);
  return base.replace(/\.(test|spec)(?=\.)/, '').replace(/\.[^.]+$/, '');
}

function parentFolder(file: string): string | undefined {
  const parts = file.split('/');
  return parts.length >= 2 ? parts[parts.length - 2].toLowerCase() : undefined;
}

function firstLine(s: string): string {
  return s.split(/\r?\n/).find((l) => l.trim())?.trim() ?? '';
}
