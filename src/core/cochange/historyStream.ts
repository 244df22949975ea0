import { streamGit, type GitFailure } from '../git/gitExec';
import type { MinedCommit } from './fileHistory';

/** One first-parent commit and the files it changed. */
export interface ChangeSet {
  hash: string;
  /** Committer time, unix milliseconds. */
  time: number;
  files: string[];
  /** Per file: 'A' added, 'M' modified, 'D' deleted, 'T' type change; only when asked for. */
  statuses?: string[];
}

export interface HistoryOptions {
  cwd: string;
  /** A revision range such as `abc..HEAD`; HEAD when absent. */
  range?: string;
  withStatus?: boolean;
  maxCount?: number;
  timeoutMs?: number;
  signal?: AbortSignal;
}

export interface HistoryResult {
  ok: boolean;
  failure?: GitFailure;
  stderr?: string;
}

const MARK = 0x01;

/** Splits a byte stream at NUL bytes into tokens; holds at most one partial token between chunks. */
abstract class TokenParser {
  private pending: Buffer | undefined;

  push(chunk: Buffer): void {
    const buf = this.pending ? Buffer.concat([this.pending, chunk]) : chunk;
    let start = 0;
    for (let i = buf.indexOf(0); i >= 0; i = buf.indexOf(0, start)) {
      this.token(buf.toString('utf8', start, i));
      start = i + 1;
    }
    this.pending = start < buf.length ? Buffer.from(buf.subarray(start)) : undefined;
  }

  end(): void {
    if (this.pending) this.token(this.pending.toString('utf8'));
    this.pending = undefined;
    this.flush();
  }

  protected abstract token(raw: string): void;
  /** Hands on the commit being read, if any. */
  protected abstract flush(): void;
}


/**
 * Reads `git log --first-parent` as a stream and hands each commit to onCommit, newest first.
 * Merges count as one change set against their first parent, so a merged branch is one change.
 */
export async function streamHistory(options: HistoryOptions, onCommit: (c: ChangeSet) => void): Promise<HistoryResult> {
  const args = ['log', '--no-renames', '--first-parent', '-m', '--relative', '--format=%x01%H%x00%ct', '-z', options.withStatus ? '--name-status' : '--name-only'];
  if (options.maxCount) args.push(`--max-count=${options.maxCount}`);
  args.push(options.range ?? 'HEAD', '--');
  const parser = new HistoryParser(Boolean(options.withStatus), onCommit);
  const res = await streamGit(args, { cwd: options.cwd, timeoutMs: options.timeoutMs ?? 120_000, signal: options.signal, onData: (chunk) => parser.push(chunk) });
  if (res.ok) parser.end();
  return { ok: res.ok, failure: res.failure, stderr: res.stderr };
}

/**
 * Reads `git log --first-parent` with each commit's parents, committer time, author, subject and
 * per-file line counts, newest first: what both the co-change counts and the file history need, in
 * one pass. A merge is its diff against its first parent.
 */
export async function streamCommits(options: HistoryOptions, onCommit: (c: MinedCommit) => void): Promise<HistoryResult> {
  const args = ['log', '--no-renames', '--first-parent', '-m', '--relative', `--format=${COMMIT_RECORD_FORMAT}`, '-z', '--numstat'];
  if (options.maxCount) args.push(`--max-count=${options.maxCount}`);
  args.push(options.range ?? 'HEAD', '--');
  const parser = new CommitParser(onCommit);
  const res = await streamGit(args, { cwd: options.cwd, timeoutMs: options.timeoutMs ?? 120_000, signal: options.signal, onData: (chunk) => parser.push(chunk) });
  if (res.ok) parser.end();
  return { ok: res.ok, failure: res.failure, stderr: res.stderr };
}

/** What CommitParser reads: a mark, the commit id, then FIELDS. */
export const COMMIT_RECORD_FORMAT = '%x01%H%x00%P%x00%ct%x00%an%x00%ae%x00%s';
/** The fields after the commit id, in the order of COMMIT_RECORD_FORMAT. */
const FIELDS = ['parents', 'time', 'author', 'email', 'subject'] as const;

/**
 * Parser of streamCommits' output. The header's fields are read by position, so a subject that
 * starts with the record mark is still a subject; numstat lines never start with it.
 */
export class CommitParser extends TokenParser {
  private current: (MinedCommit & { files: string[]; added: number[]; removed: number[] }) | undefined;
  private field: number = FIELDS.length;
  private readonly seen = new Set<string>();

  constructor(private readonly onCommit: (c: MinedCommit) => void) {
    super();
  }

  protected flush(): void {
    if (this.current && this.field === FIELDS.length) this.onCommit(this.current);
    this.current = undefined;
  }

  protected token(raw: string): void {
    const c = this.current;
    if (c && this.field < FIELDS.length) {
      const name = FIELDS[this.field++];
      if (name === 'parents') c.parents = raw ? raw.split(' ') : [];
      else if (name === 'time') c.time = Number(raw) * 1000;
      else c[name] = raw;
      return;
    }
    if (raw.charCodeAt(0) === MARK) {
      this.flush();
      this.current = { hash: raw.slice(1), parents: [], time: 0, author: '', email: '', subject: '', files: [], added: [], removed: [] };
      this.field = 0;
      this.seen.clear();
      return;
    }
    if (!c) return;
    // "added<TAB>removed<TAB>path"; the first one after the header follows a newline; "-" for binary files.
    const from = raw.charCodeAt(0) === 10 ? 1 : 0;
    const tab1 = raw.indexOf('\t', from);
    const tab2 = tab1 < 0 ? -1 : raw.indexOf('\t', tab1 + 1);
    if (tab2 < 0) return;
    const path = raw.slice(tab2 + 1);
    if (!path || this.seen.has(path)) return;
    this.seen.add(path);
    c.files.push(path);
    c.added.push(lineCount(raw.slice(from, tab1)));
    c.removed.push(lineCount(raw.slice(tab1 + 1, tab2)));
  }
}

function lineCount(text: string): number {
  const n = Number(text);
  return Number.isSafeInteger(n) && n >= 0 ? n : 0;
}

/** Incremental parser of NUL-separated `git log -z` output; holds at most one partial token. */
export class HistoryParser extends TokenParser {
  private current: ChangeSet | undefined;
  private expectTime = false;
  private status: string | undefined;
  /** The current commit's paths, for dropping repeats (-m lists a merge's files once per parent). */
  private readonly seen = new Set<string>();

  constructor(private readonly withStatus: boolean, private readonly onCommit: (c: ChangeSet) => void) {
    super();
  }

  protected flush(): void {
    if (this.current) this.onCommit(this.current);
    this.current = undefined;
  }

  protected token(raw: string): void {
    if (raw.charCodeAt(0) === MARK) {
      this.flush();
      this.current = { hash: raw.slice(1), time: 0, files: [], statuses: this.withStatus ? [] : undefined };
      this.seen.clear();
      this.expectTime = true;
      this.status = undefined;
      return;
    }
    if (!this.current) return;
    if (this.expectTime) {
      this.current.time = Number(raw) * 1000;
      this.expectTime = false;
      return;
    }
    // The first name after the header follows a newline.
    const text = raw.charCodeAt(0) === 10 ? raw.slice(1) : raw;
    if (!text) return;
    if (this.withStatus && this.status === undefined) {
      this.status = text;
      return;
    }
    if (this.seen.has(text)) {
      this.status = undefined;
      return;
    }
    this.seen.add(text);
    this.current.files.push(text);
    if (this.withStatus) {
      this.current.statuses!.push((this.status ?? 'M').charAt(0));
      this.status = undefined;
    }
  }
}
