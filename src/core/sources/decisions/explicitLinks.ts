import { GENERIC_NAMES, isGenericSymbol, splitWords, termsOf } from '../docs/textTerms';
import type { MentionCoverage, PathMention } from './adrLinks';
import type { DecisionHit, DecisionRecord } from './decisionItems';
import { nameOf } from './decisionItems';
import type { InlineScan } from './inlineRefs';

/** Strengths of explicit links, strongest first: a reference in the code > a path the ADR names > an identifier in backticks. */
export const EXPLICIT_STRENGTH = {
  inline: 0.95,
  /** A reference in another part of the file than the definition at the cursor. */
  inlineElsewhere: 0.7,
  file: 0.9,
  glob: 0.86,
  dir: 0.74,
  symbolCode: 0.75,
  symbolProse: 0.7,
  moduleTitle: 0.7,
  moduleTitlePart: 0.65,
  moduleCode: 0.62,
  sibling: 0.6,
};

/** A reference in the first lines of a file, above the definition at the cursor (a header comment), speaks for the whole file. */
const FILE_HEADER_LINES = 15;
/** Lines above a definition that its doc comment may take. */
const DOC_COMMENT_LINES = 6;

/** Files in a folder up to which naming one of them speaks for the others in full. */
const SMALL_FOLDER = 20;
/** Files up to which a folder or glob an ADR names governs each of them in full. */
const SMALL_TREE = 60;
/**
 * Folders that hold a program's top level (`backend/src/`: `main.rs`, `config.rs`, `db.rs`), or its
 * configuration (`config/initializers/`: one file per library): their files are the program's separate
 * parts, so a record naming one says nothing of the others.
 */
const SOURCE_ROOTS: ReadonlySet<string> = new Set(
  'src source sources lib app pkg cmd server config initializers environments settings'.split(' '),
);

export interface ExplicitQuery {
  file?: string;
  /** Identifier at the cursor (last part of a dotted name). */
  symbol?: string;
  inline?: InlineScan;
  /** Lines of the definition at the cursor: a reference inside another definition governs that one first. */
  range?: { start: number; end: number };
  byPath(path: string): DecisionRecord | undefined;
  byNumber(n: number | undefined): DecisionRecord | undefined;
  /** How many files a mention covers: a folder or glob over much of the workspace (`src/`) tells no file apart. */
  coverage?(mention: PathMention): MentionCoverage;
  /** How many workspace files have this file stem (`msg_server` may be the name of five). */
  filesNamed?(stem: string): number;
  /** How many workspace files have these words one after the other in their names (lower case; `carbon aware`). */
  filesNamedWith?(words: readonly string[]): number;
  /** Names of the files in the query file's folder (itself included). */
  siblingsOf?(file: string): ReadonlySet<string> | undefined;
}

