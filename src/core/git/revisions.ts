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
