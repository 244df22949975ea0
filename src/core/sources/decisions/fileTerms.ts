import { unusedImports, type FileDefinition } from './importUse';
import { isStandardLibrary } from './standardLibrary';
import { linesOf } from '../docs/markdown';
import { splitWords, termOf, termsOf } from '../docs/textTerms';

/** What the code index knows about a file. */
export interface FileVocabulary {
  definitions: string[];
  calls: string[];
  /** Specifiers of imports that leave the workspace (`swr`, `@emotion/react`, `github.com/spf13/cobra`). */
  packages: string[];
}

/** Where a query term came from; it says why a record is linked. */
export type TermSource = 'symbol' | 'name' | 'type' | 'import' | 'comment' | 'folder' | 'definition' | 'call' | 'text';

/** How much one word from each place says about what the file is about. */
export const TERM_WEIGHTS: Readonly<Record<TermSource, number>> = {
  symbol: 1.0,
  name: 1.0,
  type: 0.8,
  import: 0.8,
  comment: 0.45,
  folder: 0.45,
  definition: 0.45,
  call: 0.2,
  text: 0.12,
};

/** The weighted words a file is about, each with the place it weighs most. */
export interface FileQuery {
  terms: Map<string, number>;
  sources: Map<string, TermSource>;
  /** Occurrences of words found only in the file's text, for picking its most telling ones. */
  textCounts: Map<string, number>;
  /**
   * The text is all there is to know of the file (a Dockerfile, a shell script, a manifest: nothing
   * the code index reads), so its words may make a link on their own.
   */
  textIsContent?: boolean;
  /** The code index does not read the file's language (Kotlin): no count of the workspace knows its code's words. */
  unread?: boolean;
  /** The package each import word comes from (`helmet` → `helmet`, `react` → `@types/react`), to name it in a reason. */
  packages?: Map<string, string>;
  /** True for an import word whose packages only other definitions of the file use, not the one at the cursor. */
  unusedImport?: (word: string) => boolean;
}

export interface FileQueryInput {
  path: string;
  vocabulary?: FileVocabulary;
  /** The file's text (bounded by the caller). */
  text?: string;
  /** Name (or any text) of the symbol at the cursor. */
  symbol?: string;
  /** The code index does not read the file's language. */
  unread?: boolean;
  /** 1-based first line of that symbol, for its doc comment. */
  symbolLine?: number;
  /** 1-based last line of that symbol: with its first, what the definition at the cursor uses. */
  symbolEnd?: number;
  /** The file's definitions (the code index), for what the one at the cursor uses through them. */
  definitions?: readonly FileDefinition[];
}

/** Longest text read for words. */
const MAX_TEXT = 32 * 1024;

const LOOSE_SOURCES: ReadonlySet<TermSource> = new Set(['text', 'comment', 'definition', 'call']);
/** Two-letter words that do name a topic (`Blocking IO`, `UI`, `DB`). */
const SHORT_TOPICS: ReadonlySet<string> = new Set([
  'io',
  'ui',
  'ux',
  'db',
  'ip',
  'os',
  'vm',
  'ai',
  'ml',
  'js',
  'ts',
  'ci',
  'cd',
  'qa',
  'tx',
  'gc',
  'k8',
  'id',
]);

