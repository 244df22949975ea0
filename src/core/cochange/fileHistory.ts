import { ByteBuilder, F64Builder, U32Builder } from './growable';
import type { PathTable } from './pathTable';
import { UNKNOWN_LINES, type MinedCommit } from '../git/commitLog';

export { UNKNOWN_LINES, type MinedCommit } from '../git/commitLog';

/** A commit as the recent-changes items show it. */
export interface HistoryCommit {
  hash: string;
  author: string;
  email: string;
  /** Committer date, unix milliseconds. */
  date: number;
  subject: string;
}

/**
 * A commit of one file, with the lines it added to and removed from that file (0 for binary files;
 * absent when not counted: line counts are kept for the recent-changes window only).
 */
export interface FileChange extends HistoryCommit {
  added?: number;
  removed?: number;
}

/** A commit of one file, its place on the first-parent line and the commit before it there (absent for the first one kept). */
export interface FileRevision extends HistoryCommit {
  index: number;
  parent?: string;
}

/** The columns of a file history, as its cache file holds them. */
export interface FileHistoryColumns {
  hashBytes: number;
  hashes: Buffer;
  times: Float64Array;
  authorOf: Uint32Array;
  authors: string[];
  emails: string[];
  subjectStart: Uint32Array;
  subjects: Buffer;
  fileStart: Uint32Array;
  entryCommit: Uint32Array;
  entryAdded: Uint32Array;
  entryRemoved: Uint32Array;
  /** The first parent of the oldest commit kept, when it has one (a shallow clone, or a later start). */
  baseParent?: string;
  /** Commits from this number on have their line counts (UNKNOWN_LINES for none older). */
  countedFrom: number;
}

/**
 * Every first-parent commit since the first one mined and, per file, the commits that changed it,
 * held in flat typed arrays: commits by number, oldest first (commit i's first parent is commit
 * i - 1), and each file's commits as one run of a shared list. "What changed this file lately" is a
 * walk back along its run; no git process is asked.
 */
export class FileHistory {
  private c: FileHistoryColumns;

  constructor(
    readonly paths: PathTable,
    columns?: FileHistoryColumns,
  ) {
    this.c = columns ?? emptyColumns(paths.size);
  }

  get commitCount(): number {
    return this.c.times.length;
  }

  /** The newest commit kept. */
  get head(): string | undefined {
    return this.commitCount ? this.hashOf(this.commitCount - 1) : undefined;
  }

  /** When the newest commit kept was made (unix ms). */
  get newestTime(): number | undefined {
    return this.commitCount ? this.c.times[this.commitCount - 1] : undefined;
  }

  get baseParent(): string | undefined {
    return this.c.baseParent;
  }

  get columns(): Readonly<FileHistoryColumns> {
    return this.c;
  }

  /** Bytes held, typed arrays and buffers (paths are in the shared table). */
  get byteSize(): number {
    const c = this.c;
    const arrays = [
      c.hashes,
      c.times,
      c.authorOf,
      c.subjectStart,
      c.subjects,
      c.fileStart,
      c.entryCommit,
      c.entryAdded,
      c.entryRemoved,
    ];
    return arrays.reduce((n, a) => n + a.byteLength, 0);
  }

  /**
   * The file's commits, newest first, at most `limit`: as `git log --first-parent --since` would list
   * them, the walk ends at the first commit older than `since` (unix ms), whatever file it changed.
   * Commits in `skip` (those blame is told to look past) are left out and do not count to the limit.
   */
  recent(path: string, limit: number, since?: number, skip?: ReadonlySet<string>): FileChange[] {
    const run = this.runOf(path);
    if (!run) return [];
    const cut = since === undefined ? -1 : this.cutBefore(since);
    const out: FileChange[] = [];
    for (let k = run.end - 1; k >= run.start && out.length < limit; k--) {
      const i = this.c.entryCommit[k];
      if (i <= cut) break;
      if (skip?.size && skip.has(this.hashOf(i))) continue;
      const added = this.c.entryAdded[k];
      const removed = this.c.entryRemoved[k];
      out.push(
        added === UNKNOWN_LINES || removed === UNKNOWN_LINES ? this.commit(i) : { ...this.commit(i), added, removed },
      );
    }
    return out;
  }

  /** The newest commit older than `since` (unix ms): where `git log --since` ends its walk; -1 for none. */
  cutBefore(since: number): number {
    let cut = this.commitCount - 1;
    while (cut >= 0 && this.c.times[cut] >= since) cut--;
    return cut;
  }

  get countedFrom(): number {
    return this.c.countedFrom;
  }

  /**
   * Puts line counts on the commit numbered `i` (read again with them), oldest to newest of a run
   * of calls; says false when that commit is not the one given.
   */
  setLineCounts(i: number, c: Pick<MinedCommit, 'hash' | 'files' | 'added' | 'removed'>): boolean {
    if (i < 0 || i >= this.commitCount || this.hashOf(i) !== c.hash) return false;
    c.files.forEach((path, j) => {
      const run = this.runOf(path);
      const k = run ? this.entryOf(run, i) : -1;
      if (k < 0) return;
      this.c.entryAdded[k] = c.added[j];
      this.c.entryRemoved[k] = c.removed[j];
    });
    return true;
  }

