import { kindFloor } from '../../provider/scoring';
import { LexicalIndex } from '../docs/lexicalIndex';
import { compoundTerms, surfaceWords, termsOf } from '../docs/textTerms';
import { TERM_WEIGHTS, withoutUrls, type FileQuery, type TermSource } from './fileTerms';
import { normalizeName, type RepoTerms } from './repoTerms';

/** A decision record as the linker reads it. */
export interface LinkableRecord {
  path: string;
  title: string;
  /** The file name without number and extension (`preferred-data-fetching-method`). */
  slug: string;
  sections: readonly { heading: string; body: string }[];
  /** Area folders between the decision folder and the record (`front-end`). */
  area: readonly string[];
  /** The decision folder. */
  folder: string;
}

export interface LexicalLink {
  path: string;
  /** Link strength, 0..1, on the same scale as explicit links (which stay above it). */
  strength: number;
  reason: string;
}

/** Field weights: a word in the title counts three times one in the body. */
const FIELDS = { title: 3, headings: 1.5, body: 1 };
/** Strongest link text alone can make: below a path an ADR names (0.82). */
const MAX_LEXICAL = 0.78;
/** Title weight (idf × rarity summed) from which a fully matched title gets its whole bonus. */
const TITLE_WEIGHT_FULL = 0.57;
/** BM25 score at which the text part of a link is two thirds of the way up. */
const SCORE_SCALE = 2.3;
/** Words a source sees per record body: enough for any record, bounded for huge ones. */
const MAX_BODY_TERMS = 20000;
/** Words taken from a file's plain text: its most telling ones only, so a long file does not match everything a little. */
const MAX_TEXT_TERMS = 30;
/** Most that a file's plain-text words add to a record's score together: they support, they do not decide. */
const TEXT_CAP = 1.15;
/** How much more a word of the text counts when the text is all there is of the file (no code index). */
const CONTENT_TEXT = 2;
/** Headings every record of a template has: they say nothing about its topic. */
const TEMPLATE_HEADINGS = new Set([
  'status',
  'context',
  'decision',
  'decisions',
  'consequences',
  'background',
  'problem',
  'problem statement',
  'context and problem statement',
  'decision drivers',
  'considered options',
  'decision outcome',
  'positive consequences',
  'negative consequences',
  'pros and cons of the options',
  'links',
  'more information',
  'references',
  'notes',
  'options',
  'alternatives',
  'alternatives considered',
  'implications',
  'metadata',
  'summary',
  'introduction',
  'overview',
  'proposal',
  'rationale',
  'date',
  'deciders',
  'authors',
  'related',
  'see also',
  'validation',
  'confirmation',
]);

/** The words of titles such as "Record architecture decisions" or "Use Markdown Architectural Decision Records". */
const RECORD_WORDS = new Set([
  'record',
  'architectur',
  'architectural',
  'decision',
  'adr',
  'madr',
  'markdown',
  'document',
  'log',
  'lightweight',
  'keep',
]);

/** True for a record whose title says only that decisions are recorded. */
function isAboutRecords(titleTerms: readonly string[]): boolean {
  return (
    titleTerms.some((t) => t === 'decision' || t === 'adr' || t === 'madr') &&
    titleTerms.every((t) => RECORD_WORDS.has(t))
  );
}

const SOURCE_WORDS: Readonly<Record<TermSource, string>> = {
  symbol: 'the symbol at the cursor',
  name: "this file's name",
  import: 'an import of this file',
  comment: 'the doc comment here',
  folder: "this file's folder",
  definition: 'a name defined here',
  call: 'a call made here',
  text: "this file's text",
};

/**
 * Links a file to decision records by what both are about: BM25F between the record (title,
 * headings, body) and the file's words (see fileQuery), each word weighed by how rare it is among
 * the records and across the workspace's code, then adjusted for where the record applies (its
 * area folder and package).
 */
export class DecisionLinker {
  private readonly index: LexicalIndex<string>;
  private readonly records = new Map<string, LinkableRecord>();
  /** Record terms sorted, for compound words (`story` ↔ `storybook`). */
  private readonly vocabulary: string[];
  /** Per record: the package its area names, or its home package when records are spread over packages. */
  private readonly scope = new Map<string, { package: string; strict: boolean }>();

