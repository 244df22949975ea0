/**
 * Small markdown utilities shared by the docs and decisions sources: sections, front matter,
 * summaries. Repository text is hostile input, so every scan here is a single pass over each line
 * with index loops; the few regular expressions left are linear by construction (no two adjacent
 * quantifiers can match the same character) or run on text cut to a bounded length.
 */

export interface MarkdownSection {
  heading: string;
  level: number;
  /** 1-based line of the heading (1 for text before the first heading). */
  line: number;
  /** 1-based last line of the section. */
  endLine: number;
  /** Text under the heading, up to the next heading of any level. */
  body: string;
}

/** Longest text that inline clean-up and summaries look at; longer text is cut first. */
const INLINE_LIMIT = 4000;

const isBlank = (c: string | undefined) => c === ' ' || c === '\t';

/** Lines of a text, with `\n` or `\r\n` endings. */
export function linesOf(text: string): string[] {
  return text.split('\n').map((l) => (l.endsWith('\r') ? l.slice(0, -1) : l));
}

/**
 * The text with HTML comments (`<!-- … -->`) blanked out: they are invisible once rendered, and
 * record templates leave their guidance there. Line breaks are kept, so line numbers still hold.
 */
export function withoutHtmlComments(text: string): string {
  let at = text.indexOf('<!--');
  if (at < 0) return text;
  let out = '';
  let from = 0;
  while (at >= 0) {
    const end = text.indexOf('-->', at + 4);
    const stop = end < 0 ? text.length : end + 3;
    out += text.slice(from, at) + text.slice(at, stop).replace(/[^\n]/g, '');
    from = stop;
    at = end < 0 ? -1 : text.indexOf('<!--', stop);
  }
  return out + text.slice(from);
}

/** Leading spaces of a line, or -1 when there are more than three (indented code, not markdown structure). */
function indentOf(line: string): number {
  let i = 0;
  while (i < line.length && line[i] === ' ') i++;
  return i > 3 ? -1 : i;
}

/** The fence character and run length when the line opens or closes a code fence (``` or ~~~). */
function fenceOf(line: string): { char: string; length: number } | undefined {
  const i = indentOf(line);
  if (i < 0) return undefined;
  const c = line[i];
  if (c !== '`' && c !== '~') return undefined;
  let n = 0;
  while (line[i + n] === c) n++;
  return n >= 3 ? { char: c, length: n } : undefined;
}

/** An ATX heading (`## Title ##`): its level and text, or undefined. */
export function atxHeading(line: string): { level: number; text: string } | undefined {
  const i = indentOf(line);
  if (i < 0) return undefined;
  let level = 0;
  while (line[i + level] === '#') level++;
  if (level < 1 || level > 6) return undefined;
  const after = i + level;
  if (after < line.length && !isBlank(line[after])) return undefined;
  let end = line.length;
  while (end > after && isBlank(line[end - 1])) end--;
  // An optional closing run of #s, when blank-separated from the text (or the whole text).
  let j = end;
  while (j > after && line[j - 1] === '#') j--;
  if (j < end && (j === after || isBlank(line[j - 1]))) end = j;
  let start = after;
  while (start < end && isBlank(line[start])) start++;
  while (end > start && isBlank(line[end - 1])) end--;
  return { level, text: line.slice(start, end) };
}

/** `===` (level 1) or `---` (level 2) under a paragraph line makes it a setext heading. */
function setextLevel(line: string): number {
  const i = indentOf(line);
  if (i < 0) return 0;
  const c = line[i];
  if (c !== '=' && c !== '-') return 0;
  let j = i;
  while (line[j] === c) j++;
  while (isBlank(line[j])) j++;
  return j === line.length ? (c === '=' ? 1 : 2) : 0;
}

