import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runGit } from '../../core/git/gitExec';

const GIT_TIMEOUT_MS = 120_000;
/** Co-change ground truth: files changed with the case's file in at least this many of its last commits. */
export const COCHANGE_MIN_SUPPORT = 2;
export const COCHANGE_WINDOW = 20;

/** What git says about one labelled place, independently of the product. */
export interface PlaceHistory {
  /** Non-bulk commits that touched the file, newest first. */
  fileCommits: string[];
  /** Non-bulk commits that changed the symbol's lines, newest first (empty without a line). */
  symbolCommits: string[];
  /** Commits that touched the file but are bulk changes (too many files, or listed as ignored revisions). */
  bulk: Set<string>;
  /** Files changed together with this one in ≥ COCHANGE_MIN_SUPPORT of its last COCHANGE_WINDOW non-bulk commits. */
  cochanged: Set<string>;
}

/** Facts about the repository shared by every case. */
export interface RepoFacts {
  root: string;
  /** Commits with more files than this are bulk changes. */
  bulkLimit: number;
  ignoredRevs: Set<string>;
  signal?: AbortSignal;
}

async function git(root: string, args: string[], signal?: AbortSignal): Promise<string> {
  const r = await runGit(args, { cwd: root, timeoutMs: GIT_TIMEOUT_MS, signal });
  if (!r.ok)
    throw new Error(
      `git ${args.slice(0, 2).join(' ')} failed in ${root}: ${r.failure ?? ''} ${r.stderr.trim().split('\n')[0] ?? ''}`.trim(),
    );
  return r.stdout;
}

/**
 * The bulk threshold: a commit touching more than 100 files, or more than a fifth of the tracked
 * files (never fewer than 10), is a mass change (format, rename, licence header) and says nothing
 * about one function. A label file may set it.
 */
export async function repoFacts(root: string, bulkFiles: number | undefined, signal?: AbortSignal): Promise<RepoFacts> {
  const tracked = (await git(root, ['ls-files', '-z'], signal)).split('\0').filter(Boolean).length;
  const bulkLimit = bulkFiles ?? Math.min(100, Math.max(10, Math.ceil(tracked * 0.2)));
  return { root, bulkLimit, ignoredRevs: readIgnoredRevs(root), signal };
}

