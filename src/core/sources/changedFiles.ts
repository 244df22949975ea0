import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Logger } from '../logger';
import { looksBinary } from './docs/markdown';

/** What a cached entry remembers of its file to tell, at the next refresh, whether it changed. */
export interface FileStamp {
  mtimeMs: number;
  size: number;
}

/**
 * One file met by {@link ChangedFiles.visit}: its cached entry when the file is unchanged, its
 * text when it changed, or `skipped` when it changed but could not be used (already logged and counted).
 */
export type FileVisit<E> =
  | { kind: 'unchanged'; path: string; entry: E }
  | { kind: 'skipped'; path: string; stamp: FileStamp }
  | { kind: 'changed'; path: string; stamp: FileStamp; text: string };

/** Log lines for the files a source cannot use; each source words them for its own files. */
export interface SkipMessages {
  /** Logged at info level for a file over the size limit. */
  tooLarge(path: string, size: number, limit: number): string;
  /** Logged as a warning for a file that cannot be read; the default is `Skipped <path>: <error>`. */
  unreadable?(path: string, error: string): string;
  /** Logged as a warning for a file holding binary content; without it, binary content is not checked. */
  binary?(path: string): string;
}

export interface ChangedFilesOptions<E extends FileStamp> {
  /** Workspace root; paths are relative to it. */
  root: string;
  /** Entries of the previous refresh, by path. */
  previous: ReadonlyMap<string, E>;
  /** Files larger than this are skipped. */
  maxBytes: number;
  logger: Logger;
  messages: SkipMessages;
  /** Stops the visit before the next file. */
  signal?: AbortSignal;
}

/** Per-file warnings already given, by logger: a source that does not cache a skipped file meets it again at every refresh. */
const warned = new WeakMap<Logger, Map<string, string>>();

/** Logs a warning about one version of a file once: again only when the file changes. */
function warnOncePerVersion(logger: Logger, path: string, stamp: FileStamp, message: string): void {
  let seen = warned.get(logger);
  if (!seen) warned.set(logger, (seen = new Map<string, string>()));
  // Keyed by file and message: two sources skipping the same file must not reset each other.
  const key = `${path}\u0000${message}`;
  const version = `${stamp.mtimeMs}:${stamp.size}`;
  if (seen.get(key) === version) return;
  seen.set(key, version);
  logger.warn(message);
}

/**
 * Reads only the files that changed since the previous refresh (by mtime and size), skipping oversized,
 * unreadable and binary files with a logged reason, and counts what was parsed and what was skipped.
 * Files that vanished between listing and reading are passed over silently.
 */
export class ChangedFiles<E extends FileStamp> {
  parsed = 0;
  skipped = 0;

  constructor(private readonly opts: ChangedFilesOptions<E>) {}

  *visit(paths: Iterable<string>): Generator<FileVisit<E>> {
    const { root, previous, signal } = this.opts;
    for (const path of paths) {
      if (signal?.aborted) return;
      let stamp: FileStamp;
      try {
        const st = statSync(join(root, path));
        stamp = { mtimeMs: st.mtimeMs, size: st.size };
      } catch {
        continue;
      }
      const old = previous.get(path);
      if (old && old.mtimeMs === stamp.mtimeMs && old.size === stamp.size) {
        yield { kind: 'unchanged', path, entry: old };
        continue;
      }
      const text = this.read(path, stamp);
      yield text === undefined ? { kind: 'skipped', path, stamp } : { kind: 'changed', path, stamp, text };
    }
  }

  /** Counts a changed file as parsed. */
  markParsed(): void {
    this.parsed++;
  }

  /** Counts a changed file as skipped after its parser failed, with the same warning as an unreadable file. */
  markFailed(path: string, error: unknown): void {
    this.skipped++;
    this.opts.logger.warn(this.unreadable(path, error));
  }

  private read(path: string, stamp: FileStamp): string | undefined {
    const { root, maxBytes, logger, messages } = this.opts;
    const size = stamp.size;
    if (size > maxBytes) {
      logger.info(messages.tooLarge(path, size, maxBytes));
      this.skipped++;
      return undefined;
    }
    let buf: Buffer;
    try {
      buf = readFileSync(join(root, path));
    } catch (err) {
      this.markFailed(path, err);
      return undefined;
    }
    if (messages.binary && looksBinary(buf)) {
      warnOncePerVersion(logger, path, stamp, messages.binary(path));
      this.skipped++;
      return undefined;
    }
    return buf.toString('utf8');
  }

  private unreadable(path: string, error: unknown): string {
    const message = (error as Error).message;
    return this.opts.messages.unreadable ? this.opts.messages.unreadable(path, message) : `Skipped ${path}: ${message}`;
  }
}