/** Builds the weighted term bag of a file: its name, folders, symbol, doc comment, definitions, imports, calls and text. */
// eslint-disable-next-line complexity -- one weighted term source per line
export function fileQuery(input: FileQueryInput): FileQuery {
  const acc = new Map<string, { max: number; sum: number; source: TermSource }>();
  const add = (term: string | undefined, source: TermSource, scale = 1) => {
    // Two letters in code are a local (`ok`, `sn`, `rs`) or a format (`mm`); a name or a folder (`db`, `ui`) still says them.
    if (!term || (term.length <= 2 && LOOSE_SOURCES.has(source) && !SHORT_TOPICS.has(term))) return;
    const w = TERM_WEIGHTS[source] * scale;
    const e = acc.get(term);
    if (!e) acc.set(term, { max: w, sum: w, source });
    else {
      e.sum += w;
      if (w > e.max) {
        e.max = w;
        e.source = source;
      }
    }
  };
  const parts = input.path.split('/');
  const base = parts[parts.length - 1];
  const dot = base.indexOf('.');
  // `Caption.stories.tsx`: the stem names the module; the inner suffixes say what kind of file it is.
  for (const t of termsOf(dot > 0 ? base.slice(0, dot) : base)) add(t, 'name');
  for (const t of termsOf(dot > 0 ? base.slice(dot + 1, base.lastIndexOf('.')) : '')) add(t, 'name', 0.7);
  for (let i = parts.length - 2, d = 0; i >= 0; i--, d++)
    for (const t of termsOf(parts[i])) add(t, 'folder', d === 0 ? 1 : 0.7);
  if (input.symbol) for (const t of termsOf(input.symbol)) add(t, 'symbol');
  // What kind of file it is, for files the code index does not read: a record about Stylelint and SCSS governs `.scss` files.
  if (!input.vocabulary) for (const t of typeTerms(base)) add(t, 'type');
  const v = input.vocabulary;
  const packages = new Map<string, string>();
  const specsOf = new Map<string, string[]>();
  const imported = (spec: string, scale = 1) => {
    if (isStandardLibrary(spec, input.path)) return;
    for (const t of packageTerms(spec)) {
      add(t, 'import', scale);
      if (!packages.has(t)) packages.set(t, spec);
      specsOf.set(t, [...(specsOf.get(t) ?? []), spec]);
    }
  };
  if (v) {
    for (const name of v.definitions) for (const t of termsOf(name)) add(t, 'definition');
    for (const name of v.calls) for (const t of termsOf(name, false)) add(t, 'call');
    for (const spec of v.packages) imported(spec);
  }
  if (input.text) {
    const text = input.text.length > MAX_TEXT ? input.text.slice(0, MAX_TEXT) : input.text;
    // A language the code index does not read (Kotlin, Scala, Swift…) still says what it imports.
    if (!v && IMPORTING_LANGUAGE.test(base))
      for (const [spec, scale] of importedPackagesOf(text)) imported(spec, scale);
    if (input.symbolLine !== undefined)
      for (const t of termsOf(docCommentAt(text, input.symbolLine), false)) add(t, 'comment');
    for (const t of termsOf(withoutUrls(text), false)) add(t, 'text');
  }
  const terms = new Map<string, number>();
  const sources = new Map<string, TermSource>();
  const textCounts = new Map<string, number>();
  for (const [t, e] of acc) {
    if (e.source === 'text') {
      textCounts.set(t, Math.round(e.sum / TERM_WEIGHTS.text));
      continue;
    }
    // The strongest place counts in full; repeats elsewhere add a little, up to half again.
    terms.set(t, e.max + Math.min(e.max * 0.5, (e.sum - e.max) * 0.1));
    sources.set(t, e.source);
  }
  return {
    terms,
    sources,
    textCounts,
    textIsContent: !v && textCounts.size > 0,
    unread: input.unread,
    packages,
    ...(specsOf.size ? { unusedImport: unusedImportOf(input, specsOf) } : {}),
  };
}

/**
 * Whether all the packages of an import word are left to the file's other definitions: read from the
 * text once, when a record is first linked by what the file imports.
 */
function unusedImportOf(input: FileQueryInput, specsOf: ReadonlyMap<string, string[]>): (word: string) => boolean {
  const { text, symbolLine: start, symbolEnd: end } = input;
  if (!text || start === undefined || end === undefined) return () => false;
  let unused: Set<string> | undefined;
  return (word) => {
    const left = (unused ??= unusedImports(
      text,
      new Set([...specsOf.values()].flat()),
      { start, end },
      input.definitions,
    ));
    return specsOf.get(word)?.every((spec) => left.has(spec)) ?? false;
  };
}

