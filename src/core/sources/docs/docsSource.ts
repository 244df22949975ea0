import { defaultConfig, type CoreConfig } from '../../config';
import { nullLogger, type Logger } from '../../logger';
import { kindFloor } from '../../provider/scoring';
import type { SuggestionItem } from '../../types';
import { ChangedFiles } from '../changedFiles';
import { discoverDecisions } from '../decisions/adrDiscovery';
import { walkFilesAsync } from '../reports/walk';
import { TimeSlice } from '../../timeSlice';
import { score, sourceQueryOf } from '../sourceQuery';
import type { RefreshStats, SourceWiring, SourceQuery, QueryContext, WorkspaceSource } from '../sourceQuery';
import { LexicalIndex } from './lexicalIndex';
import { isAssistantInstructions, isPlanningDocument, isTestDocument } from './planningDocs';
import { translatedDocs } from './translations';
import { isDocFile, sectionsOf, type DocSection } from './docSections';
import { documentHome, isDataFile, isGenericFolder, isHomeOf, isLayoutTour, isListing } from './docEvidence';
import { CONVENTIONS, componentsOf, endsWithPath, moduleName, saysWhose } from './docOwnership';
import { GENERIC_NAMES, isGenericSymbol, surfaceWords, termsOf } from './textTerms';

// Section parsing lives in its own module; re-exported so callers keep one import.
export { isDocFile, isReleaseNotes, sectionsOf, type DocSection } from './docSections';
export { endsWithPath } from './docOwnership';

interface DocFile {
  mtimeMs: number;
  size: number;
  sections: DocSection[];
}

/** Folders whose markdown is build output or vendored, never project documentation. */
const SKIP_DIRS = new Set([
  'out',
  'dist',
  'build',
  'coverage',
  'target',
  'vendor',
  'reports',
  'test-results',
  'tmp',
  'temp',
]);

/** Link strengths, strongest first: the symbol named in a heading > in code > a path > words. */
const STRENGTH = {
  symbolHeading: 0.9,
  symbolCode: 0.85,
  path: 0.8,
  symbolProse: 0.72,
  baseName: 0.68,
  moduleCode: 0.62,
  moduleProse: 0.58,
  folder: 0.55,
  convention: 0.6,
};
/** Field weights of the text model: a heading word counts three body words. */
const TEXT_FIELDS = { title: 3, body: 1 };
/** Strongest link words alone make for a doc section. */
const MAX_TEXT = 0.52;

export interface DocsSourceOptions extends SourceWiring {
  maxDepth?: number;
  maxEntries?: number;
  /** Most items one query returns. */
  limit?: number;
  /** Tells decision records apart (they belong to the decisions source); discovered here when absent. */
  isDecisionRecord?: (path: string) => boolean;
}

interface Hit {
  section: DocSection;
  score: number;
  reason: string;
}

/**
 * Documentation sections (READMEs, docs/, top-level markdown; decision records excluded) that
 * mention the symbol under the cursor, the file's path or name, or its module folder, or whose
 * words are what the file is named after. Release-note sections are shown only when they name
 * this file or symbol.
 */
export class DocsSource implements WorkspaceSource {
  readonly name = 'docs';
  readonly kinds = ['doc'] as const;
  private readonly importsOfFile: ((file: string) => string[]) | undefined;
  private readonly definitionFiles: ((name: string) => number) | undefined;
  private readonly root: string;
  private readonly config: CoreConfig;
  private readonly logger: Logger;
  private readonly maxDepth: number;
  private readonly maxEntries: number;
  private readonly limit: number;
  private readonly isDecisionRecord?: (path: string) => boolean;
  private files = new Map<string, DocFile>();
  private byIdentifier = new Map<string, DocSection[]>();
  private withPaths: DocSection[] = [];
  /** Sections of the project's conventions documents (`coding-conventions.md`, a style guide). */
  private conventions: DocSection[] = [];
  private text: LexicalIndex<DocSection> | undefined;
  /** Documents that translate another one here: their sections would repeat the original's. */
  private translations = new Set<string>();
  /** How many documents have a section of each heading (its words): "Manual capture" in every guide. */
  private headingDocuments = new Map<string, number>();
  /** How many of the workspace's files carry each file name stem (`Application` of `Application.kt`). */
  private stems = new Map<string, number>();
  /** Folders of documents that hold as much code as documents or more: a component, whose documents speak for it. */
  private components = new Set<string>();

