import type { Logger } from '../logger';
import type { Database } from './sqlite';

/* What the store's callers see: its options, notices and errors. */

export class StoreSchemaError extends Error {
  constructor(
    readonly file: string,
    readonly found: number,
    readonly known: number,
  ) {
    super(
      `${file} has schema version ${found}, but this version of Proactive Context only knows up to ${known}. ` +
        'It was written by a newer release: update Proactive Context, or point it at another state directory.',
    );
  }
}

export interface StoreNotice {
  /**
   * restored: durable data came back from its copy; recovered: started empty (durable data) or
   * rebuilt (the index cache); unwritable: the state directory takes no writes, so nothing is saved.
   */
  kind: 'recovered' | 'restored' | 'unwritable';
  file: string;
  movedTo?: string;
  message: string;
}

export interface StoreOptions {
  stateDir: string;
  logger?: Logger;
  /** Delay before a durable change is written (coalesces bursts). */
  durableSaveDelayMs?: number;
  /** Delay after the last quiet durable change (the log of what was shown) before it is written. */
  quietSaveDelayMs?: number;
  /** Longest a quiet durable change waits to be written while such changes keep coming. */
  quietSaveMaxDelayMs?: number;
  /** Delay before the index cache is written. */
  indexSaveDelayMs?: number;
  /** Delay before the index cache is written while a bulk change holds saves back (see holdIndexSaves). */
  heldIndexSaveDelayMs?: number;
  /** Writes a file whole; default writeFileAtomic. A seam for the failures of a full disk. */
  writeFile?: FileWriter;
  /** Writes the index cache off the event loop on a timed save; default writeFileAtomicAsync. */
  writeFileInBackground?: BackgroundFileWriter;
}

export type FileWriter = (path: string, data: Uint8Array, options?: { fsync?: boolean }) => void;

/** Writes and syncs a file in the background; puts it in place only if `stillWanted()` then holds, and resolves whether it did. */
export type BackgroundFileWriter = (path: string, data: Uint8Array, stillWanted: () => boolean) => Promise<boolean>;

/** A durable change: applied now, and replayed on a fresher copy if another process wrote meanwhile. Must be deterministic. */
export type DurableOp<T> = (db: Database) => T;
