/**
 * Messages between the extension host and the Suggestions panel page. Both sides import this file and
 * check every message they receive with `isHostMessage` / `isPageMessage`: the page renders text that
 * comes from commit messages, ADRs and file names, and the host acts on ids the page sends back.
 */
import { SUGGESTION_TYPES, type SuggestionType } from './kinds';

export type { SuggestionType };

/** Bumped whenever a message shape changes; a message with another version is rejected. */
export const PROTOCOL_VERSION = 1;

/** The page's HTML carries the host's state at load in a JSON data block with this id. */
export const INITIAL_STATE_ID = 'pc-initial-state';

export const LIMITS = {
  /** Titles, reasons, notes, file paths. */
  text: 2_000,
  /** The summary shown on hover. */
  summary: 4_000,
  entityId: 512,
  /** Codicon names, age labels, symbol names. */
  short: 200,
  items: 500,
  notes: 20,
  watches: 20,
} as const;

export type PanelPhase =
  'loading' | 'ready' | 'empty' | 'no-workspace' | 'no-editor' | 'unsupported-document' | 'error';
export const PANEL_PHASES: readonly PanelPhase[] = [
  'loading',
  'ready',
  'empty',
  'no-workspace',
  'no-editor',
  'unsupported-document',
  'error',
];

/** The panel shows every kind, in the order of the kinds table. */
export const PANEL_ITEM_TYPES: readonly SuggestionType[] = SUGGESTION_TYPES;

export interface PanelLocation {
  path: string;
  line?: number;
  endLine?: number;
  commit?: string;
  adr?: string;
}

/** A SuggestionItem trimmed to what the page shows, with the text the host computed for it. */
export interface PanelItem {
  /** Position in the host's ranked list (0 = most relevant). */
  index: number;
  type: SuggestionType;
  entityId: string;
  /** What the row is, without the file it points into (that is `place` and `folder`); may hold `inline code`. */
  title: string;
  /** "auth.ts:12": the file the row points into, named before its folder. */
  place?: string;
  /** "src/lib": the folder of that file, shown after it, dimmed. */
  folder?: string;
  summary: string;
  reason: string;
  /** 0..1 */
  relevanceScore: number;
  location: PanelLocation;
  /** "3 days ago"; absent for items without a time. */
  age?: string;
  /** Codicon name without the `codicon-` prefix. */
  icon: string;
  useful?: boolean;
  pinned?: boolean;
  /** First seen for this file within the cooldown (`proactiveContext.cooldownMinutes`). */
  isNew?: boolean;
  /** A weaker link below its group's best: listed only once the group is expanded ("Show N more"). */
  folded?: boolean;
}

/** A watch in the panel's Watching section, with its latest firing. */
export interface PanelWatch {
  id: string;
  /** What it follows: "file src/auth/**, topic “retry”". */
  label: string;
  last?: {
    /** "2 min ago". */
    age: string;
    /** "file_change src/auth/session.ts". */
    trigger: string;
    /** The top item's title, or why there was none. */
    summary: string;
    items: number;
    /** Fired since the user last looked at the panel. */
    unseen: boolean;
  };
}

export interface IndexingProgress {
  /** Files indexed, of `total`. */
  done: number;
  total: number;
  /** Commits read from history, once the files are done (`total` 0 until counted). */
  commits?: { done: number; total: number };
}

/** Why a group has no items, shown where the group would be (e.g. not a git repository). */
export interface SectionNote {
  type: SuggestionType;
  text: string;
}

/** The Decisions group of a workspace without decision records: where they were looked for and what to do. */
export interface DecisionHelp {
  heading: string;
  detail: string;
}

export type PanelCounts = { total: number } & Record<SuggestionType, number>;

/** The whole view model. The host owns it and sends it in full; the page only renders it. */
export interface PanelState {
  phase: PanelPhase;
  /** Workspace-relative path of the file the suggestions are for. */
  file?: string;
  symbol?: string;
  items: PanelItem[];
  /** Why some sources are off, e.g. "Not a git repository: recent changes and co-change are off". */
  notes: string[];
  indexing?: IndexingProgress;
  /** Detail for the `error` phase, or a host-chosen line for the other non-ready phases. */
  message?: string;
  counts: PanelCounts;
  /** Active watches, in the order they were made; absent when there are none. */
  watches?: PanelWatch[];
  /** Groups that are empty for a reason worth saying, shown in their place. */
  sectionNotes?: SectionNote[];
  /** Set when the workspace has no decision records at all. */
  decisionHelp?: DecisionHelp;
}

// ---- host → page (notifications)

