/** How one decision record names another: links, `ADR-5`, and the notes that say it was superseded. */
import { linesOf, stripInline } from '../docs/markdown';

/** A link from one decision to another: by number, by file, or both. */
export interface AdrRef {
  number?: number;
  /** Link target as written, relative to the ADR's folder. */
  target?: string;
  text: string;
}

/** `> Superseded by [ADR-7](…)`, `> … revisited in [ADR-7], which supersedes this decision.` */
const SUPERSEDED_NOTE = /\bsuper[sc]eded[ \t]+by\b|\bsuper[sc]edes[ \t]+this[ \t]+(?:decision|record|adr)\b/i;
/** A line that stands apart from the prose: quoted, or opening with the words themselves. */
const NOTE_LINE = /^[ \t]*(?:>|[*_]{0,2}super[sc]eded[ \t]+by\b)/i;

/**
 * A note near the top of a record without a status saying that a later record replaced it, read
 * as its status ("Superseded by ADR-7"); prose that mentions superseding something else is not one.
 */
export function supersessionNote(lines: readonly string[]): string | undefined {
  for (const line of lines) {
    if (!NOTE_LINE.test(line)) continue;
    const m = SUPERSEDED_NOTE.exec(line);
    if (!m) continue;
    const ref = /^super[sc]eded/i.test(m[0]) ? findSupersededBy(line) : refsIn(line)[0];
    return ref
      ? `Superseded by ${ref.target ? `[${ref.text}](${ref.target})` : ref.number !== undefined ? `ADR-${ref.number}` : ref.text}`
      : withoutMarks(line);
  }
  return undefined;
}

/** A line without the quote and emphasis marks around it. */
function withoutMarks(line: string): string {
  let start = 0;
  let end = line.length;
  while (start < end && ' \t>*_'.includes(line[start])) start++;
  while (end > start && ' \t*_'.includes(line[end - 1])) end--;
  return line.slice(start, end);
}

/** The record named after "superseded by" in a status text. */
export function findSupersededBy(text: string): AdrRef | undefined {
  const at = text.toLowerCase().search(/super[sc]eded[ \t]+by\b/);
  if (at < 0) return undefined;
  const rest = text.slice(at).replace(/^super[sc]eded[ \t]+by[ \t]*:?[ \t]*/i, '');
  return refsIn(linesOf(rest)[0] ?? '')[0];
}

/** Markdown links or bare `ADR-5` / `5.` references in a line. */
export function refsIn(line: string): AdrRef[] {
  const refs: AdrRef[] = [];
  // The target, then a title after a blank: one way to split the text, so nothing backtracks.
  const link = /\[([^[\]]*)\]\(([^()\s]*)(?:\s[^()]*)?\)/g;
  let m: RegExpExecArray | null;
  while ((m = link.exec(line))) {
    const target = m[2];
    const fromFile = /(?:^|\/)(\d+)[-_.][^/]*$/.exec(target)?.[1];
    const fromText = /(?:ADR[-\s]?|^)(\d+)\b/i.exec(m[1].trim())?.[1];
    const n = fromFile ?? fromText;
    refs.push({ number: n !== undefined ? Number(n) : undefined, target, text: stripInline(m[1]) });
  }
  if (!refs.length) {
    const r = refFromText(line);
    if (r) refs.push(r);
  }
  return refs;
}

export function refFromText(line: string): AdrRef | undefined {
  const bare = /(?:ADR[-\s]?|#)(\d+)|^\s*(\d+)\b/i.exec(line);
  if (!bare) return undefined;
  return { number: Number(bare[1] ?? bare[2]), text: line.trim() };
}
