import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { defaultConfig, type CoreConfig } from '../../config';
import { nullLogger, type Logger } from '../../logger';
import { all, run, transaction } from '../../store/sqlite';
import type { Store } from '../../store/store';
import type { SuggestionItem } from '../../types';
import { ChangedFiles } from '../changedFiles';
import { discoverDecisionFolders } from '../decisions/adrDiscovery';
import { walkFiles } from '../reports/walk';
import { score, type RefreshStats, type SignalSource, type SourceContext, type SourceQuery } from '../sourceQuery';
import { GENERIC_NAMES, identifierWords, looksBinary, slugify, splitSections, summarize } from './markdown';

/** A heading-delimited part of a markdown document. */
export interface DocSection {
  path: string;
  heading: string;
  /** The heading as shown: with the heading above it when the same heading appears more than once. */
  display: string;
  slug: string;
  line: number;
  endLine: number;
  summary: string;
  /** Identifiers written in backticks. */
  code: Set<string>;
  /** Every identifier-like token of the section, heading included. */
  identifiers: Set<string>;
  /** Path-like tokens (`src/payments/ledger.ts`, `ledger.ts`, `src/payments/`). */
  paths: string[];
  headingWords: Set<string>;
}

interface DocFile {
  mtimeMs: number;
  size: number;
  sections: DocSection[];
}

/** Folders whose markdown is build output or vendored, never project documentation. */
const SKIP_DIRS = new Set(['out', 'dist', 'build', 'coverage', 'target', 'vendor', 'reports', 'test-results', 'tmp', 'temp']);

export interface DocsSourceOptions extends SourceContext {
  maxDepth?: number;
  maxEntries?: number;
  /** Most items one query returns. */
  limit?: number;
}

interface Hit {
  section: DocSection;
  score: number;
  reason: string;
}

/**
 * Documentation sections (READMEs, docs/, top-level markdown; decision folders excluded) that
 * mention the symbol under the cursor, the file's path or name, or its module folder.
 */
export class DocsSource implements SignalSource {
  readonly name = 'docs';
  private readonly root: string;
  private readonly store?: Store;
  private readonly config: CoreConfig;
  private readonly logger: Logger;
  private readonly maxDepth: number;
  private readonly maxEntries: number;
  private readonly limit: number;
  private files = new Map<string, DocFile>();
  private byIdentifier = new Map<string, DocSection[]>();
  private withPaths: DocSection[] = [];
  private ftsFresh = false;
  /** Full-text rows per phrase, until the next change: the cursor mostly stays in one module. */
  private ftsCache = new Map<string, { path: string; line: string | number; heading: string }[]>();

  constructor(ctx: DocsSourceOptions) {
    this.root = ctx.root;
    this.store = ctx.store;
    this.config = ctx.config ?? defaultConfig;
    this.logger = ctx.logger ?? nullLogger;
    this.maxDepth = ctx.maxDepth ?? 8;
    this.maxEntries = ctx.maxEntries ?? 100_000;
    this.limit = ctx.limit ?? 10;
  }

  /** Sections known since the last refresh. */
  sections(): DocSection[] {
    return [...this.files.values()].flatMap((f) => f.sections);
  }

  async refresh(signal?: AbortSignal): Promise<RefreshStats> {
    const started = performance.now();
    const adrFolders = discoverDecisionFolders(this.root, this.config.decisionFolders);
    const walk = walkFiles(this.root, {
      maxDepth: this.maxDepth,
      maxEntries: this.maxEntries,
      signal,
      enterDir: (rel, name) => !name.startsWith('.') && !SKIP_DIRS.has(name) && !adrFolders.some((f) => rel === f || rel.startsWith(f + '/')),
    });
    const docs = walk.files.filter(isDocFile);
    const next = new Map<string, DocFile>();
    const changedPaths: string[] = [];
    const changedFiles = new ChangedFiles({
      root: this.root,
      previous: this.files,
      maxBytes: this.config.index.maxFileBytes,
      logger: this.logger,
      signal,
      messages: {
        tooLarge: (path) => `Skipped ${path}: too large for the docs index.`,
        binary: (path) => `Skipped ${path}: it is named like a document but holds binary content.`,
      },
    });
    for (const file of changedFiles.visit(docs)) {
      if (file.kind === 'unchanged') {
        next.set(file.path, file.entry);
        continue;
      }
      changedPaths.push(file.path);
      let sections: DocSection[] = [];
      if (file.kind === 'changed') {
        sections = sectionsOf(file.path, file.text);
        changedFiles.markParsed();
      }
      next.set(file.path, { ...file.stamp, sections });
    }
    const removed = [...this.files.keys()].filter((p) => !next.has(p));
    this.files = next;
    if (changedPaths.length || removed.length || !this.ftsFresh) {
      this.rebuildMemoryIndex();
      this.writeFts(this.ftsFresh ? [...changedPaths, ...removed] : undefined);
    }
    let entries = 0;
    for (const f of next.values()) entries += f.sections.length;
    return { files: docs.length, parsed: changedFiles.parsed, skipped: changedFiles.skipped, entries, ms: performance.now() - started };
  }

