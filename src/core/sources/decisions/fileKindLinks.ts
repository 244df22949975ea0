import { GENERIC_NAMES, stem, termsOf } from '../docs/textTerms';
import type { MentionCoverage, PathMention } from './adrLinks';
import { nameOf, type DecisionHit, type DecisionRecord } from './decisionItems';

/**
 * Decisions for the files the code index does not parse (style sheets, configs, Dockerfiles,
 * Kotlin, Swift, Dart…): the index knows none of their names, so what links a record is also
 * what the record says of the file's kind (Stylelint and `.scss` files), its name (`Dockerfile`,
 * `lerna.json`) and its folders (`ingress-controller/`). Each is specific evidence, said as such.
 */

/** A kind of file and the words that name it or the tools that govern it. */
interface FileKind {
  test: RegExp;
  /** What files of the kind are called in a reason. */
  what: string;
  /** Words (or phrases, space-separated) that name the kind or a tool for it. */
  words: readonly string[];
  /** Extensions a record may name (`*.scss`, `.scss files`). */
  extensions?: readonly string[];
}

const FILE_KINDS: readonly FileKind[] = [
  {
    test: /\.(?:scss|sass)$/i,
    what: 'Sass style sheets',
    words: ['scss', 'sass', 'stylelint', 'stylesheet', 'style sheet', 'css'],
    extensions: ['scss', 'sass'],
  },
  {
    test: /\.(?:css|pcss)$/i,
    what: 'CSS style sheets',
    words: ['css', 'stylelint', 'postcss', 'stylesheet', 'style sheet'],
    extensions: ['css', 'pcss'],
  },
  {
    test: /\.less$/i,
    what: 'Less style sheets',
    words: ['stylelint', 'stylesheet', 'style sheet'],
    extensions: ['less'],
  },
  { test: /(?:^|\/)(?:[\w.-]+\.)?dockerfile(?:\.[\w-]+)?$/i, what: 'Dockerfiles', words: ['dockerfile', 'docker'] },
  {
    test: /(?:^|\/)(?:docker-)?compose(?:\.[\w-]+)*\.ya?ml$/i,
    what: 'Compose files',
    words: ['docker compose', 'compose file'],
  },
  {
    test: /(?:^|\/)\.github\/workflows\/[^/]+\.ya?ml$/i,
    what: 'GitHub Actions workflows',
    words: ['github actions', 'github workflow'],
  },
  { test: /\.tf(?:vars)?$/i, what: 'Terraform files', words: ['terraform'], extensions: ['tf'] },
  { test: /(?:^|\/)(?:templates|charts)\/.*\.ya?ml$|(?:^|\/)Chart\.ya?ml$/, what: 'Helm charts', words: ['helm'] },
  { test: /\.sql$/i, what: 'SQL files', words: ['flyway', 'liquibase', 'sql migration'], extensions: ['sql'] },
  { test: /\.proto$/i, what: 'Protocol Buffers files', words: ['protobuf', 'protocol buffer'], extensions: ['proto'] },
  { test: /\.(?:graphql|gql)$/i, what: 'GraphQL schemas', words: ['graphql'], extensions: ['graphql', 'gql'] },
  // No language kinds (Kotlin, Swift, Dart): a record titled after the language governs every file
  // of it, which says nothing about this one; their imports and names link them instead.
];

/** Link strengths, on the scale of the explicit links (a path a record names is 0.9). */
const STRENGTH = {
  /** The record names the file (`Dockerfile`, `.stylelintrc`), which one workspace file has. */
  name: 0.88,
  /** The record names the kind's extension (`*.scss`). */
  extension: 0.8,
  /** The title names the kind or its tool ("Lint style sheets with Stylelint"). */
  kindTitle: 0.74,
  /** The title is the file's name ("HPA scaling metrics" for `hpa.yaml`). */
  nameTitle: 0.7,
  /** The title names a folder the file is in ("Single ingress controller" for `ingress-controller/`). */
  folderTitle: 0.66,
  /** The body names the kind's tool, more than once. */
  kindBody: 0.5,
};
/** Files under a folder up to which a record titled after it speaks for each of them in full. */
const SMALL_TREE = 60;

export interface FileKindQuery {
  file: string;
  /** How many workspace files have this file name. */
  filesNamed(base: string): number;
  /** How many workspace files a folder holds (`dir/`, at any depth). */
  coverage(mention: PathMention): MentionCoverage;
}

