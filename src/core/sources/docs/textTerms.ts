/**
 * Words of code and prose, made comparable: identifiers split at camelCase and snake_case, lower
 * case, a light English stemmer (plurals, -ing, -ed, -ation), common English words dropped.
 * Every function is a single pass over its input.
 */

/** Generic English and code words that say nothing about what a file or a record is about. */
const STOP_WORDS = new Set(
  (
    'a an the and or nor but not no yes of to in on at by for from with without into onto over under about above below ' +
    'as is are was were be been being am do does did done doing has have had having can could shall should will would may might must ' +
    "it its it's this that these those there here then than so such very too also just only own same other others each every " +
    'all any both few more most some many much which who whom whose what when where why how if else while until because ' +
    'we our ours us you your yours they them their he she his her i me my mine one two ' +
    'use used uses using make makes made get gets set sets new old now via etc eg ie e g vs per ' +
    // Frequent English words that say nothing about a topic.
    'able across after again against almost along already although always among another anyone anything around away back ' +
    'become before began behind besides best better between beyond bit both bring came come comes could ' +
    'current currently different does doing done down during easy either enough even ever example far find first follow following ' +
    'give given go going good got great however idea including instead keep kind know known last later least less like likely ' +
    'long look lot main mean means might need needed needs next nothing often once ones otherwise possible ' +
    'rather really reason right said say see seen several since small something sometimes soon still sure take taken thing things ' +
    'think though through thus today together took toward towards try trying under unless upon us usually want way ways ' +
    'well went whether within work works would yet ' +
    // Pieces of addresses and module paths written without a scheme (`github.com/…`).
    'com org net www http https ' +
    // Function words of records kept in French, Spanish, German, Portuguese and Dutch.
    'les des une est pour dans avec qui pas sur par ces aux los las una para por del und ist nicht mit den dem ein eine uma com não het een niet voor ' +
    'le la du et un au si ne se ce il elle nous vous ils sont que leur cette afin ainsi lorsque ' +
    'dat zijn wordt worden ook maar naar bij als der das zu auf wird werden sind auch el con lo'
  ).split(/\s+/),
);

/**
 * Keywords and built-in types of common languages: noise in a file's text and calls, but a record
 * about `default exports` or a file named `export.ts` means them, so records and names keep them.
 */
const CODE_WORDS = new Set(
  (
    'const let var function return returns import imports export exports default class interface type types extends implements public private ' +
    'protected static async await true false null undefined void string number boolean object array int float bool str ' +
    'self def fn func impl pub mod package val lambda yield nil none elif struct mut chan ok err ctx req res omitempty'
  ).split(' '),
);

/** Names too generic to link a file to a document by its name alone. */
export const GENERIC_NAMES = new Set([
  'index',
  'main',
  'util',
  'utils',
  'helpers',
  'types',
  'type',
  'common',
  'shared',
  'lib',
  'src',
  'app',
  'test',
  'tests',
  'spec',
  'core',
  'base',
  'mod',
  'init',
  '__init__',
  'constants',
  'config',
  'readme',
  'docs',
  'doc',
  'data',
  'model',
  'models',
  'service',
  'services',
  'default',
  'package',
  'setup',
  'tools',
  'tool',
  'scripts',
  'script',
  'bin',
  'internal',
  'pkg',
  'cmd',
  'the',
  'and',
  'for',
  'with',
  'this',
  'that',
  'from',
]);

/**
 * Methods that many types define to fit a language's protocols (`__hash__`, `toString`, Go's
 * `String` and `Error`): a document that names one is about some type's, rarely this one's.
 */
const PROTOCOL_METHODS = new Set([
  'constructor',
  'toString',
  'toJSON',
  'valueOf',
  'equals',
  'hashCode',
  'compareTo',
  'clone',
  'dispose',
  'Dispose',
  'String',
  'Error',
  'Close',
  'Len',
  'Less',
  'Swap',
  'Unwrap',
  'MarshalJSON',
  'UnmarshalJSON',
  'fmt',
  'drop',
  'into',
]);

/** A symbol name too common to link a document or a record by itself: `index`, `main`, `__hash__`, `toString`. */
export function isGenericSymbol(name: string): boolean {
  return (
    GENERIC_NAMES.has(name.toLowerCase()) ||
    PROTOCOL_METHODS.has(name) ||
    (name.length > 4 && name.startsWith('__') && name.endsWith('__'))
  );
}

const isLower = (c: number) => c >= 97 && c <= 122;
const isUpper = (c: number) => c >= 65 && c <= 90;
const isDigit = (c: number) => c >= 48 && c <= 57;
const S = 115;

/**
 * Raw words of a text or identifier, in order: `applyDiscountRate` → apply, Discount, Rate;
 * `HTTPServer_v2` → HTTP, Server, v2. Letters and digits stay together within a word.
 */