/** A list item, quote or table row: a line that cannot be a setext heading's text. */
function isBlockMarker(line: string): boolean {
  let i = 0;
  while (isBlank(line[i])) i++;
  const c = line[i];
  if ((c === '-' || c === '*' || c === '+') && (isBlank(line[i + 1]) || i + 1 === line.length)) return true;
  if (c === '>' || c === '|') return true;
  let d = i;
  while (line[d] >= '0' && line[d] <= '9') d++;
  return d > i && (line[d] === '.' || line[d] === ')') && (isBlank(line[d + 1]) || d + 1 === line.length);
}

/** Splits markdown into sections at ATX and setext headings, ignoring headings inside code fences. */
export function splitSections(text: string, startLine = 1): MarkdownSection[] {
  const lines = linesOf(text);
  const sections: MarkdownSection[] = [];
  let current: MarkdownSection = { heading: '', level: 0, line: startLine, endLine: startLine, body: '' };
  let bodyLines: string[] = [];
  let fence: { char: string; length: number } | undefined;
  const close = (endIdx: number) => {
    current.body = bodyLines.join('\n').trim();
    current.endLine = Math.max(current.line, startLine + endIdx);
    if (current.level > 0 || current.body) sections.push(current);
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const f = fenceOf(line);
    if (f) {
      if (!fence) fence = f;
      else if (f.char === fence.char && f.length >= fence.length) fence = undefined;
      bodyLines.push(line);
      continue;
    }
    if (fence) {
      bodyLines.push(line);
      continue;
    }
    const atx = atxHeading(line);
    const next = lines[i + 1];
    const setext =
      !atx && line.trim() !== '' && next !== undefined && indentOf(line) >= 0 && !isBlockMarker(line)
        ? setextLevel(next)
        : 0;
    if (atx || setext) {
      close(i - 1);
      const heading = atx ? atx.text : line.trim();
      current = {
        heading: stripInline(heading, true),
        level: atx ? atx.level : setext,
        line: startLine + i,
        endLine: startLine + i,
        body: '',
      };
      bodyLines = [];
      if (setext) i++;
      continue;
    }
    bodyLines.push(line);
  }
  close(lines.length - 1);
  return sections;
}

export interface FrontMatter {
  data: Record<string, string | string[]>;
  /** Lines taken by the front matter block, including both fences. */
  lineCount: number;
  body: string;
}

const FRONT_MATTER_KEY = /^([A-Za-z0-9_-]+)[ \t]*:(.*)$/;
/** `|`, `>`, `|-`, `>+`, `|2`: a YAML block scalar's header. */
const BLOCK_SCALAR = /^[|>][+-]?\d?[+-]?$/;
/** `name: x`, `label:`: a key of a nested mapping, not words of a scalar. */
const NESTED_KEY = /^[A-Za-z0-9_-]+[ \t]*:(?:[ \t]|$)/;