  private rebuildMemoryIndex(): void {
    this.ftsCache = new Map();
    const byIdentifier = new Map<string, DocSection[]>();
    const withPaths: DocSection[] = [];
    for (const f of this.files.values()) {
      for (const s of f.sections) {
        for (const id of s.identifiers) {
          const list = byIdentifier.get(id);
          if (list) list.push(s);
          else byIdentifier.set(id, [s]);
        }
        if (s.paths.length) withPaths.push(s);
      }
    }
    this.byIdentifier = byIdentifier;
    this.withPaths = withPaths;
  }

  /** Rewrites the text index rows of the given paths, or of everything when `paths` is undefined. */
  private writeFts(paths: string[] | undefined): void {
    if (!this.store) return;
    const db = this.store.index;
    const bodies = new Map<string, string>();
    transaction(db, () => {
      if (!paths) run(db, 'DELETE FROM docs_fts');
      else for (const p of paths) run(db, 'DELETE FROM docs_fts WHERE path = ?', [p]);
      const targets = paths ? paths.filter((p) => this.files.has(p)) : [...this.files.keys()];
      for (const p of targets) {
        const text = this.readText(p);
        if (text === undefined) continue;
        bodies.set(p, text);
        const lines = text.split(/\r?\n/);
        for (const s of this.files.get(p)!.sections) {
          run(db, 'INSERT INTO docs_fts (path, heading, line, body) VALUES (?, ?, ?, ?)', [p, s.heading, s.line, lines.slice(s.line - 1, s.endLine).join('\n')]);
        }
      }
    });
    this.store.markIndexDirty();
    this.ftsFresh = true;
  }

  private readText(path: string): string | undefined {
    try {
      const buf = readFileSync(join(this.root, path));
      return looksBinary(buf) ? undefined : buf.toString('utf8');
    } catch {
      return undefined;
    }
  }