/** Records the code names (`ADR-12`, a record's path) and records that name the code (its path, a glob over it, its identifiers). */
// eslint-disable-next-line max-lines-per-function, complexity -- the explicit link kinds of one query, in order
export function explicitHits(records: Iterable<DecisionRecord>, q: ExplicitQuery): DecisionHit[] {
  const out: DecisionHit[] = [];
  const file = q.file;
  if (file && q.inline) {
    for (const ref of q.inline.refs) {
      const adr = ref.path ? q.byPath(ref.path) : q.byNumber(ref.number);
      if (!adr) continue;
      const r = q.range;
      const here =
        !r ||
        (ref.line <= FILE_HEADER_LINES && ref.line < r.start && !ref.indented) ||
        (ref.line >= r.start - DOC_COMMENT_LINES && ref.line <= r.end);
      // A reference inside another definition (`# ADR 0015` in one model of a 5,000-line `models.py`) is about that one.
      if (!here && ref.indented) continue;
      out.push({
        adr,
        score: here ? EXPLICIT_STRENGTH.inline : EXPLICIT_STRENGTH.inlineElsewhere,
        kind: 'inline',
        reason: `line ${ref.line} of ${file} refers to ${ref.text}`,
        line: ref.line,
      });
    }
  }
  const stem = file ? fileStem(file) : undefined;
  // A module name counts when it reads like an identifier (`useSegments`, `feature_store`), not a plain word (`apps`).
  const moduleName =
    stem && stem.length >= 4 && !GENERIC_NAMES.has(stem.toLowerCase()) && /[A-Z_]/.test(stem) ? stem : undefined;
  // `index`, `main`, `__hash__`: names that many unrelated definitions share say nothing about which one this is.
  const symbol = q.symbol && q.symbol.length >= 3 && !isGenericSymbol(q.symbol) ? q.symbol : undefined;
  const list = [...records];
  // Evidence many records share (`Tag` in a tagging system, a file every later record touches) tells them apart less.
  const shared = (n: number) => (n <= 2 ? 1 : Math.max(0.6, Math.sqrt(2 / n)));
  const spread = (name: string) =>
    shared(list.filter((adr) => adr.links.codeIdentifiers.has(name) || adr.links.camelWords.has(name)).length);
  const symbolFactor = symbol ? spread(symbol) : 1;
  // A module name that several files have (`msg_server.go` in five modules) says less about this one.
  const namesake = moduleName ? oneOf(q.filesNamed?.(moduleName) ?? 1) : 1;
  const moduleFactor = moduleName ? spread(moduleName) * namesake : 1;
  // Each record's paths that cover the file, worked out once: the count also says how shared the evidence is.
  const covering = file ? list.map((adr) => adr.links.paths.filter((p) => p.match(file))) : [];
  const fileFactor = shared(covering.filter((ms) => ms.some((p) => p.kind === 'file')).length);
  // A record titled after the module (`Proactor.cs` ↔ "Reactor and Nonblocking IO, Proactor and Blocking IO") is about it;
  // most of it counts too (`ClaimCheckTransformer` ↔ "Use A Claim Check For Large Messages"), a little weaker.
  const moduleWords = moduleName ? splitWords(moduleName).map((w) => w.toLowerCase()) : [];
  // Part of the name that many files' names carry is the project's or the area's name (`CarbonAware`
  // in `CarbonAwareController`, in fifty files' names), not what sets this module apart.
  const titled = list.map((adr) => {
    if (!moduleWords.length) return 0;
    const run = longestRun(titleWordsOf(adr), moduleWords);
    if (run.length === moduleWords.length) return EXPLICIT_STRENGTH.moduleTitle;
    const most = run.length >= 2 && run.length * 3 >= moduleWords.length * 2;
    return most && (q.filesNamedWith?.(run) ?? 0) <= MANY_NAMED ? EXPLICIT_STRENGTH.moduleTitlePart : 0;
  });
  const titleFactor = shared(titled.filter((t) => t > 0).length) * namesake;
  // The symbol at the cursor is what a record is titled (`django` in a requirements file ↔ "4. Django").
  const symbolTerms = symbol ? termsOf(symbol) : [];
  const symbolTitled = list.map((adr) => symbolTerms.length > 0 && namesTitle(symbolTerms, adr));
  const symbolTitleFactor = shared(symbolTitled.filter(Boolean).length);
  const dir = file ? file.slice(0, Math.max(0, file.lastIndexOf('/'))) : '';
  const fileName = file ? baseOf(file) : '';
  const uniqueName = !!stem && (q.filesNamed?.(stem) ?? 2) === 1;
  // A record that names another file of a small folder is about this one's neighbourhood; the root's
  // files (configs, manifests) and a source root's (the program's parts) are no neighbourhood.
  const siblings =
    file && dir && !SOURCE_ROOTS.has(dir.slice(dir.lastIndexOf('/') + 1).toLowerCase())
      ? q.siblingsOf?.(file)
      : undefined;
  const siblingStrength =
    siblings && siblings.size > 1
      ? EXPLICIT_STRENGTH.sibling * Math.min(1, Math.sqrt(SMALL_FOLDER / siblings.size))
      : 0;
  // eslint-disable-next-line max-lines-per-function, complexity -- the strengths of one record, one term per link kind
  list.forEach((adr, i) => {
    const L = adr.links;
    if (file) {
      for (const p of covering[i]) {
        const c = q.coverage?.(p);
        if (c?.broad) continue;
        // A bare name that several files share (`genesis.go`) or a large tree (`pkg/core/`) says less about each file.
        const reach = !c
          ? 1
          : p.kind === 'file'
            ? fileReach(file, adr.folder, c)
            : Math.min(1, Math.max(0.45, Math.sqrt(SMALL_TREE / Math.max(1, c.files)))) * treeWeight(p, L.paths);
        const s =
          reach *
          (p.kind === 'file'
            ? EXPLICIT_STRENGTH.file * fileFactor
            : p.kind === 'glob'
              ? EXPLICIT_STRENGTH.glob
              : EXPLICIT_STRENGTH.dir);
        const verb = p.kind === 'file' ? 'names' : p.kind === 'glob' ? 'covers' : 'governs';
        out.push({
          adr,
          score: s,
          kind: p.kind,
          reason: `${nameOf(adr)} ${verb} ${p.text}${p.kind === 'file' ? '' : ` (${file} is under it)`}`,
          line: p.line,
        });
      }
      // A path that went stale when the code moved (`pkg/types/names.go`, now `pkg/goboottypes/names.go`)
      // still means the one file left with its name.
      if (!covering[i].length && fileName && uniqueName) {
        const moved = L.paths.find(
          (p) => p.kind === 'file' && baseOf(p.text) === fileName && q.coverage?.(p).files === 0,
        );
        if (moved)
          out.push({
            adr,
            score: EXPLICIT_STRENGTH.file * MOVED,
            kind: 'file',
            reason: `${nameOf(adr)} names ${moved.text}; no file is there now, and this is the one ${fileName}`,
            line: moved.line,
          });
      }
      // Only a name that points at one file places the record next to it.
      const near = siblingStrength
        ? L.paths.find(
            (p) =>
              p.kind === 'file' &&
              !covering[i].includes(p) &&
              isSibling(p, dir, siblings!) &&
              (q.coverage?.(p).files ?? 1) <= 1,
          )
        : undefined;
      if (near)
        out.push({
          adr,
          score: siblingStrength,
          kind: 'sibling',
          reason: `${nameOf(adr)} names ${baseOf(near.text)}, next to this file`,
          line: near.line,
        });
    }
    if (symbol) {
      // Written as code (in backticks) counts more than the same name in prose.
      const code = L.codeIdentifiers.get(symbol);
      const line = code ?? L.camelWords.get(symbol);
      if (line !== undefined)
        out.push({
          adr,
          score: (code !== undefined ? EXPLICIT_STRENGTH.symbolCode : EXPLICIT_STRENGTH.symbolProse) * symbolFactor,
          kind: 'symbol',
          reason: `${nameOf(adr)} mentions ${code !== undefined ? `\`${symbol}\`` : symbol}`,
          line,
        });
    }
    if (titled[i])
      out.push({
        adr,
        score: titled[i] * titleFactor,
        kind: 'title',
        reason: `${nameOf(adr)} is titled after ${moduleName} (this module)`,
      });
    else if (symbolTitled[i])
      out.push({
        adr,
        score: EXPLICIT_STRENGTH.moduleTitle * symbolTitleFactor,
        kind: 'title',
        reason: `${nameOf(adr)} is titled after ${symbol}`,
      });
    if (moduleName) {
      const code = L.codeIdentifiers.get(moduleName) ?? L.camelWords.get(moduleName);
      if (code !== undefined)
        out.push({
          adr,
          score: EXPLICIT_STRENGTH.moduleCode * moduleFactor,
          kind: 'module',
          reason: `${nameOf(adr)} mentions \`${moduleName}\` (this module)`,
          line: code,
        });
    }
  });
  return out;
}

