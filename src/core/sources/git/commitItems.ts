import type { HistoryCommit } from '../../cochange/fileHistory';
import type { SuggestionItem } from '../../types';

/** The link of a bulk commit: at the kind's floor, so that every focused commit of the file or its lines ranks above it. */
const BULK_SCORE = 0.2;

/**
 * A commit of `path` as a suggestion item; the same commit of the same file is one entity, whichever
 * source finds it. `bulkFiles`, for a mass change, is how many files it touched: the item says so
 * and ranks last.
 */
export function commitItem(
  path: string,
  c: HistoryCommit,
  score: number,
  reason: string,
  range?: { startLine: number; endLine: number },
  bulkFiles?: number,
): SuggestionItem {
  const short = c.hash.slice(0, 7);
  if (bulkFiles !== undefined) {
    score = BULK_SCORE;
    reason = `bulk change: ${bulkFiles} files; ${reason}`;
  }
  return {
    type: 'change',
    title: c.subject || `(no message) ${short}`,
    // The age is the row's own column (from `timestamp`): the summary does not say it again.
    summary: `${c.author} · ${short}`,
    relevanceScore: score,
    reason,
    location: { path, line: range?.startLine, endLine: range?.endLine, commit: c.hash },
    entityId: `commit:${c.hash}:${path}`,
    timestamp: c.date,
    meta:
      bulkFiles === undefined ? { author: c.author, commit: short } : { author: c.author, commit: short, bulkFiles },
  };
}

/** "+12 −3 lines", "+4 lines", "−2 lines": what a commit did to a file, said without its age (the row shows that). */
export function lineCounts(added: number, removed: number): string {
  const unit = added + removed === 1 ? 'line' : 'lines';
  if (added && removed) return `+${added} −${removed} ${unit}`;
  if (added || removed) return `${added ? `+${added}` : `−${removed}`} ${unit}`;
  // A binary file or a change of mode alone: no lines to count.
  return 'changed this file';
}
