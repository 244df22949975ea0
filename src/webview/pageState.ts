/**
 * What the Suggestions page keeps between loads (the webview state) and what it is given at load
 * (the host's state inlined in its HTML), each checked before it is used.
 */
import {
  INITIAL_STATE_ID,
  PANEL_ITEM_TYPES,
  isPanelState,
  type PanelState,
  type SuggestionType,
} from '../shared/protocol';

export interface PageState {
  v: 1;
  expanded: SuggestionType[];
  /** entityId of the current row, or `more:<type>` for a group's "Show more" row. */
  focusedId?: string;
  scrollY: number;
  /** The last state the host sent, drawn at once when the page is rebuilt. */
  last?: PanelState;
  /** The page load whose inlined state was drawn: shown again, the page draws `last` instead. */
  load?: string;
}

/**
 * The state the host inlined in the page as a JSON data block, when it is a valid one: parsed as
 * data (never as markup) and checked by the same guard as every host message.
 */
function readInitialState(doc: Document): { state: PanelState; load: string } | undefined {
  const block = doc.getElementById(INITIAL_STATE_ID);
  const text = block?.textContent;
  const load = block?.dataset.load ?? '';
  if (!text || !load || load.length > 64) return undefined;
  try {
    const state: unknown = JSON.parse(text);
    return isPanelState(state) ? { state, load } : undefined;
  } catch {
    return undefined;
  }
}

/**
 * What to draw before the host answers: the inlined state of a page made anew (newer than anything
 * saved before it), else the state saved last (newer than the inlined one when the same page is
 * shown again). Notes the load in `page`.
 */
export function firstState(page: PageState, doc: Document): PanelState | undefined {
  const inlined = readInitialState(doc);
  if (!inlined || inlined.load === page.load) return page.last;
  page.load = inlined.load;
  page.last = inlined.state;
  return inlined.state;
}

export function restorePageState(saved: unknown): PageState {
  const fresh: PageState = { v: 1, expanded: [], scrollY: 0 };
  if (typeof saved !== 'object' || saved === null) return fresh;
  const s = saved as Partial<PageState>;
  if (s.v !== 1) return fresh;
  if (Array.isArray(s.expanded)) fresh.expanded = PANEL_ITEM_TYPES.filter((t) => (s.expanded as unknown[]).includes(t));
  if (typeof s.focusedId === 'string' && s.focusedId.length <= 600) fresh.focusedId = s.focusedId;
  if (typeof s.scrollY === 'number' && Number.isFinite(s.scrollY) && s.scrollY >= 0) fresh.scrollY = s.scrollY;
  if (isPanelState(s.last)) fresh.last = s.last;
  if (typeof s.load === 'string' && s.load.length <= 64) fresh.load = s.load;
  return fresh;
}
