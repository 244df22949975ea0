/**
 * Which files share rare words with a file: the identifiers of each file's text in an inverted
 * index, scored by the rarity of what two files share. Files that name the same entity, option or
 * error often change together even when neither imports the other and they have no history yet.
 */

export { extractTerms } from '../terms';

/**
 * A term in more files than this share (but at least this many) says nothing about a pair; nor
 * does one in a third of a small workspace's files.
 */
const MAX_DF_SHARE = 0.02;
const MIN_DF_CAP = 8;
/** Scoring stops after this many postings: a bounded cost for files full of common words. */
const MAX_POSTINGS = 20_000;

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
  /** Files sharing rare terms with a list of words (what a change is about), best first; `exclude` is left out. */
  similarToTerms(words: readonly string[], exclude?: string, limit?: number): SimilarFile[];
}

/** Postings changed since the last build (files set or deleted) that make a rebuild worth it. */
const MIN_REBUILD_CHANGES = 1000;

/**
 * Term and file ids in typed arrays, so that a large workspace costs a few megabytes: each file's
 * term ids in one shared pool, and the postings (which files hold a term) packed in two arrays,
 * built from the pool when first asked for and then kept current by small overlays until enough has
 * changed to build them again.
 */
export class TermIndex implements TermSimilarity {
  private readonly termIds = new Map<string, number>();
  private readonly terms: string[] = [];
  private readonly fileIds = new Map<string, number>();
  private readonly paths: string[] = [];
  private readonly free: number[] = [];
  private files = 0;
  /** File f's term ids are pool[start[f] .. start[f] + count[f]); count -1: no such file. */
  private pool = new Int32Array(4096);
  private poolEnd = 0;
  private poolDead = 0;
  private start = new Int32Array(256);
  private count = new Int32Array(256).fill(-1);
  /** What each file's terms were read from (modification time and size), for callers that re-read files. */
  private mtime = new Float64Array(256);
  private bytes = new Float64Array(256);
  private postings: Postings | undefined;

  get size(): number {
    return this.files;
  }

  has(path: string): boolean {
    const id = this.fileIds.get(path);
    return id !== undefined && this.count[id] >= 0;
  }

  /** The paths of every file held. */
  allPaths(): string[] {
    return [...this.fileIds.keys()];
  }

  /** True when `path` was last set from a file with this modification time and size. */
  sameStamp(path: string, mtimeMs: number, size: number): boolean {
    const id = this.fileIds.get(path);
    return id !== undefined && this.count[id] >= 0 && this.mtime[id] === mtimeMs && this.bytes[id] === size;
  }

  /** Sets a file's terms, replacing what it had; `stamp` says what they were read from. */
  set(path: string, terms: readonly string[], stamp?: { mtimeMs: number; size: number }): void {
    let id = this.fileIds.get(path);
    if (id !== undefined) this.drop(id);
    else {
      id = this.free.pop() ?? this.paths.length;
      this.fileIds.set(path, id);
      this.paths[id] = path;
      this.ensureFileCapacity(id + 1);
    }
    this.ensurePoolCapacity(this.poolEnd + terms.length);
    this.start[id] = this.poolEnd;
    this.count[id] = terms.length;
    this.mtime[id] = stamp?.mtimeMs ?? NaN;
    this.bytes[id] = stamp?.size ?? NaN;
    for (const t of terms) {
      let tid = this.termIds.get(t);
      if (tid === undefined) {
        tid = this.terms.length;
        // A term cut from a file's text would keep all that text alive as long as the index.
        const own = detached(t);
        this.termIds.set(own, tid);
        this.terms.push(own);
      }
      this.pool[this.poolEnd++] = tid;
    }
    this.files++;
    this.postings?.added(id, this.termsOf(id));
  }

  delete(path: string): void {
    const id = this.fileIds.get(path);
    if (id === undefined) return;
    this.drop(id);
    this.fileIds.delete(path);
    this.paths[id] = '';
    this.free.push(id);
  }

