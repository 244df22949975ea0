import { kindFloor } from '../../provider/scoring';
import { LexicalIndex } from '../docs/lexicalIndex';
import { compoundTerms, surfaceWords, termsOf } from '../docs/textTerms';
import { TERM_WEIGHTS, withoutUrls, type FileQuery, type TermSource } from './fileTerms';
import { specificEvidence, subjectWords, type LinkEvidence } from './linkEvidence';
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
  /** How reasons name the record (`ADR 0003`, `ADR "Use Redis"`). */
  name: string;
}

export interface LexicalLink {
  path: string;
  /** Link strength, 0..1, on the same scale as explicit links (which stay above it). */
  strength: number;
  reason: string;
  /** Linked by words alone, with no specific evidence: not shown, but the records shown must come near it. */
  unspecific?: boolean;
  /** What links them, when it is specific. */
  evidence?: LinkEvidence;
}

/** Titles it takes for a word they share to be the project's subject rather than two records' topic. */
const MIN_SHARED_TITLES = 3;
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
/** A folder of documents, not of code: where a record's home (the code it sits beside) ends. */
const DOC_FOLDER =
  /^(?:docs?|documentation|wiki|adrs?|decisions?|decision-records|architecture(?:-decisions)?|arch|design|rfcs?)$/i;

/**
 * The code folder a decision folder sits in: `credentials/apps/records` for
 * `credentials/apps/records/docs/decisions`, the root for `docs/adr`.
 */
export function homeOf(folder: string): string {
  const parts = folder.split('/').filter((p) => p && p !== '.');
  const doc = parts.findIndex((p) => DOC_FOLDER.test(p));
  return (doc < 0 ? parts.slice(0, -1) : parts.slice(0, doc)).join('/');
}

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
  // "Lightweight Architectural Design Decision Format", "ADR template".
  'design',
  'format',
  'templ',
]);

/** True for a record whose title says only that decisions are recorded. */
function isAboutRecords(titleTerms: readonly string[]): boolean {
  return (
    titleTerms.some((t) => t === 'decision' || t === 'adr' || t === 'madr') &&
    titleTerms.every((t) => RECORD_WORDS.has(t))
  );
}

/** How a reason says where the file has a word its record is about. */
const OWN_WORDS: Readonly<Record<TermSource, string>> = {
  symbol: 'the definition here is named after',
  name: 'this file is named after',
  type: 'this file is written in',
  import: 'this file imports',
  comment: 'the doc comment here is about',
  folder: "this file's folder is named after",
  definition: 'this file defines',
  call: 'this file calls',
  text: 'this file names',
};

/**
 * The words the linker takes from one record: the costly part of building it, kept between
 * processes with the parsed record (plain data, so it can be stored as JSON).
 */
export interface PreparedLinkable {
  /** A record about keeping records ("Record architecture decisions"): it governs no code. */
  aboutRecords: boolean;
  /** Title words, then the file name's words the title lacks. */
  title: string[];
  /** Compound words of the title (`story book` → `storybook`). */
  joined: string[];
  headings: string[];
  body: string[];
  /** Each word's first written form, term → word, in the order met. */
  surface: [string, string][];
  /** Words the record writes as code, in backticks (`AppWorkload`). */
  code: string[];
}

