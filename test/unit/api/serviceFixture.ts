import { ContextService } from '../../../src/core/api/contextService';
import type { TempRepo } from '../git/repoFixture';

/** A ContextService open on a real repository, and how to throw both away. */
export interface RepoService {
  service: ContextService;
  dispose(): void;
}

/**
 * Opens the engine on `repo` with its state beside it, and waits for the index and history to be
 * built, so that every test asks a workspace that is fully read.
 */
export async function openRefreshed(repo: TempRepo): Promise<RepoService> {
  const service = await ContextService.open({ root: repo.dir, stateDir: repo.stateDir });
  await service.workspace.refreshAll();
  return {
    service,
    dispose() {
      service.dispose();
      repo.dispose();
    },
  };
}
