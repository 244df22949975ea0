import { parseFrontMatter, splitSections, stripInline, summarize, type MarkdownSection } from '../docs/markdown';

export type AdrStatus = 'proposed' | 'accepted' | 'rejected' | 'deprecated' | 'superseded' | 'unknown';

/** A link from one decision to another: by number, by file, or both. */
export interface AdrRef {
  number?: number;
  /** Link target as written, relative to the ADR's folder. */
  target?: string;
  text: string;
}

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

const BULLET_FIELD = /^\s*([*-])\s+(Status|Date|Deciders|Technical Story|Consulted|Informed)\s*:\s*(.*)$/i;

/** Parses an ADR in the Nygard (adr-tools), MADR (front matter or bullets) or log4brains style. Never throws. */
export function parseAdr(fileName: string, text: string): ParsedAdr {
  const fm = parseFrontMatter(text);
  const data = fm?.data ?? {};
  const body = fm ? fm.body : text.replace(/^\uFEFF/, '');
  const startLine = fm ? fm.lineCount + 1 : 1;
  const sectionList = splitSections(body, startLine);
  const sections: Record<string, string> = {};
  for (const s of sectionList) if (s.heading && !(s.heading in sections)) sections[s.heading] = s.body;

  const h1 = sectionList.find((s) => s.level === 1);
  const rawTitle = str(data.title) ?? h1?.heading ?? sectionList.find((s) => s.level > 0)?.heading ?? fileName.replace(/\.md$/i, '');
  let titleStyle: ParsedAdr['titleStyle'] = 'plain';
  let titleNumber: number | undefined;
  let title = rawTitle.trim();
  let m = /^(\d+)\.\s+(.*)$/.exec(title);
  if (m) {
    titleStyle = 'numbered';
    titleNumber = Number(m[1]);
    title = m[2];
  } else if ((m = /^ADR[-\s]?(\d+)\s*[:.\-–—]\s*(.*)$/i.exec(title))) {
    titleStyle = 'adr-prefix';
    titleNumber = Number(m[1]);
    title = m[2];
  }
  const fileNumber = /^(?:adr[-_]?)?(\d+)[-_.]/i.exec(fileName)?.[1];
  const number = fileNumber !== undefined ? Number(fileNumber) : titleNumber;

  // Bullet fields (MADR 2, log4brains) live in the lines right under the title.
  const fields: Record<string, string> = {};
  let bullet: '*' | '-' | undefined;
  for (const line of body.split(/\r?\n/).slice(0, 40)) {
    const b = BULLET_FIELD.exec(line);
    if (b && !(b[2].toLowerCase() in fields)) {
      fields[b[2].toLowerCase()] = b[3].trim();
      bullet ??= b[1] as '*' | '-';
    }
  }
  const plainDate = /^\s*Date:\s*(.+)$/im.exec(body)?.[1];

  let statusText = str(data.status) ?? fields.status;
  let style: AdrStyle = str(data.status) !== undefined ? 'madr-frontmatter' : fields.status !== undefined ? 'madr-bullets' : 'nygard';
  if (statusText === undefined) {
    const key = Object.keys(sections).find((h) => /^status$/i.test(h));
    if (key) statusText = sections[key];
    else {
      const line = /^\s*Status:\s*(.+)$/im.exec(body)?.[1];
      if (line) statusText = line;
    }
  }
  if (!fm && fields.status === undefined && !Object.keys(sections).some((h) => /^status$/i.test(h)) && /^context and problem statement$/im.test(Object.keys(sections).join('\n'))) {
    style = 'madr-bullets';
  }
  statusText = (statusText ?? '').trim();
  // Titles of linked records ("Supersedes [3. Deprecated endpoints]") say nothing about this one's status.
  const status = classifyStatus(
    statusText
      .split(/\r?\n/)
      .filter((l) => !/^\s*(?:[*-]\s*)?supersedes\b/i.test(l))
      .join('\n')
      .replace(/\[[^\]]*\]\([^)]*\)/g, ''),
  );

  const supersededBy = findRef(statusText, /superseded\s+by\s*:?\s*/i) ?? (str(data['superseded-by']) ? refFromText(str(data['superseded-by'])!) : undefined);
  const supersedes: AdrRef[] = [];
  const supersedesRe = /(?:^|\n)\s*(?:[*-]\s*)?supersedes\s*:?\s*(.*)/gi;
  let sm: RegExpExecArray | null;
  const searchIn = statusText + '\n' + (sections['Links'] ?? '') + '\n' + body.split(/\r?\n/).slice(0, 30).join('\n');
  const seenSup = new Set<string>();
  while ((sm = supersedesRe.exec(searchIn))) {
    for (const r of refsIn(sm[1])) {
      const k = `${r.number}|${r.target}`;
      if (!seenSup.has(k)) {
        seenSup.add(k);
        supersedes.push(r);
      }
    }
  }

  const date = parseDate(str(data.date) ?? fields.date ?? plainDate);
  const deciders = listOf(data.deciders ?? fields.deciders);
  const technicalStory = fields['technical story'] ?? /^\s*Technical Story\s*:\s*(.+)$/im.exec(body)?.[1]?.trim() ?? str(data['technical-story']);
  const decisionKey = Object.keys(sections).find((h) => /^decision( outcome)?$/i.test(h)) ?? Object.keys(sections).find((h) => /decision/i.test(h) && !/driver/i.test(h));
  const contextKey = Object.keys(sections).find((h) => /context/i.test(h));
  const summary = summarize(sections[decisionKey ?? ''] || sections[contextKey ?? ''] || stripFields(body)) || title;

  return {
    number,
    title: stripInline(title),
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

export function classifyStatus(text: string): AdrStatus {
  const t = text.toLowerCase();
  if (/superseded|replaced by/.test(t)) return 'superseded';
  if (/deprecated|obsolete|retired/.test(t)) return 'deprecated';
  if (/rejected|declined|abandoned/.test(t)) return 'rejected';
  if (/accepted|approved|adopted|decided|done/.test(t)) return 'accepted';
  if (/proposed|draft|open|in review|pending|wip/.test(t)) return 'proposed';
  return 'unknown';
}

function findRef(text: string, lead: RegExp): AdrRef | undefined {
  const m = new RegExp(lead.source + '(.*)', 'i').exec(text);
  if (!m) return undefined;
  return refsIn(m[1])[0];
}

/** Markdown links or bare `ADR-5` / `5.` references in a line. */
function refsIn(line: string): AdrRef[] {
  const refs: AdrRef[] = [];
  const link = /\[([^\]]*)\]\(([^)\s]*)[^)]*\)/g;
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

function refFromText(line: string): AdrRef | undefined {
  const bare = /(?:ADR[-\s]?|#)(\d+)|^\s*(\d+)\b/i.exec(line);
  if (!bare) return undefined;
  return { number: Number(bare[1] ?? bare[2]), text: line.trim() };
}

function str(v: string | string[] | undefined): string | undefined {
  if (v === undefined) return undefined;
  return Array.isArray(v) ? v.join(', ') : v;
}

function listOf(v: string | string[] | undefined): string[] {
  if (v === undefined) return [];
  if (Array.isArray(v)) return v;
  return v.split(/[,;]/).map((s) => stripInline(s)).filter(Boolean);
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

function stripFields(body: string): string {
  return body
    .split(/\r?\n/)
    .filter((l) => !BULLET_FIELD.test(l) && !/^\s*Date:/i.test(l) && !/^\s*#/.test(l))
    .join('\n');
}
