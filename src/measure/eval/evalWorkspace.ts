import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ContextService } from '../../core/api/contextService';
import type { SnapshotSource } from '../../core/api/types';
import { runGit } from '../../core/git/gitExec';
import { nullLogger, type Logger } from '../../core/logger';

export interface EvalWorkspaceOptions {
  /** Keeps the index here between runs (default: a temporary folder, removed afterwards). */
  stateDir?: string;
  /** Start from this team index snapshot: the figures are then those of an index caught up from it. */
  snapshot?: SnapshotSource;
  signal?: AbortSignal;
}

/**
 * Opens a checkout the way the product does, indexes it in the foreground like `index`, runs `fn`
 * and always closes it. Reads the workspace only: state goes to a folder outside it.
 */
export async function withIndexedWorkspace<T>(
  root: string,
  options: EvalWorkspaceOptions,
  logger: Logger = nullLogger,
  fn: (service: ContextService) => Promise<T>,
): Promise<T> {
  const stateDir = options.stateDir ?? mkdtempSync(join(tmpdir(), 'pc-eval-'));
  const snapshot = options.snapshot;
  const service = await ContextService.open({ root, stateDir, logger, ...(snapshot ? { snapshot } : {}) });
  try {
    const work = await service.workspace.refreshAll(options.signal);
    // Figures asked of a snapshot but made from a local index would answer another question.
    if (snapshot && work.snapshot?.status !== 'applied')
      throw new Error(`the figures would not come from the snapshot: ${work.snapshot?.message ?? 'it was not read'}`);
    return await fn(service);
  } finally {
    service.dispose();
    if (!options.stateDir) rmSync(stateDir, { recursive: true, force: true });
  }
}

/** A note when the checkout is not at the commit its labels are for. */
export async function commitNote(root: string, commit: string, signal?: AbortSignal): Promise<string | undefined> {
  const head = await runGit(['rev-parse', 'HEAD'], { cwd: root, timeoutMs: 10000, signal });
  const at = head.ok ? head.stdout.trim() : undefined;
  return at && at !== commit
    ? `the labels are for ${commit.slice(0, 12)}; the workspace is at ${at.slice(0, 12)}`
    : undefined;
}
