/**
 * Which files share rare words with a file: the identifiers of each file's text in an inverted
 * index, scored by the rarity of what two files share. Files that name the same entity, option or
 * error often change together even when neither imports the other and they have no history yet.
 */

/** Identifiers of at least this many characters count; shorter ones are loop variables and noise. */
const MIN_TERM = 4;
const MAX_TERM = 64;
/** Terms kept per file: a generated table or a bundle would otherwise fill the index. */
const MAX_TERMS_PER_FILE = 2000;
/**
 * A term in more files than this share (but at least this many) says nothing about a pair; nor
 * does one in a third of a small workspace's files.
 */
const MAX_DF_SHARE = 0.02;
const MIN_DF_CAP = 8;
/** Scoring stops after this many postings: a bounded cost for files full of common words. */
const MAX_POSTINGS = 20_000;

const IDENT = /[A-Za-z_$][A-Za-z0-9_$]*/g;

/** The distinct identifiers of a text that are long enough to name something. */
export function extractTerms(text: string): string[] {
  const seen = new Set<string>();
  IDENT.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = IDENT.exec(text)) && seen.size < MAX_TERMS_PER_FILE) {
    const t = m[0];
    if (t.length >= MIN_TERM && t.length <= MAX_TERM) seen.add(t);
  }
  return [...seen];
}

export interface SimilarFile {
  path: string;
  /** 0..1: the rarity-weighted share of terms the two files have in common. */
  score: number;
  /** The rarest shared term, for the reason shown to the user. */
  term: string;
}

/** What related-file ranking needs from a term index. */
export interface TermSimilarity {
  /** Files sharing rare terms with `path`, best first; every file with a score when `limit` is omitted. */
  similarTo(path: string, limit?: number): SimilarFile[];
}

/** Term and file ids in arrays, so that a large workspace costs a few megabytes. */
export class TermIndex implements TermSimilarity {
  private readonly termIds = new Map<string, number>();
  private readonly terms: string[] = [];
  private readonly postings: number[][] = [];
  private readonly fileIds = new Map<string, number>();
  private readonly paths: string[] = [];
  private readonly fileTerms: (Int32Array | undefined)[] = [];
  private readonly free: number[] = [];
  private files = 0;

  get size(): number {
    return this.files;
  }

  has(path: string): boolean {
    const id = this.fileIds.get(path);
    return id !== undefined && this.fileTerms[id] !== undefined;
  }

  /** Sets a file's terms, replacing what it had. */
  set(path: string, terms: readonly string[]): void {
    this.delete(path);
    let id = this.fileIds.get(path);
    if (id === undefined) {
      id = this.free.pop() ?? this.paths.length;
      this.fileIds.set(path, id);
      this.paths[id] = path;
    }
    const ids = new Int32Array(terms.length);
    terms.forEach((t, i) => {
      let tid = this.termIds.get(t);
      if (tid === undefined) {
        tid = this.terms.length;
        this.termIds.set(t, tid);
        this.terms.push(t);
        this.postings.push([]);
      }
      ids[i] = tid;
      this.postings[tid].push(id);
    });
    this.fileTerms[id] = ids;
    this.files++;
  }

  delete(path: string): void {
    const id = this.fileIds.get(path);
    if (id === undefined) return;
    const ids = this.fileTerms[id];
    if (ids) {
      for (const tid of ids) {
        const list = this.postings[tid];
        const at = list.indexOf(id);
        if (at >= 0) {
          list[at] = list[list.length - 1];
          list.pop();
        }
      }
      this.files--;
    }
    this.fileTerms[id] = undefined;
    this.fileIds.delete(path);
    this.free.push(id);
  }

  similarTo(path: string, limit?: number): SimilarFile[] {
    const id = this.fileIds.get(path);
    const mine = id === undefined ? undefined : this.fileTerms[id];
    if (!mine || !mine.length || this.files < 2) return [];
    const cap = Math.min(Math.max(MIN_DF_CAP, Math.floor(this.files * MAX_DF_SHARE)), Math.floor(this.files / 3));
    // Rarest terms first, so that the posting budget goes to the ones that say the most.
    const usable = [...mine].filter((t) => this.postings[t].length > 1 && this.postings[t].length <= cap).sort((a, b) => this.postings[a].length - this.postings[b].length);
    const acc = new Map<number, number>();
    const best = new Map<number, number>();
    let norm = 0;
    let budget = MAX_POSTINGS;
    for (const t of usable) {
      const list = this.postings[t];
      const idf = Math.log(this.files / list.length);
      norm += idf;
      if (budget <= 0) continue;
      budget -= list.length;
      for (const f of list) {
        if (f === id) continue;
        acc.set(f, (acc.get(f) ?? 0) + idf);
        if (!best.has(f)) best.set(f, t);
      }
    }
    if (!norm) return [];
    const out: SimilarFile[] = [];
    for (const [f, s] of acc) {
      const theirs = this.fileTerms[f]?.length ?? 1;
      // Shared weight over the query's weight, damped by the other file's length: a file that
      // mentions everything shares something with everyone.
      const score = (s / norm) * Math.min(1, Math.sqrt(mine.length / theirs));
      out.push({ path: this.paths[f], score, term: this.terms[best.get(f)!] });
    }
    out.sort((a, b) => b.score - a.score || (a.path < b.path ? -1 : 1));
    return limit === undefined ? out : out.slice(0, limit);
  }
}