/** Reads a simple YAML front matter block (`key: value`, `key:` followed by `- item` lists). */
// eslint-disable-next-line complexity -- a line scanner over the front matter forms
export function parseFrontMatter(text: string): FrontMatter | undefined {
  const clean = text.startsWith('\uFEFF') ? text.slice(1) : text;
  const lines = linesOf(clean);
  if (lines.length < 2 || lines[0].trimEnd() !== '---') return undefined;
  let close = -1;
  for (let i = 1; i < lines.length; i++) {
    const t = lines[i].trimEnd();
    if (t === '---' || t === '...') {
      close = i;
      break;
    }
  }
  if (close < 0) return undefined;
  const data: Record<string, string | string[]> = {};
  let listKey: string | undefined;
  // A block scalar (`title: |` or `>-`, then indented lines): its key, its lines and how they join.
  let block: { key: string; lines: string[]; folded: boolean } | undefined;
  const endBlock = () => {
    if (block) data[block.key] = block.lines.join(block.folded ? ' ' : '\n').trim();
    block = undefined;
  };
  for (const raw of lines.slice(1, close)) {
    const trimmed = raw.trim();
    if (block) {
      if (!trimmed || isBlank(raw[0])) {
        block.lines.push(trimmed);
        continue;
      }
      endBlock();
    }
    if (!trimmed || trimmed.startsWith('#')) continue;
    // `title:` over an indented `3. Asynchronous API`: a plain scalar written on the lines below its key
    // (an indented `name: x` is a nested mapping instead, and `- x` a list).
    const prev = listKey === undefined ? undefined : data[listKey];
    if (
      listKey &&
      isBlank(raw[0]) &&
      !trimmed.startsWith('-') &&
      !NESTED_KEY.test(trimmed) &&
      (typeof prev === 'string' || prev?.length === 0)
    ) {
      data[listKey] = typeof prev === 'string' ? `${prev} ${unquote(trimmed)}` : unquote(trimmed);
      continue;
    }
    if (listKey && trimmed.startsWith('-') && (trimmed.length === 1 || isBlank(trimmed[1])) && Array.isArray(prev)) {
      prev.push(unquote(trimmed.slice(1)));
      continue;
    }
    const kv = FRONT_MATTER_KEY.exec(raw);
    if (!kv) continue;
    const key = kv[1].toLowerCase();
    const value = kv[2].trim();
    if (BLOCK_SCALAR.test(value)) {
      listKey = undefined;
      block = { key, lines: [], folded: value[0] === '>' };
    } else if (value === '') {
      listKey = key;
      data[key] = [];
    } else if (value.startsWith('[') && value.endsWith(']') && !value.includes('](')) {
      listKey = undefined;
      data[key] = value
        .slice(1, -1)
        .split(',')
        .map((v) => unquote(v))
        .filter(Boolean);
    } else {
      listKey = undefined;
      data[key] = unquote(value);
    }
  }
  endBlock();
  // The body starts after the closing fence line and its line ending.
  let offset = 0;
  for (let i = 0; i <= close; i++) {
    const nl = clean.indexOf('\n', offset);
    offset = nl < 0 ? clean.length : nl + 1;
  }
  return { data, lineCount: close + 1, body: clean.slice(offset) };
}

function unquote(s: string): string {
  const t = s.trim();
  if (t.length >= 2 && ((t[0] === '"' && t.endsWith('"')) || (t[0] === "'" && t.endsWith("'")))) return t.slice(1, -1);
  return t;
}

/**
 * Removes inline markdown (links, emphasis, code ticks, tags) for display. `keepCode`: code spans stay
 * as they are, ticks included, so a title such as "Deprecate `<Show />`" keeps what it is about and
 * each surface can show it as code.
 */
export function stripInline(s: string, keepCode = false): string {
  const text = s.slice(0, INLINE_LIMIT);
  if (!keepCode) return stripMarks(text.replace(/`([^`]*)`/g, '$1')).trim();
  // Code spans alternate with prose: only the prose loses its marks.
  const parts = text.split(/(`[^`]*`)/);
  return parts
    .map((p, i) => (i % 2 === 1 ? p : stripMarks(p)))
    .join('')
    .trim();
}

function stripMarks(s: string): string {
  // Each pattern's repeated part excludes its own delimiters, so a scan never runs past the next one.
  return s
    .replace(/!\[([^[\]]*)\]\([^()]*\)/g, '$1')
    .replace(/\[([^[\]]*)\]\([^()]*\)/g, '$1')
    .replace(/\[([^[\]]*)\]\[[^[\]]*\]/g, '$1')
    .replace(/\*\*([^*]*)\*\*/g, '$1')
    .replace(/__([^_]*)__/g, '$1')
    .replace(/(^|\W)[*_]([^*_]+)[*_](?=\W|$)/g, '$1$2')
    .replace(/<[^<>]+>/g, '');
}

