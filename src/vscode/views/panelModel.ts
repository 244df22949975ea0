/**
 * Turns engine results into the panel's view model. Plain functions with no `vscode` import, so the
 * extension builds the state the page renders and tests can build the very same state in Node.
 */
import { clip, formatAge, oneLine } from '../../shared/text';
import type { SuggestionItem } from '../../core/api/types';
import { KINDS } from '../../shared/kinds';
import {
  LIMITS,
  PANEL_ITEM_TYPES,
  emptyCounts,
  type DecisionHelp,
  type IndexingProgress,
  type PanelItem,
  type PanelPhase,
  type PanelState,
  type SectionNote,
} from '../../shared/protocol';
import { rowParts } from '../../shared/presentation';

export interface PanelStateInput {
  phase: PanelPhase;
  file?: string;
  symbol?: string;
  /** Ranked, most relevant first. */
  items?: readonly SuggestionItem[];
  notes?: readonly string[];
  indexing?: IndexingProgress;
  message?: string;
  /** Entity ids the user marked useful / pinned to chat, shown as toggled buttons. */
  useful?: ReadonlySet<string>;
  pinned?: ReadonlySet<string>;
  /** Unix ms used for the age labels; defaults to now. */
  now?: number;
  /** The workspace has no decision records: where they were looked for and what to do. */
  decisionHelp?: DecisionHelp;
}

/** Notes of the history sources (not a repository, no git, no commits, shallow clone). */
const HISTORY_NOTE = /\bgit\b|\bhistory\b|\bcommits?\b/i;

/**
 * Builds a state that passes `isPanelState`: text is cut to the protocol limits and titles and reasons
 * are folded onto one line. A `ready` state without items becomes `empty`.
 */
export function buildPanelState(input: PanelStateInput): PanelState {
  const now = input.now ?? Date.now();
  const source = (input.items ?? []).filter((i) => PANEL_ITEM_TYPES.includes(i.type) && i.entityId.length > 0);
  const seen = new Set<string>();
  const items: PanelItem[] = [];
  for (const item of source) {
    const entityId = clip(item.entityId, LIMITS.entityId);
    if (seen.has(entityId)) continue;
    seen.add(entityId);
    items.push(toPanelItem(item, items.length, now, input));
    if (items.length >= LIMITS.items) break;
  }
  const counts = emptyCounts();
  for (const item of items) counts[item.type]++;
  counts.total = items.length;
  const phase = input.phase === 'ready' && items.length === 0 ? 'empty' : input.phase;
  const notes = (input.notes ?? []).slice(0, LIMITS.notes).map((n) => clip(oneLine(n), LIMITS.text));
  // Why recent changes are missing is said where they would be, not above everything.
  const sectionNotes: SectionNote[] = [];
  const historyNote = counts.change === 0 ? notes.find((n) => HISTORY_NOTE.test(n)) : undefined;
  if (historyNote) sectionNotes.push({ type: 'change', text: historyNote });
  const state: PanelState = {
    phase,
    items,
    notes: notes.filter((n) => n !== historyNote),
    counts,
  };
  if (sectionNotes.length) state.sectionNotes = sectionNotes;
  if (input.decisionHelp)
    state.decisionHelp = {
      heading: clip(oneLine(input.decisionHelp.heading), LIMITS.short),
      detail: clip(oneLine(input.decisionHelp.detail), LIMITS.text),
    };
  if (input.file !== undefined) state.file = clip(input.file, LIMITS.text);
  if (input.symbol !== undefined) state.symbol = clip(oneLine(input.symbol), LIMITS.short);
  if (input.indexing) state.indexing = normaliseProgress(input.indexing);
  if (input.message !== undefined) state.message = clip(input.message, LIMITS.text);
  return state;
}

export function toPanelItem(
  item: SuggestionItem,
  index: number,
  now: number,
  marks: { useful?: ReadonlySet<string>; pinned?: ReadonlySet<string> } = {},
): PanelItem {
  const loc = item.location;
  const location: PanelItem['location'] = { path: clip(loc.path, LIMITS.text) };
  if (isLine(loc.line)) location.line = loc.line;
  if (isLine(loc.endLine)) location.endLine = loc.endLine;
  if (loc.commit) location.commit = clip(loc.commit, LIMITS.short);
  if (loc.adr) location.adr = clip(loc.adr, LIMITS.text);
  // The file a row points into is named before its folder, which a narrow side bar may cut.
  const row = rowParts({ ...item, title: oneLine(item.title) });
  const panelItem: PanelItem = {
    index,
    type: item.type,
    entityId: clip(item.entityId, LIMITS.entityId),
    title: clip(row.title, LIMITS.text),
    summary: clip(item.summary, LIMITS.summary),
    reason: clip(oneLine(item.reason), LIMITS.text),
    relevanceScore: Number.isFinite(item.relevanceScore) ? Math.min(1, Math.max(0, item.relevanceScore)) : 0,
    location,
    icon: KINDS[item.type].icon,
  };
  if (row.place) panelItem.place = clip(row.place, LIMITS.text);
  if (row.folder) panelItem.folder = clip(row.folder, LIMITS.text);
  if (item.timestamp !== undefined && Number.isFinite(item.timestamp)) panelItem.age = formatAge(item.timestamp, now);
  if (item.meta?.new === true) panelItem.isNew = true;
  if (item.meta?.folded === true) panelItem.folded = true;
  if (marks.useful?.has(item.entityId)) panelItem.useful = true;
  if (marks.pinned?.has(item.entityId)) panelItem.pinned = true;
  return panelItem;
}

function isLine(n: number | undefined): n is number {
  return n !== undefined && Number.isInteger(n) && n >= 1;
}

/** Whole, non-negative counts, files done never above their total. */
export function normaliseProgress(p: IndexingProgress): IndexingProgress {
  const count = (n: number) => (Number.isFinite(n) ? Math.max(0, Math.floor(n)) : 0);
  const total = count(p.total);
  const out: IndexingProgress = { done: Math.min(total, count(p.done)), total };
  if (p.commits) out.commits = { done: count(p.commits.done), total: count(p.commits.total) };
  return out;
}