  constructor(ctx: DocsSourceOptions) {
    this.root = ctx.root;
    this.importsOfFile = ctx.importsOf;
    this.definitionFiles = ctx.definitionFiles;
    this.config = ctx.config ?? defaultConfig;
    this.logger = ctx.logger ?? nullLogger;
    this.maxDepth = ctx.maxDepth ?? 8;
    this.maxEntries = ctx.maxEntries ?? 100_000;
    this.limit = ctx.limit ?? 10;
    this.isDecisionRecord = ctx.isDecisionRecord;
  }

  /** Sections known since the last refresh. */
  sections(): DocSection[] {
    return [...this.files.values()].flatMap((f) => f.sections);
  }

  async refresh(signal?: AbortSignal): Promise<RefreshStats> {
    const started = performance.now();
    let isRecord = this.isDecisionRecord;
    if (!isRecord) {
      const records = new Set(
        (await discoverDecisions(this.root, { configured: this.config.decisionFolders, signal })).files.map(
          (f) => f.path,
        ),
      );
      isRecord = (p) => records.has(p);
    }
    const walk = await walkFilesAsync(this.root, {
      maxDepth: this.maxDepth,
      maxEntries: this.maxEntries,
      signal,
      enterDir: (_rel, name) => !name.startsWith('.') && !SKIP_DIRS.has(name),
    });
    const docs = walk.files.filter(
      (p) =>
        isDocFile(p) && !isRecord(p) && !isPlanningDocument(p) && !isTestDocument(p) && !isAssistantInstructions(p),
    );
    this.translations = translatedDocs(docs);
    const stems = new Map<string, number>();
    for (const p of walk.files) {
      const stem = moduleName(p);
      stems.set(stem, (stems.get(stem) ?? 0) + 1);
    }
    this.stems = stems;
    this.components = componentsOf(docs, walk.files);
    const next = new Map<string, DocFile>();
    let changed = false;
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
    const slice = new TimeSlice();
    for (const file of changedFiles.visit(docs)) {
      await slice.pause();
      if (file.kind === 'unchanged') {
        next.set(file.path, file.entry);
        continue;
      }
      changed = true;
      let sections: DocSection[] = [];
      if (file.kind === 'changed') {
        sections = sectionsOf(file.path, file.text);
        changedFiles.markParsed();
      }
      next.set(file.path, { ...file.stamp, sections });
    }
    if (next.size !== this.files.size) changed = true;
    this.files = next;
    if (changed || !this.text) this.rebuildMemoryIndex();
    let entries = 0;
    for (const f of next.values()) entries += f.sections.length;
    return {
      files: docs.length,
      parsed: changedFiles.parsed,
      skipped: changedFiles.skipped,
      entries,
      ms: performance.now() - started,
    };
  }

  private rebuildMemoryIndex(): void {
    const byIdentifier = new Map<string, DocSection[]>();
    const withPaths: DocSection[] = [];
    const prose: DocSection[] = [];
    const headingDocuments = new Map<string, Set<string>>();
    for (const f of this.files.values()) {
      for (const s of f.sections) {
        // A reference a tool wrote from the code repeats the code at the cursor: nothing to add to it.
        if (s.generated) continue;
        for (const id of s.identifiers) {
          const list = byIdentifier.get(id);
          if (list) list.push(s);
          else byIdentifier.set(id, [s]);
        }
        if (s.paths.length) withPaths.push(s);
        if (!s.releaseNotes) prose.push(s);
        const key = s.headingTerms.join(' ');
        if (key) headingDocuments.set(key, (headingDocuments.get(key) ?? new Set()).add(s.path));
      }
    }
    this.byIdentifier = byIdentifier;
    this.withPaths = withPaths;
    this.conventions = prose.filter((sec) => CONVENTIONS.test(sec.path.slice(sec.path.lastIndexOf('/') + 1)));
    this.headingDocuments = new Map([...headingDocuments].map(([k, docs]) => [k, docs.size]));
    this.text = new LexicalIndex(
      prose.map((s) => ({
        key: s,
        fields: {
          title: { terms: s.headingTerms, weight: TEXT_FIELDS.title },
          body: { terms: s.bodyTerms, weight: TEXT_FIELDS.body },
        },
      })),
    );
  }

