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
  if (!r.ok) throw new Error(`git ${args.slice(0, 2).join(' ')} failed in ${root}: ${r.failure ?? ''} ${r.stderr.trim().split('\n')[0] ?? ''}`.trim());
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

/** The file's commits, newest first, each with every file it changed. */
async function fileLog(facts: RepoFacts, file: string): Promise<{ hash: string; files: string[] }[]> {
  const out = await git(facts.root, ['log', '--full-diff', '--no-renames', `--format=${MARK}%H`, '--name-only', '--', file], facts.signal);
  const commits: { hash: string; files: string[] }[] = [];
  for (const block of out.split(MARK)) {
    const lines = block.split('\n').map((l) => l.trim()).filter(Boolean);
    if (lines.length && /^[0-9a-f]{40}$/.test(lines[0])) commits.push({ hash: lines[0], files: lines.slice(1) });
  }
  return commits;
}

/** Commits that changed lines start..end of the file, following it through renames, newest first. */
async function lineLog(facts: RepoFacts, file: string, start: number, end: number): Promise<string[]> {
  const out = await git(facts.root, ['log', `-L${start},${end}:${file}`, '--no-patch', `--format=${MARK}%H`], facts.signal);
  return out
    .split(MARK)
    .map((b) => b.trim().split('\n')[0] ?? '')
    .filter((h) => /^[0-9a-f]{40}$/.test(h));
}

async function filesOf(facts: RepoFacts, hash: string): Promise<number> {
  const out = await git(facts.root, ['diff-tree', '--no-commit-id', '--name-only', '-r', '--root', hash], facts.signal);
  return out.split('\n').filter(Boolean).length;
}

/** Git's view of a labelled place: its file's and its lines' history without bulk commits, and its co-change set. */
export async function placeHistory(facts: RepoFacts, file: string, range: { start: number; end: number } | undefined): Promise<PlaceHistory> {
  const log = await fileLog(facts, file);
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
      // Before a rename the file had another name: its commits are not in the file's log.
      const n = sizes.get(hash) ?? (await filesOf(facts, hash));
      if (isBulk(hash, n)) bulk.add(hash);
      else symbolCommits.push(hash);
    }
  }
  const counts = new Map<string, number>();
  for (const c of log.filter((c) => !bulk.has(c.hash)).slice(0, COCHANGE_WINDOW)) for (const f of new Set(c.files)) if (f !== file) counts.set(f, (counts.get(f) ?? 0) + 1);
  const cochanged = new Set([...counts].filter(([, n]) => n >= COCHANGE_MIN_SUPPORT).map(([f]) => f));
  return { fileCommits, symbolCommits, bulk, cochanged };
}
