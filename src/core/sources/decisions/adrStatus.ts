import { linesOf } from '../docs/markdown';
import { trimEndOf } from '../../../shared/text';

/** What a record says of itself: proposed, accepted, or no longer in force. */
export type AdrStatus = 'proposed' | 'accepted' | 'rejected' | 'deprecated' | 'superseded' | 'unknown';

/** Emoji and pictographs before a title's words. */
export const LEADING_PICTOGRAPHS = /^(?:[\p{Extended_Pictographic}\p{Emoji_Presentation}\uFE0F\u200D]|\s)+/u;

/** A heading's words without the emoji before them or a colon after them: `📌 Status:` → `Status`. */
export function plainHeading(heading: string): string {
  return trimEndOf(heading.replace(LEADING_PICTOGRAPHS, '').trim(), ':').trim();
}

/** The status a record's words give, in English and five other languages. */
export function classifyStatus(text: string): AdrStatus {
  const t = text.toLowerCase();
  // English first, then the words of records kept in French, Spanish, German, Italian and Portuguese.
  if (/superseded|superceded|replaced by|remplacé|reemplazad|ersetzt|sostituit|substituíd/.test(t)) return 'superseded';
  if (/deprecated|obsol|retired|defunct|outdated|inactive|sunset|déprécié|deprecad|veraltet|veralte/.test(t))
    return 'deprecated';
  if (
    /rejected|declined|abandoned|withdrawn|not accepted|won't do|wontfix|rejeté|refusé|rechazad|abgelehnt|rifiutat|rejeitad/.test(
      t,
    )
  )
    return 'rejected';
  if (
    /accept|approved|adopted|decided|done|\bactive\b|implemented|in effect|agreed|ratified|enacted|approuvé|adopté|validé|aceptad|aprobad|akzeptiert|angenommen|accettat|aprovad|aceit/.test(
      t,
    )
  )
    return 'accepted';
  if (
    /propos(?:ed|al)|draft|open|review|pending|\bwip\b|work in progress|placeholder|speculative|under discussion|under consideration|proposé|brouillon|propuest|borrador|vorgeschlagen|entwurf|propost|bozza/.test(
      t,
    )
  )
    return 'proposed';
  return 'unknown';
}

/** Words that are a status on their own (`Accepted`), for tags and badges. */
const STATUS_WORD =
  /^(?:accepted|approved|adopted|decided|implemented|proposed|draft|superseded|superceded|deprecated|obsolete|rejected|declined|withdrawn)$/i;

const EMPHASIS: ReadonlySet<string> = new Set(['`', '*', '_']);

/** The status among front-matter tags: `tags: [Accepted]`. */
export function statusTag(tags: string | string[] | undefined): string | undefined {
  return (Array.isArray(tags) ? tags : tags === undefined ? [] : [tags]).find((t) => STATUS_WORD.test(t.trim()));
}

/**
 * A status said alone on the first line under the title: `:bdg-success:\`Accepted\``, `**Accepted**`,
 * `_Proposed_`, a badge image `![Accepted](…)`. Any other first line says nothing.
 */
export function loneStatusLine(text: string): string | undefined {
  const first = linesOf(text.slice(0, 2000)).find((l) => l.trim() !== '');
  if (!first || first.length > 200) return undefined;
  const word = first
    .trim()
    .replace(/^:[\w-]+:/, '')
    .replace(/^!\[([^[\]]*)\]\([^()]*\)$/, '$1');
  // `**Accepted**`, `` `Accepted` ``, `_Accepted_`: emphasis and code marks around the word.
  let start = 0;
  let end = word.length;
  while (start < end && EMPHASIS.has(word[start])) start++;
  while (end > start && EMPHASIS.has(word[end - 1])) end--;
  const bare = word.slice(start, end).trim();
  return STATUS_WORD.test(bare) ? bare : undefined;
}

/** The newest entry of a front-matter status history (`statusHistory: [- status: decided, - status: superseded]`). */
export function lastStatusOf(history: string | string[] | undefined): string | undefined {
  if (!Array.isArray(history)) return undefined;
  for (let i = history.length - 1; i >= 0; i--) {
    const m = /^status[ \t]*:(.*)$/i.exec(history[i].trim());
    if (m) return m[1].trim();
  }
  return undefined;
}
