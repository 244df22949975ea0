import { nullLogger, type Logger } from '../logger';
import type { MemoryHit } from '../memory/memoryStore';
import type { MaterializedSubscription } from '../subscriptions/materializer';
import type { SuggestionItem } from '../types';
import {
  MEMORY_HEADER,
  renderMemoryHit,
  renderSubscriptionBlock,
  renderSuggestionLine,
  SUGGESTIONS_HEADER,
} from './render';
import type { ChatTurn, LedgerCut, LedgerEntry, LedgerSource, PromptLedger, PromptMessage } from './ledger';

export type { ChatTurn, LedgerCut, LedgerEntry, LedgerSource, PromptLedger, PromptMessage } from './ledger';

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

/** What made it into the prompt, by id. */
export interface KeptParts {
  /** How many of the newest history turns. */
  history: number;
  /** Subscription ids. */
  subscriptions: string[];
  /** Entity ids of suggestion items, highest score first. */
  suggestions: string[];
  /** Memory hit ids, best first. */
  memory: string[];
}

export interface AssembledPrompt {
  messages: PromptMessage[];
  ledger: PromptLedger;
  kept: KeptParts;
}

export interface PromptAssemblerOptions {
  /** Added to every message for the model's role and separator tokens; default 3. */
  messageOverheadTokens?: number;
  logger?: Logger;
}