/** The words a file type goes by, for the types the code index does not read. */
const TYPE_WORDS: Readonly<Record<string, readonly string[]>> = {
  scss: ['scss', 'sass', 'stylesheet'],
  sass: ['sass', 'scss', 'stylesheet'],
  css: ['css', 'stylesheet'],
  less: ['less', 'stylesheet'],
  styl: ['stylus', 'stylesheet'],
  kt: ['kotlin'],
  kts: ['kotlin', 'gradle'],
  swift: ['swift'],
  dart: ['dart', 'flutter'],
  scala: ['scala'],
  tf: ['terraform'],
  sql: ['sql'],
  proto: ['protobuf', 'proto'],
  graphql: ['graphql'],
  gql: ['graphql'],
  vue: ['vue'],
  svelte: ['svelte'],
  sh: ['shell', 'bash'],
  dockerfile: ['docker', 'dockerfile'],
};

/** Terms of a file's type: `_buttons.scss` → scss, sass, stylesheet; `Dockerfile` → docker. */
export function typeTerms(base: string): string[] {
  const lower = base.toLowerCase();
  const ext = lower.startsWith('dockerfile') ? 'dockerfile' : lower.slice(lower.lastIndexOf('.') + 1);
  return (TYPE_WORDS[ext] ?? []).flatMap((w) => termsOf(w));
}

/** Text without web addresses: a URL's words (`reactjs`, `org`) say where a page is, not what the text is about. */
export function withoutUrls(text: string): string {
  return text.replace(/\b(?:https?|ftp):\/\/[^\s)\]>"'`]*/g, ' ');
}

/** Words of a package specifier: `@emotion/react` → emotion, react; `github.com/spf13/cobra` → cobra. */
const VERSION_SEGMENT = /^v\d+(?:(?:alpha|beta)\d*)?$/i;
/** A Rust path into the crate itself: `crate::config::types`, `super`, `self::chain`. */
const RUST_OWN_MODULE = /^(?:crate|super|self)(?:::|$)/;
/** Where a package is hosted, not what it is: `com.github.benmanes.caffeine` is Caffeine, not GitHub. */
const HOSTING_WORDS: ReadonlySet<string> = new Set(['github', 'gitlab', 'bitbucket', 'googlecode', 'sourceforge']);

export function packageTerms(spec: string): string[] {
  // A file of the workspace (`../styles/a.css`, Python's `.models`, Rust's `crate::config`) is no package the
  // project chose.
  if (spec.startsWith('.') || spec.startsWith('/') || RUST_OWN_MODULE.test(spec)) return [];
  // Nor is the platform's own library (`System.Text.Json`, `java.util.List`): every file imports it.
  if (!spec.includes('/') && LANGUAGE_NAMESPACES.has(spec.split('.')[0])) return [];
  const parts = spec.replace(/^@/, '').split('/');
  // A Go module path starts with a host and an owner (`github.com/spf13/cobra`), or with a host of its own
  // (`google.golang.org/grpc`); the rest names the package.
  const hosted = parts[0].includes('.') && parts.length > 1;
  const named = hosted ? parts.slice(parts.length > 2 ? 2 : 1) : parts;
  const out: string[] = [];
  // `/v3`, `/v1alpha1`, Rust's `ibc::apps::fee::v1`, Python's `api.v2`: a major version of the module, not a topic.
  for (const p of named.flatMap((n) => n.split(/::|\./)))
    for (const w of VERSION_SEGMENT.test(p) ? [] : splitWords(p)) {
      const t = termOf(w);
      if (t && !HOSTING_WORDS.has(t)) out.push(t);
    }
  return out;
}

/**
 * `import org.koin.dsl.module`, `import static …`, `import Alamofire`, Scala's `import play.api.mvc.{Action, Request}`
 * and `import akka.actor._`: a dotted or single-word import alone on its line (not `import X from 'y'`).
 */