/** How much a record's stale path (no file there now) counts for the one file left with its name. */
const MOVED = 0.7;
/** Folders up to which a record that names several of them speaks for each in full. */
const FEW_FOLDERS = 3;

/**
 * How much a folder or glob a record names says about the files under it: less when it is only a
 * conventional code root (`pkg/`, `src/`: where the code lives, not what it does), and less when the
 * record walks through many folders (a layout overview names every package once).
 */
function treeWeight(p: PathMention, paths: readonly PathMention[]): number {
  const segments = p.text.split('/').filter((s) => s && s !== '**' && s !== '*');
  const root = segments.length === 1 && GENERIC_NAMES.has(segments[0].toLowerCase()) ? 0.6 : 1;
  let folders = 0;
  for (const m of paths) if (m.kind !== 'file') folders++;
  return root * Math.min(1, Math.sqrt(FEW_FOLDERS / Math.max(1, folders)));
}

/** Verbs a decision title starts with that say nothing of its subject ("Use Redis"). */
const TITLE_VERBS: ReadonlySet<string> = new Set([
  'use',
  'using',
  'adopt',
  'introduc',
  'choos',
  'choose',
  'prefer',
  'switch',
  'migrat',
  'move',
  'replac',
  'add',
]);

/** True when `terms` (a symbol's) say all of a record's title and little more: `django` ↔ "Django", `redisClient` ↔ "Use Redis". */
function namesTitle(terms: readonly string[], adr: DecisionRecord): boolean {
  let title = titleTerms.get(adr);
  if (!title) titleTerms.set(adr, (title = termsOf(adr.title).filter((t, k) => !(k === 0 && TITLE_VERBS.has(t)))));
  return title.length > 0 && terms.length <= title.length + 1 && title.every((t) => terms.includes(t));
}