/** `.git-blame-ignore-revs`: one full hash per line, `#` comments. */
function readIgnoredRevs(root: string): Set<string> {
  let text = '';
  try {
    text = readFileSync(join(root, '.git-blame-ignore-revs'), 'utf8');
  } catch {
    return new Set();
  }
  return new Set(
    text
      .split('\n')
      .map((l) => l.replace(/#.*/, '').trim().toLowerCase())
      .filter((l) => /^[0-9a-f]{40}$/.test(l)),
  );
}

const MARK = '\u0001';

interface LoggedCommit {
  hash: string;
  time: number;
  files: string[];
}

function parseLog(out: string): LoggedCommit[] {
  const commits: LoggedCommit[] = [];
  for (const block of out.split(MARK)) {
    const lines = block
      .split('\n')
      .map((l) => l.trim())
      .filter(Boolean);
    const m = lines.length ? /^([0-9a-f]{40}) (\d+)$/.exec(lines[0]) : null;
    if (m) commits.push({ hash: m[1], time: Number(m[2]), files: lines.slice(1) });
  }
  return commits;
}

/** Newest first, each commit once (the first list wins). */
function union(...lists: LoggedCommit[][]): LoggedCommit[] {
  const seen = new Map<string, LoggedCommit>();
  for (const list of lists) for (const c of list) if (!seen.has(c.hash)) seen.set(c.hash, c);
  return [...seen.values()].sort((a, b) => b.time - a.time);
}

/** The names the file had through its history (renames followed), itself first. */
async function pastNames(facts: RepoFacts, file: string): Promise<string[]> {
  // Rename detection reads old contents; a snapshot with objects missing cannot follow, so the file's own name stands alone.
  const r = await runGit(['log', '--follow', '--name-only', '--format=', '--', file], {
    cwd: facts.root,
    timeoutMs: GIT_TIMEOUT_MS,
    signal: facts.signal,
  });
  const out = r.ok ? r.stdout : '';
  return [
    ...new Set([
      file,
      ...out
        .split('\n')
        .map((l) => l.trim())
        .filter(Boolean),
    ]),
  ];
}

/**
 * The file's commits, newest first, each with every file it changed. A merged pull request counts
 * as a change of the file too (its diff against the first parent), as a history mined along the
 * first parent shows it; `mainline` is that first-parent history alone, where a pull request is one
 * commit, for co-change counts.
 */
async function fileLog(
  facts: RepoFacts,
  file: string,
): Promise<{ all: LoggedCommit[]; mainline: LoggedCommit[]; names: string[] }> {
  const names = await pastNames(facts, file);
  const format = `--format=${MARK}%H %ct`;
  const side = parseLog(
    await git(facts.root, ['log', '--full-diff', '--no-renames', format, '--name-only', '--', ...names], facts.signal),
  );
  const mainline = parseLog(
    await git(
      facts.root,
      ['log', '--first-parent', '-m', '--full-diff', '--no-renames', format, '--name-only', '--', ...names],
      facts.signal,
    ),
  );
  return { all: union(mainline, side), mainline, names };
}

/** What git says when a snapshot lacks an object a command needs (`fatal: unable to read 6293…`). */
const MISSING_OBJECT = /unable to read|bad object|missing blob|could not read/i;

/**
 * Commits that changed lines start..end of the file (renames followed; merges by their first-parent
 * diff), newest first. `git log -L` reads every past version of the file: in a snapshot that lacks one,
 * the lines' history cannot be known, and none is returned, so that the file's history stands in as
 * for a place without a line.
 */
async function lineLog(facts: RepoFacts, file: string, start: number, end: number): Promise<string[]> {
  const run = async (extra: string[]): Promise<LoggedCommit[] | undefined> => {
    const args = ['log', ...extra, `-L${start},${end}:${file}`, '--no-patch', `--format=${MARK}%H %ct`];
    const r = await runGit(args, { cwd: facts.root, timeoutMs: GIT_TIMEOUT_MS, signal: facts.signal });
    if (r.ok) return parseLog(r.stdout);
    if (MISSING_OBJECT.test(r.stderr)) return undefined;
    return parseLog(await git(facts.root, args, facts.signal));
  };
  const mainline = await run(['--first-parent']);
  const side = mainline && (await run([]));
  return mainline && side ? union(mainline, side).map((c) => c.hash) : [];
}

async function filesOf(facts: RepoFacts, hash: string): Promise<number> {
  const out = await git(
    facts.root,
    ['show', '--diff-merges=first-parent', '--no-renames', '--name-only', '--format=', hash],
    facts.signal,
  );
  return out.split('\n').filter(Boolean).length;
}

/** Git's view of a labelled place: its file's and its lines' history without bulk commits, and its co-change set. */
export async function placeHistory(
  facts: RepoFacts,
  file: string,
  range: { start: number; end: number } | undefined,
): Promise<PlaceHistory> {
  const { all: log, mainline, names } = await fileLog(facts, file);
  const isBulk = (hash: string, files: number) => files > facts.bulkLimit || facts.ignoredRevs.has(hash);
  const bulk = new Set<string>();
  const fileCommits: string[] = [];
  for (const c of log) {
    if (isBulk(c.hash, c.files.length)) bulk.add(c.hash);
    else fileCommits.push(c.hash);
  }
  const symbolCommits: string[] = [];
  if (range) {
    const sizes = new Map(log.map((c) => [c.hash, c.files.length]));
    for (const hash of await lineLog(facts, file, range.start, range.end)) {
      // Lines that moved in from another file bring that file's commits along.
      const n = sizes.get(hash) ?? (await filesOf(facts, hash));
      if (isBulk(hash, n)) bulk.add(hash);
      else symbolCommits.push(hash);
    }
  }
  const counts = new Map<string, number>();
  // The file under its earlier names is not another file that changes with it.
  const itself = new Set(names);
  for (const c of mainline.filter((c) => !bulk.has(c.hash)).slice(0, COCHANGE_WINDOW))
    for (const f of new Set(c.files)) if (!itself.has(f)) counts.set(f, (counts.get(f) ?? 0) + 1);
  const cochanged = new Set([...counts].filter(([, n]) => n >= COCHANGE_MIN_SUPPORT).map(([f]) => f));
  return { fileCommits, symbolCommits, bulk, cochanged };
}