export interface StateNotification {
  type: 'state';
  version: typeof PROTOCOL_VERSION;
  state: PanelState;
}

/** Progress of the background index; `null` once it has finished. */
export interface IndexingNotification {
  type: 'indexing';
  version: typeof PROTOCOL_VERSION;
  progress: IndexingProgress | null;
}

export type HostMessage = StateNotification | IndexingNotification;

// ---- page → host (commands)

export interface ReadyCommand {
  type: 'ready';
  version: typeof PROTOCOL_VERSION;
}

export type ItemCommandType = 'open' | 'useful' | 'dismiss' | 'pin' | 'copy';
export const ITEM_COMMAND_TYPES: readonly ItemCommandType[] = ['open', 'useful', 'dismiss', 'pin', 'copy'];

export interface ItemCommand {
  type: ItemCommandType;
  version: typeof PROTOCOL_VERSION;
  entityId: string;
}

export type PanelCommandType = 'refresh' | 'showLog' | 'openSettings' | 'recordDecision' | 'openDecisionSettings';
export const PANEL_COMMAND_TYPES: readonly PanelCommandType[] = [
  'refresh',
  'showLog',
  'openSettings',
  'recordDecision',
  'openDecisionSettings',
];

export interface PanelCommand {
  type: PanelCommandType;
  version: typeof PROTOCOL_VERSION;
}

export type WatchCommandType = 'showWatch' | 'unwatch';
export const WATCH_COMMAND_TYPES: readonly WatchCommandType[] = ['showWatch', 'unwatch'];

export interface WatchCommand {
  type: WatchCommandType;
  version: typeof PROTOCOL_VERSION;
  watchId: string;
}

export type PageMessage = ReadyCommand | ItemCommand | PanelCommand | WatchCommand;
/** What the page asks the extension to do; `ready` is handled by the view itself. */
export type PageCommand = ItemCommand | PanelCommand | WatchCommand;

// ---- constructors, so neither side spells out a version by hand

export function stateMessage(state: PanelState): StateNotification {
  return { type: 'state', version: PROTOCOL_VERSION, state };
}

export function indexingMessage(progress: IndexingProgress | null): IndexingNotification {
  return { type: 'indexing', version: PROTOCOL_VERSION, progress };
}

export function readyMessage(): ReadyCommand {
  return { type: 'ready', version: PROTOCOL_VERSION };
}

export function itemCommand(type: ItemCommandType, entityId: string): ItemCommand {
  return { type, version: PROTOCOL_VERSION, entityId };
}

export function panelCommand(type: PanelCommandType): PanelCommand {
  return { type, version: PROTOCOL_VERSION };
}

export function watchCommand(type: WatchCommandType, watchId: string): WatchCommand {
  return { type, version: PROTOCOL_VERSION, watchId };
}

export function emptyCounts(): PanelCounts {
  return { total: 0, decision: 0, warning: 0, change: 0, cochange: 0, related_code: 0, doc: 0 };
}

// ---- runtime guards

type Obj = Record<string, unknown>;

function isObj(x: unknown): x is Obj {
  return typeof x === 'object' && x !== null && !Array.isArray(x);
}

function isText(x: unknown, max: number): x is string {
  return typeof x === 'string' && x.length <= max;
}

function isOptText(x: unknown, max: number): boolean {
  return x === undefined || isText(x, max);
}

function isCount(x: unknown): x is number {
  return typeof x === 'number' && Number.isInteger(x) && x >= 0;
}

function isOptLine(x: unknown): boolean {
  return x === undefined || (isCount(x) && x >= 1);
}

function isOptBool(x: unknown): boolean {
  return x === undefined || typeof x === 'boolean';
}

function isOneOf<T extends string>(x: unknown, values: readonly T[]): x is T {
  return typeof x === 'string' && (values as readonly string[]).includes(x);
}

function isEntityId(x: unknown): x is string {
  return isText(x, LIMITS.entityId) && x.length > 0;
}

/** Codicon names are lowercase words joined by dashes; anything else could smuggle other classes in. */
function isIconName(x: unknown): x is string {
  return isText(x, LIMITS.short) && /^[a-z0-9]+(?:-[a-z0-9]+)*$/.test(x);
}

function isLocation(x: unknown): x is PanelLocation {
  return (
    isObj(x) &&
    isText(x.path, LIMITS.text) &&
    isOptLine(x.line) &&
    isOptLine(x.endLine) &&
    isOptText(x.commit, LIMITS.short) &&
    isOptText(x.adr, LIMITS.text)
  );
}