/** A record's title in comparable terms, without a leading verb; worked out once per record. */
const titleTerms = new WeakMap<DecisionRecord, string[]>();

const titleWords = new WeakMap<DecisionRecord, string[]>();

/** A record's title in lower-case words, split once per record. */
function titleWordsOf(adr: DecisionRecord): string[] {
  let words = titleWords.get(adr);
  if (!words) titleWords.set(adr, (words = splitWords(adr.title).map((w) => w.toLowerCase())));
  return words;
}

/**
 * How surely a file name a record gives means this file: fully when it is the only such file, or the
 * one nearest the record (`tsconfig.json` named in `app/docs/adr/` is `app/tsconfig.json`); less
 * when several files answer to it alike (`msg_server.go` in five modules).
 */
function fileReach(file: string, recordFolder: string, c: MentionCoverage): number {
  if (c.files <= 1 || !c.matches) return 1;
  const depth = (p: string) => sharedDepth(p, recordFolder);
  const own = depth(file);
  if (own > 0 && c.files <= c.matches.length && c.matches.every((p) => p === file || depth(p) < own)) return 1;
  return oneOf(c.files);
}

/** How much of a name's weight one of `n` files that answer to it alike gets: all of it for up to two. */
function oneOf(n: number): number {
  return Math.min(1, Math.sqrt(2 / Math.max(1, n)));
}

/** Leading folders two paths share. */
function sharedDepth(path: string, folder: string): number {
  const a = path.split('/');
  const b = folder.split('/');
  let i = 0;
  while (i < a.length - 1 && i < b.length && a[i] === b[i]) i++;
  return i;
}

function baseOf(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

/** A file mention that names a file of `dir` (whose names are `siblings`). */
function isSibling(p: PathMention, dir: string, siblings: ReadonlySet<string>): boolean {
  const base = baseOf(p.text);
  return siblings.has(base) && p.match(`${dir}/${base}`);
}

/** `src/a/ledger.test.ts` → ledger. */
export function fileStem(file: string): string {
  const base = file.slice(file.lastIndexOf('/') + 1);
  const dot = base.indexOf('.');
  return dot > 0 ? base.slice(0, dot) : base;
}

/** Files whose names carry part of a module's name, above which that part titles no record. */
const MANY_NAMED = 20;

/** The longest run of `name`'s words found side by side, in order, in `words`. */
function longestRun(words: readonly string[], name: readonly string[]): readonly string[] {
  let best = 0;
  let at = 0;
  for (let i = 0; i < words.length; i++) {
    for (let j = 0; j < name.length; j++) {
      let k = 0;
      while (i + k < words.length && j + k < name.length && words[i + k] === name[j + k]) k++;
      if (k > best) [best, at] = [k, j];
    }
  }
  return name.slice(at, at + best);
}
