import { streamGit } from './gitExec';
import { TokenParser } from './tokenParser';

/*
 * A merge's subject often says only that a branch was merged ("Merge pull request #4162 from
 * owner/branch"); the forge writes what was merged, the pull request's title, on the first line of
 * the body. Where history shows a merge as the change (first-parent history does), its title is that
 * line and the request's number: "Add VALOUR organisations to the schema (#4162)".
 */

/** Longest title kept, in characters. */
const MAX_TITLE = 200;

/** GitHub: `Merge pull request #12 from owner/branch`. */
const GITHUB = /^Merge pull request #(\d{1,9}) from (\S{1,300})$/;
/** Bitbucket: `Merged in branch (pull request #12)`. */
const BITBUCKET = /^Merged in (\S{1,300}) \(pull request #(\d{1,9})\)$/;
/** GitLab: `Merge branch 'x' into 'main'`, with `See merge request group/project!12` in the body. */
const GITLAB = /^Merge branch '[^']{1,300}' into '[^']{1,300}'$/;
const GITLAB_REQUEST = /^See merge request \S{1,300}!(\d{1,9})$/m;
/** Body lines that are not a title: git's conflict list, trailers. */
const NOT_A_TITLE = /^(?:# ?)?(?:Conflicts|Co-authored-by|Signed-off-by|Reviewed-by|Approved-by|Change-Id|Merged-by):/i;

/**
 * What a merge commit merged, from its subject and body; undefined when the subject is not a forge's
 * "merged a request" line (a plain `Merge branch 'main'` says what it is).
 */
export function mergeTitle(subject: string, body: string): string | undefined {
  if (subject.length > 400) return undefined;
  let m = GITHUB.exec(subject);
  if (m) return titled(firstLine(body) ?? branchOf(m[2]), `#${m[1]}`);
  m = BITBUCKET.exec(subject);
  if (m) return titled(firstLine(body) ?? m[1], `#${m[2]}`);
  if (GITLAB.test(subject)) {
    const request = GITLAB_REQUEST.exec(body.length > 20_000 ? body.slice(0, 20_000) : body);
    const line = request ? firstLine(body) : undefined;
    if (request && line && !line.startsWith('See merge request ')) return titled(line, `!${request[1]}`);
  }
  return undefined;
}

/** `owner/feature-x` → `feature-x`: the branch as its author named it. */
function branchOf(ref: string): string {
  const slash = ref.indexOf('/');
  return slash > 0 && slash < ref.length - 1 ? ref.slice(slash + 1) : ref;
}

function firstLine(body: string): string | undefined {
  let start = 0;
  // The first non-blank line, looked for in the first few lines only.
  for (let n = 0; n < 5 && start < body.length; n++) {
    let end = body.indexOf('\n', start);
    if (end < 0) end = body.length;
    const line = body.slice(start, Math.min(end, start + 1000)).trim();
    if (line) return NOT_A_TITLE.test(line) ? undefined : line;
    start = end + 1;
  }
  return undefined;
}

function titled(title: string, ref: string): string {
  const short = title.length > MAX_TITLE ? `${title.slice(0, MAX_TITLE - 1).trimEnd()}…` : title;
  return short.includes(`(${ref})`) ? short : `${short} (${ref})`;
}

/** `git log` with what merge titles are read from; add revisions. */
export const MERGE_LOG: readonly string[] = ['log', '--format=%H%x00%s%x00%b', '-z'];
/**
 * Only commits a forge may have made: a line starting as their subjects do. Not `--merges`: an
 * imported or rewritten history keeps such subjects on commits of one parent.
 */
const FORGE_SUBJECTS = ['-E', "--grep=^(Merge pull request #|Merged in |Merge branch ')"];

/** True when the subject is one a forge writes for a merge, whose body may say what was merged. */
export function isForgeMerge(subject: string): boolean {
  return mergeTitle(subject, '') !== undefined || (GITLAB.test(subject) && subject.length <= 400);
}

/** The titles in the whole output of MERGE_LOG. */
export function parseMergeTitles(stdout: string): Map<string, string> {
  const titles = new Map<string, string>();
  const parser = new MergeParser(titles);
  parser.push(Buffer.from(stdout, 'utf8'));
  parser.end();
  return titles;
}

export interface MergeTitleOptions {
  cwd: string;
  /** Revisions and limits for `git log` (`--first-parent`, a range…). */
  revArgs: readonly string[];
  timeoutMs?: number;
  signal?: AbortSignal;
}

/**
 * The titles of the forge-made merges `git log <revArgs>` lists, by commit id. A failure gives what
 * was read so far: subjects stay as they are.
 */
export async function readMergeTitles(options: MergeTitleOptions): Promise<Map<string, string>> {
  const titles = new Map<string, string>();
  const parser = new MergeParser(titles);
  const res = await streamGit([...MERGE_LOG, ...FORGE_SUBJECTS, ...options.revArgs], {
    cwd: options.cwd,
    timeoutMs: options.timeoutMs ?? 60_000,
    signal: options.signal,
    onData: (chunk) => parser.push(chunk),
  });
  if (res.ok) parser.end();
  return titles;
}

/** Reads `%H NUL %s NUL %b` records, themselves separated by NUL (`-z`). */
class MergeParser extends TokenParser {
  private fields: string[] = [];

  constructor(private readonly titles: Map<string, string>) {
    super();
  }

  protected token(raw: string): void {
    // Records after the first start after a newline, before the commit id.
    this.fields.push(this.fields.length === 0 && raw.charCodeAt(0) === 10 ? raw.slice(1) : raw);
    if (this.fields.length === 3) this.flush();
  }

  protected flush(): void {
    const [hash, subject, body] = this.fields;
    this.fields = [];
    if (!hash || subject === undefined) return;
    const title = mergeTitle(subject, body ?? '');
    if (title) this.titles.set(hash, title);
  }
}
