import type { HistoryCommit } from '../../cochange/fileHistory';
import type { SuggestionItem } from '../../types';
import { formatAge } from '../sourceQuery';

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

