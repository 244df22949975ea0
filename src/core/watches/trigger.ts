import type { SuggestionItem } from '../types';

export type TriggerType = 'file_change' | 'symbol_focus' | 'activity' | 'commit' | 'decision' | 'test_report';

/** Something that happened, as a watch sees it: what it names, the files it touches and its words. */
export interface Trigger {
  type: TriggerType;
  /** What it names (a path, `path#symbol`, a commit, a record, a report). */
  source: string;
  /** Identity of the event: a watch fires at most once per key, whichever process sees it first. */
  key: string;
  files: string[];
  symbol?: string;
  line?: number;
  /** Words a topic is looked for in (commit message, record text, test failures). */
  text?: string;
  /** Where the provider is asked for context. */
  focus?: { file: string; line?: number; symbol?: string };
  /** Items the trigger itself brings (the commit, the record, the failures). */
  lead?: SuggestionItem[];
}