  query(q: SourceQuery): SuggestionItem[] {
    const hits = new Map<DocSection, Hit>();
    const add = (section: DocSection, s: number, reason: string) => {
      const prev = hits.get(section);
      if (!prev || prev.score < s) hits.set(section, { section, score: s, reason });
    };
    const label = (s: DocSection) => `${s.path}${s.display ? ` § ${s.display}` : ''}`;
    const symbol = q.symbol && /^[A-Za-z_$][\w$.]*$/.test(q.symbol) ? q.symbol.split('.').pop()! : undefined;

    if (symbol && symbol.length >= 3) {
      for (const s of this.byIdentifier.get(symbol) ?? []) {
        if (s.headingWords.has(symbol)) add(s, 0.9, `${label(s)} is about \`${symbol}\``);
        else if (s.code.has(symbol)) add(s, 0.85, `${label(s)} mentions \`${symbol}\``);
        else add(s, 0.72, `${label(s)} mentions ${symbol}`);
      }
    }

    const file = q.file;
    const base = file ? file.slice(file.lastIndexOf('/') + 1) : undefined;
    const stem = base ? base.replace(/\.(test|spec)(?=\.)/, '').replace(/\.[^.]+$/, '') : undefined;
    const dir = file && file.includes('/') ? file.slice(0, file.lastIndexOf('/')) : undefined;
    const folder = dir ? dir.slice(dir.lastIndexOf('/') + 1).toLowerCase() : undefined;
    if (file && base) {
      for (const s of this.withPaths) {
        for (const p of s.paths) {
          if (p === file || (p.includes('/') && file.endsWith('/' + p))) add(s, 0.8, `${label(s)} mentions ${p}`);
          else if (p === base) add(s, 0.68, `${label(s)} mentions ${base}`);
          else if (p.endsWith('/') && dir && (dir + '/' === p || (dir + '/').endsWith('/' + p))) add(s, 0.55, `${label(s)} mentions ${p} (this file's folder)`);
        }
      }
      if (stem && stem.length >= 4 && !GENERIC_NAMES.has(stem.toLowerCase()) && /[A-Z_]/.test(stem)) {
        for (const s of this.byIdentifier.get(stem) ?? []) add(s, s.code.has(stem) ? 0.62 : 0.58, `${label(s)} mentions ${s.code.has(stem) ? `\`${stem}\`` : stem} (this module)`);
      }
    }
    this.textMatches(stem, folder, add, label);

    return [...hits.values()]
      .sort((a, b) => b.score - a.score || a.section.path.localeCompare(b.section.path) || a.section.line - b.section.line)
      .slice(0, this.limit)
      .map((h) => this.item(h));
  }

  private textMatches(stem: string | undefined, folder: string | undefined, add: (s: DocSection, score: number, reason: string) => void, label: (s: DocSection) => string): void {
    if (!this.store) return;
    const terms: { word: string; weight: number; why: string }[] = [];
    if (stem && !GENERIC_NAMES.has(stem.toLowerCase())) {
      const words = identifierWords(stem).filter((w) => w.length >= 4 && !GENERIC_NAMES.has(w));
      if (words.length) terms.push({ word: words.join(' '), weight: 0.45, why: `"${words.join(' ')}" (this module's name)` });
    }
    if (folder && folder.length >= 4 && !GENERIC_NAMES.has(folder) && /^[a-z0-9_-]+$/.test(folder)) {
      for (const w of identifierWords(folder)) terms.push({ word: w, weight: 0.35, why: `${w} (this file's folder)` });
    }
    for (const t of terms) {
      const phrase = `"${t.word.replace(/"/g, '')}"`;
      let rows = this.ftsCache.get(phrase);
      if (!rows) {
        try {
          rows = all(this.store.index, 'SELECT path, line, heading FROM docs_fts WHERE docs_fts MATCH ? LIMIT 100', [phrase]);
        } catch (err) {
          this.logger.debug(`Docs text search failed: ${(err as Error).message}`);
          continue;
        }
        if (this.ftsCache.size >= 256) this.ftsCache.delete(this.ftsCache.keys().next().value as string);
        this.ftsCache.set(phrase, rows);
      }
      for (const r of rows) {
        const section = this.files.get(r.path)?.sections.find((s) => s.line === Number(r.line));
        if (!section) continue;
        const inHeading = r.heading.toLowerCase().includes(t.word);
        add(section, t.weight + (inHeading ? 0.1 : 0), `${label(section)} ${inHeading ? 'is titled after' : 'talks about'} ${t.why}`);
      }
    }
  }

  private item(h: Hit): SuggestionItem {
    const s = h.section;
    return {
      type: 'doc',
      title: s.display ? `${s.display} — ${s.path}` : s.path,
      summary: s.summary,
      relevanceScore: score(h.score),
      reason: h.reason,
      location: { path: s.path, line: s.line, endLine: s.endLine },
      entityId: `doc:${s.path}#${s.slug}`,
      meta: { heading: s.heading },
    };
  }
}

/** README files anywhere, markdown at the top level and under docs/ or doc/. */
export function isDocFile(rel: string): boolean {
  const name = rel.slice(rel.lastIndexOf('/') + 1);
  if (/^readme(\.(md|markdown|mdx|txt|rst))?$/i.test(name)) return true;
  if (!/\.(md|markdown|mdx)$/i.test(name)) return false;
  if (!rel.includes('/')) return true;
  return /^(docs?|documentation)\//i.test(rel) || /(^|\/)docs\//.test(rel);
}

const PATH_TOKEN = /(?:^|[\s(["'`<,])((?:\.{0,2}\/)?(?:[\w@.$-]+\/)+(?:[\w@.$-]+\.[A-Za-z0-9]{1,6})?|[\w@$-]+\.(?:ts|tsx|js|jsx|mjs|cjs|py|java|kt|go|rs|rb|php|cs|swift|c|cc|cpp|h|hpp|vue|svelte|sql|json|ya?ml|toml))(?=$|[\s)\]"'`>,;:!?.])/g;

/** Splits a document into sections with the tokens that queries look for. */
export function sectionsOf(path: string, text: string): DocSection[] {
  const seen = new Map<string, number>();
  const out: DocSection[] = [];
  const sections = splitSections(text);
  const repeats = new Map<string, number>();
  for (const sec of sections) repeats.set(sec.heading, (repeats.get(sec.heading) ?? 0) + 1);
  // The headings above the current one, outermost first: a changelog's "Bug Fixes" under each version.
  const above: { level: number; heading: string }[] = [];
  for (const sec of sections) {
    const heading = sec.heading;
    while (above.length && above[above.length - 1].level >= sec.level) above.pop();
    const parent = above[above.length - 1]?.heading;
    if (sec.level > 0) above.push({ level: sec.level, heading });
    const body = sec.body;
    const code = new Set<string>();
    for (const m of body.matchAll(/`([^`\n]+)`/g)) for (const id of m[1].match(/[A-Za-z_$][\w$]*/g) ?? []) if (id.length >= 3) code.add(id);
    for (const m of heading.matchAll(/[A-Za-z_$][\w$]*/g)) if (m[0].length >= 3) code.add(m[0]);
    const identifiers = new Set<string>();
    for (const id of (heading + '\n' + body).match(/[A-Za-z_$][\w$]*/g) ?? []) if (id.length >= 3) identifiers.add(id);
    const paths = new Set<string>();
    for (const m of body.replace(/https?:\/\/\S+/g, ' ').matchAll(PATH_TOKEN)) {
      const p = m[1].replace(/^\.\//, '').replace(/^\/+/, '');
      if (p.length >= 4 && !/^\d+(\/\d+)*\/?$/.test(p)) paths.add(p);
    }
    out.push({
      path,
      heading,
      display: heading && parent && (repeats.get(heading) ?? 0) > 1 ? `${parent} › ${heading}` : heading,
      slug: slugify(heading || path.slice(path.lastIndexOf('/') + 1), seen),
      line: sec.line,
      endLine: sec.endLine,
      summary: summarize(body) || heading,
      code,
      identifiers,
      paths: [...paths],
      headingWords: new Set(heading.match(/[A-Za-z_$][\w$]*/g) ?? []),
    });
  }
  return out;
}
