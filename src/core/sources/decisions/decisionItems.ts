import { createHash } from 'node:crypto';
import type { SuggestionItem } from '../../types';
import { score, type SourceQuery } from '../sourceQuery';
import type { AdrLinks } from './adrLinks';
import type { LogEntry, ParsedAdr } from './adrParser';

/** A decision record held in memory between refreshes. */
export interface DecisionRecord extends ParsedAdr {
  path: string;
  folder: string;
  /** Area folders between the decision folder and the record (`front-end`). */
  area: string[];
  /** Number as written in the file name (`0003`), padded to 4 digits, or the file name when unnumbered. */
  label: string;
  mtimeMs: number;
  size: number;
  links: AdrLinks;
  /** The records of a decision log kept in this one file, each under its own heading. */
  entries?: readonly LogEntry[];
  /** What each entry of a log names, by entry. */
  entryLinks?: readonly AdrLinks[];
  /** Set on the view of one entry of a log: the lines it spans. */
  span?: { line: number; endLine: number };
}

/** How a record is named in titles and reasons: `ADR 0003`, or its title when it has no number. */
export function nameOf(adr: DecisionRecord): string {
  return adr.number !== undefined ? labelName(adr.label) : `ADR "${adr.title}"`;
}

/** How a numbered record is called: `ADR 0007`, or `API-007` for a record numbered in a series of its own. */
export function labelName(label: string): string {
  return /^[A-Za-z]/.test(label) ? label : `ADR ${label}`;
}

/** Why a record is linked to the code: its strength (0..1, before status) and the words to say so. */
export interface DecisionHit {
  adr: DecisionRecord;
  score: number;
  reason: string;
  /** inline, file, glob, dir, symbol, module, text. */
  kind: string;
  line?: number;
  /** A link by words: the kind of specific evidence and how common its word is (0..1). */
  evidence?: {
    kind: string;
    share?: number;
    words?: string[];
    /** The folder (`folder`) or package (`import`) the evidence is in. */
    where?: string;
    source?: string;
    inRecord?: string;
    module?: boolean;
    code?: boolean;
    generic?: boolean;
    shared?: boolean;
    acronym?: boolean;
    mentionOnly?: boolean;
  };
}

/** `when`: the record's date to show (its own date by default); none when it is not known yet. */
export function decisionItem(
  adr: DecisionRecord,
  s: number,
  reason: string,
  kind: string,
  line?: number,
  when: number | undefined = adr.date,
): SuggestionItem {
  const meta: Record<string, string | number | boolean> = { status: adr.status, link: kind };
  if (adr.number !== undefined) meta.number = adr.number;
  if (adr.deciders.length) meta.deciders = adr.deciders.join(', ');
  if (adr.date !== undefined) meta.date = new Date(adr.date).toISOString().slice(0, 10);
  if (line !== undefined) meta.mentionLine = line;
  if (adr.area.length) meta.area = adr.area.join('/');
  return {
    type: 'decision',
    title: adr.number !== undefined ? `${labelName(adr.label)}: ${adr.title}` : `ADR: ${adr.title}`,
    summary: adr.summary,
    relevanceScore: score(s),
    reason,
    location: adr.span
      ? { path: adr.path, line: adr.span.line, endLine: adr.span.endLine, adr: adr.label }
      : { path: adr.path, adr: adr.label },
    // One item per file: an entry of a log stands for its file, whose lines move as it grows.
    entityId: `decision:${adr.path}`,
    ...(when !== undefined ? { timestamp: when } : {}),
    meta,
  };
}

export function retiredWarning(
  adr: DecisionRecord,
  successor: DecisionRecord | undefined,
  h: DecisionHit,
): SuggestionItem {
  const name = nameOf(adr);
  const title = successor
    ? `Governed by superseded ${name} — see ${nameOf(successor)}: ${successor.title}`
    : adr.status === 'superseded'
      ? `Governed by superseded ${name}: ${adr.title}`
      : `Governed by deprecated ${name}: ${adr.title}`;
  const summary = successor
    ? `${name} "${adr.title}" was superseded by ${nameOf(successor)} "${successor.title}"; check that this code follows the newer decision.`
    : `${name} "${adr.title}" is ${adr.status}${adr.statusText ? ` (${firstLine(adr.statusText)})` : ''}; this code may rely on a decision that no longer holds.`;
  const meta: Record<string, string | number | boolean> = { status: adr.status, link: h.kind };
  if (successor) meta.successor = successor.path;
  return {
    type: 'warning',
    title,
    summary,
    relevanceScore: score(h.score),
    reason: h.reason,
    location: { path: adr.path, adr: adr.label },
    entityId: `warning:decision:${adr.path}`,
    // No time: how old the record is says nothing about how much the code relies on it.
    meta,
  };
}

export function noteItem(
  file: string,
  note: { line: number; endLine: number; text: string },
  q: SourceQuery,
): SuggestionItem {
  const near =
    (q.symbolRange && note.line >= q.symbolRange.start - 3 && note.line <= q.symbolRange.end) ||
    (q.line !== undefined && Math.abs(note.line - q.line) <= 15);
  const short = note.text.length > 80 ? note.text.slice(0, 79).trimEnd() + '…' : note.text;
  const hash = createHash('sha1').update(note.text).digest('hex').slice(0, 10);
  return {
    type: 'decision',
    title: `Decision note: ${short}`,
    summary: note.text,
    relevanceScore: score(near ? 0.92 : 0.8),
    reason: `DECISION: note at line ${note.line} of ${file}${near ? ', next to the cursor' : ''}`,
    location: { path: file, line: note.line, endLine: note.endLine },
    entityId: `decision:${file}#note-${hash}`,
    meta: { status: 'note' },
  };
}

function firstLine(s: string): string {
  return (
    s
      .split('\n')
      .find((l) => l.trim())
      ?.trim() ?? ''
  );
}
