import {
  linesOf,
  parseFrontMatter,
  withoutHtmlComments,
  splitSections,
  stripInline,
  summarize,
  type MarkdownSection,
} from '../docs/markdown';
import { splitRstSections } from '../docs/restructuredText';
import { trimEndOf } from '../../../shared/text';
import {
  classifyStatus,
  LEADING_PICTOGRAPHS,
  lastStatusOf,
  loneStatusLine,
  statusTag,
  type AdrStatus,
} from './adrStatus';
import {
  BULLET_FIELD,
  fieldName,
  fieldOf,
  isStatusHeading,
  PLAIN_FIELD,
  STATUS_NAMES,
  stripFields,
  tableFields,
} from './adrFields';
import { findSupersededBy, refFromText, refsIn, supersessionNote, type AdrRef } from './adrRefs';

export { classifyStatus, type AdrStatus };

/** The markdown conventions an ADR can follow; the writer copies the most recent one's. */
export type AdrStyle = 'nygard' | 'madr-frontmatter' | 'madr-bullets';

export interface ParsedAdr {
  number?: number;
  title: string;
  status: AdrStatus;
  /** Status text as written ("Superseded by [3. Use X](0003-use-x.md)"). */
  statusText: string;
  supersededBy?: AdrRef;
  supersedes: AdrRef[];
  /** Unix ms. */
  date?: number;
  deciders: string[];
  technicalStory?: string;
  /** Heading → text, first occurrence wins. */
  sections: Record<string, string>;
  sectionList: MarkdownSection[];
  body: string;
  style: AdrStyle;
  /** Form of the H1: `# 3. Title`, `# ADR-3: Title` or a plain title. */
  titleStyle: 'numbered' | 'adr-prefix' | 'plain';
  /** Bullet character of `* Status:` lines, when present. */
  bullet?: '*' | '-';
  summary: string;
}

const SUPERSEDES_LINE = /^[ \t]*(?:[*-][ \t]*)?supersedes\b[ \t]*:?[ \t]*(.*)$/i;
/** `3. Title`, `0003 Title` (reStructuredText numbered titles). */
const NUMBERED_TITLE = /^(\d+)[.)]?[ \t]+(\S.*)$/;
/** `ADR-3: Title`, `ADR 03) Title`, `ADR: Title`. */
const ADR_PREFIX_TITLE = /^ADR[- ]?#?(\d*)[ \t]*[:.)\-–—][ \t]*(.*)$/i;
/** `ARC-003: Title`, `RFC 12 - Title`, `ADR Arch-004 — Title`: a series label, taken off when the file name is in the same series. */
const SERIES_TITLE = /^(?:ADR[- ]+)?([a-z]{2,8})[-_ ]?#?(\d+)(?=[ \t:.)\-–—])(.*)$/i;
/** `Decision Record: Message concept`, `Architecture Decision Record - Use Kafka`: what the file is, said before the title. */
const RECORD_KIND_PREFIX =
  /^(?:(?:Architecture|Architectural|Technical|Design)[ \t]+)?Decision[ \t]+Record[ \t]*[:\-–—][ \t]*(?=\S)/i;
