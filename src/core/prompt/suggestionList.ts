/**
 * A list of suggestions as people read it outside the panel: plain text for the CLI, MCP and the
 * language-model tool, markdown for chat. One renderer, so every surface follows the panel's rules:
 * groups in the kinds table's order, the file name before its folder, a reason every item of a group
 * shares said once for the group, and inline code kept as code.
 */
import { inlineCodeParts, ownReason, rowParts, sharedReason, splitPath } from '../../shared/presentation';
import { escapeMarkdown, formatAge, safeLabel } from '../../shared/text';
import { KINDS, SUGGESTION_TYPES, type SuggestionItem } from '../types';

export interface SuggestionListOptions {
  /** `text` (default) for terminals and agents, `markdown` for chat. */
  format?: 'text' | 'markdown';
  /** Markdown: the link target for a root-relative path and line (a file URI in the editor). */
  linkFor?: (path: string, line?: number) => string;
  /** Start each row with the item's index in the list, as `suggestion_feedback` takes it. */
  numbered?: boolean;
  /** Show each item's relevance score. */
  scores?: boolean;
  /** Text: add each item's summary under it. */
  summaries?: boolean;
  /** The time ages are told from (default: now). */
  now?: number;
}

/** Where a row points: "auth.ts:12", its folder, and a commit. */
interface Where {
  place?: string;
  folder?: string;
  commit?: string;
  /** "3 months ago": said here once, as the panel's age column does, never in the reason as well. */
  age?: string;
}

export function renderSuggestionList(items: readonly SuggestionItem[], options: SuggestionListOptions = {}): string {
  const md = options.format === 'markdown';
  const out: string[] = [];
  for (const type of SUGGESTION_TYPES) {
    const group = items.map((item, index) => ({ item, index })).filter((g) => g.item.type === type);
    if (!group.length) continue;
    const shared = sharedReason(group.map((g) => g.item));
    const title = KINDS[type].title;
    if (out.length) out.push('');
    if (md) out.push(`**${title}**${shared ? ` — ${markdownInline(shared)}` : ''}`, '');
    else out.push(`${title} (${group.length})${shared ? ` — ${safeLabel(shared, 400)}` : ''}`);
    for (const { item, index } of group) {
      const row = rowParts(item);
      const where = whereOf(item, row.place !== undefined || row.title !== item.title ? row : undefined, options.now);
      const score = options.scores ? ` (${item.relevanceScore.toFixed(2)})` : '';
      const number = options.numbered ? `[${index}] ` : '';
      const reason = ownReason(item.reason, shared);
      if (md) {
        // A co-change row's title is the file itself: the title is the link.
        const linkFor = !where.place && row.title !== item.title && item.location.path ? options.linkFor : undefined;
        const title = linkFor
          ? `[${markdownInline(row.title)}](${linkTarget(linkFor(item.location.path))})`
          : markdownInline(row.title);
        const parts = [`${number}${title}${score}`];
        if (reason) parts.push(`— ${markdownInline(reason)}`);
        const at = markdownWhere(item, where, options.linkFor);
        out.push(`- ${parts.join(' ')}${at ? ` · ${at}` : ''}`);
      } else {
        const at = textWhere(where);
        out.push(`  ${number}${safeLabel(row.title, 300)}${score}${at ? ` · ${at}` : ''}`);
        if (reason) out.push(`      why: ${safeLabel(reason, 400)}`);
        if (options.summaries && item.summary && item.summary !== item.title)
          out.push(`      ${safeLabel(item.summary, 300)}`);
      }
    }
  }
  return out.join('\n');
}

/** The row's place, or the item's own location when the title did not take it in. */
function whereOf(item: SuggestionItem, row: { place?: string; folder?: string } | undefined, now = Date.now()): Where {
  const l = item.location;
  const commit = l.commit ? l.commit.slice(0, 8) : undefined;
  const age =
    item.timestamp !== undefined && Number.isFinite(item.timestamp) ? formatAge(item.timestamp, now) : undefined;
  if (row) return { place: row.place, folder: row.folder, commit, age };
  if (!l.path) return { place: l.adr ?? (commit ? undefined : item.entityId), commit, age };
  const { name, folder } = splitPath(l.path);
  const lines =
    l.line !== undefined ? `:${l.line}${l.endLine !== undefined && l.endLine !== l.line ? `-${l.endLine}` : ''}` : '';
  return { place: `${name}${lines}`, folder: folder || undefined, commit, age };
}

function textWhere(w: Where): string {
  const parts: string[] = [];
  if (w.place) parts.push(safeLabel(w.place, 300));
  if (w.folder) parts.push(`(${safeLabel(w.folder, 300)})`);
  if (w.commit) parts.push(`@${w.commit}`);
  const at = parts.join(' ');
  return w.age ? (at ? `${at} · ${w.age}` : w.age) : at;
}

function markdownWhere(item: SuggestionItem, w: Where, linkFor: SuggestionListOptions['linkFor']): string {
  const parts: string[] = [];
  const l = item.location;
  if (w.place) {
    const label = escapeMarkdown(w.place);
    parts.push(l.path && linkFor ? `[${label}](${linkTarget(linkFor(l.path, l.line))})` : label);
  }
  if (w.folder) parts.push(`in ${escapeMarkdown(w.folder)}`);
  if (w.commit) parts.push(`@${w.commit}`);
  const at = parts.join(' ');
  return w.age ? (at ? `${at} · ${w.age}` : w.age) : at;
}

/** Prose escaped, inline code kept as code (its text cannot hold a tick, so it cannot end the span early). */
function markdownInline(text: string): string {
  return inlineCodeParts(text)
    .map((p) => (p.code ? `\`${safeLabel(p.text, 300)}\`` : spaced(p.text, escapeMarkdown(p.text))))
    .join('');
}

/** `escaped` with the blank that `text` had at either end, which escaping trims. */
function spaced(text: string, escaped: string): string {
  return `${/^\s/.test(text) ? ' ' : ''}${escaped}${/\s$/.test(text) && escaped ? ' ' : ''}`;
}

/** Parentheses and spaces in a link target would end it early. */
export function linkTarget(target: string): string {
  return target.replace(/[()\s]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`);
}
