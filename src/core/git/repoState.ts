/** What git can give for a folder, and why not. */

export type RepoReason = 'not-a-repo' | 'dubious-ownership' | 'git-missing' | 'shallow' | 'detached' | 'no-commits';

/** What git can give for this folder. Shallow and detached repositories still work (`ok`), with a reason. */
export interface RepoState {
  ok: boolean;
  reason?: RepoReason;
  head?: string;
  shallow?: boolean;
  detached?: boolean;
  /** Blobs may be missing and are never fetched: line counts and old diffs are not read. */
  partialClone?: boolean;
  /** What git said, for a reason the user has to act on (dubious ownership: the folder to trust). */
  detail?: string;
}

/**
 * What git said when it refused the folder because another user owns it ("detected dubious
 * ownership"), with the fix; undefined when git said something else.
 */
export function dubiousOwnership(stderr: string): string | undefined {
  if (!stderr.includes('detected dubious ownership')) return undefined;
  // Git's own words, on one line, with the command that trusts the folder (older gits do not give it).
  let text = stderr
    .replace(/^fatal: /gm, '')
    .replace(/\s+/g, ' ')
    .trim();
  if (text.length > 600) text = `${text.slice(0, 600)}…`;
  if (!text.includes('safe.directory')) {
    const at = text.indexOf(" at '");
    const end = at < 0 ? -1 : text.indexOf("'", at + 5);
    if (end > 0) text += ` To trust it: git config --global --add safe.directory ${text.slice(at + 5, end)}`;
  }
  return text;
}