/** Records linked to a file the code index does not parse, by its kind, name and folders. */
export function fileKindHits(records: readonly DecisionRecord[], q: FileKindQuery): DecisionHit[] {
  const out: DecisionHit[] = [];
  const file = q.file;
  const base = file.slice(file.lastIndexOf('/') + 1);
  const kind = FILE_KINDS.find((k) => k.test.test(file));
  const byKind = kind ? records.map((r) => kindStrength(r, kind)) : [];
  // A kind that many records name (`css` in every front-end record) tells them apart less.
  const kindFactor = shared(byKind.filter((k) => k.strength > 0).length);
  const named = nameMatcher(base);
  const sameName = named ? oneOf(q.filesNamed(base)) : 0;
  const stemTerms = nameTerms(base);
  const folders = folderTerms(file);
  records.forEach((adr, i) => {
    const k = byKind[i];
    if (kind && k.strength > 0)
      out.push({
        adr,
        score: k.strength * kindFactor,
        kind: 'type',
        reason: `${nameOf(adr)} ${k.says} (${kind.what})`,
        // Only its text talks of the tool: it names no file of this kind, and its title is about something else.
        ...(k.inBody ? { evidence: { kind: 'type', inRecord: 'text' } } : {}),
      });
    // A path the record gives (`docker-compose.yml`) is an explicit link already; a bare name is not.
    if (named && !adr.links.paths.some((p) => p.kind === 'file' && p.match(file)) && named.test(adr.body))
      out.push({ adr, score: STRENGTH.name * sameName, kind: 'file', reason: `${nameOf(adr)} names ${base}` });
    const title = titleTerms(adr);
    // A title after the name speaks for every file so named (each chart's `hpa.yaml`).
    if (stemTerms.length && includesRun(title, stemTerms))
      out.push({
        adr,
        score: STRENGTH.nameTitle,
        kind: 'title',
        reason: `${nameOf(adr)} is titled after ${base}`,
      });
    const folder = folders.find((f) => includesRun(title, f.terms));
    if (folder) {
      const c = q.coverage(dirMention(folder.path));
      if (!c.broad)
        out.push({
          adr,
          score: STRENGTH.folderTitle * Math.min(1, Math.max(0.45, Math.sqrt(SMALL_TREE / Math.max(1, c.files)))),
          kind: 'dir',
          reason: `in ${folder.path}/, which ${nameOf(adr)} is about`,
          evidence: { kind: 'folder', where: folder.path },
        });
    }
  });
  return out;
}

/** How strongly a record speaks of a kind of file, and how to say so. */
function kindStrength(adr: DecisionRecord, kind: FileKind): { strength: number; says: string; inBody?: boolean } {
  const ext = kind.extensions?.find((e) => extensionPattern(e).test(adr.body));
  if (ext) return { strength: STRENGTH.extension, says: `names .${ext} files` };
  const title = titleWords(adr);
  const inTitle = kind.words.find((w) => includesRun(title, phraseTerms(w)));
  if (inTitle) return { strength: STRENGTH.kindTitle, says: `is about ${surface(adr.title, inTitle)}` };
  const body = bodyTerms(adr);
  const inBody = kind.words.find((w) => countRuns(body, phraseTerms(w)) >= 2);
  if (inBody) return { strength: STRENGTH.kindBody, says: `talks about ${surface(adr.body, inBody)}`, inBody: true };
  return { strength: 0, says: '' };
}

/** Evidence many records share counts less for each, as explicit links do. */
function shared(n: number): number {
  return n <= 2 ? 1 : Math.max(0.6, Math.sqrt(2 / n));
}

/** How much of a name's weight one of `n` files that answer to it alike gets: all of it for up to two. */
function oneOf(n: number): number {
  return Math.min(1, Math.sqrt(2 / Math.max(1, n)));
}

/** `Dockerfile`, `.stylelintrc`, `_variables.scss` as a whole word of a record; none for a name too plain to say anything. */
function nameMatcher(base: string): RegExp | undefined {
  const stemOf = base.replace(/^\./, '').split('.')[0];
  if (stemOf.length < 3 || GENERIC_NAMES.has(stemOf.toLowerCase())) return undefined;
  const escaped = base.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`(?<![\\w./-])${escaped}(?![\\w-])`, 'i');
}

/** The words of a file's name without its extensions, when they say something (`hpa`, `lerna`, `sidekiq`). */
function nameTerms(base: string): string[] {
  const stemOf = base.replace(/^\./, '').split('.')[0];
  if (stemOf.length < 3 || GENERIC_NAMES.has(stemOf.toLowerCase())) return [];
  return termsOf(stemOf);
}