  collect(ctx: QueryContext): Promise<SuggestionItem[]> {
    return Promise.resolve(this.query(sourceQueryOf(ctx, this.importsOfFile)));
  }

  // eslint-disable-next-line complexity -- the ranking signals of one query, in order
  query(q: SourceQuery): SuggestionItem[] {
    const hits = new Map<DocSection, Hit>();
    const add = (section: DocSection, s: number, reason: string) => {
      const prev = hits.get(section);
      if (!prev || prev.score < s) hits.set(section, { section, score: s, reason });
    };
    const label = (s: DocSection) => `${s.path}${s.display ? ` § ${s.display}` : ''}`;
    const named = q.symbol && /^[A-Za-z_$][\w$.]*$/.test(q.symbol) ? q.symbol.split('.').pop()! : undefined;
    // `__hash__`, `toString`, the `build` of every validator: a section that names one is about some other definition.
    // A key of a data file (`workspaces` in package.json, `services` in a compose file) is the
    // format's vocabulary: a section that names it talks about something else of that name.
    const data = q.file !== undefined && isDataFile(q.file);
    const symbol =
      named && !data && !isGenericSymbol(named) && (this.definitionFiles?.(named) ?? 0) <= MAX_SYMBOL_FILES
        ? named
        : undefined;

    // A document of another component (its README's "Run" section) is about that component: there a
    // plain word in a heading is that component's, and only code names this definition.
    const shaped = symbol !== undefined && /[a-z0-9][A-Z]|_/.test(symbol);
    const home = (s: DocSection) => q.file === undefined || isHomeOf(s.path, q.file);
    if (symbol && symbol.length >= 3) {
      for (const s of this.byIdentifier.get(symbol) ?? []) {
        if (!saysWhose(s, symbol, q)) continue;
        const titled = s.headingWords.has(symbol);
        if (titled && !shaped && !home(s)) continue;
        if (titled) add(s, STRENGTH.symbolHeading, `${label(s)} is about \`${symbol}\``);
        // A release note that names a class says when it changed (recent changes say that); a
        // listing of many files names each one in passing.
        else if (s.releaseNotes || isListing(s)) continue;
        else if (s.code.has(symbol)) add(s, STRENGTH.symbolCode, `${label(s)} mentions \`${symbol}\``);
        // In prose only a name that reads as an identifier counts: `update` or `Tag` is a plain word there.
        else if (shaped) add(s, STRENGTH.symbolProse, `${label(s)} mentions ${symbol}`);
      }
    }

    const file = q.file;
    const base = file ? file.slice(file.lastIndexOf('/') + 1) : undefined;
    const stem = base ? base.replace(/\.(test|spec)(?=\.)/, '').replace(/\.[^.]+$/, '') : undefined;
    const dir = file && file.includes('/') ? file.slice(0, file.lastIndexOf('/')) : undefined;
    if (file && base) {
      const folder = dir === undefined ? undefined : dir + '/';
      for (const s of this.withPaths) {
        if (isListing(s)) continue;
        const docFolder = s.path.includes('/') ? s.path.slice(0, s.path.lastIndexOf('/') + 1) : '';
        for (const p of s.paths) {
          if (p === file || (p.includes('/') && endsWithPath(file, p)))
            add(s, STRENGTH.path, `${label(s)} mentions ${p}`);
          // `main.rs`, `index.js` alone may be any of the workspace's files of that name.
          // Another component's README names its own `Dockerfile`.
          else if (p === base && !GENERIC_NAMES.has(stem!.toLowerCase()) && home(s))
            add(s, STRENGTH.baseName, `${label(s)} mentions ${base}`);
          // Release notes name files they changed; a folder they mention is not about this file.
          // A bare `src/` or `lib/` (`batgrep needle src/`) names most of the code, not this file's part of it.
          // A folder is this file's when the mention leads there from the root or from the document:
          // `hooks/` in another component's README is that component's folder, not every `hooks/`.
          else if (
            !s.releaseNotes &&
            p.endsWith('/') &&
            folder &&
            (folder === p || folder === docFolder + p) &&
            !isGenericFolder(p) &&
            !isLayoutTour(s)
          )
            add(s, STRENGTH.folder, `${label(s)} mentions ${p} (this file's folder)`);
        }
      }
      // A name many files carry (`Application.kt` in every service) is none of them in particular.
      const shared = (this.stems.get(moduleName(file)) ?? 0) > MAX_SYMBOL_FILES;
      if (stem && stem.length >= 4 && !shared && !GENERIC_NAMES.has(stem.toLowerCase()) && /[A-Z_]/.test(stem)) {
        for (const s of this.byIdentifier.get(stem) ?? []) {
          if (s.releaseNotes || isListing(s) || (!home(s) && !s.code.has(stem))) continue;
          add(
            s,
            s.code.has(stem) ? STRENGTH.moduleCode : STRENGTH.moduleProse,
            `${label(s)} mentions ${s.code.has(stem) ? `\`${stem}\`` : stem} (this module)`,
          );
        }
      }
    }
    if (file) this.conventionsFor(file, home, add, label);
    this.textMatches(file, symbol, add, label);

    // One section per document, its best: the reader opens the document there, and the next
    // sections of the same page only crowd out other documents.
    const documents = new Set<string>();
    return (
      [...hits.values()]
        // A heading with no text of its own has nothing to read: its subsections carry the text.
        .filter((h) => h.score >= kindFloor.doc && h.section.hasText && !this.translations.has(h.section.path))
        // Another component's document names this code as that component uses it, for its own readers.
        .filter((h) => home(h.section) || !this.components.has(documentHome(h.section.path)))
        .sort(
          (a, b) =>
            b.score - a.score || a.section.path.localeCompare(b.section.path) || a.section.line - b.section.line,
        )
        .filter((h) => !documents.has(h.section.path) && documents.add(h.section.path))
        .slice(0, this.limit)
        .map((h) => this.item(h))
    );
  }

  /**
   * The section of a conventions document titled by the kind of file at hand: "Models" of a
   * `coding-conventions.md` for a `models.py`, "Controllers" for a file in `controllers/`. It says
   * how every file of that kind is written.
   */
  private conventionsFor(
    file: string,
    home: (s: DocSection) => boolean,
    add: (s: DocSection, score: number, reason: string) => void,
    label: (s: DocSection) => string,
  ): void {
    if (!this.conventions.length) return;
    const parts = file.split('/');
    // A kind is one word: the file's (`models.py`) or its folder's (`controllers/`).
    const kinds = new Set(
      [moduleName(file), ...(parts.length >= 2 ? [parts[parts.length - 2]] : [])]
        .map((n) => termsOf(n))
        .filter((t) => t.length === 1)
        .map((t) => t[0]),
    );
    for (const s of this.conventions) {
      if (s.headingTerms.length !== 1 || !kinds.has(s.headingTerms[0]) || !home(s)) continue;
      add(s, STRENGTH.convention, `${label(s)} is the project's convention for ${s.heading.toLowerCase()}`);
    }
  }

  /** Sections whose words are what the file is named after: whole words, a heading counting more than the body. */
  private textMatches(
    file: string | undefined,
    symbol: string | undefined,
    add: (s: DocSection, score: number, reason: string) => void,
    label: (s: DocSection) => string,
  ): void {
    if (!file || !this.text?.size) return;
    const parts = file.split('/');
    // `link_test.go`, `test_link.py` and `LinkTest.kt` are named after `link`.
    const stem = moduleName(file);
    const query = new Map<string, number>();
    const why = new Map<string, string>();
    const put = (words: string[], weight: number, from: string) => {
      for (const t of words) {
        if ((query.get(t) ?? 0) >= weight) continue;
        query.set(t, weight);
        why.set(t, from);
      }
    };
    // A heading is about the file when it holds a whole name: all words of the folder, of the module or of the symbol.
    const names: string[][] = [];
    const unit = (words: string[], weight: number, from: string, titles = true) => {
      // A name that is one generic word (`index`, `utils`, `src`) says nothing; `ConfigContext` does.
      if (!words.length || (words.length === 1 && GENERIC_NAMES.has(words[0]))) return;
      put(words, weight, from);
      if (titles) names.push(words);
    };
    // A folder named after the project (`pydantic/`, `src/flask/`) is in a tenth of all sections: a
    // heading such as "Who is using Pydantic?" is about the project, not about this folder's files.
    const index = this.text;
    const everywhere = (words: string[], share = PROJECT_NAME_SHARE) =>
      index.size >= PROJECT_NAME_MIN_SECTIONS && words.every((w) => index.documentFrequency(w) > index.size * share);
    // The folder's words count, but never title a section: a folder (`posts/`, `backend/`, `cache/`)
    // holds many files, and a heading named after it is about all of them or none.
    if (parts.length >= 2) unit(termsOf(parts[parts.length - 2]), 0.8, "this file's folder", false);
    const module = termsOf(stem);
    unit(module, 1, "this module's name", !everywhere(module, SUBJECT_SHARE));
    if (symbol) {
      const words = termsOf(symbol);
      unit(words, 1, 'the symbol at the cursor', !everywhere(words, SUBJECT_SHARE));
    }
    if (!query.size) return;
    const surface = new Map<string, string>();
    surfaceWords(`${parts[parts.length - 2] ?? ''} ${stem} ${symbol ?? ''}`, surface);
    for (const h of this.text.search(query, undefined, this.limit)) {
      // Words alone link only documents that speak for this file's part of the workspace.
      if (!isHomeOf(h.key.path, file)) continue;
      const heading = new Set(h.key.headingTerms);
      // "Context" is not titled after ConfigContext.tsx: one word of a two-word name is a fragment.
      // A heading that several documents share ("Manual capture" in every guide) is a topic they
      // all cover, not the title of one of them.
      const titled =
        heading.size > 0 &&
        (this.headingDocuments.get(h.key.headingTerms.join(' ')) ?? 0) < SHARED_HEADING_DOCUMENTS &&
        [...heading].every((t) => query.has(t)) &&
        names.some((n) => n.every((t) => heading.has(t)));
      const text = 1 - Math.exp(-h.score / 4);
      const strength = Math.min(MAX_TEXT, 0.22 + 0.16 * text + (titled ? 0.18 : 0));
      const words = h.matched.slice(0, 3);
      const from = [...new Set(words.map((w) => why.get(w)))].join(', ');
      const shown = words.map((w) => surface.get(w) ?? w);
      add(
        h.key,
        strength,
        `${label(h.key)} ${titled ? 'is titled after' : 'talks about'} ${shown.join(', ')} (${from})`,
      );
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

/** A folder name in more than this share of the sections is the project's name, and titles none. */
const PROJECT_NAME_SHARE = 0.1;
/** ...of at least this many sections: in a handful, two that name a folder are no sign. */
const PROJECT_NAME_MIN_SECTIONS = 50;

/**
 * A name the file or definition is named after titles no section when its words are in more than
 * this share of the sections: in an ADR tool's docs, "adr" is the project's subject, not `Adr.ts`'s.
 * Higher than a folder's share, since the file is named after the word itself.
 */
const SUBJECT_SHARE = 0.2;

/** A heading in this many documents or more titles none of them. */
const SHARED_HEADING_DOCUMENTS = 3;

/** A symbol that more files than this define links no section by its name. */
const MAX_SYMBOL_FILES = 5;
