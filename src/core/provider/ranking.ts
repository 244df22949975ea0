import type { CoreConfig } from '../config';
import type { ProactiveQuery, SuggestionItem, SuggestionType } from '../types';
import { round as roundTo } from '../../shared/text';
import { mergeReasons } from '../../shared/presentation';
import { isTimeless, perKindCap, scoreItem } from './scoring';

/**
 * Scores candidates, merges the ones two sources found, and keeps the best within the per-kind caps
 * and the answer's size.
 */
export function rank(
  items: SuggestionItem[],
  query: ProactiveQuery,
  now: number,
  factors: Record<string, number>,
  config: CoreConfig,
): SuggestionItem[] {
  const byEntity = new Map<string, SuggestionItem>();
  for (const raw of items) {
    const parts = scoreItem(raw, query, now, factors[raw.type] ?? 1);
    const item: SuggestionItem = { ...raw, relevanceScore: round(parts.score) };
    const prev = byEntity.get(item.entityId);
    if (!prev) {
      byEntity.set(item.entityId, item);
    } else {
      // The same entity found by two sources: keep the stronger, and say both reasons.
      const [keep, other] = prev.relevanceScore >= item.relevanceScore ? [prev, item] : [item, prev];
      if (other.reason) keep.reason = mergeReasons(keep.reason, other.reason);
      keep.relevanceScore = round(Math.min(1, keep.relevanceScore + 0.05));
      byEntity.set(item.entityId, keep);
    }
  }
  const sorted = [...byEntity.values()]
    .filter((i) => i.relevanceScore >= config.minRelevanceScore)
    // Equal scores: a record folded under "Show more" after the ones shown, then the newer first (old commits all
    // score alike once recency has faded); a record's age says nothing.
    .sort(
      (a, b) =>
        b.relevanceScore - a.relevanceScore ||
        Number(a.meta?.folded === true) - Number(b.meta?.folded === true) ||
        newerFirst(a, b) ||
        a.title.localeCompare(b.title),
    );
  const perKind = new Map<SuggestionType, number>();
  const out: SuggestionItem[] = [];
  for (const item of groupDeprecatedUses(sorted)) {
    const n = perKind.get(item.type) ?? 0;
    if (n >= perKindCap[item.type]) continue;
    perKind.set(item.type, n + 1);
    out.push(item);
    if (out.length >= config.maxSuggestions) break;
  }
  return out;
}

function round(n: number): number {
  return roundTo(n, 3);
}

/** Newer first, between two items whose age counts; 0 otherwise. */
function newerFirst(a: SuggestionItem, b: SuggestionItem): number {
  if (isTimeless(a.type) || isTimeless(b.type)) return 0;
  return (b.timestamp ?? 0) - (a.timestamp ?? 0);
}

/** Most other lines a grouped warning lists in its summary. */
const LISTED_USES = 10;

/**
 * One warning per deprecated API and file: the use that ranks first (the nearest to the cursor)
 * stands for the others, which it counts (`Deprecated: Field used at line 161 and 7 more places`),
 * so that eight calls of one API do not fill the panel with the same warning.
 */
function groupDeprecatedUses(sorted: SuggestionItem[]): SuggestionItem[] {
  const first = new Map<string, { item: SuggestionItem; lines: number[] }>();
  const out: SuggestionItem[] = [];
  for (const item of sorted) {
    const name = item.type === 'warning' ? item.meta?.deprecated : undefined;
    if (typeof name !== 'string' || !name) {
      out.push(item);
      continue;
    }
    const key = `${item.location.path}\u0000${name}`;
    const group = first.get(key);
    if (!group) {
      first.set(key, { item, lines: [] });
      out.push(item);
    } else if (item.location.line !== undefined) group.lines.push(item.location.line);
  }
  for (const { item, lines } of first.values()) {
    if (!lines.length) continue;
    lines.sort((a, b) => a - b);
    item.title = `${item.title} and ${lines.length} more ${lines.length === 1 ? 'place' : 'places'}`;
    const listed = lines.slice(0, LISTED_USES).join(', ');
    item.summary =
      `${item.summary} Also used at line${lines.length === 1 ? '' : 's'} ${listed}${lines.length > LISTED_USES ? ', …' : ''}.`.trim();
    item.meta = { ...item.meta, otherUses: lines.length };
  }
  return out;
}