  /** Each file's terms and the size they were read from (what a team snapshot carries). */
  *entries(): Generator<{ path: string; size: number; terms: string[] }> {
    for (const [path, id] of this.fileIds) {
      if (this.count[id] < 0) continue;
      yield { path, size: this.bytes[id], terms: Array.from(this.termsOf(id), (t) => this.terms[t]) };
    }
  }

  similarTo(path: string, limit?: number): SimilarFile[] {
    const id = this.fileIds.get(path);
    if (id === undefined || this.count[id] <= 0 || this.files < 2) return [];
    return this.scoreTerms(this.termsOf(id), id, limit);
  }

  similarToTerms(words: readonly string[], exclude?: string, limit?: number): SimilarFile[] {
    if (this.files < 2) return [];
    const ids: number[] = [];
    for (const w of new Set(words)) {
      const t = this.termIds.get(w);
      if (t !== undefined) ids.push(t);
    }
    return this.scoreTerms(ids, exclude === undefined ? -1 : (this.fileIds.get(exclude) ?? -1), limit);
  }

  private scoreTerms(mine: ArrayLike<number>, id: number, limit?: number): SimilarFile[] {
    const postings = this.currentPostings();
    const cap = Math.min(Math.max(MIN_DF_CAP, Math.floor(this.files * MAX_DF_SHARE)), Math.floor(this.files / 3));
    // Rarest terms first, so that the posting budget goes to the ones that say the most.
    const usable = Array.from(mine).filter((t) => {
      const df = postings.df(t);
      return df > 1 && df <= cap;
    });
    usable.sort((a, b) => postings.df(a) - postings.df(b));
    const acc = new Map<number, number>();
    const best = new Map<number, number>();
    let norm = 0;
    let budget = MAX_POSTINGS;
    for (const t of usable) {
      const df = postings.df(t);
      const idf = Math.log(this.files / df);
      norm += idf;
      if (budget <= 0) continue;
      budget -= df;
      postings.forEach(t, (f) => {
        if (f === id) return;
        acc.set(f, (acc.get(f) ?? 0) + idf);
        if (!best.has(f)) best.set(f, t);
      });
    }
    if (!norm) return [];
    const out: SimilarFile[] = [];
    for (const [f, s] of acc) {
      const theirs = Math.max(1, this.count[f]);
      // Shared weight over the query's weight, damped by the other file's length: a file that
      // mentions everything shares something with everyone.
      const score = (s / norm) * Math.min(1, Math.sqrt(mine.length / theirs));
      out.push({ path: this.paths[f], score, term: this.terms[best.get(f)!] });
    }
    out.sort((a, b) => b.score - a.score || (a.path < b.path ? -1 : 1));
    return limit === undefined ? out : out.slice(0, limit);
  }

  private termsOf(id: number): Int32Array {
    return this.pool.subarray(this.start[id], this.start[id] + Math.max(0, this.count[id]));
  }

  /** Forgets a file's terms (its id stays). */
  private drop(id: number): void {
    const n = this.count[id];
    if (n < 0) return;
    this.postings?.removed(id, this.termsOf(id));
    this.poolDead += n;
    this.count[id] = -1;
    this.files--;
  }

  private currentPostings(): Postings {
    const p = this.postings;
    if (p && p.changes < Math.max(MIN_REBUILD_CHANGES, this.files / 10)) return p;
    this.postings = Postings.build(this.terms.length, this.count, this.start, this.pool);
    return this.postings;
  }

  private ensureFileCapacity(n: number): void {
    if (n <= this.count.length) return;
    const size = Math.max(n, this.count.length * 2);
    this.start = grown(this.start, size);
    this.count = grown(this.count, size, -1);
    this.mtime = grown(this.mtime, size);
    this.bytes = grown(this.bytes, size);
  }