export function splitWords(text: string): string[] {
  const out: string[] = [];
  let start = -1;
  const n = text.length;
  // `ADRs`, `APIs`: the plural of an acronym is the acronym.
  const push = (end: number) =>
    out.push(
      text.charCodeAt(end - 1) === S && end - start >= 3 && isUpper(text.charCodeAt(end - 2))
        ? text.slice(start, end - 1)
        : text.slice(start, end),
    );
  for (let i = 0; i <= n; i++) {
    const c = i < n ? text.charCodeAt(i) : 32;
    const alnum = isLower(c) || isUpper(c) || isDigit(c);
    if (!alnum) {
      if (start >= 0) push(i);
      start = -1;
      continue;
    }
    if (start < 0) {
      start = i;
      continue;
    }
    const prev = text.charCodeAt(i - 1);
    const next = i + 1 < n ? text.charCodeAt(i + 1) : 32;
    // aB → a|B; ABc → A|Bc (the last capital of a run starts the next word), but ABs stays whole.
    if (
      isUpper(c) &&
      (isLower(prev) ||
        isDigit(prev) ||
        (isUpper(prev) && isLower(next) && !(next === S && !isLower(i + 2 < n ? text.charCodeAt(i + 2) : 32))))
    ) {
      push(i);
      start = i;
    }
  }
  return out;
}

const VOWELS = new Set(['a', 'e', 'i', 'o', 'u', 'y']);

/**
 * A light stemmer, the same on both sides of a comparison: `flags` → flag, `aliases` → alias,
 * `policies` → policy, `testing` → test, `fetched` → fetch, `styles` and `style` → styl.
 */
// eslint-disable-next-line complexity -- one case per suffix rule of the stemmer
export function stem(word: string): string {
  let w = word;
  if (w.length <= 3) return w;
  if (w.endsWith('ies') && w.length > 4) w = w.slice(0, -3) + 'y';
  else if (w.endsWith('sses')) w = w.slice(0, -2);
  else if (/(?:[sxz]|ch|sh)es$/.test(w) && w.length > 5) w = w.slice(0, -2);
  else if (w.endsWith('s') && !/[aisu]s$/.test(w)) w = w.slice(0, -1);
  for (const suffix of ['ing', 'ed']) {
    if (w.endsWith(suffix) && w.length - suffix.length >= 4) {
      const base = w.slice(0, -suffix.length);
      if (![...base].some((c) => VOWELS.has(c))) continue;
      w = base;
      // mapping → map, logging → log
      const a = w[w.length - 1];
      if (a === w[w.length - 2] && !VOWELS.has(a) && a !== 'l' && a !== 's' && a !== 'z') w = w.slice(0, -1);
      // validated, validating → valid (as validate and validation below)
      if (w.endsWith('at') && w.length >= 7) w = w.slice(0, -2);
      break;
    }
  }
  if (w.endsWith('ation') && w.length >= 10) w = w.slice(0, -5);
  else if (w.endsWith('ate') && w.length >= 8) w = w.slice(0, -3);
  if (w.length >= 4 && w.endsWith('e')) w = w.slice(0, -1);
  return w;
}

/** The comparable terms of a text: split, lower-cased, stemmed, stop-words and numbers dropped; code keywords too unless `keepCode`. */
export function termsOf(text: string, keepCode = true): string[] {
  const out: string[] = [];
  for (const raw of splitWords(text)) {
    const t = termOf(raw, keepCode);
    if (t) out.push(t);
  }
  return out;
}

/**
 * Brand names written in mixed case (`NestJS`, `GraphQL`, `PostgreSQL`, `RabbitMQ`), each also as one
 * term: split, they no longer meet the package a file imports (`@nestjs/common`, `graphql`). Only
 * two-part words with a capital first: longer ones are identifiers, which split as code does.
 */
export function compoundTerms(text: string): string[] {
  const out: string[] = [];
  const n = text.length;
  let start = -1;
  let upperInside = false;
  let lower = false;
  for (let i = 0; i <= n; i++) {
    const c = i < n ? text.charCodeAt(i) : 32;
    if (isLower(c) || isUpper(c) || isDigit(c)) {
      if (start < 0) {
        start = i;
        upperInside = false;
        lower = false;
      } else if (isUpper(c)) upperInside = true;
      if (isLower(c)) lower = true;
      continue;
    }
    // Two parts and a capital first: `NestJS`, not `useSegments` or `ChangeMessageVisibility` (identifiers).
    if (start >= 0 && upperInside && lower && i - start >= 4 && i - start <= 24 && isUpper(text.charCodeAt(start))) {
      const word = text.slice(start, i);
      const t = splitWords(word).length === 2 ? termOf(word) : undefined;
      if (t) out.push(t);
    }
    start = -1;
  }
  return out;
}

/** Each term of a text with the first word it came from (`tabl` → tables), to show words as written. */
export function surfaceWords(text: string, into: Map<string, string>): void {
  for (const raw of splitWords(text)) {
    const t = termOf(raw);
    if (t && !into.has(t)) into.set(t, raw.toLowerCase());
  }
}

function isNumber(w: string): boolean {
  for (let i = 0; i < w.length; i++) if (!isDigit(w.charCodeAt(i))) return false;
  return true;
}

/** The comparable term of a single word (undefined for stop-words, numbers, and code keywords unless `keepCode`). */
export function termOf(word: string, keepCode = true): string | undefined {
  const w = word.toLowerCase();
  if (w.length < 2 || STOP_WORDS.has(w) || isNumber(w) || (!keepCode && CODE_WORDS.has(w))) return undefined;
  return stem(w);
}
