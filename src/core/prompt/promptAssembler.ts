import { nullLogger, type Logger } from '../logger';
import type { MemoryHit } from '../memory/memoryStore';
import { renderMemoryHit, renderSubscriptionBlock, type MaterializedSubscription } from '../subscriptions/materializer';
import type { SuggestionItem } from '../types';

export interface ChatTurn {
  role: 'user' | 'assistant';
  content: string;
}

/** What one `@context` turn is built from; every part is optional except the instructions and the user's message. */
export interface PromptInput {
  instructions: string;
  /** Previous turns of this conversation, oldest first. */
  history?: readonly ChatTurn[];
  subscriptions?: readonly MaterializedSubscription[];
  /** Current suggestions for the active editor. */
  suggestions?: readonly SuggestionItem[];
  /** Memory hits, best first. */
  memory?: readonly MemoryHit[];
  userMessage: string;
  /** The model's input limit. */
  maxInputTokens: number;
  /** The model's own token counter. */
  countTokens: (text: string, signal?: AbortSignal) => Promise<number>;
  signal?: AbortSignal;
}

export interface PromptMessage {
  role: 'user' | 'assistant';
  content: string;
  /** What the message holds: 'instructions', 'history', 'subscription:<id> <target>', 'suggestions', 'memory', 'user'. */
  source: string;
}

export interface LedgerEntry {
  source: string;
  tokens: number;
  /** How many items the entry holds (history turns, suggestions, memory hits): always the section's top ones (newest turns, best hits, highest scores). */
  items?: number;
  changedSinceLastTurn?: boolean;
  expiresAt?: number;
}

export interface LedgerCut {
  source: string;
  tokens: number;
  reason: string;
}

/** What went into a prompt, what was cut to fit, and why. */
export interface PromptLedger {
  entries: LedgerEntry[];
  cut: LedgerCut[];
  totalTokens: number;
  budget: number;
}

export interface AssembledPrompt {
  messages: PromptMessage[];
  ledger: PromptLedger;
}

export interface PromptAssemblerOptions {
  /** Added to every message for the model's role and separator tokens; default 3. */
  messageOverheadTokens?: number;
  logger?: Logger;
}

/** Instructions that explain the parts of the prompt to the model; adapters may use their own. */
export const DEFAULT_CHAT_INSTRUCTIONS = [
  'You are a coding assistant inside the editor. The messages before the final one give you context:',
  '- "Subscription" blocks hold the current content of files, line ranges, symbols or searches the user subscribed to; they are refreshed every turn and say whether they changed since the last turn.',
  '- "Suggestions" list decisions, recent changes, related files, callers, docs and warnings for the file the user is editing, each with why it is relevant.',
  '- "Relevant memory" holds past conversations and recorded decisions that match the question.',
  'Prefer this context over guesses, cite paths and line numbers, and say when the context does not answer the question. The user\'s message comes last.',
].join('\n');

const SUGGESTIONS_HEADER = '### Suggestions for the active editor (type · title — why · where)';
const MEMORY_HEADER = '### Relevant memory (past chats and decisions)';

interface Unit {
  group: 'history' | 'subscription' | 'suggestion' | 'memory';
  index: number;
  text: string;
  tokens: number;
  cutLabel: string;
  reason: string;
  /** Lower is cut first within the group. */
  keepRank: number;
}

/** Builds the `@context` prompt afresh each turn and keeps it within the model's input budget, saying what it cut. */
export class PromptAssembler {
  private readonly overhead: number;
  private readonly logger: Logger;

  constructor(options: PromptAssemblerOptions = {}) {
    this.overhead = Math.max(0, options.messageOverheadTokens ?? 3);
    this.logger = options.logger ?? nullLogger;
  }

