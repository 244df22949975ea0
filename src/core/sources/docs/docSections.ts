import { parseFrontMatter, slugify, splitSections, stripInline, summarize, type MarkdownSection } from './markdown';
import { termsOf } from './textTerms';

/* Splitting markdown documents into the sections that the docs source links to code. */

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
  /** Comparable words of the heading and the body, for the text model. */
  headingTerms: string[];
  bodyTerms: string[];
  /** A section of release notes (CHANGELOG, HISTORY…): history, not documentation. */
  releaseNotes: boolean;
  /** Distinct compound type names it writes (`RiskResultConsumer`, `RulesEngine`): many make an overview. */
  typeNames: number;
  /** False for a heading with no text of its own (its subsections carry the text). */
  hasText: boolean;
  /** Written by a tool from the code (an API reference): it says what the code at hand already says. */
  generated: boolean;
}

/** `CHANGELOG.md`, `HISTORY.md`, `RELEASE_NOTES.md`, `NEWS`, files under `changelogs/` or `release-notes/`. */
const RELEASE_NOTES =
  /(?:^|\/)(?:change[-_ ]?log|changes|history|releases?|release[-_ ]?notes|news)(?:\.[a-z]+)?$|(?:^|\/)(?:changelogs?|release[-_ ]?notes|\.changeset)\//i;

/** README files anywhere, markdown at the top level and under docs/ or doc/. */
export function isDocFile(rel: string): boolean {
  const name = rel.slice(rel.lastIndexOf('/') + 1);
  if (/^readme(\.(md|markdown|mdx|txt|rst))?$/i.test(name)) return true;
  if (!/\.(md|markdown|mdx)$/i.test(name)) return false;
  if (!rel.includes('/')) return true;
  return /^(docs?|documentation)\//i.test(rel) || /(^|\/)docs\//.test(rel);
}

