import type { ProactiveQuery, SuggestionItem, SuggestionType } from '../types';

/**
 * The single scoring model used across every kind of suggestion.
 *
 *   score = prior(kind) × feedback(kind) × (0.65 × link + 0.20 × recency + 0.15 × proximity)
 *
 * - link: the source's own estimate of how strongly the item is tied to the code at the cursor
 *   (an explicit path mention in an ADR, a resolved caller, co-change confidence…), 0..1;
 * - recency: exp(−age / 14 days) for items with a timestamp, 0.5 for timeless items and for
 *   decisions and docs (a record's age says nothing about whether it still governs the code);
 * - proximity: for items in the current file, 1 at the cursor falling to 0 at 200 lines away;
 *   0.6 for items about the current file with no line; 0.35 elsewhere;
 * - prior: how useful a kind usually is (warnings and decisions first, docs last);
 * - feedback: this workspace's own used/dismissed history for the kind, 0.7..1.3, neutral until
 *   there are a few votes.
 *
 * An item whose link is under its kind's floor is never shown, whatever the settings: an empty
 * section is better than noise. docs/ranking.md describes the whole model.
 */
export const kindPrior: Readonly<Record<SuggestionType, number>> = {
  warning: 1.0,
  decision: 0.97,
  change: 0.9,
  related_code: 0.9,
  cochange: 0.85,
  doc: 0.8,
};

/** At most this many items of one kind reach the panel (before maxSuggestions). */
export const perKindCap: Readonly<Record<SuggestionType, number>> = {
  warning: 8,
  decision: 5,
  change: 6,
  related_code: 8,
  cochange: 6,
  doc: 4,
};

/** Weakest link (the source's relevance, 0..1) worth showing, per kind. */
export const kindFloor: Readonly<Record<SuggestionType, number>> = {
  warning: 0.3,
  decision: 0.3,
  change: 0.2,
  related_code: 0.3,
  cochange: 0.1,
  doc: 0.4,
};

/** Kinds whose age does not make them less relevant. */
const TIMELESS: ReadonlySet<SuggestionType> = new Set(['decision', 'doc']);

/** Items of these kinds are ordered by time among equals; decisions and docs by title. */
export function isTimeless(type: SuggestionType): boolean {
  return TIMELESS.has(type);
}

/** True when the item's link reaches its kind's floor. */
export function passesFloor(item: SuggestionItem): boolean {
  return clamp01(item.relevanceScore) >= kindFloor[item.type];
}

const DAY = 86_400_000;
const HALF_LIFE_DAYS = 14;

export interface ScoreParts {
  link: number;
  recency: number;
  proximity: number;
  prior: number;
  feedback: number;
  score: number;
}

export function recencyOf(item: SuggestionItem, now: number): number {
  if (item.timestamp === undefined || TIMELESS.has(item.type)) return 0.5;
  const ageDays = Math.max(0, now - item.timestamp) / DAY;
  return Math.exp((-ageDays * Math.LN2) / HALF_LIFE_DAYS);
}

export function proximityOf(item: SuggestionItem, query: ProactiveQuery): number {
  if (!query.currentFile || item.location.path !== query.currentFile) return 0.35;
  const cursor = query.cursorPosition?.line;
  if (item.location.line === undefined || cursor === undefined) return 0.6;
  const start = item.location.line;
  const end = item.location.endLine ?? start;
  const distance = cursor < start ? start - cursor : cursor > end ? cursor - end : 0;
  return Math.max(0, 1 - distance / 200);
}

export function scoreItem(item: SuggestionItem, query: ProactiveQuery, now: number, feedback: number): ScoreParts {
  const link = clamp01(item.relevanceScore);
  const recency = recencyOf(item, now);
  const proximity = proximityOf(item, query);
  const prior = kindPrior[item.type];
  const score = clamp01(prior * feedback * (0.65 * link + 0.2 * recency + 0.15 * proximity));
  return { link, recency, proximity, prior, feedback, score };
}

/** Laplace-smoothed used/(used+dismissed), mapped to 0.7..1.3 and faded in over the first votes. */
export function feedbackFactor(used: number, dismissed: number): number {
  const votes = used + dismissed;
  if (votes === 0) return 1;
  const rate = (used + 1) / (votes + 2);
  const confidence = Math.min(1, votes / 10);
  return 1 + (rate - 0.5) * 0.6 * confidence;
}

export function clamp01(n: number): number {
  return Number.isFinite(n) ? Math.min(1, Math.max(0, n)) : 0;
}