  /** Orders the parts (instructions, history, subscriptions, suggestions, memory, user message last) and cuts the least relevant first. */
  async assemble(input: PromptInput): Promise<AssembledPrompt> {
    const budget = Math.max(0, Math.floor(input.maxInputTokens));
    const count = async (text: string): Promise<number> => {
      input.signal?.throwIfAborted();
      try {
        return Math.max(0, Math.ceil(await input.countTokens(text, input.signal)));
      } catch (err) {
        if (input.signal?.aborted) throw err;
        this.logger.warn(`Token counting failed, estimating: ${(err as Error).message}`);
        return Math.ceil(text.length / 4);
      }
    };

    const history = input.history ?? [];
    const subs = input.subscriptions ?? [];
    const suggestions = [...(input.suggestions ?? [])].sort((a, b) => b.relevanceScore - a.relevanceScore);
    const memory = input.memory ?? [];

    const units: Unit[] = [
      ...history.map((t, i) => ({ group: 'history' as const, index: i, text: t.content, tokens: 0, cutLabel: `history turn ${i + 1} of ${history.length} (${t.role})`, reason: 'over budget: oldest history is cut first', keepRank: i })),
      ...subs.map((r, i) => ({
        group: 'subscription' as const,
        index: i,
        text: renderSubscriptionBlock(r),
        tokens: 0,
        cutLabel: subscriptionSource(r),
        reason: 'over budget: the least recently renewed subscription is cut after history, memory and suggestions',
        keepRank: r.subscription.renewedAt + r.subscription.createdAt / 1e13,
      })),
      ...suggestions.map((s, i) => ({
        group: 'suggestion' as const,
        index: i,
        text: renderSuggestionLine(s),
        tokens: 0,
        cutLabel: `suggestion "${oneLine(s.title, 60)}" (score ${s.relevanceScore.toFixed(2)})`,
        reason: 'over budget: the lowest-scored suggestions are cut after history and memory',
        keepRank: s.relevanceScore,
      })),
      ...memory.map((m, i) => ({ group: 'memory' as const, index: i, text: renderMemoryHit(m), tokens: 0, cutLabel: `memory: ${m.kind} "${oneLine(m.title, 60)}"`, reason: 'over budget: the lowest-ranked memory is cut after history', keepRank: -i })),
    ];

    const [instrTokens, userTokens, sugHeader, memHeader, ...unitTokens] = await Promise.all([
      count(input.instructions),
      count(input.userMessage),
      suggestions.length ? count(SUGGESTIONS_HEADER) : Promise.resolve(0),
      memory.length ? count(MEMORY_HEADER) : Promise.resolve(0),
      ...units.map((u) => count(u.text)),
    ]);
    units.forEach((u, i) => {
      u.tokens = unitTokens[i] + (u.group === 'history' || u.group === 'subscription' ? this.overhead : 0);
    });
    const sectionCost = { suggestion: sugHeader + this.overhead, memory: memHeader + this.overhead };

    const cut: LedgerCut[] = [];
    const instructions = instrTokens + this.overhead;
    let userMessage = input.userMessage;
    let user = userTokens + this.overhead;
    if (instructions + user > budget) {
      const allowed = Math.max(64, budget - instructions - this.overhead);
      const shortened = await shrinkToFit(input.userMessage, userTokens, allowed, count);
      cut.push({ source: 'user message', tokens: userTokens - shortened.tokens, reason: `the message alone exceeds the ${budget.toLocaleString('en-US')}-token budget; its middle was shortened` });
      userMessage = shortened.text;
      user = shortened.tokens + this.overhead;
    }

    const kept = new Set(units);
    const groupCount = (g: Unit['group']) => [...kept].filter((u) => u.group === g).length;
    let total = instructions + user + units.reduce((n, u) => n + u.tokens, 0) + (suggestions.length ? sectionCost.suggestion : 0) + (memory.length ? sectionCost.memory : 0);
    const cutOrder: Unit[] = [
      ...units.filter((u) => u.group === 'history').sort((a, b) => a.keepRank - b.keepRank),
      ...units.filter((u) => u.group === 'memory').sort((a, b) => a.keepRank - b.keepRank),
      ...units.filter((u) => u.group === 'suggestion').sort((a, b) => a.keepRank - b.keepRank),
      ...units.filter((u) => u.group === 'subscription').sort((a, b) => a.keepRank - b.keepRank),
    ];
    const removed: Unit[] = [];
    for (const u of cutOrder) {
      if (total <= budget) break;
      kept.delete(u);
      removed.push(u);
      total -= u.tokens;
      if ((u.group === 'suggestion' || u.group === 'memory') && groupCount(u.group) === 0) total -= sectionCost[u.group];
    }
    // Cutting a big part may leave room for smaller, more relevant ones cut before it: put those back, most relevant first.
    // Within a group they come back most relevant first and without gaps, so what a section keeps is
    // always its top items (newest history, best memory, highest-scored suggestions, newest renewals).
    const blocked = new Set<Unit['group']>(removed.length ? [removed[removed.length - 1].group] : []);
    for (let i = removed.length - 2; i >= 0; i--) {
      const u = removed[i];
      if (blocked.has(u.group)) continue;
      const header = (u.group === 'suggestion' || u.group === 'memory') && groupCount(u.group) === 0 ? sectionCost[u.group] : 0;
      if (total + u.tokens + header <= budget) {
        kept.add(u);
        total += u.tokens + header;
      } else blocked.add(u.group);
    }
    for (const u of removed) if (!kept.has(u)) cut.push({ source: u.cutLabel, tokens: u.tokens, reason: u.reason });

    const messages: PromptMessage[] = [{ role: 'user', content: input.instructions, source: 'instructions' }];
    const entries: LedgerEntry[] = [{ source: 'instructions', tokens: instructions }];
    const keptOf = (g: Unit['group']) => units.filter((u) => u.group === g && kept.has(u));

    const keptHistory = keptOf('history');
    for (const u of keptHistory) messages.push({ role: history[u.index].role, content: history[u.index].content, source: 'history' });
    if (keptHistory.length) entries.push({ source: 'history', tokens: sum(keptHistory), items: keptHistory.length });

    for (const u of keptOf('subscription')) {
      const r = subs[u.index];
      messages.push({ role: 'user', content: u.text, source: u.cutLabel });
      entries.push({ source: u.cutLabel, tokens: u.tokens, changedSinceLastTurn: r.changedSinceLastTurn, expiresAt: r.expiresAt });
    }

    const keptSuggestions = keptOf('suggestion');
    if (keptSuggestions.length) {
      messages.push({ role: 'user', content: [SUGGESTIONS_HEADER, ...keptSuggestions.map((u) => u.text)].join('\n'), source: 'suggestions' });
      entries.push({ source: 'suggestions', tokens: sum(keptSuggestions) + sectionCost.suggestion, items: keptSuggestions.length });
    }

    const keptMemory = keptOf('memory');
    if (keptMemory.length) {
      messages.push({ role: 'user', content: [MEMORY_HEADER, ...keptMemory.map((u) => u.text)].join('\n'), source: 'memory' });
      entries.push({ source: 'memory', tokens: sum(keptMemory) + sectionCost.memory, items: keptMemory.length });
    }

    messages.push({ role: 'user', content: userMessage, source: 'user' });
    entries.push({ source: 'user message', tokens: user });

    const totalTokens = entries.reduce((n, e) => n + e.tokens, 0);
    return { messages, ledger: { entries, cut, totalTokens, budget } };
  }
}