const PATH_TOKEN =
  /(?:^|[\s(["'`<,])((?:\.{0,2}\/)?(?:[\w@.$-]+\/)+(?:[\w@.$-]+\.[A-Za-z0-9]{1,6})?|[\w@$-]+\.(?:ts|tsx|js|jsx|mjs|cjs|py|java|kt|go|rs|rb|php|cs|swift|c|cc|cpp|h|hpp|vue|svelte|sql|json|ya?ml|toml))(?=$|[\s)\]"'`>,;:!?.])/g;

/** Release notes are history: CHANGELOG, HISTORY, RELEASE NOTES, NEWS and the like. */
export function isReleaseNotes(path: string): boolean {
  return RELEASE_NOTES.test(path);
}

/** Most characters of one section that the text model reads. */
const MAX_SECTION_TEXT = 64 * 1024;

/** Headings above one section that its name takes at most: `v2.11 › … › Changes`. */
const MAX_DISPLAY_DEPTH = 6;

/**
 * What each section is called: its heading, or when other sections share it, as few of the headings
 * above it as tell them apart. A changelog's "What's Changed › Changes" under every version becomes
 * "v2.11.0 › What's Changed › Changes"; a longer trail keeps its ends (`a › … › z`).
 */
function sectionDisplays(sections: readonly { heading: string; level: number }[]): string[] {
  // The headings above each section and its own, outermost first.
  const trails: string[][] = [];
  const above: { level: number; heading: string }[] = [];
  for (const sec of sections) {
    while (above.length && above[above.length - 1].level >= sec.level) above.pop();
    trails.push([...above.slice(-MAX_DISPLAY_DEPTH).map((a) => a.heading), sec.heading]);
    if (sec.level > 0) above.push({ level: sec.level, heading: sec.heading });
  }
  const key = (trail: string[], n: number) => trail.slice(-n).join('\u0000');
  const counts: Map<string, number>[] = [];
  for (let n = 1; n <= MAX_DISPLAY_DEPTH + 1; n++) {
    const m = new Map<string, number>();
    for (const t of trails) if (t.length >= n) m.set(key(t, n), (m.get(key(t, n)) ?? 0) + 1);
    counts.push(m);
  }
  return trails.map((trail) => {
    const heading = trail[trail.length - 1];
    if (!heading) return heading;
    let n = 1;
    while (n < trail.length && (counts[n - 1].get(key(trail, n)) ?? 0) > 1) n++;
    const shown = trail.slice(-n);
    return shown.length > 3 ? `${shown[0]} › … › ${heading}` : shown.join(' › ');
  });
}

/**
 * The document's sections. Front matter (`title:`, `description:` between `---` fences, as in
 * Docusaurus, Jekyll and fumadocs pages) is not text: its closing fence would make the line above it
 * a heading. Its `title` names the text before the first heading.
 */
function sectionsOfText(path: string, text: string): MarkdownSection[] {
  const fm = /\.mdx?$/i.test(path) ? parseFrontMatter(text) : undefined;
  if (!fm) return splitSections(text);
  const sections = splitSections(fm.body, fm.lineCount + 1);
  const title = typeof fm.data.title === 'string' ? stripInline(fm.data.title.trim(), true) : '';
  if (title && sections[0]?.level === 0) sections[0] = { ...sections[0], heading: title, level: 1 };
  return sections;
}

/**
 * A shell command in backticks (`bundle exec rake db:create`, `npm run build`, `$ make test`): its
 * words are a tool's arguments, not names of the project's code. A command starts with a lower-case
 * word and a space (or a prompt, `./`, `bin/`) and calls nothing with parentheses; code such as
 * `Foo.create bar`, `create(user)` or `new Cart()` does not read that way.
 */
export function isCommandLine(span: string): boolean {
  const text = span.trim();
  if (/^(?:\$|>|\.\/|bin\/)/.test(text)) return true;
  const head = /^([a-z][\w.-]*)\s+\S/.exec(text);
  return head !== null && !CODE_KEYWORDS.has(head[1]) && !/[(){};=]/.test(text);
}

/** Words that start a line of code rather than a command: `class Booking`, `def create`, `new Cart`. */
const CODE_KEYWORDS = new Set(
  (
    'class def fn func function new import from const let var type interface struct enum trait impl module ' +
    'public private protected static async await return extends implements include require package object val'
  ).split(' '),
);

/** A compound type name: a capital, lower case, another capital (`RulesEngine`, `VaRCache`; not `API`, `Run`). */
const TYPE_NAME = /\b[A-Z][a-z0-9]+[A-Z][\w$]*/g;

/**
 * A reference generated from the code: TypeDoc's pages (`Defined in: src/Store.ts:12`, or its older
 * `#### Defined in` heading), or a page whose first lines say a tool wrote it (`<!-- Auto-generated
 * by … -->`, `Code generated … DO NOT EDIT.`).
 */
const GENERATED_PAGE = /^(?:Defined in: |#{2,6} Defined in\s*$)/m;
const GENERATED_HEADER =
  /<!--[^>\n]{0,200}?\b(?:auto-?generated|generated (?:by|from|with)|do not edit)\b|^Code generated .{0,200}DO NOT EDIT/im;
/** The lines of the header that may say who wrote the page. */
const HEADER_CHARS = 600;
/** Stencil's component readme: everything below this comment is written from the component's code. */
const GENERATED_BELOW = '<!-- Auto Generated Below -->';

/** The line from which the document is written by a tool, or Infinity when no part is. */
function generatedFrom(text: string): number {
  if (GENERATED_HEADER.test(text.slice(0, HEADER_CHARS)) || GENERATED_PAGE.test(text)) return 0;
  const below = text.indexOf(GENERATED_BELOW);
  if (below < 0) return Infinity;
  let line = 1;
  for (let k = text.indexOf('\n'); k >= 0 && k < below; k = text.indexOf('\n', k + 1)) line++;
  return line;
}

/** Splits a document into sections with the tokens that queries look for. */
export function sectionsOf(path: string, text: string): DocSection[] {
  const seen = new Map<string, number>();
  const out: DocSection[] = [];
  const releaseNotes = isReleaseNotes(path);
  const sections = sectionsOfText(path, text);
  const displays = sectionDisplays(sections);
  const generated = generatedFrom(text);
  for (const [i, sec] of sections.entries()) {
    const heading = sec.heading;
    const body = sec.body;
    const code = new Set<string>();
    for (const m of body.matchAll(/`([^`\n]+)`/g)) {
      if (isCommandLine(m[1])) continue;
      for (const id of m[1].match(/[A-Za-z_$][\w$]*/g) ?? []) if (id.length >= 3) code.add(id);
    }
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
      display: displays[i],
      slug: slugify(heading || path.slice(path.lastIndexOf('/') + 1), seen),
      line: sec.line,
      endLine: sec.endLine,
      summary: summarize(body) || heading,
      code,
      identifiers,
      paths: [...paths],
      headingWords: new Set(heading.match(/[A-Za-z_$][\w$]*/g) ?? []),
      headingTerms: termsOf(heading),
      bodyTerms: releaseNotes ? [] : termsOf(body.length > MAX_SECTION_TEXT ? body.slice(0, MAX_SECTION_TEXT) : body),
      releaseNotes,
      typeNames: new Set(body.match(TYPE_NAME) ?? []).size,
      hasText: /\S/.test(body),
      generated: sec.line >= generated,
    });
  }
  return out;
}
