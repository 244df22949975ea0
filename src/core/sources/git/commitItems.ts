import type { HistoryCommit } from '../../cochange/fileHistory';
import type { SuggestionItem } from '../../types';
import { formatAge } from '../sourceQuery';

/** The start of the recent-changes window, as `git log --since` counts it: whole seconds. */
export function sinceOf(now: number, days: number): number {
  return Math.max(0, Math.floor(now / 1000 - days * 86400)) * 1000;
}

/** A commit of `path` as a suggestion item; the same commit of the same file is one entity, whichever source finds it. */
export function commitItem(path: string, c: HistoryCommit, now: number, score: number, reason: string, range?: { startLine: number; endLine: number }): SuggestionItem {
  const short = c.hash.slice(0, 7);
  return {
    type: 'change',
    title: c.subject || `(no message) ${short}`,
    summary: `${c.author} · ${short} · ${formatAge(c.date, now)}`,
    relevanceScore: score,
    reason,
    location: { path, line: range?.startLine, endLine: range?.endLine, commit: c.hash },
    entityId: `commit:${c.hash}:${path}`,
    timestamp: c.date,
    meta: { author: c.author, commit: short },
  };
}