  /** Room for `n` pooled ids: the dead ones are squeezed out first when they are most of it. */
  private ensurePoolCapacity(n: number): void {
    if (n <= this.pool.length) return;
    if (this.poolDead > this.poolEnd / 2) {
      const live = this.poolEnd - this.poolDead;
      const next = new Int32Array(Math.max(4096, (live + (n - this.poolEnd)) * 2));
      let end = 0;
      for (let f = 0; f < this.paths.length; f++) {
        if (this.count[f] < 0) continue;
        next.set(this.termsOf(f), end);
        this.start[f] = end;
        end += this.count[f];
      }
      this.pool = next;
      this.poolEnd = end;
      this.poolDead = 0;
      return;
    }
    this.pool = grown(this.pool, Math.max(n, this.pool.length * 2));
  }
}

function grown<T extends Int32Array | Float64Array>(a: T, size: number, fill?: number): T {
  const next = new (a.constructor as new (n: number) => T)(size);
  next.set(a);
  if (fill !== undefined) next.fill(fill, a.length);
  return next;
}

/**
 * Which files hold each term: packed at build time (`files[offsets[t] .. offsets[t + 1])`), with
 * the files changed since then left out of the packed lists and their terms listed apart.
 */
class Postings {
  /** Files changed or deleted since the build: their packed entries no longer count. */
  private readonly stale = new Set<number>();
  /** Term → files that gained it since the build. */
  private readonly extra = new Map<number, number[]>();
  /** Term → how many files gained (+) or lost (−) it since the build. */
  private readonly delta = new Map<number, number>();
  changes = 0;

  private constructor(
    private readonly terms: number,
    private readonly offsets: Int32Array,
    private readonly files: Int32Array,
  ) {}

  static build(terms: number, count: Int32Array, start: Int32Array, pool: Int32Array): Postings {
    const offsets = new Int32Array(terms + 1);
    for (let f = 0; f < count.length; f++)
      for (let i = start[f], end = i + count[f]; i < end; i++) offsets[pool[i] + 1]++;
    for (let t = 0; t < terms; t++) offsets[t + 1] += offsets[t];
    const files = new Int32Array(offsets[terms]);
    const fill = offsets.slice(0, terms);
    for (let f = 0; f < count.length; f++)
      for (let i = start[f], end = i + count[f]; i < end; i++) files[fill[pool[i]]++] = f;
    return new Postings(terms, offsets, files);
  }

  /** How many files hold term `t`. */
  df(t: number): number {
    const packed = t < this.terms ? this.offsets[t + 1] - this.offsets[t] : 0;
    return packed + (this.delta.get(t) ?? 0);
  }

  forEach(t: number, fn: (file: number) => void): void {
    if (t < this.terms) {
      for (let i = this.offsets[t], end = this.offsets[t + 1]; i < end; i++) {
        const f = this.files[i];
        if (!this.stale.has(f)) fn(f);
      }
    }
    const more = this.extra.get(t);
    if (more) for (const f of more) fn(f);
  }

  added(file: number, terms: Int32Array): void {
    this.stale.add(file);
    for (const t of terms) {
      const list = this.extra.get(t);
      if (list) list.push(file);
      else this.extra.set(t, [file]);
      this.delta.set(t, (this.delta.get(t) ?? 0) + 1);
    }
    this.changes += terms.length + 1;
  }

  removed(file: number, terms: Int32Array): void {
    // Its packed entries (if it had any) stop counting; terms it gained since the build are taken back.
    const wasStale = this.stale.has(file);
    this.stale.add(file);
    for (const t of terms) {
      if (wasStale) {
        const list = this.extra.get(t);
        const at = list ? list.indexOf(file) : -1;
        if (list && at >= 0) {
          list[at] = list[list.length - 1];
          list.pop();
        }
      }
      this.delta.set(t, (this.delta.get(t) ?? 0) - 1);
    }
    this.changes += terms.length + 1;
  }
}

/**
 * A copy of `s` that shares no memory with the string it was cut from: V8 makes a substring of 13
 * characters or more a view into its parent, so keeping one keeps the whole parent (a file's text).
 */
function detached(s: string): string {
  return Buffer.from(s, 'utf8').toString('utf8');
}
