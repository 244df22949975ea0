/** The commit records `git log` writes for history mining, and their parser. */
import { COMMIT_ID } from './revisions';
import { TokenParser } from './tokenParser';

/** The line count of a file in a commit that was read without counting lines. */
export const UNKNOWN_LINES = 0xffffffff;

/** One commit as history streams it: its first-parent diff with line counts. */
export interface MinedCommit {
  hash: string;
  parents: readonly string[];
  time: number;
  author: string;
  email: string;
  subject: string;
  files: readonly string[];
  added: readonly number[];
  removed: readonly number[];
}

/**
 * `git log` along first parents, a merge read as its diff against its first parent, paths relative
 * to the folder, no rename detection and nothing run from the repository's config.
 */
export const FIRST_PARENT_LOG = [
  'log',
  '--no-renames',
  '--no-ext-diff',
  '--no-textconv',
  '--first-parent',
  '-m',
  '--relative',
] as const;

const MARK = 0x01;
/** What CommitParser reads: a mark, the commit id, then FIELDS. */
export const COMMIT_RECORD_FORMAT = '%x01%H%x00%P%x00%ct%x00%an%x00%ae%x00%s';
/** The fields after the commit id, in the order of COMMIT_RECORD_FORMAT. */
const FIELDS = ['parents', 'time', 'author', 'email', 'subject'] as const;

/**
 * Parser of streamCommits' output (`--numstat` or `--name-status`). Everything is read by position:
 * the header's fields (a subject may start with the record mark), then numstat lines (which never
 * start with it) or status and path pairs (a path may start with it; a status never does).
 */
export class CommitParser extends TokenParser {
  private current: (MinedCommit & { files: string[]; added: number[]; removed: number[] }) | undefined;
  private field: number = FIELDS.length;
  /** With --name-status: the token before was a status, so this one is a path. */
  private pathNext = false;
  private readonly seen = new Set<string>();

  constructor(
    private readonly lines: boolean,
    private readonly onCommit: (c: MinedCommit) => void,
  ) {
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
    // The first token after the header follows a newline.
    const text = raw.charCodeAt(0) === 10 ? raw.slice(1) : raw;
    if (this.pathNext) {
      // Only a status follows the header's newline: a path is taken as it is.
      this.pathNext = false;
      if (c) this.addFile(c, raw, UNKNOWN_LINES, UNKNOWN_LINES);
      return;
    }
    if (text.charCodeAt(0) === MARK) {
      this.flush();
      this.current = {
        hash: text.slice(1),
        parents: [],
        time: 0,
        author: '',
        email: '',
        subject: '',
        files: [],
        added: [],
        removed: [],
      };
      this.field = 0;
      this.seen.clear();
      return;
    }
    if (!c || !text) return;
    if (!this.lines) {
      this.pathNext = true;
      return;
    }
    // "added<TAB>removed<TAB>path"; "-" for binary files.
    const tab1 = text.indexOf('\t');
    const tab2 = tab1 < 0 ? -1 : text.indexOf('\t', tab1 + 1);
    if (tab2 >= 0)
      this.addFile(c, text.slice(tab2 + 1), lineCount(text.slice(0, tab1)), lineCount(text.slice(tab1 + 1, tab2)));
  }

  private addFile(
    c: { files: string[]; added: number[]; removed: number[] },
    path: string,
    added: number,
    removed: number,
  ): void {
    if (!path || this.seen.has(path)) return;
    this.seen.add(path);
    c.files.push(path);
    c.added.push(added);
    c.removed.push(removed);
  }
}

function lineCount(text: string): number {
  const n = Number(text);
  return Number.isSafeInteger(n) && n >= 0 && n < UNKNOWN_LINES ? n : 0;
}

export interface CommitInfo {
  hash: string;
  author: string;
  email: string;
  /** Committer date, unix milliseconds. */
  date: number;
  subject: string;
}

/** Five fields per commit; with -z each commit is five NUL-separated tokens, read by position. */
export const LINE_LOG_FORMAT = '--format=%H%x00%an%x00%ae%x00%ct%x00%s';

/**
 * The commits of a `git log -z -L` written with LINE_LOG_FORMAT. Five fields per commit by position;
 * `-L` may end a commit with a newline instead of a NUL, and a subject never holds one, so what
 * follows a newline in a subject is the next commit's id.
 */
export function parseLineLog(stdout: string): CommitInfo[] {
  const out: CommitInfo[] = [];
  const tokens = stdout.split('\0');
  for (let i = 0; i + 5 <= tokens.length; i += 5) {
    const fields = tokens.slice(i, i + 5);
    const nl = fields[4].indexOf('\n');
    if (nl >= 0) {
      tokens[i + 4] = fields[4].slice(nl + 1);
      fields[4] = fields[4].slice(0, nl);
      i--;
    }
    const info = parseCommitFields(fields);
    if (info) out.push(info);
  }
  return out;
}

function parseCommitFields(parts: string[]): CommitInfo | undefined {
  const hash = parts[0]?.replace(/^\n/, '');
  if (parts.length < 5 || !COMMIT_ID.test(hash)) return undefined;
  return { hash, author: parts[1], email: parts[2], date: Number(parts[3]) * 1000, subject: parts[4] };
}