/** A span in backticks on one line; bounded, so that a stray backtick never scans far. */
const INLINE_CODE = /`([^`\n]{1,120})`/g;
const IDENTIFIER = /[A-Za-z][A-Za-z0-9]*/g;

/** Splits a record into the words the linker indexes. */
export function prepareLinkable(r: LinkableRecord): PreparedLinkable {
  const titleTerms = termsOf(r.title);
  const title = [...titleTerms, ...termsOf(r.slug).filter((t) => !titleTerms.includes(t))];
  const surface = new Map<string, string>();
  surfaceWords(r.title + ' ' + r.slug, surface);
  const headings: string[] = [];
  const body: string[] = [];
  const code = new Set<string>();
  for (const s of r.sections) {
    // Compound identifiers whole: `AppWorkload` names this code, while a `handler` or the `handler` of
    // `ExceptionHandler` is a word.
    for (const m of s.body.matchAll(INLINE_CODE))
      for (const id of m[1].match(IDENTIFIER) ?? [])
        if (termsOf(id).length > 1) for (const t of termsOf(id.toLowerCase())) code.add(t);
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
    surfaceWords(s.heading + ' ' + text, surface);
  }
  return {
    aboutRecords: isAboutRecords(titleTerms),
    title,
    joined: compoundTerms(r.title),
    headings,
    body,
    surface: [...surface],
    code: [...code],
  };
}

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
  /**
   * Per record kept beside one part of the code (`apps/records/docs/decisions/`) while other records
   * sit elsewhere: that folder. Words alone link it only to files inside it.
   */
  private readonly home = new Map<string, string>();

  /** Records about keeping records ("Record architecture decisions"): they govern no code. */
  private readonly aboutRecords = new Set<string>();
  /** Each record's words written as code. */
  private readonly codeTerms = new Map<string, ReadonlySet<string>>();
  /** Each record's title words (with its file name's), for reasons. */
  private readonly titleTerms = new Map<string, ReadonlySet<string>>();
  /** How many records' titles carry each word. */
  private readonly titleCounts = new Map<string, number>();
  /** How many words each record's title has besides what the record does (see subjectWords). */
  private readonly subjects = new Map<string, number>();
  /** The words records use, by term, to show matches as written. */
  private readonly surface = new Map<string, string>();

  /**
   * @param prepared the words of a record split before (see prepareLinkable), by record path; a
   *   record without them is split here.
   */
  constructor(
    records: readonly LinkableRecord[],
    private readonly repo: RepoTerms,
    prepared?: (r: LinkableRecord) => PreparedLinkable,
  ) {
    const words = new Set<string>();
    this.index = new LexicalIndex(
      records.map((r) => {
        this.records.set(r.path, r);
        const p = prepared ? prepared(r) : prepareLinkable(r);
        if (p.aboutRecords) this.aboutRecords.add(r.path);
        this.titleTerms.set(r.path, new Set(p.title));
        this.subjects.set(r.path, subjectWords(r.title));
        for (const t of new Set(p.title)) this.titleCounts.set(t, (this.titleCounts.get(t) ?? 0) + 1);
        this.codeTerms.set(r.path, new Set(p.code));
        for (const [t, w] of p.surface) if (!this.surface.has(t)) this.surface.set(t, w);
        for (const t of [...p.title, ...p.headings, ...p.body]) words.add(t);
        return {
          key: r.path,
          fields: {
            title: { terms: [...p.title, ...p.joined.filter((t) => !p.title.includes(t))], weight: FIELDS.title },
            headings: { terms: p.headings, weight: FIELDS.headings },
            body: { terms: p.body, weight: FIELDS.body },
          },
        };
      }),
      true,
    );
    this.vocabulary = [...words].sort();
    this.computeScopes(records);
    this.computeHomes(records);
  }

  /**
   * Records kept in several places, one beside an app's code (`credentials/apps/api/docs/decisions/`,
   * each folder numbering from 0001): such a record is about that app. Where all records sit in one
   * place, that place says nothing of where they apply.
   */
  private computeHomes(records: readonly LinkableRecord[]): void {
    const homes = new Map(records.map((r) => [r.path, homeOf(r.folder)]));
    if (new Set(homes.values()).size < 2) return;
    for (const [path, home] of homes) if (home) this.home.set(path, home);
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

  /**
   * Records linked to a file by its words, strongest first, down to the floor. Only specific
   * evidence makes a link (see specificEvidence); a link by common words alone comes back marked
   * `unspecific`.
   */
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
      // A record kept beside another app's code: words in common do not make it this file's.
      const home = this.home.get(hit.key);
      if (home !== undefined && !file.startsWith(home + '/')) continue;
      // Words of the file's text support a link; alone they do not make one.
      if (!query.textIsContent && hit.matched.every((t) => textOnly.has(t))) continue;
      const text = 1 - Math.exp(-hit.score / SCORE_SCALE);
      // A title of words most files carry (`React` in a React app) matches nearly every file: it counts less.
      const title = hit.titleCoverage * Math.min(1, hit.titleWeight / TITLE_WEIGHT_FULL);
      let strength = 0.15 + 0.45 * text + 0.18 * title;
      const scope = this.scope.get(hit.key);
      if (scope) {
        if (scope.package === filePackage) strength *= 1.1;
        else if (scope.strict || scope.package !== '') strength *= scope.strict ? 0.6 : 0.8;
      }
      strength = Math.min(MAX_LEXICAL, strength);
      if (strength < kindFloor.decision) continue;
      const input = {
        matched: hit.matched,
        from,
        textOnly,
        query,
        title: this.titleTerms.get(hit.key),
        subject: this.subjects.get(hit.key) ?? 0,
        titleShare: (t: string) => {
          const n = this.titleCounts.get(t) ?? 0;
          return n >= MIN_SHARED_TITLES ? n / this.records.size : 0;
        },
        code: this.codeTerms.get(hit.key),
        share: (t: string) => this.repo.share(t),
        importShare: (t: string) => this.repo.importShare(t, file),
        file,
      };
      const evidence = specificEvidence(input);
      if (!evidence) {
        // No word tells this file apart: the caller looks for a name the record writes as code, or stays silent.
        out.push({
          path: hit.key,
          strength,
          reason: `${this.records.get(hit.key)!.name}: common words only`,
          unspecific: true,
        });
        continue;
      }
      const where = scope?.package && scope.package === filePackage ? ` (for ${scope.package})` : '';
      out.push({ path: hit.key, strength, reason: this.reasonFor(hit.key, evidence) + where, evidence });
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

  /** The evidence in words: what the file imports, where it lives, what it is named after, or the rare words both use. */
  private reasonFor(path: string, evidence: LinkEvidence): string {
    const name = this.records.get(path)!.name;
    const words = evidence.words.map((w) => this.surface.get(w) ?? w);
    switch (evidence.kind) {
      case 'import':
        return `this file imports ${evidence.where ?? words[0]}, which ${name} is about`;
      case 'folder':
        return `in \`${evidence.where}/\`, which ${name} is about`;
      case 'name':
        return `${name} is about ${words[0]}, which ${OWN_WORDS[evidence.source ?? 'name']}`;
      case 'words':
        return `${name} and this file both speak of ${words.slice(0, -1).join(', ')} and ${words[words.length - 1]}, which few other files do`;
    }
  }
}