/**
 * Folders that say where code lives in a layout (`src/main/kotlin/com/…`), not what it is about: a
 * record titled "Use Ktor for Kotlin services" is not about every file under `kotlin/`.
 */
const LAYOUT_FOLDERS: ReadonlySet<string> = new Set([
  'main',
  'kotlin',
  'java',
  'scala',
  'groovy',
  'swift',
  'dart',
  'resources',
  'res',
  'com',
  'org',
  'net',
  'assets',
  'static',
  'public',
  'www',
  'web',
  'vendor',
  'node_modules',
  'build',
  'dist',
  'templates',
  'charts',
  'deploy',
  'infra',
]);

/** Each folder the file is in, outermost first, with its words; plain folders (`src`, `config`) and one-word ones say nothing. */
function folderTerms(file: string): { path: string; terms: string[] }[] {
  const parts = file.split('/').slice(0, -1);
  const out: { path: string; terms: string[] }[] = [];
  for (let i = 0; i < parts.length; i++) {
    const name = parts[i];
    const lower = name.toLowerCase();
    if (name.length < 3 || name.startsWith('.') || GENERIC_NAMES.has(lower) || LAYOUT_FOLDERS.has(lower)) continue;
    // One word (`risk`, `gateway`) is a topic many records touch; a compound name (`ingress-controller`) is the subject.
    const terms = termsOf(name);
    if (terms.length >= 2) out.push({ path: parts.slice(0, i + 1).join('/'), terms });
  }
  return out;
}

function dirMention(path: string): PathMention {
  return { kind: 'dir', text: `${path}/`, line: 0, match: (f) => f.startsWith(`${path}/`) };
}

const extensionPatterns = new Map<string, RegExp>();

/** `*.scss`, `.scss files`, `**\/*.scss`: the extension on its own, not inside a file name. */
function extensionPattern(ext: string): RegExp {
  let re = extensionPatterns.get(ext);
  if (!re) extensionPatterns.set(ext, (re = new RegExp(`(?:^|[\\s\`'"(*/])\\.${ext}\\b`, 'im')));
  return re;
}

const titleCache = new WeakMap<DecisionRecord, string[]>();
const titleWordCache = new WeakMap<DecisionRecord, string[]>();
const bodyCache = new WeakMap<DecisionRecord, string[]>();

/** The title's words as written (`GitHub` stays one word), for the names of kinds and tools. */
function titleWords(adr: DecisionRecord): string[] {
  let t = titleWordCache.get(adr);
  if (!t) titleWordCache.set(adr, (t = words(`${adr.title} ${slugOf(adr.path)}`)));
  return t;
}

function titleTerms(adr: DecisionRecord): string[] {
  let t = titleCache.get(adr);
  if (!t) titleCache.set(adr, (t = [...termsOf(adr.title), ...slugTerms(adr.path)]));
  return t;
}

/** The record's file name says its subject too (`0026-hpa-scaling-metrics.md`). */
function slugTerms(path: string): string[] {
  return termsOf(slugOf(path));
}

function slugOf(path: string): string {
  const base = path.slice(path.lastIndexOf('/') + 1).replace(/\.[^.]+$/, '');
  return base.replace(/^(?:adr[-_]?)?\d+[-_]/i, '');
}

function bodyTerms(adr: DecisionRecord): string[] {
  let t = bodyCache.get(adr);
  if (!t) bodyCache.set(adr, (t = words(adr.body)));
  return t;
}

/** Lower-case, stemmed words, stop-words kept: phrases are matched as runs. */
function words(text: string): string[] {
  return (text.toLowerCase().match(/[a-z0-9]+/g) ?? []).map(stem);
}

function phraseTerms(phrase: string): string[] {
  return words(phrase);
}

function includesRun(terms: readonly string[], run: readonly string[]): boolean {
  return run.length > 0 && countRuns(terms, run, 1) > 0;
}

/** Times `run` appears in `terms` word by word, counting up to `enough`. */
function countRuns(terms: readonly string[], run: readonly string[], enough = 2): number {
  let n = 0;
  for (let i = 0; i + run.length <= terms.length && n < enough; i++) {
    let k = 0;
    while (k < run.length && terms[i + k] === run[k]) k++;
    if (k === run.length) n++;
  }
  return n;
}

/** A kind's word as the record writes it (`Stylelint`), for the reason. */
function surface(text: string, phrase: string): string {
  const first = phrase.split(' ')[0];
  const m = new RegExp(`\\b${first}\\w*`, 'i').exec(text);
  return phrase.includes(' ') || !m ? phrase : m[0];
}
