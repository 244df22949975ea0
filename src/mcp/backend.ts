import type { ContextSuggestion } from '../core/types';

/**
 * What the MCP server needs from the engine. The server only translates between MCP and this
 * interface, so the same server runs over the real engine and over a small in-memory workspace.
 */
export interface McpBackend {
  /** Absolute path of the workspace root. */
  readonly root: string;
  suggest(q: SuggestQuery): Promise<ContextSuggestion>;
  watch(input: WatchInput): Promise<{ id: string }>;
  subscribe(input: SubscribeInput): Promise<SubscriptionInfo>;
  /** Throws an Error with a clear message for unknown ids. */
  unsubscribe(id: string): Promise<void>;
  /** Returns how many subscriptions were removed. */
  unsubscribeAll(): Promise<number>;
  listSubscriptions(): Promise<SubscriptionInfo[]>;
  /** Throws for unknown ids. */
  materialize(id: string): Promise<MaterializedSubscription>;
  decisions(): Promise<DecisionRecord[]>;
  feedback(suggestionId: string, itemIndex: number, action: FeedbackAction): Promise<void>;
  /** Root-relative path; confined to the root. Throws for paths outside the root, secrets and missing files. */
  readFile(rel: string): Promise<string>;
  /** Fires when subscriptions are added, removed or replaced, by this process or another one. */
  onDidChangeSubscriptions(listener: () => void): Disposable;
  /** Root-relative paths the engine saw change (its own watcher, git, index updates). */
  onDidChangeFiles?(listener: (relPaths: string[]) => void): Disposable;
  /** Root-relative paths the server's own folder watcher saw change, so the engine can re-read them. */
  filesChanged?(relPaths: string[]): void;
}

export interface Disposable {
  dispose(): void;
}

export interface SuggestQuery {
  file?: string;
  line?: number;
  symbol?: string;
  /** Keep the suggestion for feedback and metrics (default true); false for change checks nobody sees. */
  record?: boolean;
}

export type WatchPatternType = 'file' | 'symbol' | 'topic';

export interface WatchInput {
  patterns: { type: WatchPatternType; pattern: string; priority?: number }[];
  minRelevanceScore?: number;
  maxSuggestionsPerTrigger?: number;
  cooldownMs?: number;
}

export type SubscriptionKind = 'file' | 'lines' | 'pattern' | 'symbol' | 'memory';

export interface LineRange {
  start: number;
  end: number;
}

export interface SubscribeInput {
  kind: SubscriptionKind;
  /** A root-relative path for file, lines and pattern; a symbol name; a memory query. */
  target: string;
  lines?: LineRange;
  pattern?: string;
}

export interface SubscriptionInfo {
  id: string;
  kind: SubscriptionKind;
  /** As shown to users; may be a normalized key such as `src/a.ts#L10-20`. */
  target: string;
  /** Root-relative file the content comes from (file, lines, pattern; symbol when known). Watched for changes. */
  path?: string;
  /** Unix ms. */
  createdAt: number;
  renewedAt: number;
  expiresAt: number;
  lines?: LineRange;
  /** Regular expression source (pattern). */
  pattern?: string;
  /** Regular expression flags (pattern), such as `i`. */
  flags?: string;
  /** Symbol name (symbol). */
  symbol?: string;
}

export interface MaterializedSubscription {
  text: string;
  /** SHA-256 of the text, to tell "changed since last read". */
  hash: string;
  truncated: boolean;
  /** Why the content is short or empty (missing target, truncation...). */
  note?: string;
}

export interface DecisionRecord {
  number?: number;
  title: string;
  status: string;
  /** Root-relative path of the decision record. */
  path: string;
  body: string;
}

export type FeedbackAction = 'used' | 'dismissed';
