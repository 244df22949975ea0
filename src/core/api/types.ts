/**
 * The shapes adapters exchange with the core through ContextService. Core shapes that adapters also
 * need (suggestions, subscriptions, memory hits, the prompt ledger) are named here, so that an
 * adapter imports only the service, these types, the messages and the errors.
 */
import type { Episode, MemoryHit, ProposedDecision, TextModel } from '../memory/memoryStore';
import type {
  AssembledPrompt,
  ChatTurn,
  LedgerCut,
  LedgerEntry,
  LedgerSource,
  PromptLedger,
  PromptMessage,
} from '../prompt/promptAssembler';
import type { ProviderMetrics } from '../provider/provider';
import type { SuggestionSource, QueryContext } from '../sources/sourceQuery';
import type { Watch, WatchFiring, WatchInput, WatchPattern } from '../watches/watchStore';
import type { FiredWatch } from '../watches/watchService';
import type { NewDecision } from '../sources/decisions/adrWriter';
import type { AnchorDecision, DecisionAnchor } from '../sources/decisions/decisionAnchors';
import type { FailureSite, LocatedFailure as FailingTest } from '../sources/reports/failureSites';
import type { MaterializedSubscription } from '../subscriptions/materializer';
import type { SnapshotOutcome, SnapshotProgress, SnapshotSource } from '../snapshot/teamIndex';
import type { ExportResult } from '../snapshot/exportSnapshot';
import type { LineRange, SubscribeRequest, Subscription, SubscriptionKind } from '../subscriptions/registry';
import type { StoreNotice } from '../store/store';
import type { GitDirectories } from '../git/workspaceGit';
import type { CoreConfig } from '../config';
import type { Logger } from '../logger';
import type { ContextSuggestion, SuggestionItem, SuggestionType, TriggerType } from '../types';

export type {
  AnchorDecision,
  AssembledPrompt,
  ChatTurn,
  ContextSuggestion,
  CoreConfig,
  DecisionAnchor,
  Episode,
  ExportResult,
  FiredWatch,
  FailingTest,
  FailureSite,
  GitDirectories,
  LedgerCut,
  LedgerEntry,
  LedgerSource,
  LineRange,
  Logger,
  MaterializedSubscription,
  MemoryHit,
  NewDecision,
  PromptLedger,
  PromptMessage,
  ProposedDecision,
  ProviderMetrics,
  QueryContext,
  SnapshotOutcome,
  SnapshotProgress,
  SnapshotSource,
  StoreNotice,
  SubscribeRequest,
  Subscription,
  SubscriptionKind,
  SuggestionItem,
  SuggestionSource,
  SuggestionType,
  TriggerType,
  TextModel,
  Watch,
  WatchFiring,
  WatchInput,
  WatchPattern,
};

/** The definition around the cursor: its name and 1-based inclusive lines. */
export interface SymbolSpan {
  name: string;
  startLine: number;
  endLine: number;
}

/** Where the user (or an agent) is: a workspace file and, when known, the cursor and symbol there. */
export interface Place {
  /** Root-relative, forward slashes. */
  file: string;
  /** 1-based. */
  line?: number;
  /** 1-based. */
  column?: number;
  selection?: { startLine: number; endLine: number };
  /** The definition enclosing the cursor, when the editor or the index knows it. */
  symbol?: SymbolSpan;
  /** A symbol named without a range (CLI `--symbol`, MCP `symbol`). */
  symbolName?: string;
  /** Recently active files, most recent first. */
  recentFiles?: readonly string[];
}

export interface SuggestOptions {
  signal?: AbortSignal;
  trigger?: TriggerType;
  /** Keep the suggestion for feedback and metrics (default true). */
  record?: boolean;
}

export type FeedbackAction = 'used' | 'dismissed';

/** What subscribing did, with a preview of the content and the limit, for any surface to report. */
export interface SubscribeOutcome {
  subscription: Subscription;
  /** The same target was already subscribed: only its expiry moved. */
  renewed: boolean;
  /** The subscription dropped to make room (replaceOldest). */
  replaced?: Subscription;
  /** The content the next chat turn would get. */
  preview: MaterializedSubscription;
  limit: { active: number; max: number };
}

