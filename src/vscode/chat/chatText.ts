// What the `@context` participant writes, as plain functions over core types (no `vscode` import),
// so the wording and links are unit-tested in Node.
import {
  describeSubscription,
  expiresIn,
  linkTarget,
  noSubscriptions,
  renderSuggestionList,
  renderLedger,
  subscribed,
} from '../../core/api/messages';
import { escapeMarkdown } from '../../shared/text';
import type {
  LineCommit,
  NewDecision,
  PromptLedger,
  SubscribeOutcome,
  Subscription,
  SuggestionItem,
} from '../../core/api/types';

/** Builds a link target for a root-relative path and optional line (a file URI in the extension). */
export type LinkFor = (path: string, line?: number) => string;

/** `path:line` (or the commit / ADR the item is about) as a markdown link. */
export function locationLink(item: Pick<SuggestionItem, 'location' | 'entityId'>, linkFor: LinkFor): string {
  const l = item.location;
  if (!l.path) return escapeMarkdown(l.commit ? l.commit.slice(0, 8) : (l.adr ?? item.entityId));
  const label = `${l.path}${l.line ? `:${l.line}${l.endLine && l.endLine !== l.line ? `-${l.endLine}` : ''}` : ''}`;
  return `[${escapeMarkdown(label)}](${linkTarget(linkFor(l.path, l.line))})${l.commit ? ` @${l.commit.slice(0, 8)}` : ''}`;
}

/** `/suggest`: suggestions grouped by kind, each with why and where, as every surface renders them. */
export function renderSuggestions(items: readonly SuggestionItem[], linkFor: LinkFor, heading?: string): string {
  if (!items.length) return `${heading ? `${heading}\n\n` : ''}No suggestions for this place yet.`;
  const list = renderSuggestionList(items, { format: 'markdown', linkFor });
  return heading ? `${heading}\n\n${list}` : list;
}

const PLACEHOLDER = '\uE000';

/**
 * `/subscribe`: what was subscribed, in the words every surface uses, as markdown. File names and
 * notes are untrusted text: escaped, so a name like `*x*.ts` or `[a](b)` stays a name.
 */
export function renderSubscribed(outcome: SubscribeOutcome, now: number, maxChars: number): string {
  const id = outcome.subscription.id;
  const what = `**${escapeMarkdown(describeSubscription(outcome.subscription))}**`;
  // A private-use character marks where the name goes: escaping leaves it alone (it shows control characters).
  const lines = subscribed(outcome, now, { what: PLACEHOLDER, maxChars });
  return lines
    .map((l, i) =>
      i === 0
        ? escapeMarkdown(l).replace(PLACEHOLDER, what).replace(`\\(id ${id}\\)`, `(id \`${id}\`)`)
        : escapeMarkdown(l),
    )
    .join('\n\n');
}

/** `/list`: a table of active subscriptions with their ids and expiry. */
export function renderSubscriptionList(
  subs: readonly Subscription[],
  maxActive: number,
  now: number,
  linkFor: LinkFor,
): string {
  if (!subs.length) return noSubscriptions(maxActive, 'chat');
  const rows = subs.map((s) => {
    const what =
      s.path && s.kind !== 'memory'
        ? `[${escapeMarkdown(describeSubscription(s))}](${linkTarget(linkFor(s.path, s.lines?.start))})`
        : escapeMarkdown(describeSubscription(s));
    return `| \`${s.id}\` | ${s.kind} | ${what} | ${expiresIn(s, now)} |`;
  });
  return [
    `**Active subscriptions (${subs.length} of ${maxActive})** — their current content goes into every \`@context\` turn.`,
    '',
    '| Id | Kind | What | Expires in |',
    '|---|---|---|---|',
    ...rows,
  ].join('\n');
}

/**
 * `/why`: the decisions and history behind the symbol (or file) at the cursor. The commits that
 * changed the symbol's own lines come first; other recent changes of the file follow, without repeats.
 */