/** Convenience for one-off use: `new PromptAssembler().assemble(input)`. */
export function assemblePrompt(input: PromptInput, options?: PromptAssemblerOptions): Promise<AssembledPrompt> {
  return new PromptAssembler(options).assemble(input);
}

/** The ledger source name of a subscription: `subscription:<id> <target>`. */
export function subscriptionSource(r: MaterializedSubscription): string {
  return `subscription:${r.subscription.id} ${r.subscription.target}`;
}

/** A suggestion as one compact prompt line: type, title, why, where. */
export function renderSuggestionLine(s: SuggestionItem): string {
  return `- [${s.type}] ${oneLine(s.title, 160)} — ${oneLine(s.reason, 200)} · ${renderLocation(s)}`;
}

function renderLocation(s: SuggestionItem): string {
  const l = s.location;
  let where = l.path || '';
  if (l.line !== undefined) where += `:${l.line}${l.endLine !== undefined && l.endLine !== l.line ? `-${l.endLine}` : ''}`;
  if (l.commit) where += `${where ? ' ' : ''}@${l.commit.slice(0, 8)}`;
  if (l.adr) where += `${where ? ' ' : ''}(${l.adr})`;
  return where || s.entityId;
}

/** The ledger as compact markdown, for `/ledger`. */
export function renderLedger(ledger: PromptLedger, now: number = Date.now()): string {
  const fmt = (n: number) => n.toLocaleString('en-US');
  const rows = ledger.entries.map((e) => {
    const notes: string[] = [];
    if (e.items !== undefined) notes.push(`${e.items} item${e.items === 1 ? '' : 's'}`);
    if (e.changedSinceLastTurn !== undefined) notes.push(e.changedSinceLastTurn ? 'changed since last turn' : 'unchanged');
    if (e.expiresAt !== undefined) notes.push(`expires in ${formatDuration(e.expiresAt - now)}`);
    return `| ${escapeCell(e.source)} | ${fmt(e.tokens)} | ${notes.join(', ')} |`;
  });
  const lines = [
    '| Part | Tokens | Notes |',
    '|---|---:|---|',
    ...rows,
    `| **Total** | **${fmt(ledger.totalTokens)}** | of ${fmt(ledger.budget)} available |`,
  ];
  if (ledger.cut.length) {
    lines.push('', `**Cut to fit (${ledger.cut.length}):**`);
    for (const c of ledger.cut) lines.push(`- ${escapeCell(c.source)}: ${fmt(c.tokens)} tokens — ${c.reason}`);
  }
  return lines.join('\n');
}