/** `[ADR-001] Title`, `[0007] Title`: a label in brackets before the title. */
const BRACKETED_LABEL_TITLE = /^\[(?:ADR[- ]?#?)?(\d+)\](.*)$/i;
/** What separates a label from its title: blanks around one of `: . ) - – —`. */
const LABEL_SEPARATOR = /^[ \t]*[:.)\-–—]?[ \t]*/;

/**
 * The number a record's file name carries, as written: `0003` of `0003-use-x.md` and `adr-3-x.md`,
 * `032` of `2025-02-12_032-x.md` (numbered after its date), `001` of `API-001-x.md` (a series
 * prefix). None for a date alone: `2021-04-run-website.md` is named by its month.
 */
export function fileNumberText(fileName: string): string | undefined {
  const undated = fileName.replace(/^\d{4}-\d{2}-\d{2}[-_](?=\d)/, '');
  if (/^\d{4}-\d{2}(?:-\d{2})?[-_]/.test(undated)) return undefined;
  return /^(?:[a-z]{2,8}[-_]?)?(\d+)[-_.]/i.exec(undated)?.[1];
}

/** A record's file name without its date, series, number and extension: `use-haskell` of `2021-06-05_001-use-haskell.md`. */
export function fileSlug(fileName: string): string {
  return fileName
    .replace(/\.[^.]+$/, '')
    .replace(/^\d{4}-\d{2}-\d{2}[-_](?=\d)/, '')
    .replace(/^(?:[a-z]{2,8}[-_]?)?\d+[-_.]/i, '');
}

/**
 * The series a record's file name numbers it in, upper case: `API` of `API-008-x.md`, `RFC` of
 * `rfc_12-x.md`. None for plain numbers and for `adr-3-x.md` (every record is an ADR).
 */
export function fileSeries(fileName: string): string | undefined {
  const series = /^([a-z]{2,8})[-_]?\d+[-_.]/i.exec(fileName)?.[1].toUpperCase();
  return series === 'ADR' ? undefined : series;
}

/** Parses an ADR in the Nygard (adr-tools), MADR (front matter or bullets), log4brains or reStructuredText style. Never throws. */
// eslint-disable-next-line max-lines-per-function, complexity -- one case per ADR style and section form
export function parseAdr(fileName: string, text: string): ParsedAdr {
  const rst = /\.rst$/i.test(fileName);
  const fm = rst ? undefined : parseFrontMatter(text);
  const data = fm?.data ?? {};
  const clean = withoutHtmlComments(fm ? fm.body : text.startsWith('\uFEFF') ? text.slice(1) : text);
  // AsciiDoc titles (`= Title`, `== Context`) read as markdown headings; the rest is prose to both.
  const body = /\.adoc$/i.test(fileName) ? asciidocHeadings(clean) : clean;
  const startLine = fm ? fm.lineCount + 1 : 1;
  const sectionList = rst ? splitRstSections(body, startLine) : splitSections(body, startLine);
  const sections: Record<string, string> = {};
  for (const s of sectionList) if (s.heading && !(s.heading in sections)) sections[s.heading] = s.body;
  const headings = Object.keys(sections);

  const h1 = sectionList.find((s) => s.level === 1);
  // An empty `title:` says nothing: the first heading names the record then.
  const heading = h1?.heading || sectionList.find((s) => s.level > 0)?.heading;
  const rawTitle =
    str(data.title)?.trim() || (heading && rst ? rstInline(heading) : heading) || fileName.replace(/\.[^.]+$/, '');
  let titleStyle: ParsedAdr['titleStyle'] = 'plain';
  let titleNumber: number | undefined;
  // `# 📄 ADR-005: Thin CLI` reads as `# ADR-005: Thin CLI`.
  let title = rawTitle.replace(LEADING_PICTOGRAPHS, '').trim().replace(RECORD_KIND_PREFIX, '');
  let m = NUMBERED_TITLE.exec(title);
  const bracketed = BRACKETED_LABEL_TITLE.exec(title);
  const afterLabel = bracketed?.[2].replace(LABEL_SEPARATOR, '');
  if (bracketed && afterLabel) {
    // `[ADR-001] Path Sequence Format`
    titleStyle = 'adr-prefix';
    titleNumber = Number(bracketed[1]);
    title = afterLabel;
  } else if (m && (/^\d+[.)]/.test(title) || rst)) {
    titleStyle = 'numbered';
    titleNumber = Number(m[1]);
    title = m[2];
  } else if ((m = ADR_PREFIX_TITLE.exec(title)) && m[2].trim()) {
    titleStyle = 'adr-prefix';
    titleNumber = m[1] ? Number(m[1]) : undefined;
    title = m[2];
  } else if (
    (m = SERIES_TITLE.exec(title)) &&
    m[1].toUpperCase() === fileSeries(fileName) &&
    m[3].replace(LABEL_SEPARATOR, '').trim()
  ) {
    // `# ARC-003: gRPC conventions` in `ARC-003-….md`: the series label is not part of what the record is about.
    titleNumber = Number(m[2]);
    title = m[3].replace(LABEL_SEPARATOR, '');
  }
  // `2021-04-run-website.md` is named by its month, not numbered 2021: many records share the year.
  title = unbracketed(title, fileName);
  const fileNumber = fileNumberText(fileName);
  const number = fileNumber !== undefined ? Number(fileNumber) : titleNumber;

  // Bullet fields (MADR 2, log4brains) live in the lines right under the title.
  const lines = linesOf(body);
  const fields: Record<string, string> = {};
  let bullet: '*' | '-' | undefined;
  for (const line of lines.slice(0, 40)) {
    const b = BULLET_FIELD.exec(line);
    const key = b ? fieldName(b[2]) : '';
    if (b && !(key in fields)) {
      fields[key] = b[3].trim();
      bullet ??= b[1] as '*' | '-';
    }
  }
  const plain: Record<string, string> = tableFields(lines.slice(0, 40));
  for (const line of lines) {
    const f = PLAIN_FIELD.exec(line);
    if (f && f[2].includes(':') && !(fieldName(f[1]) in plain)) plain[fieldName(f[1])] = trimEndOf(f[3], '*').trim();
  }

  const fmStatus = str(data.status ?? data.statut ?? data.estado ?? data.stato);
  let statusText: string | undefined =
    fmStatus ?? lastStatusOf(data.statushistory ?? data['status-history'] ?? data.status_history) ?? fields.status;
  let style: AdrStyle =
    fmStatus !== undefined ? 'madr-frontmatter' : fields.status !== undefined ? 'madr-bullets' : 'nygard';
  if (statusText === undefined) {
    const key = headings.find(isStatusHeading);
    statusText = key ? sections[key] : plain.status;
  }
  if (
    !fm &&
    fields.status === undefined &&
    !headings.some(isStatusHeading) &&
    headings.some((h) => h.toLowerCase() === 'context and problem statement')
  ) {
    style = 'madr-bullets';
  }
  // Docusaurus blog records tag their status (`tags: [Accepted]`); a badge or a lone word under the title says it too.
  statusText ??= statusTag(data.tags) ?? loneStatusLine(h1 ? h1.body : lines.slice(0, 6).join('\n'));
  statusText = (statusText ?? '').trim();
  // No status anywhere, but a note at the top says a later record replaced this one.
  if (!statusText) statusText = supersessionNote(lines.slice(0, 30)) ?? '';
  // Titles of linked records ("Supersedes [3. Deprecated endpoints]") say nothing about this one's status.
  let status = classifyStatus(
    linesOf(statusText)
      .filter((l) => !SUPERSEDES_LINE.test(l))
      .join('\n')
      .replace(/\[[^[\]]*\]\([^()]*\)/g, ''),
  );
  // `**Status:** Accepted` left as it was, under a note that a later record replaced this one: the note is newer.
  if (status === 'accepted' || status === 'unknown') {
    const firstSection = lines.findIndex((l) => /^##[ \t]/.test(l));
    const note = supersessionNote(lines.slice(0, firstSection < 0 ? 30 : Math.min(firstSection, 30)));
    if (note) {
      status = 'superseded';
      statusText = `${note} (${statusText})`;
    }
  }

  const supersededBy =
    findSupersededBy(statusText) ?? (str(data['superseded-by']) ? refFromText(str(data['superseded-by'])!) : undefined);
  const supersedes: AdrRef[] = [];
  const seenSup = new Set<string>();
  for (const line of [...linesOf(statusText), ...linesOf(sections['Links'] ?? ''), ...lines.slice(0, 30)]) {
    const sm = SUPERSEDES_LINE.exec(line);
    if (!sm) continue;
    for (const r of refsIn(sm[1])) {
      const k = `${r.number}|${r.target}`;
      if (!seenSup.has(k)) {
        seenSup.add(k);
        supersedes.push(r);
      }
    }
  }

  const date = parseDate(str(data.date) ?? fields.date ?? plain.date);
  const deciders = listOf(data.deciders ?? fields.deciders);
  const technicalStory = fields['technical story'] ?? plain['technical story'] ?? str(data['technical-story']);
  const decisionKey =
    headings.find((h) => /^decision(?: outcome)?$/i.test(h)) ??
    headings.find((h) => /decision/i.test(h) && !/driver/i.test(h));
  const contextKey = headings.find((h) => /context/i.test(h));
  const summary = summarize(sections[decisionKey ?? ''] || sections[contextKey ?? ''] || stripFields(lines)) || title;

  return {
    number,
    title: stripInline(title, true),
    status,
    statusText,
    supersededBy,
    supersedes,
    date,
    deciders,
    technicalStory,
    sections,
    sectionList,
    body,
    style,
    titleStyle,
    bullet,
    summary,
  };
}

/** `== Context` → `## Context`, line by line; everything else is left as it is. */
function asciidocHeadings(text: string): string {
  return linesOf(text)
    .map((line) => {
      let n = 0;
      while (line[n] === '=') n++;
      return n >= 1 && n <= 6 && line[n] === ' ' ? '#'.repeat(n) + line.slice(n) : line;
    })
    .join('\n');
}

/**
 * `# [Gestion des Dates]`: a title left in a template's brackets. Without the brackets when it
 * shares a word with the file name; otherwise it is the template's placeholder (`[short title of
 * solved problem and solution]`) and the file name says more.
 */
function unbracketed(title: string, fileName: string): string {
  const m = /^\[([^[\]]+)\]$/.exec(title);
  if (!m) return title;
  const slug = fileName.replace(/\.[^.]+$/, '').replace(/^(?:adr[-_ ]?)?\d+[-_. ]*/i, '');
  const words = (t: string) =>
    t
      .toLowerCase()
      .split(/[^\p{L}\p{N}]+/u)
      .filter((w) => w.length > 2);
  const named = new Set(words(slug));
  if (!named.size || words(m[1]).some((w) => named.has(w))) return m[1].trim();
  const plain = slug.replace(/[-_]+/g, ' ').trim();
  return plain.charAt(0).toUpperCase() + plain.slice(1);
}

function str(v: string | string[] | undefined): string | undefined {
  if (v === undefined) return undefined;
  return Array.isArray(v) ? v.join(', ') : v;
}

function listOf(v: string | string[] | undefined): string[] {
  if (v === undefined) return [];
  if (Array.isArray(v)) return v;
  return v
    .split(/[,;]/)
    .map((s) => stripInline(s))
    .filter(Boolean);
}

/** Parses `2024-01-02` (as UTC) or any Date-parsable string; undefined when not a date. */
export function parseDate(s: string | undefined): number | undefined {
  if (!s) return undefined;
  const t = s.trim().replace(/^["']|["']$/g, '');
  const iso = /^(\d{4})-(\d{2})-(\d{2})$/.exec(t);
  if (iso) return Date.UTC(Number(iso[1]), Number(iso[2]) - 1, Number(iso[3]));
  const ms = Date.parse(t);
  return Number.isFinite(ms) ? ms : undefined;
}

/** One record of a decision log: a file that keeps several records, each under a numbered heading. */
export interface LogEntry {
  number?: number;
  /** The number as written (`9`, `001`), when the entry has one. */
  label?: string;
  title: string;
  status: AdrStatus;
  /** 1-based lines of its heading and of its last line. */
  line: number;
  endLine: number;
  /** Its own sections: the entry's heading first, then the headings under it. */
  sections: MarkdownSection[];
  summary: string;
}

/** `DEC 12`, `ADR-3`: an entry's number written under its heading. */
const ENTRY_LABEL = /\b(?:DEC|ADR)[- #]?(\d{1,4})\b/i;
/** Longest heading read as an entry's: a longer one is prose, not a title. */
const MAX_ENTRY_HEADING = 300;
/** `9. Title`, `ADR-001: Title`, `ADR 3 - Title`, `ADR-12 Title`; not `4.1 Title` (a numbered section). */
const ENTRY_HEADING = /^(ADR[- ]?#?)?(\d{1,4})([.):](?!\d)|[ \t]+[-–—:]|[ \t])[ \t]*(\S.*)$/i;

/**
 * The records of a decision log: two or more numbered headings (`### 9. Title`, `## ADR-3: Title`),
 * each shaped like a record under it (a status, or Context and Decision headings). Empty for an
 * ordinary record.
 */
export function logEntries(sectionList: readonly MarkdownSection[]): LogEntry[] {
  const entries: LogEntry[] = [];
  for (let i = 0; i < sectionList.length; i++) {
    const s = sectionList[i];
    if (s.level < 1 || s.heading.length > MAX_ENTRY_HEADING) continue;
    let j = i + 1;
    while (j < sectionList.length && sectionList[j].level > s.level) j++;
    const entry = entryOf(sectionList.slice(i, j));
    if (!entry) continue;
    entries.push(entry);
    // Numbered headings inside an entry (its steps) are part of it.
    i = j - 1;
  }
  return entries.length >= 2 ? entries : [];
}

// eslint-disable-next-line complexity -- one case per log entry field
function entryOf(block: MarkdownSection[]): LogEntry | undefined {
  const head = block[0];
  const m = ENTRY_HEADING.exec(head.heading);
  // `2024 roadmap` is not numbered: a bare space after the number counts only after `ADR`.
  const numbered = m !== null && !((m[3] === ' ' || m[3] === '\t') && !m[1]) ? m : undefined;
  const names = block.slice(1).map((s) => s.heading.toLowerCase());
  const has = (list: readonly string[], word: string) => list.some((n) => n.includes(word));
  if (!numbered) {
    // An unnumbered heading is a record only with Context and Decision right under it
    // (`## 🚀 Adopt x` over `### Context`, `### Decision`); a page's title has its records under it.
    const children = block.filter((s) => s.level === head.level + 1).map((s) => s.heading.toLowerCase());
    if (!has(children, 'context') || !has(children, 'decision')) return undefined;
  }
  const statusSection = block.slice(1).find((s) => isStatusHeading(s.heading));
  let statusText = statusSection?.body;
  if (statusText === undefined) {
    for (const line of linesOf(head.body)) {
      const plain = PLAIN_FIELD.exec(line);
      const field =
        plain && plain[2].includes(':') ? { name: plain[1], value: plain[3] } : fieldOf(BULLET_FIELD.exec(line));
      if (field && STATUS_NAMES.has(field.name.toLowerCase())) {
        statusText = field.value;
        break;
      }
    }
  }
  const shaped = statusText !== undefined || (has(names, 'context') && has(names, 'decision'));
  if (!shaped) return undefined;
  // Unnumbered, it may carry its number on the line below: `*DEC 12 — 2025-11-24*`.
  const label = numbered ? numbered[2] : ENTRY_LABEL.exec(linesOf(head.body).slice(0, 3).join('\n'))?.[1];
  const title = stripInline((numbered ? numbered[4] : head.heading).replace(LEADING_PICTOGRAPHS, '').trim(), true);
  const section = (word: string) => block.slice(1).find((s) => s.heading.toLowerCase().includes(word))?.body;
  return {
    number: label !== undefined ? Number(label) : undefined,
    label,
    title,
    status: statusText === undefined ? 'unknown' : classifyStatus(trimEndOf(statusText, '*')),
    line: head.line,
    endLine: block[block.length - 1].endLine,
    sections: block,
    summary: summarize(section('decision') || section('context') || stripFields(linesOf(head.body))) || title,
  };
}

/**
 * A reStructuredText title as it reads: an inline literal (``spend_limit``) as inline code, and a
 * character escaped with a backslash (`\0018`, which keeps a number from starting a list) as itself.
 */
function rstInline(title: string): string {
  return title.replace(/``([^`]{1,200})``/g, '`$1`').replace(/\\(.)/g, '$1');
}
