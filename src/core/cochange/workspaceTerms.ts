import { statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { extractTerms, TermIndex, type TermSimilarity } from './termIndex';

/** Larger files are generated or bundled: their words say little about what they belong with. */
const MAX_FILE_BYTES = 256 * 1024;
/** Files read between two yields to the event loop. */
const BATCH = 64;

/**
 * The term index of the workspace's code files as they are on disk: filled in the background after
 * the code index, then kept up file by file as files are saved. Queries never read a file.
 */
export class WorkspaceTerms {
  private readonly index = new TermIndex();
  private filled = false;
  private running: Promise<void> | undefined;

  constructor(private readonly root: string) {}

  /** The index once it has been filled; before that, nothing (rankings do without the words). */
  similarity(): TermSimilarity | undefined {
    return this.filled ? this.index : undefined;
  }

  /** Brings the index to this list of files: new and changed ones are read, gone ones dropped. */
  refresh(paths: readonly string[], signal?: AbortSignal): Promise<void> {
    const run = (this.running ?? Promise.resolve()).then(() => this.apply(paths, signal));
    this.running = run.finally(() => {
      if (this.running === run) this.running = undefined;
    });
    return run;
  }

  /** Each file's terms and the size they were read from, once the index has been filled. */
  files(): { path: string; size: number; terms: string[] }[] | undefined {
    return this.filled ? [...this.index.entries()] : undefined;
  }

  /**
   * Terms known without reading the files (a team snapshot's, for files git says are unchanged since),
   * each with the stamp of the file on disk: the next refresh reads only files whose stamp differs.
   */
  seed(files: Iterable<{ path: string; terms: readonly string[]; stamp: { mtimeMs: number; size: number } }>): void {
    for (const f of files) this.index.set(f.path, f.terms, f.stamp);
  }

  /** Re-reads one code file (saved, created or deleted) once the index has been filled. */
  fileChanged(path: string): Promise<void> {
    return this.filled ? this.readOne(path) : Promise.resolve();
  }

  private async apply(paths: readonly string[], signal?: AbortSignal): Promise<void> {
    const wanted = new Set(paths);
    for (const p of this.index.allPaths()) if (!wanted.has(p)) this.index.delete(p);
    for (let i = 0; i < paths.length; i += BATCH) {
      if (signal?.aborted) return;
      await Promise.all(paths.slice(i, i + BATCH).map((p) => this.readOne(p)));
    }
    this.filled = true;
  }

  private async readOne(path: string): Promise<void> {
    const full = join(this.root, path);
    try {
      // Synchronous: a stat takes microseconds, a round trip through the thread pool far longer.
      const s = statSync(full);
      if (!s.isFile()) throw new Error('not a file');
      const stamp = { mtimeMs: s.mtimeMs, size: s.size };
      if (this.index.sameStamp(path, stamp.mtimeMs, stamp.size)) return;
      if (s.size > MAX_FILE_BYTES) {
        this.index.set(path, [], stamp);
        return;
      }
      const text = await readFile(full, 'utf8');
      this.index.set(path, extractTerms(text), stamp);
    } catch {
      // Gone or unreadable: it shares nothing.
      this.index.delete(path);
    }
  }
}
