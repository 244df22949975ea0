import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { EngineParts } from '../../engine';
import { checkRevision } from '../../git/revisions';
import { gitDirectoriesOf, ignoredPathsOf, type GitDirectories } from '../../git/workspaceGit';
import type { RefreshSummary } from '../../indexer';
import { exportSnapshot, type ExportResult } from '../../snapshot/exportSnapshot';
import { checkWorkspaceFile } from '../../subscriptions/workspacePaths';
import { ContextError } from '../errors';
import type { Disposable, IndexingProgress, Place, SymbolSpan } from '../types';
import type { Watching } from './watching';

const MAX_READ_BYTES = 4 * 1024 * 1024;

/** Knowing the workspace: indexing, history, its files and paths. `service.workspace`. */
export class WorkspaceUseCases {
  readonly #parts: EngineParts;
  readonly #watching: Watching;

  constructor(parts: EngineParts, watching: Watching) {
    this.#parts = parts;
    this.#watching = watching;
  }

  /** Reads decisions, reports and docs, then indexes code and mines history, in the background (once). */
  startBackgroundWork(): Promise<void> {
    return this.#parts.indexer.startBackgroundWork();
  }

  /** Refreshes everything in the foreground and says what was done (CLI, measurements). */
  refreshAll(signal?: AbortSignal): Promise<RefreshSummary> {
    return this.#parts.indexer.refreshAll(signal);
  }

  /** Writes a team index snapshot of the index at HEAD to `file` (call after refreshAll). */
  exportSnapshot(file: string, productVersion: string): Promise<ExportResult> {
    return exportSnapshot(this.#parts, file, productVersion);
  }

  rebuildIndex(
    options: { signal?: AbortSignal; onProgress?: (done: number, total: number) => void } = {},
  ): ReturnType<EngineParts['indexer']['rebuildIndex']> {
    return this.#parts.indexer.rebuildIndex(options);
  }

  /** A file of the root changed on disk (root-relative path): re-indexed, and told to every watch. */
  fileChanged(path: string, deleted = false): void {
    this.#parts.indexer.fileChanged(path, deleted);
    this.#watching.fileChanged(path, deleted);
  }

  /** Where the user is in the editor, told to every process's watches (an agent's in a terminal too). */
  activity(place: Place): void {
    this.#watching.activity({ path: place.file, line: place.line, symbol: place.symbol?.name ?? place.symbolName });
  }

  get indexingProgress(): IndexingProgress | undefined {
    return this.#parts.indexer.indexingProgress;
  }

  onDidChangeIndexing(listener: (p: IndexingProgress | undefined) => void): Disposable {
    return this.#parts.indexer.onDidChangeIndexing(listener);
  }

  /** Fires with root-relative paths when what the engine knows changed (suggestions may differ). */
  onDidChangeWorkspaceData(listener: (paths: string[]) => void): Disposable {
    return this.#parts.indexer.onDidChangeData(listener);
  }

  /** Store and index statistics, for `index`. */
  storeStats(): ReturnType<EngineParts['store']['stats']> {
    return this.#parts.store.stats();
  }

  /** Writes pending store changes to disk now. */
  flush(): void {
    this.#parts.store.flush();
  }

  /** How many first-parent commits the co-change model has learned from. */
  historyStats(): { commits: number; lastMined?: string } {
    try {
      return { commits: this.#parts.cochange.commitCount, lastMined: this.#parts.cochange.lastMined };
    } catch {
      return { commits: 0 };
    }
  }

  /** The definition around a line, from the code index (undefined until indexed). */
  symbolAt(file: string, line: number): SymbolSpan | undefined {
    return this.#parts.symbolAt(file, line);
  }

  /**
   * A workspace-relative path for what a user or agent typed (relative, absolute inside the root,
   * `./x`); refuses paths outside the root and secrets with a clear error.
   */
  resolvePath(input: string): string {
    return checkWorkspaceFile(this.#parts.root, input);
  }

  /** A workspace file's text for an agent: confined to the root, never a secret, at most 4 MiB. */
  readFile(input: string): string {
    const path = this.resolvePath(input);
    const st = statSync(join(this.#parts.root, path), { throwIfNoEntry: false });
    if (!st?.isFile()) throw new ContextError('not_found', `${path} does not exist in the workspace.`);
    if (st.size > MAX_READ_BYTES) throw new ContextError('invalid', `${path} is larger than ${MAX_READ_BYTES} bytes.`);
    return readFileSync(join(this.#parts.root, path), 'utf8');
  }

  /** Content of a file at a git revision ('' when it did not exist, or while git may not run); a ref that is not a commit id or HEAD is refused. */
  async fileAtRevision(ref: string, path: string): Promise<string> {
    const bad = checkRevision(ref);
    if (bad) throw new ContextError('invalid', bad);
    const rel = this.resolvePath(path);
    if (!this.#parts.gitAccess.allowed) return '';
    return this.#parts.git.fileAtRevision(ref, rel, { timeoutMs: 10000 });
  }

  /** Files related to this one (co-change, imports, tests), strongest first. */
  relatedFiles(path: string, limit = 10): ReturnType<EngineParts['history']['related']> {
    return this.#parts.history.related(path, limit);
  }

  /** The root's repository folders, absolute (for watching HEAD and refs); undefined outside a repository. */
  gitDirectories(signal?: AbortSignal): Promise<GitDirectories | undefined> {
    return gitDirectoriesOf(this.#parts.root, signal);
  }

  /** Which of these root-relative paths the repository's ignore rules exclude; undefined when git cannot tell. */
  ignoredPaths(paths: readonly string[], signal?: AbortSignal): Promise<Set<string> | undefined> {
    return ignoredPathsOf(this.#parts.root, paths, signal);
  }
}
