/**
 * A small in-memory BM25F index: documents made of weighted fields (a title counts more than a
 * body), queries made of weighted terms, and an optional per-term factor from outside the index
 * (how common a word is in the repository's code). Everything per document is computed once when
 * the index is built, so a query only walks the postings of its own terms.
 */

export interface LexicalField {
  /** Terms of the field, in order (repeats count). */
  terms: readonly string[];
  /** How much one occurrence here counts against one in a plain body. */
  weight: number;
}

export interface LexicalHit<K> {
  key: K;
  score: number;
  /** The query terms that matched, strongest contribution first; those adding under a quarter of the strongest are left out. */
  matched: string[];
  /** Share of the document's title terms (by weight, each counted up to its query weight) that the query holds, 0..1. */
  titleCoverage: number;
  /** How telling the title's words are together: the sum of their idf × term factor. */
  titleWeight: number;
}

interface Posting {
  doc: number;
  /** Field-weighted, length-normalized term frequency. */
  tf: number;
  inTitle: boolean;
}

const K1 = 1.2;
const B = 0.75;

export class LexicalIndex<K> {
  private readonly keys: K[] = [];
  private readonly postings = new Map<string, Posting[]>();
  private readonly titleTerms: string[][] = [];

  private readonly idfScale: number;
  /** Per document during a search: its score, what capped terms added, whether it was met. */
  private score = new Float64Array(0);
  private capped = new Float64Array(0);
  private met = new Uint8Array(0);

  /**
   * @param docs each document's fields; the field named `title` also feeds title coverage.
   * @param normalizeIdf divide idf by that of a word only one document has, so that scores of a
   *   collection of 5 documents and one of 50 read on the same scale.
   */
  constructor(docs: Iterable<{ key: K; fields: Record<string, LexicalField> }>, normalizeIdf = false) {
    const list = [...docs];
    this.idfScale = normalizeIdf && list.length ? 1 / Math.log(1 + (list.length - 0.5) / 1.5) : 1;
    const avg = new Map<string, number>();
    for (const d of list)
      for (const [name, f] of Object.entries(d.fields))
        avg.set(name, (avg.get(name) ?? 0) + f.terms.length / Math.max(1, list.length));
    list.forEach((d, doc) => {
      this.keys.push(d.key);
      const tf = new Map<string, { tf: number; inTitle: boolean }>();
      for (const [name, f] of Object.entries(d.fields)) {
        const norm = 1 - B + (B * f.terms.length) / Math.max(1, avg.get(name) ?? 1);
        const counts = new Map<string, number>();
        for (const t of f.terms) counts.set(t, (counts.get(t) ?? 0) + 1);
        for (const [t, n] of counts) {
          const e = tf.get(t) ?? { tf: 0, inTitle: false };
          e.tf += (f.weight * n) / norm;
          if (name === 'title') e.inTitle = true;
          tf.set(t, e);
        }
      }
      for (const [t, e] of tf) {
        const list = this.postings.get(t);
        const p = { doc, tf: e.tf, inTitle: e.inTitle };
        if (list) list.push(p);
        else this.postings.set(t, [p]);
      }
      this.titleTerms.push([...new Set(d.fields.title?.terms ?? [])]);
    });
  }

  get size(): number {
    return this.keys.length;
  }

  /** Documents holding the term. */
  documentFrequency(term: string): number {
    return this.postings.get(term)?.length ?? 0;
  }

  /** BM25 inverse document frequency of a term over this index (always positive; at most 1 when normalized). */
  idf(term: string): number {
    const df = this.documentFrequency(term);
    return this.idfScale * Math.log(1 + (this.keys.length - df + 0.5) / (df + 0.5));
  }

  /**
   * Documents matching the weighted query terms, best first. `termFactor` scales each term's
   * weight (0..1) by what the index cannot know, such as how common the word is in the code;
   * `cappedTerms` together add at most their cap to a document's score.
   */
  search(
    query: ReadonlyMap<string, number>,
    termFactor: (term: string) => number = () => 1,
    limit = 20,
    cappedTerms?: { has(term: string): boolean; cap: number },
  ): LexicalHit<K>[] {
    // Scores in arrays by document, reset after each search: a common word matches thousands of
    // sections, and an object per match would be garbage by the megabyte.
    if (this.score.length !== this.keys.length) {
      this.score = new Float64Array(this.keys.length);
      this.capped = new Float64Array(this.keys.length);
      this.met = new Uint8Array(this.keys.length);
    }
    const { score, capped, met } = this;
    const terms: [string, number, Posting[], boolean][] = [];
    const touched: number[] = [];
    for (const [term, qw] of query) {
      const list = this.postings.get(term);
      if (!list || qw <= 0) continue;
      const w = qw * this.idf(term) * termFactor(term);
      if (w <= 0) continue;
      const isCapped = cappedTerms?.has(term) ?? false;
      terms.push([term, w, list, isCapped]);
      for (const p of list) {
        const s = (w * p.tf * (K1 + 1)) / (p.tf + K1);
        if (!met[p.doc]) {
          met[p.doc] = 1;
          touched.push(p.doc);
        }
        if (isCapped) capped[p.doc] += s;
        else score[p.doc] += s;
      }
    }
    // Terms under a cap (many weak words) together add at most the cap.
    for (const d of touched) score[d] += Math.min(capped[d], cappedTerms?.cap ?? Infinity);
    // Only the best `limit` get their matched terms and title figures. The sort is stable, so ties
    // keep the order documents were first met.
    const best = touched.sort((a, b) => score[b] - score[a]).slice(0, limit);
    const parts = new Map<number, [string, number][]>(best.map((d) => [d, []]));
    for (const [term, w, list] of terms) {
      for (const p of list) parts.get(p.doc)?.push([term, (w * p.tf * (K1 + 1)) / (p.tf + K1)]);
    }
    const hits = best.map((doc) => {
      const title = this.titleTerms[doc];
      let total = 0;
      let held = 0;
      for (const t of title) {
        const w = this.idf(t) * termFactor(t);
        total += w;
        held += w * Math.min(1, query.get(t) ?? 0);
      }
      return {
        key: this.keys[doc],
        score: score[doc],
        matched: strongest(parts.get(doc)!),
        titleCoverage: total > 0 ? held / total : 0,
        titleWeight: total,
      };
    });
    for (const d of touched) {
      score[d] = 0;
      capped[d] = 0;
      met[d] = 0;
    }
    return hits;
  }
}

function strongest(parts: [string, number][]): string[] {
  parts.sort((a, b) => b[1] - a[1]);
  const top = parts[0]?.[1] ?? 0;
  return parts.filter((p) => p[1] >= top * 0.25).map((p) => p[0]);
}