interface Unit {
  group: 'history' | 'subscription' | 'suggestion' | 'memory';
  index: number;
  text: string;
  tokens: number;
  source: LedgerSource;
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
  // eslint-disable-next-line max-lines-per-function, complexity -- the prompt parts in their fixed order, sharing one budget
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
      ...history.map((t, i) => ({
        group: 'history' as const,
        index: i,
        text: t.content,
        tokens: 0,
        source: { kind: 'history' as const, turn: i + 1, of: history.length, role: t.role },
        reason: 'over budget: oldest history is cut first',
        keepRank: i,
      })),
      ...subs.map((r, i) => ({
        group: 'subscription' as const,
        index: i,
        text: renderSubscriptionBlock(r),
        tokens: 0,
        source: subscriptionSource(r),
        reason: 'over budget: the least recently renewed subscription is cut after history, memory and suggestions',
        keepRank: r.subscription.renewedAt + r.subscription.createdAt / 1e13,
      })),
      ...suggestions.map((s, i) => ({
        group: 'suggestion' as const,
        index: i,
        text: renderSuggestionLine(s),
        tokens: 0,
        source: { kind: 'suggestion' as const, entityId: s.entityId, title: s.title, score: s.relevanceScore },
        reason: 'over budget: the lowest-scored suggestions are cut after history and memory',
        keepRank: s.relevanceScore,
      })),
      ...memory.map((m, i) => ({
        group: 'memory' as const,
        index: i,
        text: renderMemoryHit(m),
        tokens: 0,
        source: { kind: 'memoryHit' as const, id: m.id, hitKind: m.kind, title: m.title },
        reason: 'over budget: the lowest-ranked memory is cut after history',
        keepRank: -i,
      })),
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
      cut.push({
        source: { kind: 'user' },
        tokens: userTokens - shortened.tokens,
        reason: `the message alone exceeds the ${budget.toLocaleString('en-US')}-token budget; its middle was shortened`,
      });
      userMessage = shortened.text;
      user = shortened.tokens + this.overhead;
    }

    const kept = new Set(units);
    const groupCount = (g: Unit['group']) => [...kept].filter((u) => u.group === g).length;
    let total =
      instructions +
      user +
      units.reduce((n, u) => n + u.tokens, 0) +
      (suggestions.length ? sectionCost.suggestion : 0) +
      (memory.length ? sectionCost.memory : 0);
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
      if ((u.group === 'suggestion' || u.group === 'memory') && groupCount(u.group) === 0)
        total -= sectionCost[u.group];
    }
    // Cutting a big part may leave room for smaller, more relevant ones cut before it: put those back, most relevant first.
    // Within a group they come back most relevant first and without gaps, so what a section keeps is
    // always its top items (newest history, best memory, highest-scored suggestions, newest renewals).
    const blocked = new Set<Unit['group']>(removed.length ? [removed[removed.length - 1].group] : []);
    for (let i = removed.length - 2; i >= 0; i--) {
      const u = removed[i];
      if (blocked.has(u.group)) continue;
      const header =
        (u.group === 'suggestion' || u.group === 'memory') && groupCount(u.group) === 0 ? sectionCost[u.group] : 0;
      if (total + u.tokens + header <= budget) {
        kept.add(u);
        total += u.tokens + header;
      } else blocked.add(u.group);
    }
    for (const u of removed) if (!kept.has(u)) cut.push({ source: u.source, tokens: u.tokens, reason: u.reason });

    const messages: PromptMessage[] = [{ role: 'user', content: input.instructions, source: { kind: 'instructions' } }];
    const entries: LedgerEntry[] = [{ source: { kind: 'instructions' }, tokens: instructions }];
    const keptOf = (g: Unit['group']) => units.filter((u) => u.group === g && kept.has(u));

    const keptHistory = keptOf('history');
    for (const u of keptHistory)
      messages.push({ role: history[u.index].role, content: history[u.index].content, source: { kind: 'history' } });
    if (keptHistory.length)
      entries.push({ source: { kind: 'history' }, tokens: sum(keptHistory), items: keptHistory.length });

    const keptSubs = keptOf('subscription');
    for (const u of keptSubs) {
      const r = subs[u.index];
      messages.push({ role: 'user', content: u.text, source: u.source });
      entries.push({
        source: u.source,
        tokens: u.tokens,
        changedSinceLastTurn: r.changedSinceLastTurn,
        expiresAt: r.expiresAt,
      });
    }

    // Suggestions and memory hits each go in one message under their header, when any are kept.
    const section = (kind: 'suggestions' | 'memory', header: string, kept: Unit[], cost: number) => {
      if (!kept.length) return;
      messages.push({ role: 'user', content: [header, ...kept.map((u) => u.text)].join('\n'), source: { kind } });
      entries.push({ source: { kind }, tokens: sum(kept) + cost, items: kept.length });
    };
    const keptSuggestions = keptOf('suggestion');
    const keptMemory = keptOf('memory');
    section('suggestions', SUGGESTIONS_HEADER, keptSuggestions, sectionCost.suggestion);
    section('memory', MEMORY_HEADER, keptMemory, sectionCost.memory);

    messages.push({ role: 'user', content: userMessage, source: { kind: 'user' } });
    entries.push({ source: { kind: 'user' }, tokens: user });

    const totalTokens = entries.reduce((n, e) => n + e.tokens, 0);
    const keptParts: KeptParts = {
      history: keptHistory.length,
      subscriptions: keptSubs.map((u) => subs[u.index].subscription.id),
      suggestions: keptSuggestions.map((u) => suggestions[u.index].entityId),
      memory: keptMemory.map((u) => memory[u.index].id),
    };
    return { messages, ledger: { entries, cut, totalTokens, budget }, kept: keptParts };
  }
}

/** The ledger source of a subscription. */
function subscriptionSource(r: MaterializedSubscription): LedgerSource {
  return { kind: 'subscription', id: r.subscription.id, target: r.subscription.target };
}

async function shrinkToFit(
  text: string,
  tokens: number,
  allowed: number,
  count: (t: string) => Promise<number>,
): Promise<{ text: string; tokens: number }> {
  let keep = Math.floor(((text.length * allowed) / Math.max(1, tokens)) * 0.9);
  let best = { text: shorten(text, 0), tokens: await count(shorten(text, 0)) };
  for (let i = 0; i < 6 && keep > 0; i++) {
    const candidate = shorten(text, keep);
    const t = await count(candidate);
    if (t <= allowed) {
      best = { text: candidate, tokens: t };
      if (t >= allowed * 0.9) break;
      keep = Math.floor(keep * Math.min(1.5, allowed / Math.max(1, t)) * 0.97);
    } else keep = Math.floor(((keep * allowed) / t) * 0.9);
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