/** A list, quote or heading marker at the start of a line. */
function stripLineMarker(line: string): string {
  let i = 0;
  while (isBlank(line[i])) i++;
  const c = line[i];
  if ((c === '-' || c === '*' || c === '+') && isBlank(line[i + 1])) return line.slice(i + 2);
  if (c === '>') return line.slice(line[i + 1] === ' ' ? i + 2 : i + 1);
  if (c === '#') {
    while (line[i] === '#') i++;
    return line.slice(i);
  }
  let d = i;
  while (line[d] >= '0' && line[d] <= '9') d++;
  if (d > i && line[d] === '.' && isBlank(line[d + 1])) return line.slice(d + 2);
  return line;
}

/** The first paragraph of a markdown body outside code fences and tables, its lines joined. */
/** One or two words, or a line ending in a colon, standing alone before the text they introduce. */
function isLeadIn(lines: readonly string[]): boolean {
  if (lines.length !== 1) return false;
  const t = stripInline(lines[0]);
  return t.endsWith(':') || (t.split(' ').length <= 2 && !/[.!?]$/.test(t));
}

function firstParagraph(body: string): string {
  const out: string[] = [];
  let fence: { char: string; length: number } | undefined;
  let size = 0;
  for (const line of linesOf(body)) {
    const f = fenceOf(line);
    if (f) {
      if (!fence) fence = f;
      else if (f.char === fence.char && f.length >= fence.length) fence = undefined;
      if (out.length) break;
      continue;
    }
    if (fence) continue;
    if (!line.trim()) {
      // A lead-in alone ("_Therefore_", "We decided:") says nothing by itself: the paragraph after it does.
      if (out.length && !isLeadIn(out)) break;
      continue;
    }
    if (isTableRule(line)) continue;
    const text = stripLineMarker(line).trim();
    if (!text) continue;
    out.push(text);
    size += text.length;
    if (size > INLINE_LIMIT) break;
  }
  return out.join(' ');
}

/** `|---|:--:|` and the like. */
function isTableRule(line: string): boolean {
  for (const c of line) if (c !== '|' && c !== '-' && c !== ':' && c !== ' ') return false;
  return true;
}

const ENDS_SENTENCE = (c: string | undefined) => c === '.' || c === '!' || c === '?';

/** The first one or two sentences of a markdown body, as plain text, at most `max` characters. */
export function summarize(body: string, max = 240): string {
  const text = stripInline(firstParagraph(body)).replace(/\s+/g, ' ');
  // A sentence ends at . ! ? followed by a space or the end; dots inside `invoice.ts` or `v1.2` do not end it.
  const sentences: string[] = [];
  let start = 0;
  for (let i = 0; i < text.length && sentences.length < 2; i++) {
    if (!ENDS_SENTENCE(text[i])) continue;
    let j = i;
    while (ENDS_SENTENCE(text[j + 1])) j++;
    if (j + 1 === text.length || text[j + 1] === ' ') {
      sentences.push(text.slice(start, j + 1).trim());
      start = j + 1;
    }
    i = j;
  }
  if (sentences.length < 2 && start < text.length) sentences.push(text.slice(start).trim());
  let out = sentences[0] ?? '';
  if (sentences[1] && out.length + sentences[1].length < max * 0.8) out += ' ' + sentences[1];
  return out.length > max ? out.slice(0, max - 1).trimEnd() + '…' : out;
}

/** GitHub-style anchor for a heading; duplicates get -1, -2 suffixes through `seen`. */
export function slugify(heading: string, seen?: Map<string, number>): string {
  let slug = heading
    .toLowerCase()
    .trim()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
  if (!slug) slug = 'section';
  if (seen) {
    const n = seen.get(slug) ?? 0;
    seen.set(slug, n + 1);
    if (n > 0) slug = `${slug}-${n}`;
  }
  return slug;
}

/** True when a buffer looks binary (a NUL byte in its first 8 KiB). */
export function looksBinary(buf: Uint8Array): boolean {
  const n = Math.min(buf.length, 8192);
  for (let i = 0; i < n; i++) if (buf[i] === 0) return true;
  return false;
}