/** A commit that changed the symbol's own lines. */
export interface LineCommit {
  hash: string;
  author: string;
  /** Unix ms. */
  date: number;
  subject: string;
}

/** Why the code at a place is the way it is: the decisions over it and its history. */
export interface WhyCard {
  /** "applyDiscount (src/pricing.ts)" or the file alone. */
  target: string;
  symbol?: SymbolSpan;
  decisions: SuggestionItem[];
  changes: SuggestionItem[];
  /** Commits that changed the symbol's lines, newest first (empty without a symbol). */
  lineHistory: LineCommit[];
  /** How many places call the symbol, from the index. */
  callers: number;
  notes: string[];
}

/** One `@context` turn's request: what the user asked and where they are. */
export interface ChatContextRequest {
  conversationId: string;
  question: string;
  /** Earlier turns of this conversation, oldest first (slash-command bookkeeping left out). */
  history: readonly ChatTurn[];
  place?: Place;
  maxInputTokens: number;
  countTokens: (text: string, signal?: AbortSignal) => Promise<number>;
  signal?: AbortSignal;
  /** Only show what a turn would send: subscriptions are neither renewed nor marked as seen. */
  preview?: boolean;
}

/** The assembled prompt and what it holds, by id. */
export interface ChatContext {
  messages: PromptMessage[];
  ledger: PromptLedger;
  /** The subscriptions that made it into the prompt, with where their content came from. */
  subscriptions: MaterializedSubscription[];
  /** The suggestion the prompt drew on, and its items that made it in. */
  suggestion?: { id: string; items: SuggestionItem[] };
  /** Memory hits that made it in. */
  memory: MemoryHit[];
  /** Milliseconds spent gathering and assembling. */
  ms: number;
}

/** A decision record as listed to users and agents. */
export interface DecisionRecord {
  number?: number;
  /** "0004" or the file name when unnumbered. */
  label: string;
  title: string;
  status: string;
  /** Root-relative path. */
  path: string;
  /** 1-based line of its heading, for an entry of a decision log (several records in one file). */
  line?: number;
  body: string;
}

/** Where decision records were looked for, and how many were found. */
export interface DecisionSearch {
  /** Root-relative folders that exist and were read. */
  folders: string[];
  /** The conventional folders looked for in every workspace. */
  conventions: string[];
  /** The setting that adds other folders. */
  setting: string;
  records: number;
}

/** Where the index stands, for progress in the panel and status bar. */
export interface IndexingProgress {
  /** Files indexed so far, of `total`. */
  done: number;
  total: number;
  /** Commits read from history so far, once the files are done; `total` is 0 until git has counted them. */
  commits?: { done: number; total: number };
  /** Bytes of a team index snapshot downloaded so far (of `total` when the server said), before indexing. */
  snapshot?: { received: number; total?: number };
}

export interface OpenOptions {
  root: string;
  stateDir?: string;
  config?: Partial<CoreConfig>;
  logger?: Logger;
  clock?: () => number;
  /**
   * Opens with git off (a folder the user has not trusted): no git process starts until
   * `ContextService.allowGit()`; the reason is told where history would be.
   */
  noGit?: { reason: string };
  /**
   * A team index snapshot (a path or an https URL; `{commit}` tries HEAD's nearest ancestors) loaded
   * before the first indexing, which then only catches up from its commit. Checked first; one that
   * cannot be used is told in `refreshAll().snapshot` and the log, and the workspace is indexed locally.
   */
  snapshot?: SnapshotSource;
}

export interface Disposable {
  dispose(): void;
}

// Plain helpers adapters use with the API: loggers, the settings snapshot, where state lives.
export { MemoryLogger, nullLogger, StderrLogger } from '../logger';
export { defaultConfig, resolveConfig } from '../config';
export { resolveStateDir, toRelative } from '../paths';
export { isIndexedEditorLanguage } from '../index/languages';
export { SUBSCRIPTION_KINDS } from '../subscriptions/registry';
export { WATCH_LIMITS, WATCH_PATTERN_TYPES } from '../watches/watchStore';
export { redactDeep, redactSecrets, redactWithNote, redactionNote } from '../security/secretRedaction';
export { compileUserPattern, UserPatternError } from '../subscriptions/userPattern';