export function renderWhy(
  target: string,
  decisions: readonly SuggestionItem[],
  changes: readonly SuggestionItem[],
  linkFor: LinkFor,
  notes: readonly string[] = [],
  lineHistory?: { lines: string; commits: readonly LineCommit[] },
): string {
  const out = [`### Why ${escapeMarkdown(target)} is the way it is`, ''];
  out.push('**Decisions**', '');
  if (decisions.length)
    for (const d of decisions)
      out.push(`- ${escapeMarkdown(d.title)} — ${escapeMarkdown(d.reason)} · ${locationLink(d, linkFor)}`);
  else out.push('- No recorded decision governs this code. Record one with `/decide <title>`.');
  const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
  const shown = new Set<string>();
  if (lineHistory?.commits.length) {
    out.push('', `**Commits that changed ${escapeMarkdown(lineHistory.lines)}**`, '');
    for (const c of lineHistory.commits) {
      shown.add(c.hash);
      out.push(
        `- ${day(c.date)} ${escapeMarkdown(c.subject)} by ${escapeMarkdown(c.author)} · \`${c.hash.slice(0, 8)}\``,
      );
    }
  }
  const rest = changes.filter(
    (c) =>
      !c.location.commit ||
      ![...shown].some((h) => h.startsWith(c.location.commit as string) || (c.location.commit as string).startsWith(h)),
  );
  out.push('', shown.size ? '**Other recent changes to the file**' : '**History**', '');
  if (rest.length) {
    for (const c of rest) {
      const when = c.timestamp ? `${day(c.timestamp)} ` : '';
      const who = typeof c.meta?.author === 'string' ? ` by ${escapeMarkdown(c.meta.author)}` : '';
      out.push(`- ${when}${escapeMarkdown(c.title)}${who} — ${escapeMarkdown(c.reason)} · ${locationLink(c, linkFor)}`);
    }
  } else
    out.push(shown.size ? '- None besides the commits above.' : '- No recent commits or uncommitted changes touch it.');
  if (notes.length) out.push('', `_${notes.map(escapeMarkdown).join(' · ')}_`);
  return out.join('\n');
}

/** The ADR draft as the user sees it before confirming. */
export function renderDecisionDraft(d: NewDecision): string {
  const block = (title: string, body: string) => [`**${title}**`, '', body.trim() || '_(empty)_', ''];
  return [
    `### Draft decision: ${escapeMarkdown(d.title)}`,
    '',
    ...block('Context', d.context),
    ...block('Decision', d.decision),
    ...block('Consequences', d.consequences),
    '_Nothing is written until you confirm._',
  ].join('\n');
}

/** The prompt that asks the model to draft an ADR from the conversation so far. */
export function buildDecisionPrompt(title: string, transcript: string): string {
  return [
    `Draft an architecture decision record titled "${title}" from the conversation below.`,
    'Use only what the conversation says; where it is silent, write "Not discussed".',
    'Reply with one JSON object only, no prose:',
    '{"title": "...", "context": "the problem and forces", "decision": "what was decided", "consequences": "what follows, good and bad"}',
    '',
    '--- conversation ---',
    transcript.trim() || '(no earlier messages: draft from the title alone)',
  ].join('\n');
}

/** A turn of the conversation as the participant sees it in chat history. */
export interface HistoryTurn {
  role: 'user' | 'assistant';
  content: string;
  /** The slash command of the request (or of the request this answers). */
  command?: string;
}

/** History for the prompt: answered questions only (slash-command turns are bookkeeping), empty turns dropped. */
export function promptHistory(turns: readonly HistoryTurn[]): { role: 'user' | 'assistant'; content: string }[] {
  return turns.filter((t) => !t.command && t.content.trim()).map((t) => ({ role: t.role, content: t.content }));
}

/** The conversation as plain text for drafting a decision, newest kept when it is long. */
export function transcriptOf(turns: readonly HistoryTurn[], maxChars = 24_000): string {
  const lines = promptHistory(turns).map((t) => `${t.role === 'user' ? 'User' : 'Assistant'}: ${t.content.trim()}`);
  let text = lines.join('\n\n');
  if (text.length > maxChars) text = '…\n' + text.slice(text.length - maxChars);
  return text;
}

/** `/ledger` when there is no earlier turn to show. */
export const NO_LEDGER =
  'No `@context` question has been answered in this conversation yet, so there is no ledger to show. Ask something first.';

/** `/ledger`: a header and the ledger table for the last turn. */
export function renderLedgerReport(ledger: PromptLedger, at: number, now: number = Date.now()): string {
  return [
    `**What the last answer's prompt held** (built ${new Date(at).toISOString().slice(11, 19)} UTC)`,
    '',
    renderLedger(ledger, now),
  ].join('\n');
}
