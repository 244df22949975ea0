import { isAbsolute } from 'node:path';

/**
 * A revision given from outside (a link in an answer, a tool's argument): a commit id, or HEAD, each
 * optionally followed by parent steps (`~N`, `^`, `^2`). Nothing else reaches git, so a value such as
 * `--output=/tmp/x` is never read as an option. The alternatives start with different characters,
 * so the match is linear.
 */
const REVISION = /^(?:[0-9a-fA-F]{4,64}|HEAD)(?:~\d{1,6}|\^[12]?)*$/;
const MAX_REVISION_LENGTH = 128;

/** Why `ref` is not taken as a revision, or undefined when it is. */
export function checkRevision(ref: string): string | undefined {
  if (typeof ref === 'string' && ref.length <= MAX_REVISION_LENGTH && REVISION.test(ref)) return undefined;
  const shown = typeof ref === 'string' ? JSON.stringify(ref.slice(0, 80)) : typeof ref;
  return `Invalid revision ${shown}: expected a commit id (4 to 64 hex digits) or HEAD, optionally followed by ~N or ^.`;
}

/** A full commit id as git prints it (SHA-1 or SHA-256). */
export const COMMIT_ID = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;

/** Where forges look for the commits blame should skip when `blame.ignoreRevsFile` is not set. */
const IGNORE_REVS_FILE = '.git-blame-ignore-revs';

/**
 * The files that list the commits blame skips, from the values of `blame.ignoreRevsFile` (undefined
 * when it is not set), kept only when they name a file inside the repository.
 */
export function ignoreRevsFiles(configured: string | undefined): string[] {
  let files = [IGNORE_REVS_FILE];
  if (configured !== undefined) {
    files = [];
    // An empty value resets the list, as git reads it.
    for (const value of configured.split('\n').slice(0, -1)) {
      if (value.trim()) files.push(value.trim());
      else files = [];
    }
  }
  return (
    files
      .map((file) => file.replace(/^\.\//, ''))
      // Inside the repository only: a name, no way up or out.
      .filter((path) => !(isAbsolute(path) || path.startsWith('~') || path.split(/[\\/]/).includes('..')))
  );
}

/** Adds the commit ids an ignore-revs file lists: one full id per line, `#` comments. */
export function addIgnoredRevisions(text: string, out: Set<string>): void {
  for (const line of text.split('\n')) {
    const id = line.split('#', 1)[0].trim().toLowerCase();
    if (COMMIT_ID.test(id)) out.add(id);
  }
}
