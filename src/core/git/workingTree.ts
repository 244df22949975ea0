import type { GitService } from './gitService';

/** What a status of the whole tree says about one file. */
export type TreeState = { kind: 'clean' } | { kind: 'changed'; code: string } | { kind: 'ask' };

/** Files touched this close before a status are asked again: file times are not always finer. */
const MTIME_SLACK_MS = 2_000;

/**
 * Which files differ from HEAD, from one `git status` of the whole tree taken off the query path
 * (after each history update). A file reported changed since, or whose modification time is newer
 * than the status, is "ask": only for it does a query call git, once per save.
 */
export class WorkingTreeStatus {
  private snapshot: { takenAt: number; changed: Map<string, string> } | undefined;
  /** Files changed since the snapshot, each with the number of the change that reported it last. */
  private readonly touched = new Map<string, number>();
  private changes = 0;
  /** Bumped when HEAD moves: a status under way then was taken against the old HEAD. */
  private generation = 0;

  constructor(
    private readonly git: GitService,
    private readonly wallClock: () => number = Date.now,
  ) {}

  get known(): boolean {
    return this.snapshot !== undefined;
  }

  async refresh(options: { signal?: AbortSignal; timeoutMs?: number } = {}): Promise<void> {
    const takenAt = this.wallClock();
    const seen = this.changes;
    const generation = this.generation;
    const changed = await this.git.changedPaths(options);
    if (!changed || generation !== this.generation) return;
    this.snapshot = { takenAt, changed };
    // Changes reported while git was looking may not be in what it saw.
    for (const [path, n] of this.touched) if (n <= seen) this.touched.delete(path);
  }

  /** The file changed on disk (saved, created, deleted). */
  fileChanged(path: string): void {
    this.touched.set(path, ++this.changes);
  }

  /** HEAD moved: which files differ from it is unknown until the next refresh. */
  forget(): void {
    this.generation++;
    this.snapshot = undefined;
    this.touched.clear();
  }

  stateOf(path: string, mtimeMs: number | undefined): TreeState {
    const s = this.snapshot;
    if (!s || this.touched.has(path) || (mtimeMs !== undefined && mtimeMs > s.takenAt - MTIME_SLACK_MS))
      return { kind: 'ask' };
    const code = s.changed.get(path);
    return code === undefined ? { kind: 'clean' } : { kind: 'changed', code };
  }
}
