/** The start of the recent-changes window (unix ms), as `git log --since` counts it: whole seconds. */
export function sinceOf(now: number, days: number): number {
  return Math.max(0, Math.floor(now / 1000 - days * 86400)) * 1000;
}

/**
 * Where the recent-changes window starts: `days` before now, or before the repository's newest
 * commit when that is older, so that a repository quiet for months still shows its last changes.
 */
export function recentWindowStart(now: number, newestCommit: number | undefined, days: number): number {
  return sinceOf(newestCommit !== undefined && newestCommit < now ? newestCommit : now, days);
}
