/**
 * Why the state directory could not be written, in words that name the directory, what was being
 * saved, and what to do: a bare "ENOSPC: no space left on device, write" says none of that.
 */

/** Error codes that mean the state directory cannot take a write until the user acts. */
const FULL = new Set(['ENOSPC', 'EDQUOT']);
const READ_ONLY = new Set(['EROFS', 'EACCES', 'EPERM']);

const ELSEWHERE =
  'or point Proactive Context at another folder (the proactiveContext.stateDirectory setting, --state-dir, or the PROACTIVE_CONTEXT_STATE_DIR environment variable)';

export type StoreWriteProblem = 'full' | 'read-only';

/** A write to the state directory failed because the disk is full or the directory is read-only. */
export class StoreWriteError extends Error {
  constructor(
    readonly stateDir: string,
    /** What was being done, as a verb phrase: "save subscriptions and feedback (…/durable.db)". */
    readonly operation: string,
    readonly problem: StoreWriteProblem,
    readonly code: string,
  ) {
    super(
      problem === 'full'
        ? `Could not ${operation}: the disk that holds the state directory ${stateDir} is full (${code}). Free some space on it, ${ELSEWHERE}.`
        : `Could not ${operation}: the state directory ${stateDir} is read-only (${code}). Make it writable, ${ELSEWHERE}.`,
    );
    this.name = 'StoreWriteError';
  }
}

/** The kind of problem an error from a write means, or undefined for other failures. */
export function writeProblemOf(err: unknown): { problem: StoreWriteProblem; code: string } | undefined {
  if (err instanceof StoreWriteError) return { problem: err.problem, code: err.code };
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  if (typeof code !== 'string') return undefined;
  if (FULL.has(code)) return { problem: 'full', code };
  if (READ_ONLY.has(code)) return { problem: 'read-only', code };
  return undefined;
}

/** `err` as a StoreWriteError when the disk is full or the directory read-only; other errors as they are. */
export function asStoreWriteError(err: unknown, stateDir: string, operation: string): unknown {
  if (err instanceof StoreWriteError) return err;
  const p = writeProblemOf(err);
  return p ? new StoreWriteError(stateDir, operation, p.problem, p.code) : err;
}

/** What a store opened on a directory that takes no writes tells the user once. */
export function unwritableNotice(stateDir: string, p: { problem: StoreWriteProblem; code: string }): string {
  const why = p.problem === 'full' ? `is on a full disk (${p.code})` : `is read-only (${p.code})`;
  const fix = p.problem === 'full' ? 'Free some space on that disk' : 'Make it writable';
  return (
    `The Proactive Context state directory ${stateDir} ${why}: subscriptions, watches and the index are read from it, ` +
    `but nothing is saved there, so changes last only until this process exits and subscribing fails. ${fix}, ${ELSEWHERE}.`
  );
}