  /** The files commit `i` changed (a scan of every entry: for the rare commit that must be read file by file). */
  filesOf(i: number): string[] {
    const out: string[] = [];
    const files = this.c.fileStart.length - 1;
    for (let f = 0; f < files; f++)
      if (this.entryOf({ start: this.c.fileStart[f], end: this.c.fileStart[f + 1] }, i) >= 0)
        out.push(this.paths.path(f));
    return out;
  }

  /** The commit before `i` on the first-parent line, if kept or known. */
  parentOf(i: number): string | undefined {
    return i > 0 ? this.hashOf(i - 1) : this.c.baseParent;
  }

  /** Says that commits from `i` on now have their line counts. */
  markCountedFrom(i: number): void {
    this.c.countedFrom = Math.max(0, Math.min(i, this.commitCount));
  }

  /** The entry of commit `i` in a file's run (sorted by commit), or -1. */
  private entryOf(run: { start: number; end: number }, i: number): number {
    let lo = run.start;
    let hi = run.end - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const v = this.c.entryCommit[mid];
      if (v === i) return mid;
      if (v < i) lo = mid + 1;
      else hi = mid - 1;
    }
    return -1;
  }

  /** The file's newest commits (older than commit number `before`) with the commit before each, for diffing them one by one. */
  revisions(path: string, limit: number, before = Number.POSITIVE_INFINITY): FileRevision[] {
    const run = this.runOf(path);
    if (!run) return [];
    const out: FileRevision[] = [];
    for (let k = run.end - 1; k >= run.start && out.length < limit; k--) {
      const i = this.c.entryCommit[k];
      if (i >= before) continue;
      out.push({ ...this.commit(i), index: i, parent: this.parentOf(i) });
    }
    return out;
  }

  commit(i: number): HistoryCommit {
    const c = this.c;
    const a = c.authorOf[i];
    return {
      hash: this.hashOf(i),
      author: c.authors[a],
      email: c.emails[a],
      date: c.times[i],
      subject: c.subjects.toString('utf8', c.subjectStart[i], c.subjectStart[i + 1]),
    };
  }

  /** Adds commits mined after the newest one kept (or, for an empty history, all of them). */
  append(delta: HistoryDelta): void {
    const old = this.c;
    const n = old.times.length;
    const k = delta.count;
    if (!k) return;
    if (n && delta.hashBytes !== old.hashBytes)
      throw new Error(`commit ids of ${delta.hashBytes} bytes after ones of ${old.hashBytes}`);
    const hashBytes = delta.hashBytes;
    // The delta is newest first; commits are kept oldest first.
    const order = (j: number) => k - 1 - j;
    const hashes = Buffer.alloc((n + k) * hashBytes);
    old.hashes.copy(hashes, 0, 0, n * hashBytes);
    const times = new Float64Array(n + k);
    times.set(old.times);
    const authorOf = new Uint32Array(n + k);
    authorOf.set(old.authorOf);
    const authors = [...old.authors];
    const emails = [...old.emails];
    const known = new Map<string, number>(authors.map((a, i) => [`${a}\0${emails[i]}`, i]));
    const authorIds = delta.authorKeys.map((key) => {
      let id = known.get(key);
      if (id === undefined) {
        id = authors.length;
        known.set(key, id);
        const nul = key.indexOf('\0');
        authors.push(key.slice(0, nul));
        emails.push(key.slice(nul + 1));
      }
      return id;
    });
    const subjectBytes = old.subjectStart[n] ?? 0;
    const subjects = Buffer.alloc(subjectBytes + delta.subjects.length);
    old.subjects.copy(subjects, 0, 0, subjectBytes);
    const subjectStart = new Uint32Array(n + k + 1);
    subjectStart.set(old.subjectStart.subarray(0, n + 1));
    let at = subjectBytes;
    for (let i = 0; i < k; i++) {
      const j = order(i);
      delta.hashes.view().copy(hashes, (n + i) * hashBytes, j * hashBytes, (j + 1) * hashBytes);
      times[n + i] = delta.times.at(j);
      authorOf[n + i] = authorIds[delta.authorOf.at(j)];
      const from = j ? delta.subjectEnd.at(j - 1) : 0;
      const to = delta.subjectEnd.at(j);
      delta.subjects.view().copy(subjects, at, from, to);
      at += to - from;
      subjectStart[n + i + 1] = at;
    }
    const runs = this.mergeRuns(delta, n);
    // New commits read with their line counts extend the counted span; read without, nothing is counted.
    const countedFrom = delta.counted ? old.countedFrom : n + k;
    this.c = {
      hashBytes,
      hashes,
      times,
      authorOf,
      authors,
      emails,
      subjectStart,
      subjects,
      ...runs,
      baseParent: n ? old.baseParent : delta.baseParent,
      countedFrom,
    };
  }

  private mergeRuns(
    delta: HistoryDelta,
    n: number,
  ): Pick<FileHistoryColumns, 'fileStart' | 'entryCommit' | 'entryAdded' | 'entryRemoved'> {
    const old = this.c;
    const files = this.paths.size;
    const oldFiles = old.fileStart.length - 1;
    const total = old.entryCommit.length + delta.entryFile.length;
    const fileStart = new Uint32Array(files + 1);
    for (let f = 0; f < oldFiles; f++) fileStart[f + 1] = old.fileStart[f + 1] - old.fileStart[f];
    const entryFile = delta.entryFile.view();
    for (const f of entryFile) fileStart[f + 1]++;
    for (let f = 0; f < files; f++) fileStart[f + 1] += fileStart[f];
    const entryCommit = new Uint32Array(total);
    const entryAdded = new Uint32Array(total);
    const entryRemoved = new Uint32Array(total);
    const fill = fileStart.slice(0, files);
    for (let f = 0; f < oldFiles; f++) {
      const from = old.fileStart[f];
      const to = old.fileStart[f + 1];
      entryCommit.set(old.entryCommit.subarray(from, to), fill[f]);
      entryAdded.set(old.entryAdded.subarray(from, to), fill[f]);
      entryRemoved.set(old.entryRemoved.subarray(from, to), fill[f]);
      fill[f] += to - from;
    }
    // Newest first in the delta: walking it backwards keeps every run in commit order.
    const seq = delta.entryCommit.view();
    for (let e = entryFile.length - 1; e >= 0; e--) {
      const slot = fill[entryFile[e]]++;
      entryCommit[slot] = n + (delta.count - 1 - seq[e]);
      entryAdded[slot] = delta.entryAdded.at(e);
      entryRemoved[slot] = delta.entryRemoved.at(e);
    }
    return { fileStart, entryCommit, entryAdded, entryRemoved };
  }

  private runOf(path: string): { start: number; end: number } | undefined {
    const id = this.paths.find(path);
    if (id === undefined || id + 1 >= this.c.fileStart.length) return undefined;
    return { start: this.c.fileStart[id], end: this.c.fileStart[id + 1] };
  }

  private hashOf(i: number): string {
    return this.c.hashes.toString('hex', i * this.c.hashBytes, (i + 1) * this.c.hashBytes);
  }
}