  /** Records about keeping records ("Record architecture decisions"): they govern no code. */
  private readonly aboutRecords = new Set<string>();
  /** Each record's title words (with its file name's), for reasons. */
  private readonly titleTerms = new Map<string, ReadonlySet<string>>();
  /** The words records use, by term, to show matches as written. */
  private readonly surface = new Map<string, string>();

  constructor(
    records: readonly LinkableRecord[],
    private readonly repo: RepoTerms,
  ) {
    const words = new Set<string>();
    this.index = new LexicalIndex(
      records.map((r) => {
        this.records.set(r.path, r);
        const titleTerms = termsOf(r.title);
        if (isAboutRecords(titleTerms)) this.aboutRecords.add(r.path);
        const title = [...titleTerms, ...termsOf(r.slug).filter((t) => !titleTerms.includes(t))];
        this.titleTerms.set(r.path, new Set(title));
        const joined = compoundTerms(r.title);
        surfaceWords(r.title + ' ' + r.slug, this.surface);
        const headings: string[] = [];
        const body: string[] = [];
        for (const s of r.sections) {
          if (
            !TEMPLATE_HEADINGS.has(
              s.heading
                .toLowerCase()
                .replace(/[^a-z ]/g, '')
                .trim(),
            )
          )
            headings.push(...termsOf(s.heading));
          if (body.length >= MAX_BODY_TERMS) continue;
          const text = withoutUrls(s.body);
          body.push(...termsOf(text), ...compoundTerms(text));
          surfaceWords(s.heading + ' ' + text, this.surface);
        }
        for (const t of [...title, ...headings, ...body]) words.add(t);
        return {
          key: r.path,
          fields: {
            title: { terms: [...title, ...joined.filter((t) => !title.includes(t))], weight: FIELDS.title },
            headings: { terms: headings, weight: FIELDS.headings },
            body: { terms: body, weight: FIELDS.body },
          },
        };
      }),
      true,
    );
    this.vocabulary = [...words].sort();
    this.computeScopes(records);
  }

  /** Where each record applies: an area named like a package, or its home package when records sit in several packages. */
  private computeScopes(records: readonly LinkableRecord[]): void {
    const packages = this.repo.packageNames();
    const homes = new Set(records.map((r) => this.repo.packageOf(r.folder + '/')));
    for (const r of records) {
      const named = r.area.map((a) => packages.get(normalizeName(a))).find((p) => p !== undefined);
      if (named !== undefined) this.scope.set(r.path, { package: named, strict: true });
      else if (homes.size > 1) this.scope.set(r.path, { package: this.repo.packageOf(r.folder + '/'), strict: false });
    }
  }

  get size(): number {
    return this.index.size;
  }

  /** Records linked to a file by its words, strongest first, down to the floor. */
  link(file: string, query: FileQuery, limit = 10): LexicalLink[] {
    const rarity = (t: string) => this.repo.rarity(t);
    const { terms, from } = this.expand(query.terms, rarity);
    const textOnly = new Set<string>();
    for (const [t, w] of this.tellingText(query.textCounts, rarity)) {
      if (terms.has(t)) continue;
      terms.set(t, query.textIsContent ? w * CONTENT_TEXT : w);
      textOnly.add(t);
    }
    const filePackage = this.repo.packageOf(file);
    const out: LexicalLink[] = [];
    for (const hit of this.index.search(terms, rarity, limit * 3, { has: (t) => textOnly.has(t), cap: TEXT_CAP })) {
      if (this.aboutRecords.has(hit.key)) continue;
      // Words of the file's text support a link; alone they do not make one.
      if (!query.textIsContent && hit.matched.every((t) => textOnly.has(t))) continue;
      const text = 1 - Math.exp(-hit.score / SCORE_SCALE);
      // A title of words most files carry (`React` in a React app) matches nearly every file: it counts less.
      const title = hit.titleCoverage * Math.min(1, hit.titleWeight / TITLE_WEIGHT_FULL);
      let strength = 0.15 + 0.45 * text + 0.18 * title;
      const scope = this.scope.get(hit.key);
      let where = '';
      if (scope) {
        if (scope.package === filePackage) {
          strength *= 1.1;
          where = scope.package ? ` (for ${scope.package})` : '';
        } else if (scope.strict || scope.package !== '') strength *= scope.strict ? 0.6 : 0.8;
      }
      strength = Math.min(MAX_LEXICAL, strength);
      if (strength < kindFloor.decision) continue;
      out.push({ path: hit.key, strength, reason: this.reasonFor(hit.key, hit.matched, title, query, from) + where });
    }
    return out.sort((a, b) => b.strength - a.strength).slice(0, limit);
  }

