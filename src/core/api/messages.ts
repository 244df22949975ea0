/**
 * Every sentence the product says about subscriptions, watches and the workspace, in one place, so
 * the panel, chat, language-model tools, MCP and the CLI say the same thing. Surfaces differ only in
 * how the user acts next (a button, a flag, a tool name), passed in as `Surface`.
 */
import { formatDuration, plural, safeLabel } from '../../shared/text';
import type { SubscriptionLimitError } from './errors';
import type { Subscription } from '../subscriptions/registry';
import type { DecisionSearch, IndexingProgress, SubscribeOutcome, Watch } from './types';

/** Where a message is read: decides how "what to do next" is worded. */
export type Surface = 'chat' | 'palette' | 'tool' | 'mcp' | 'cli';

export const NO_FOLDER = 'Proactive Context works on a workspace folder: open a folder first.';

/** What to do when no chat model is there to answer: get one, then pick it. */
export function noChatModel(purpose: string): string {
  return `No language model is available to ${purpose}. Install and sign in to an extension that provides chat models (for example GitHub Copilot Chat), or add one with “Chat: Manage Language Models”, then pick it in the chat view's model picker and try again.`;
}

/** What `@context` needs and, without it, what still works: the palette, panel and walkthrough say this. */
export const CHAT_MODEL_NEEDED =
  '@context needs a chat model, such as GitHub Copilot, and none is available in this VS Code. Until one is, “Proactive Context: Show What @context Would Send” shows the prompt a turn would get.';

/** How a subscription reaches chat: every turn, or once a model arrives to answer turns at all. */
function reachesChat(chatModel: boolean): string {
  return chatModel
    ? 'Every @context turn includes its current content'
    : 'Its current content is included in @context turns once a chat model such as GitHub Copilot is available';
}

/** A subscription in a few words: what it reads, on one line (paths and patterns may hold line breaks). */
export function describeSubscription(s: Subscription): string {
  return safeLabel(rawDescription(s), 400);
}

function rawDescription(s: Subscription): string {
  switch (s.kind) {
    case 'file':
      return s.path ?? s.target;
    case 'lines':
      return `${s.path ?? s.target} lines ${s.lines?.start}–${s.lines?.end}`;
    case 'pattern':
      return `${s.path ?? s.target} lines matching /${s.pattern}/${s.flags ?? ''}`;
    case 'symbol':
      return `symbol ${s.symbol ?? s.target}${s.path ? ` in ${s.path}` : ''}`;
    case 'memory':
      return `memory search “${s.query ?? s.target}”`;
  }
}

/** How to list subscriptions (to find an id) on each surface. */
const LIST_HOW: Record<Surface, string> = {
  chat: '`/list` shows them',
  palette: '“Proactive Context: List Subscriptions” shows them',
  tool: 'call list_subscriptions to see them',
  mcp: 'list_subscriptions shows them',
  cli: '`proactive-context subscriptions` lists them',
};

/** How to make room when the limit is reached, on each surface. */
const ROOM_HOW: Record<Surface, string> = {
  chat: 'Unsubscribe one with `/unsubscribe <id>`, or replace the oldest.',
  palette: 'Unsubscribe one, or replace the oldest.',
  tool: 'To make room, call unsubscribe with an id from list_subscriptions; nothing was changed.',
  mcp: 'To make room, call unsubscribe with an id from list_subscriptions; nothing was changed.',
  cli: 'Unsubscribe one, or run again with --replace-oldest.',
};

export function subscriptionLimit(err: SubscriptionLimitError, surface: Surface): string {
  const oldest = err.oldest ? ` The oldest is ${err.oldest.id} (${describeSubscription(err.oldest)}).` : '';
  return `${err.message}${oldest} ${ROOM_HOW[surface]}`;
}

export function noSuchSubscription(id: string, surface: Surface): string {
  return `No subscription has the id “${id}”; ${LIST_HOW[surface]}. Nothing was changed.`;
}

/** "3 of 10 subscriptions are active." */
export function activeCount(active: number, max: number): string {
  return `${active} of ${max} subscriptions ${active === 1 ? 'is' : 'are'} active.`;
}

/**
 * What subscribing did, the preview's note or truncation, and how many are active: the same
 * sentences in chat, tools, the palette and MCP. `what` is the subscription as the surface shows it
 * (plain text or a markdown link); `chatModel: false` when no chat model can answer `@context` yet.
 */
export function subscribed(
  outcome: SubscribeOutcome,
  now: number,
  options: { what?: string; maxChars: number; chatModel?: boolean },
): string[] {
  const { subscription: sub, preview } = outcome;
  const what = options.what ?? describeSubscription(sub);
  const lines = [
    `${outcome.renewed ? 'Renewed' : 'Subscribed to'} ${what} (id ${sub.id}). ${reachesChat(options.chatModel ?? true)}; it expires ${formatDuration(sub.expiresAt - now)} after its last use.`,
  ];
  if (outcome.replaced)
    lines.push(`Removed the oldest subscription to make room: ${describeSubscription(outcome.replaced)}.`);
  if (preview.note)
    lines.push(
      `Note: ${safeLabel(preview.note, 600)}. It stays subscribed and each turn says so until it can be read.`,
    );
  else if (preview.truncated) {
    lines.push(
      `It holds ${preview.chars.toLocaleString('en-US')} characters; each turn includes the first ${options.maxChars.toLocaleString('en-US')} with a truncation notice. Subscribe to a line range or a pattern to see another part.`,
    );
  }
  lines.push(activeCount(outcome.limit.active, outcome.limit.max));
  return lines;
}