/** Commits streamed newest first, gathered compactly until the pass ends and they join a FileHistory. */
export class HistoryDelta {
  count = 0;
  hashBytes = 20;
  readonly hashes = new ByteBuilder();
  readonly times = new F64Builder();
  readonly authorOf = new U32Builder();
  readonly authorKeys: string[] = [];
  readonly subjects = new ByteBuilder();
  readonly subjectEnd = new U32Builder();
  readonly entryFile = new U32Builder();
  /** The commit's place in the stream (0 = newest). */
  readonly entryCommit = new U32Builder();
  readonly entryAdded = new U32Builder();
  readonly entryRemoved = new U32Builder();
  /** The first parent of the oldest commit seen so far. */
  baseParent: string | undefined;
  private readonly authorIds = new Map<string, number>();

  /** @param counted the commits come with their line counts */
  constructor(
    private readonly paths: PathTable,
    readonly counted: boolean,
  ) {}

  add(c: MinedCommit): void {
    if (!/^(?:[0-9a-f]{40}|[0-9a-f]{64})$/.test(c.hash)) throw new Error(`not a commit id: ${c.hash.slice(0, 80)}`);
    if (this.count === 0) this.hashBytes = c.hash.length / 2;
    else if (c.hash.length !== this.hashBytes * 2) throw new Error(`commit ids of two lengths: ${c.hash}`);
    const seq = this.count++;
    this.hashes.append(Buffer.from(c.hash, 'hex'));
    this.times.push(c.time);
    const key = `${c.author}\0${c.email}`;
    let author = this.authorIds.get(key);
    if (author === undefined) {
      author = this.authorKeys.length;
      this.authorIds.set(key, author);
      this.authorKeys.push(key);
    }
    this.authorOf.push(author);
    this.subjectEnd.push(this.subjects.append(c.subject));
    for (let i = 0; i < c.files.length; i++) {
      this.entryFile.push(this.paths.id(c.files[i]));
      this.entryCommit.push(seq);
      this.entryAdded.push(c.added[i]);
      this.entryRemoved.push(c.removed[i]);
    }
    this.baseParent = c.parents[0];
  }
}

function emptyColumns(files: number): FileHistoryColumns {
  return {
    hashBytes: 20,
    hashes: Buffer.alloc(0),
    times: new Float64Array(0),
    authorOf: new Uint32Array(0),
    authors: [],
    emails: [],
    subjectStart: new Uint32Array(1),
    subjects: Buffer.alloc(0),
    fileStart: new Uint32Array(files + 1),
    entryCommit: new Uint32Array(0),
    entryAdded: new Uint32Array(0),
    entryRemoved: new Uint32Array(0),
    countedFrom: 0,
  };
}