  /** Free-text search over the records (memory subscriptions): best first. */
  search(text: string, limit: number): { path: string; score: number }[] {
    const terms = new Map<string, number>();
    for (const t of termsOf(text)) terms.set(t, 1);
    return this.index
      .search(this.expand(terms, () => 1).terms, () => 1, limit)
      .map((h) => ({ path: h.key, score: h.score }));
  }

  /** The file's own words that are rarest in the workspace and known to the records, weighted by how often the file uses them. */
  private tellingText(counts: ReadonlyMap<string, number>, rarity: (t: string) => number): [string, number][] {
    const known = [...counts].filter(([t]) => this.index.documentFrequency(t) > 0);
    const value = (t: string, n: number) => rarity(t) * this.index.idf(t) * Math.min(3, 1 + Math.log(n));
    return known
      .sort((a, b) => value(b[0], b[1]) - value(a[0], a[1]))
      .slice(0, MAX_TEXT_TERMS)
      .map(([t, n]) => [t, TERM_WEIGHTS.text * Math.min(2, 1 + Math.log(n))]);
  }

  /**
   * Adds record words that a strong query word is the start of, at a lower weight (`story` →
   * `storybook`). A longer word is never worth more than the word the file has: `config` does not
   * become as telling as `configmap`, the one record that says it. `from` maps each added word to
   * the file's word.
   */
  private expand(
    terms: ReadonlyMap<string, number>,
    rarity: (t: string) => number,
  ): { terms: Map<string, number>; from: Map<string, string> } {
    const out = new Map(terms);
    const from = new Map<string, string>();
    const telling = (t: string) => this.index.idf(t) * rarity(t);
    for (const [t, w] of terms) {
      if (t.length < 4 || w < 0.7) continue;
      let lo = 0;
      let hi = this.vocabulary.length;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (this.vocabulary[mid] < t) lo = mid + 1;
        else hi = mid;
      }
      for (let i = lo; i < this.vocabulary.length && this.vocabulary[i].startsWith(t); i++) {
        const v = this.vocabulary[i];
        // Letters only: `config2` is a name, not a longer form of `config`.
        if (v === t || v.length > t.length + 5 || !/^[a-z]+$/.test(v.slice(t.length))) continue;
        // A plural the stemmer leaves alone (`schemas`) is the same word.
        const same = v.length - t.length <= 2 && /^e?s$/.test(v.slice(t.length));
        const weight = w * 0.6 * (same ? 1 : Math.min(1, telling(t) / (telling(v) || 1)));
        if ((out.get(v) ?? 0) < weight) {
          out.set(v, weight);
          from.set(v, t);
        }
      }
    }
    return { terms: out, from };
  }

  private reasonFor(
    path: string,
    matched: readonly string[],
    titleCoverage: number,
    query: FileQuery,
    expandedFrom: ReadonlyMap<string, string>,
  ): string {
    const record = this.records.get(path)!;
    const inTitle = this.titleTerms.get(path);
    // A title match names the title's words first: "matches rate, limit", not the body's words.
    const shown =
      titleCoverage >= 0.5 && inTitle
        ? [...matched.filter((w) => inTitle.has(w)), ...matched.filter((w) => !inTitle.has(w))].slice(0, 3)
        : matched.slice(0, 3);
    const words = shown.map((w) => this.surface.get(w) ?? w);
    const sourceOf = (w: string) => query.sources.get(w) ?? query.sources.get(expandedFrom.get(w) ?? '') ?? 'text';
    const from = [...new Set(shown.map(sourceOf))].slice(0, 2).map((s) => SOURCE_WORDS[s]);
    const where = from.length ? ` (from ${from.join(' and ')})` : '';
    if (titleCoverage >= 0.5) return `its title "${record.title}" matches ${words.join(', ')}${where}`;
    return `it talks about ${words.join(', ')}${where}`;
  }
}