/** One short line for the end of a chat answer. */
export function renderLedgerFooter(ledger: PromptLedger): string {
  const fmt = (n: number) => n.toLocaleString('en-US');
  const subs = ledger.entries.filter((e) => e.source.startsWith('subscription:'));
  const changed = subs.filter((e) => e.changedSinceLastTurn).length;
  const items = (source: string) => ledger.entries.find((e) => e.source === source)?.items ?? 0;
  const parts = [`Context ${fmt(ledger.totalTokens)}/${fmt(ledger.budget)} tokens`];
  if (subs.length) parts.push(`${subs.length} subscription${subs.length === 1 ? '' : 's'}${changed ? ` (${changed} changed)` : ''}`);
  if (items('suggestions')) parts.push(`${items('suggestions')} suggestion${items('suggestions') === 1 ? '' : 's'}`);
  if (items('memory')) parts.push(`${items('memory')} from memory`);
  if (items('history')) parts.push(`${items('history')} earlier turn${items('history') === 1 ? '' : 's'}`);
  if (ledger.cut.length) {
    const groups = new Map<string, number>();
    for (const c of ledger.cut) {
      const g = c.source.startsWith('history') ? 'history' : c.source.startsWith('subscription:') ? 'subscription' : c.source.startsWith('suggestion') ? 'suggestion' : c.source.startsWith('memory') ? 'memory' : c.source;
      groups.set(g, (groups.get(g) ?? 0) + 1);
    }
    parts.push('cut ' + [...groups].map(([g, n]) => (g === 'user message' ? 'part of your message' : `${n} ${g}${n === 1 ? '' : g === 'history' || g === 'memory' ? '' : 's'}`)).join(', ') + ' to fit');
  }
  return parts.join(' · ');
}

async function shrinkToFit(text: string, tokens: number, allowed: number, count: (t: string) => Promise<number>): Promise<{ text: string; tokens: number }> {
  let keep = Math.floor((text.length * allowed) / Math.max(1, tokens) * 0.9);
  let best = { text: shorten(text, 0), tokens: await count(shorten(text, 0)) };
  for (let i = 0; i < 6 && keep > 0; i++) {
    const candidate = shorten(text, keep);
    const t = await count(candidate);
    if (t <= allowed) {
      best = { text: candidate, tokens: t };
      if (t >= allowed * 0.9) break;
      keep = Math.floor(keep * Math.min(1.5, allowed / Math.max(1, t)) * 0.97);
    } else keep = Math.floor((keep * allowed) / t * 0.9);
  }
  return best;
}

/** Keeps the start and, mostly, the end of a long message (the question tends to come last). */
function shorten(text: string, keep: number): string {
  const head = Math.floor(keep * 0.35);
  const tail = keep - head;
  const notice = `\n… [message shortened to fit the model's input limit: kept ${keep.toLocaleString('en-US')} of ${text.length.toLocaleString('en-US')} characters] …\n`;
  return text.slice(0, head) + notice + (tail > 0 ? text.slice(text.length - tail) : '');
}

function sum(units: Unit[]): number {
  return units.reduce((n, u) => n + u.tokens, 0);
}

function oneLine(s: string, max: number): string {
  const t = s.replace(/\s+/g, ' ').trim();
  return t.length > max ? t.slice(0, max - 1) + '…' : t;
}

function escapeCell(s: string): string {
  return s.replace(/\|/g, '\\|').replace(/\n/g, ' ');
}

function formatDuration(ms: number): string {
  if (ms <= 0) return 'now';
  const min = Math.round(ms / 60_000);
  if (min < 60) return `${min} min`;
  const h = Math.round(min / 60);
  return h < 48 ? `${h} h` : `${Math.round(h / 24)} d`;
}
