import { isAbsolute, resolve } from 'node:path';
import { runGit } from './gitExec';

/** Where a workspace's repository keeps HEAD (per worktree) and its refs (shared by all worktrees). */
export interface GitDirectories {
  gitDir: string;
  commonDir: string;
}

/** The repository folders of `root`, absolute; undefined when `root` is not in a repository. */
export async function gitDirectoriesOf(root: string, signal?: AbortSignal): Promise<GitDirectories | undefined> {
  const r = await runGit(['rev-parse', '--absolute-git-dir', '--git-common-dir'], {
    cwd: root,
    timeoutMs: 10_000,
    signal,
  });
  if (!r.ok) return undefined;
  const [gitDir, common] = r.stdout.split('\n');
  if (!gitDir || !common) return undefined;
  return { gitDir, commonDir: isAbsolute(common) ? common : resolve(root, common) };
}

/**
 * Which of the given root-relative paths the repository's ignore rules (.gitignore at any depth,
 * info/exclude, core.excludesFile) exclude; undefined when `root` is not in a repository or git failed.
 */
export async function ignoredPathsOf(
  root: string,
  paths: readonly string[],
  signal?: AbortSignal,
): Promise<Set<string> | undefined> {
  if (!paths.length) return new Set();
  const r = await runGit(['check-ignore', '-z', '--stdin'], {
    cwd: root,
    timeoutMs: 30_000,
    signal,
    input: paths.join('\0') + '\0',
  });
  // Exit code 1 means that none of them is ignored.
  if (!r.ok && r.code !== 1) return undefined;
  return new Set(r.stdout.split('\0').filter(Boolean));
}
