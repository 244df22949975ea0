/** Zero-context diffs of one file: their hunks and the words they change. */
import { extractTerms } from '../terms';
import { COMMIT_ID } from './revisions';

/** A file's uncommitted change: its hunks and the words of the lines it adds and removes. */
export interface UncommittedChange {
  hunks: Hunk[];
  /** Identifiers on the changed lines; none for an untracked file (all of it is new). */
  words: string[];
}

/** An uncommitted change, in the line numbers of the working copy (1-based). */
export interface Hunk {
  oldStart: number;
  oldLines: number;
  newStart: number;
  newLines: number;
  kind: 'added' | 'modified' | 'deleted' | 'untracked';
}

/** Parses the `@@ -a,b +c,d @@` headers of a zero-context diff. */
export function parseHunks(diff: string): Hunk[] {
  const hunks: Hunk[] = [];
  const re = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/gm;
  let m: RegExpExecArray | null;
  while ((m = re.exec(diff))) {
    const oldLines = m[2] === undefined ? 1 : Number(m[2]);
    const newLines = m[4] === undefined ? 1 : Number(m[4]);
    hunks.push({
      oldStart: Number(m[1]),
      oldLines,
      newStart: Number(m[3]),
      newLines,
      kind: oldLines === 0 ? 'added' : newLines === 0 ? 'deleted' : 'modified',
    });
  }
  return hunks;
}

/**
 * The identifiers on the lines a unified diff adds or removes. File headers (`--- a/x`, `+++ b/x`)
 * come before a file's first hunk and are skipped by position, so a removed line that starts with
 * `--` still counts.
 */
export function diffWords(diff: string): string[] {
  const lines: string[] = [];
  let inHunk = false;
  for (const line of diff.split('\n')) {
    if (line.startsWith('diff ')) inHunk = false;
    else if (line.startsWith('@@')) inHunk = true;
    else if (inHunk && (line[0] === '+' || line[0] === '-')) lines.push(line.slice(1));
  }
  return extractTerms(lines.join('\n'));
}

/** The hunk the cursor line (1-based) is in; a deletion counts on the lines around where it was. */
export function hunkAt(hunks: readonly Hunk[], line: number): Hunk | undefined {
  for (const h of hunks) {
    if (h.newLines > 0 && line >= h.newStart && line < h.newStart + h.newLines) return h;
    if (h.newLines === 0 && (line === h.newStart || line === h.newStart + 1)) return h;
  }
  return undefined;
}

/**
 * The hunks of each commit in the output of `git diff-tree --stdin -p -U0`: each commit's diff follows
 * a line holding its id alone; diff lines start with a sign or a word.
 */
export function parseFileDiffs(stdout: string): Map<string, Hunk[]> {
  const out = new Map<string, Hunk[]>();
  let current: string | undefined;
  let body: string[] = [];
  const flush = () => current && out.set(current, parseHunks(body.join('\n')));
  for (const line of stdout.split('\n')) {
    if (COMMIT_ID.test(line)) {
      flush();
      current = line;
      body = [];
    } else if (line.startsWith('@@')) body.push(line);
  }
  flush();
  return out;
}
