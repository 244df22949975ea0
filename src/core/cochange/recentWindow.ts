/** The start of the recent-changes window (unix ms), as `git log --since` counts it: whole seconds. */
export function sinceOf(now: number, days: number): number {
  return Math.max(0, Math.floor(now / 1000 - days * 86400)) * 1000;
}
