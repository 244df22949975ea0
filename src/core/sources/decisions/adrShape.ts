import { atxHeading, linesOf, parseFrontMatter } from '../docs/markdown';
import { classifyStatus, plainHeading } from './adrStatus';

/** What a file's name and first lines say about whether it is a decision record. */
export interface AdrShape {
  /** `0003-use-x.md`, `adr-12-x.md`, `20200924-x.md`. */
  numbered: boolean;
  /** Record signals found: a status field or line, Context / Decision / Consequences / Considered Options headings. */
  content: number;
  /** Front matter with a `title:`. */
  titled: boolean;
  /** The file says it is another kind of page: `type: Report`, or a title ending in "Roadmap", "Meeting Minutes" or "Implementation Plan" without a record's sections. */
  otherKind: boolean;
}

/** Kinds of pages that sit beside records, dated and with a status, but decide nothing (`type: Report`). */
const OTHER_KIND =
  /^(?:reports?|roadmaps?|minutes|meetings?|meeting notes|retrospectives?|retros?|post-?mortems?|runbooks?|guides?|tutorials?|how-?tos?|status updates?|plans?)$/i;
/** The same said by a title's last word ("Infrastructure Status Report", "Roadmap 2026 Q1" is not caught, "Q1 Roadmap" and "Implementation Plan" are). */
const OTHER_KIND_TITLE = /\b(?:report|roadmap|minutes|retrospective|post-?mortem|plan)$/i;

const NUMBERED_NAME = /^(?:adr[-_ ]?)?\d+[-_. ]/i;
/** `Status:`, `**Status**:`, `:Status:`, `- Status :`; one run of blanks only, so nothing can backtrack over it. */
const STATUS_LINE = /^[ \t]*(?:[*-][ \t]+)?[*:]{0,2}(?:status|statut|estado|stato)(?:\*\*)?[ \t]*:/i;
/** `| Status | Accepted |`, `| **Status:** | …`: the status cell of a metadata table. */
const STATUS_CELL =
  /^[ \t]*\|[ \t]*(?:\*\*)?(?:status|statut|estado|stato)(?:\*\*)?[ \t]*(?::[ \t]*)?(?:\*\*[ \t]*)?\|/i;
const RECORD_HEADINGS: readonly (readonly string[])[] = [
  ['status', 'statut', 'estado', 'stato'],
  [
    'context',
    'context and problem statement',
    'background',
    'problem',
    'problem statement',
    'contexte',
    'contexto',
    'kontext',
    'contesto',
  ],
  [
    'decision',
    'decision outcome',
    'the decision',
    'decisions',
    'décision',
    'decisión',
    'decisão',
    'entscheidung',
    'decisione',
  ],
  [
    'consequences',
    'positive consequences',
    'negative consequences',
    'implications',
    'conséquences',
    'consecuencias',
    'consequências',
    'konsequenzen',
    'conseguenze',
  ],
  ['considered options', 'options', 'decision drivers', 'alternatives', 'alternatives considered'],
];

/** Tells how much a file looks like a decision record from its name and the start of its text. */
export function adrShapeOf(fileName: string, head: string): AdrShape {
  const fm = parseFrontMatter(head);
  const found = new Set<number>();
  // A status field counts when it holds a record's status: doc sites also say `status: beta`.
  if (fm && typeof fm.data.status === 'string' && classifyStatus(fm.data.status) !== 'unknown') found.add(0);
  const lines = linesOf(fm ? fm.body : head);
  let titleSeen = !!fm && typeof fm.data.title === 'string';
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (i < 40 && STATUS_LINE.test(line) && classifyStatus(line.slice(line.indexOf(':') + 1)) !== 'unknown')
      found.add(0);
    const cell = i < 40 ? STATUS_CELL.exec(line) : null;
    if (cell && classifyStatus(line.slice(cell[0].length).split('|')[0]) !== 'unknown') found.add(0);
    const heading = headingText(line, lines[i + 1]);
    if (heading === undefined) continue;
    // The first heading is the title (a file named DECISIONS.md may well be titled "Decisions").
    if (!titleSeen) {
      titleSeen = true;
      continue;
    }
    const h = heading.toLowerCase();
    RECORD_HEADINGS.forEach((names, k) => {
      if (names.includes(h)) found.add(k);
    });
  }
  const kind = fm && [fm.data.type, fm.data.kind, fm.data.category, fm.data.doctype].find((v) => typeof v === 'string');
  const title = fm && typeof fm.data.title === 'string' ? fm.data.title : firstTitle(lines);
  const otherKind =
    (typeof kind === 'string' && OTHER_KIND.test(kind.trim())) ||
    (found.size < 2 && title !== undefined && OTHER_KIND_TITLE.test(title.trim()));
  return {
    numbered: NUMBERED_NAME.test(fileName),
    content: found.size,
    titled: !!fm && typeof fm.data.title === 'string',
    otherKind,
  };
}

function firstTitle(lines: readonly string[]): string | undefined {
  for (let i = 0; i < lines.length && i < 40; i++) {
    const h = headingText(lines[i], lines[i + 1]);
    if (h !== undefined) return h;
  }
  return undefined;
}

/** The text of a markdown ATX heading, an underlined (setext / reStructuredText) title, or a bold line. */
function headingText(line: string, next: string | undefined): string | undefined {
  const atx = atxHeading(line);
  if (atx) return clean(atx.text);
  const t = line.trim();
  if (!t) return undefined;
  if (next !== undefined && /^([=\-~^"'`#*+:._])\1{2,}[ \t]*$/.test(next)) return clean(t);
  if (t.startsWith('**') && t.endsWith('**') && t.length > 4) return clean(t.slice(2, -2));
  return undefined;
}

function clean(heading: string): string {
  let end = heading.length;
  while (end > 0 && (heading[end - 1] === ':' || heading[end - 1] === '*')) end--;
  return plainHeading(heading.slice(0, end));
}