/** A watch in a few words: what it follows. */
export function describeWatch(w: Watch): string {
  return w.patterns.map((p) => (p.type === 'topic' ? `topic “${p.pattern}”` : `${p.type} ${p.pattern}`)).join(', ');
}

export function noSuchWatch(id: string, surface: Surface): string {
  const how: Record<Surface, string> = {
    chat: 'the panel’s Watching section shows them',
    palette: 'the panel’s Watching section shows them',
    tool: 'call list_watches to see them',
    mcp: 'list_watches shows them',
    cli: '`proactive-context watches` lists them',
  };
  return `No watch has the id “${id}”; ${how[surface]}. Nothing was changed.`;
}

export function removedSubscription(s: Subscription): string {
  return `Removed subscription ${s.id} (${describeSubscription(s)}).`;
}

export function removedAll(n: number): string {
  return n ? `Removed all ${plural(n, 'subscription')}.` : 'There were no active subscriptions; nothing changed.';
}

export function noSubscriptions(max: number, surface: Surface): string {
  const how: Record<Surface, string> = {
    chat: 'Add one with `/subscribe src/file.ts` (see `/subscribe` for ranges, patterns, symbols and memory searches).',
    palette: 'Use “Subscribe Chat to Current File” or @context /subscribe.',
    tool: 'Use subscribe_file or subscribe_memory to add one.',
    mcp: 'Use subscribe_file or subscribe_memory to add one.',
    cli: 'Add one with `proactive-context subscribe`.',
  };
  return `No active subscriptions (limit ${max}). ${how[surface]}`;
}

/** "expires in 3 h" for lists. */
export function expiresIn(s: Subscription, now: number): string {
  return formatDuration(s.expiresAt - now);
}

export function fileIsFolder(path: string): string {
  return `${path} is a folder; give a file inside it.`;
}

export function fileMissing(path: string): string {
  return `${path} does not exist in the workspace; check the path, or subscribe once the file is created.`;
}

/** The one answer of every surface asked for suggestions on a file that is not there. */
export function noSuchFileToSuggest(path: string): string {
  return `${path} does not exist in the workspace; check the path (relative to the workspace folder).`;
}

export function fileNotYetCreated(path: string): string {
  return `${path} does not exist yet; suggestions follow once it is created.`;
}

/** "Indexing 1,200 of 5,000 files", then "Reading history: 3,000 of 10,000 commits". */
export function indexingText(p: IndexingProgress): string {
  const n = (x: number) => x.toLocaleString('en-US');
  if (p.snapshot && !p.snapshot.received && !p.snapshot.total) return 'Loading the team index';
  if (p.snapshot) {
    const mb = (x: number) => (x / (1024 * 1024)).toFixed(1);
    return `Downloading the team index: ${mb(p.snapshot.received)}${p.snapshot.total ? ` of ${mb(p.snapshot.total)}` : ''} MB`;
  }
  if (p.commits)
    return `Reading history: ${n(p.commits.done)}${p.commits.total ? ` of ${n(p.commits.total)}` : ''} commits (${n(p.total)} files indexed)`;
  return `Indexing ${n(p.done)} of ${n(p.total)} files`;
}

/** What an empty Decisions section says: where records were looked for, and how to add the first one or point elsewhere. */
export function noDecisionRecords(search: DecisionSearch): { heading: string; detail: string } {
  const next = (where: string) =>
    `Record a Decision… writes the first one ${where} as an ADR, or point the “${search.setting}” setting at the folders where your team keeps them.`;
  if (search.folders.length) {
    const holds = search.folders.length === 1 ? 'holds' : 'hold';
    return {
      heading: 'No decision records yet',
      detail: `Looked in ${search.folders.join(', ')}, which ${holds} no decision records. ${next('there')}`,
    };
  }
  return {
    heading: 'No decision records yet',
    detail: `Looked for ${search.conventions.join('; ')}: found none. ${next('to docs/adr')}`,
  };
}

// The prompt renderers, so surfaces never format these themselves.
export {
  ledgerLabel,
  renderLedger,
  renderLedgerFooter,
  renderSubscriptions,
  renderSuggestionLine,
} from '../prompt/render';
export { linkTarget, renderSuggestionList, type SuggestionListOptions } from '../prompt/suggestionList';
export { labelName } from '../sources/decisions/decisionItems';
// What an agent's host is told when the agent touches a file, fenced as repository content.
export {
  DEFAULT_HOOK_MAX_CHARS,
  fileHookItems,
  filesNamedIn,
  renderHookContext,
  subscriptionHookItems,
  workspacePath,
  type HookItem,
  type RenderedHookContext,
} from '../prompt/agentHooks';