export function isPanelItem(x: unknown): x is PanelItem {
  return (
    isObj(x) &&
    isCount(x.index) &&
    isOneOf(x.type, PANEL_ITEM_TYPES) &&
    isEntityId(x.entityId) &&
    isText(x.title, LIMITS.text) &&
    isOptText(x.place, LIMITS.text) &&
    isOptText(x.folder, LIMITS.text) &&
    isText(x.summary, LIMITS.summary) &&
    isText(x.reason, LIMITS.text) &&
    typeof x.relevanceScore === 'number' &&
    Number.isFinite(x.relevanceScore) &&
    isLocation(x.location) &&
    isOptText(x.age, LIMITS.short) &&
    isIconName(x.icon) &&
    isOptBool(x.useful) &&
    isOptBool(x.pinned) &&
    isOptBool(x.isNew) &&
    isOptBool(x.folded)
  );
}

function isWatchId(x: unknown): x is string {
  return isText(x, 64) && /^[A-Za-z0-9_-]+$/.test(x);
}

export function isPanelWatch(x: unknown): x is PanelWatch {
  if (!isObj(x) || !isWatchId(x.id) || !isText(x.label, LIMITS.text)) return false;
  if (x.last === undefined) return true;
  const l = x.last;
  return (
    isObj(l) &&
    isText(l.age, LIMITS.short) &&
    isText(l.trigger, LIMITS.text) &&
    isText(l.summary, LIMITS.text) &&
    isCount(l.items) &&
    typeof l.unseen === 'boolean'
  );
}

function isDoneOfTotal(x: unknown): x is Obj & { done: number; total: number } {
  return isObj(x) && isCount(x.done) && isCount(x.total);
}

function isProgress(x: unknown): x is IndexingProgress {
  return isDoneOfTotal(x) && x.done <= x.total && (x.commits === undefined || isDoneOfTotal(x.commits));
}

function isSectionNote(x: unknown): x is SectionNote {
  return isObj(x) && isOneOf(x.type, PANEL_ITEM_TYPES) && isText(x.text, LIMITS.text);
}

function isDecisionHelp(x: unknown): x is DecisionHelp {
  return isObj(x) && isText(x.heading, LIMITS.short) && isText(x.detail, LIMITS.text);
}

function isCounts(x: unknown): x is PanelCounts {
  return isObj(x) && isCount(x.total) && PANEL_ITEM_TYPES.every((t) => isCount(x[t]));
}

export function isPanelState(x: unknown): x is PanelState {
  return (
    isObj(x) &&
    isOneOf(x.phase, PANEL_PHASES) &&
    isOptText(x.file, LIMITS.text) &&
    isOptText(x.symbol, LIMITS.short) &&
    Array.isArray(x.items) &&
    x.items.length <= LIMITS.items &&
    x.items.every(isPanelItem) &&
    Array.isArray(x.notes) &&
    x.notes.length <= LIMITS.notes &&
    x.notes.every((n) => isText(n, LIMITS.text)) &&
    (x.indexing === undefined || isProgress(x.indexing)) &&
    isOptText(x.message, LIMITS.text) &&
    isCounts(x.counts) &&
    (x.watches === undefined ||
      (Array.isArray(x.watches) && x.watches.length <= LIMITS.watches && x.watches.every(isPanelWatch))) &&
    (x.sectionNotes === undefined ||
      (Array.isArray(x.sectionNotes) &&
        x.sectionNotes.length <= PANEL_ITEM_TYPES.length &&
        x.sectionNotes.every(isSectionNote))) &&
    (x.decisionHelp === undefined || isDecisionHelp(x.decisionHelp))
  );
}

function hasVersion(x: Obj): boolean {
  return x.version === PROTOCOL_VERSION;
}

/** True for a well-formed host → page message of this protocol version. */
export function isHostMessage(x: unknown): x is HostMessage {
  if (!isObj(x) || !hasVersion(x)) return false;
  switch (x.type) {
    case 'state':
      return isPanelState(x.state);
    case 'indexing':
      return x.progress === null || isProgress(x.progress);
    default:
      return false;
  }
}

/** True for a well-formed page → host message of this protocol version. */
export function isPageMessage(x: unknown): x is PageMessage {
  if (!isObj(x) || !hasVersion(x)) return false;
  if (x.type === 'ready') return true;
  if (isOneOf(x.type, ITEM_COMMAND_TYPES)) return isEntityId(x.entityId);
  if (isOneOf(x.type, WATCH_COMMAND_TYPES)) return isWatchId(x.watchId);
  return isOneOf(x.type, PANEL_COMMAND_TYPES);
}
