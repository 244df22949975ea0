import { FIRST_PARENT_LOG } from '../git/commitLog';
import { streamGit, type GitFailure } from '../git/gitExec';
import { TokenParser } from '../git/tokenParser';

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
/**
 * Reads `git log --first-parent` as a stream and hands each commit to onCommit, newest first.
 * Merges count as one change set against their first parent, so a merged branch is one change.
 */
export async function streamHistory(options: HistoryOptions, onCommit: (c: ChangeSet) => void): Promise<HistoryResult> {
  const args = [
    ...FIRST_PARENT_LOG,
    '--format=%x01%H%x00%ct',
    '-z',
    options.withStatus ? '--name-status' : '--name-only',
  ];
  if (options.maxCount) args.push(`--max-count=${options.maxCount}`);
  args.push(options.range ?? 'HEAD', '--');
  return streamParsed(args, options, new HistoryParser(Boolean(options.withStatus), onCommit));
}

/** Streams git's output through the parser, which is ended only when git succeeded. */
export async function streamParsed(
  args: string[],
  options: HistoryOptions,
  parser: TokenParser,
): Promise<HistoryResult> {
  const res = await streamGit(args, {
    cwd: options.cwd,
    timeoutMs: options.timeoutMs ?? 120_000,
    signal: options.signal,
    onData: (chunk) => parser.push(chunk),
  });
  if (res.ok) parser.end();
  return { ok: res.ok, failure: res.failure, stderr: res.stderr };
}

/** Incremental parser of NUL-separated `git log -z` output; holds at most one partial token. */
export class HistoryParser extends TokenParser {
  private current: ChangeSet | undefined;
  private expectTime = false;
  private status: string | undefined;
  /** The current commit's paths, for dropping repeats (-m lists a merge's files once per parent). */
  private readonly seen = new Set<string>();

  constructor(
    private readonly withStatus: boolean,
    private readonly onCommit: (c: ChangeSet) => void,
  ) {
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