const IMPORT_LINE =
  /^[ \t]*import[ \t]+(?:static[ \t]+)?([A-Za-z_]\w*(?:\.(?:\w+|\*))*)(?:\.(?:\{|_\b)|[ \t]*(?:;|$|as[ \t]))/;
/** The standard libraries of the JVM languages, .NET and Swift: every file imports them, they choose nothing. */
const LANGUAGE_NAMESPACES: ReadonlySet<string> = new Set([
  'System',
  'java',
  'javax',
  'jdk',
  'kotlin',
  'scala',
  'groovy',
  'sun',
  'android',
  'Foundation',
  'Swift',
  'UIKit',
]);
/** First segments of a reverse-domain package name (`org.koin`, `io.ktor`, `com.google`). */
const DOMAIN_ROOTS: ReadonlySet<string> = new Set([
  // Jackson 3 is `tools.jackson`.
  'tools',
  'org',
  'com',
  'io',
  'net',
  'dev',
  'edu',
  'gov',
  'app',
  'co',
  'me',
  'at',
  'de',
  'ch',
  'uk',
  'fr',
  'nl',
  'se',
  'no',
  'fi',
  'dk',
  'it',
  'es',
  'eu',
  'jp',
  'cn',
  'ru',
  'br',
  'in',
  'au',
  'ca',
  'us',
  'pl',
  'cz',
  'be',
]);
/** Languages whose imports name packages by dotted paths or single words (Java only reaches here when the code index skipped the file). */
const IMPORTING_LANGUAGE = /\.(?:kt|kts|java|scala|sc|swift|groovy)$/i;
/** Import lines read from the start of a file. */
const MAX_IMPORT_LINES = 300;

/**
 * What a file imports, read from its `import` lines, for languages the code index does not read:
 * the project of a reverse-domain package in full (`org.koin.dsl.module` → koin) and the part after
 * it at half weight (`com.google.gson` → google, gson), a single-word module (`import Alamofire`), or
 * the root of another dotted path (`play.api.mvc` → play) a little lower: it may be one of the
 * project's own packages, whose name its folders already carry. The standard library is left out.
 */
/** Parts of a package path after its vendor that name no product (`io.kotest.core`, `org.springframework.web`). */
export const GENERIC_PACKAGE_PARTS: ReadonlySet<string> = new Set([
  'core',
  'common',
  'commons',
  'api',
  'web',
  'http',
  'util',
  'utils',
  'lang',
  'security',
  'data',
  'client',
  'server',
  'internal',
  'shared',
  'base',
  'lib',
  'annotation',
  'annotations',
  'test',
]);

export function importedPackagesOf(text: string): [string, number][] {
  const out = new Map<string, number>();
  const lines = linesOf(text);
  for (let i = 0; i < lines.length && i < MAX_IMPORT_LINES; i++) {
    const m = IMPORT_LINE.exec(lines[i]);
    if (!m) continue;
    const parts = m[1].split('.').filter((p) => p !== '*');
    if (LANGUAGE_NAMESPACES.has(parts[0])) continue;
    const domain = DOMAIN_ROOTS.has(parts[0]);
    const named =
      domain && parts.length > 2 ? parts.slice(1, 3) : parts.length === 1 || !domain ? parts.slice(0, 1) : [];
    const first = parts.length === 1 || domain ? 1 : 0.7;
    named.forEach((p, k) => {
      if (k > 0 && GENERIC_PACKAGE_PARTS.has(p.toLowerCase())) return;
      // The part after the vendor is one of its modules (`springframework.format`), not a package of its own.
      const spec = k > 0 ? `${named[0]}.${p}` : p;
      out.set(spec, Math.max(out.get(spec) ?? 0, k === 0 ? first : 0.5));
    });
  }
  return [...out];
}

const COMMENT_LINE = /^[ \t]*(?:\/\/+|\/\*+|\*+\/?|#+|--|"""|''')/;

/** The comment right above a definition line, or the docstring right below it (Python). */
export function docCommentAt(text: string, line: number): string {
  const lines = linesOf(text);
  const out: string[] = [];
  for (let i = line - 2; i >= 0 && i >= line - 30; i--) {
    const l = lines[i];
    if (l === undefined || !COMMENT_LINE.test(l)) {
      // Decorators and annotations may sit between a comment and its definition.
      if (l !== undefined && /^[ \t]*@/.test(l) && out.length === 0) continue;
      break;
    }
    out.push(l);
  }
  const next = lines[line]?.trim() ?? '';
  if (next.startsWith('"""') || next.startsWith("'''")) {
    for (let i = line; i < lines.length && i < line + 30; i++) {
      out.push(lines[i]);
      if (i > line && (lines[i].includes('"""') || lines[i].includes("'''"))) break;
    }
  }
  return out.join('\n');
}
