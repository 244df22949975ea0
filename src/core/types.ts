/** Shared data shapes of the engine (DESIGN §4). */

import type { SuggestionType } from '../shared/kinds';

// The kinds, their names and their order are one table shared with the adapters and the panel page.
export { KINDS, SUGGESTION_TYPES, countOf, kindLabel, type KindInfo, type SuggestionType } from '../shared/kinds';

export type SuggestionStatus = 'pending' | 'shown' | 'used' | 'dismissed';

export interface Location {
  /** Relative to the workspace root, forward slashes. */
  path: string;
  line?: number;
  endLine?: number;
  /** A commit the item is about (changes). */
  commit?: string;
  /** An ADR the item is about (decisions). */
  adr?: string;
}

export interface SuggestionItem {
  type: SuggestionType;
  title: string;
  summary: string;
  relevanceScore: number;
  reason: string;
  location: Location;
  entityId: string;
  /** Unix ms, for items that have an age (commits, reports, decisions). */
  timestamp?: number;
  /** Free-form details an adapter may show (author, support, status...). */
  meta?: Record<string, string | number | boolean>;
}

export interface ProactiveQuery {
  currentFile?: string;
  cursorPosition?: { line: number; column: number };
  selection?: { startLine: number; endLine: number };
  currentSymbol?: string;
  recentFiles?: string[];
  sessionId?: string;
}

/** What made a suggestion: a file changing, the cursor on a symbol, editor activity, a new commit, a changed decision record, a test report, or someone asking. */
export type TriggerType =
  'file_change' | 'symbol_focus' | 'activity' | 'commit' | 'decision' | 'test_report' | 'manual';

export interface ContextSuggestion {
  id: string;
  trigger: { type: TriggerType; source: string };
  query: ProactiveQuery;
  items: SuggestionItem[];
  status: SuggestionStatus;
  createdAt: number;
  latencyMs: number;
  /** Why some sources gave nothing (not a git repo, index still building...). */
  notes?: string[];
}
