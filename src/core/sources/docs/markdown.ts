/** Small markdown utilities shared by the docs and decisions sources: sections, front matter, summaries. */

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

const FENCE = /^\s{0,3}(`{3,}|~{3,})/;
const ATX = /^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$/;

/** Splits markdown into sections at ATX and setext headings, ignoring headings inside code fences. */
export function splitSections(text: string, startLine = 1): MarkdownSection[] {
  const lines = text.split(/\r?\n/);
  const sections: MarkdownSection[] = [];
  let current: MarkdownSection = { heading: '', level: 0, line: startLine, endLine: startLine, body: '' };
  let bodyLines: string[] = [];
  let fence: string | undefined;
  const close = (endIdx: number) => {
    current.body = bodyLines.join('\n').trim();
    current.endLine = Math.max(current.line, startLine + endIdx);
    if (current.level > 0 || current.body) sections.push(current);
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const f = FENCE.exec(line);
    if (f) {
      if (!fence) fence = f[1][0];
      else if (f[1][0] === fence) fence = undefined;
      bodyLines.push(line);
      continue;
    }
    if (fence) {
      bodyLines.push(line);
      continue;
    }
    const atx = ATX.exec(line);
    const next = lines[i + 1];
    const setext = !atx && line.trim() && next !== undefined && /^\s{0,3}(=+|-+)\s*$/.test(next) && !/^\s*([-*+]|\d+\.)\s/.test(line) && !/^\s*$/.test(line);
    if (atx || setext) {
      close(i - 1);
      const heading = atx ? atx[2] : line.trim();
      const level = atx ? atx[1].length : next.trim()[0] === '=' ? 1 : 2;
      current = { heading: stripInline(heading), level, line: startLine + i, endLine: startLine + i, body: '' };
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

/** Reads a simple YAML front matter block (`key: value`, `key:` followed by `- item` lists). */
export function parseFrontMatter(text: string): FrontMatter | undefined {
  const m = /^\uFEFF?---\r?\n([\s\S]*?)\r?\n(?:---|\.\.\.)\s*(?:\r?\n|$)/.exec(text);
  if (!m) return undefined;
  const data: Record<string, string | string[]> = {};
  let listKey: string | undefined;
  for (const raw of m[1].split(/\r?\n/)) {
    if (/^\s*#/.test(raw) || !raw.trim()) continue;
    const item = /^\s+-\s+(.*)$|^-\s+(.*)$/.exec(raw);
    if (item && listKey) {
      const prev = data[listKey];
      const list = Array.isArray(prev) ? prev : [];
      list.push(unquote(item[1] ?? item[2]));
      data[listKey] = list;
      continue;
    }
    const kv = /^([A-Za-z0-9_-]+)\s*:\s*(.*)$/.exec(raw);
    if (!kv) continue;
    const key = kv[1].toLowerCase();
    const value = kv[2].trim();
    if (value === '' || value === '|' || value === '>') {
      listKey = key;
      data[key] = [];
    } else if (/^\[.*\]$/.test(value) && !/^\[[^\]]*\]\(/.test(value)) {
      listKey = undefined;
      data[key] = value.slice(1, -1).split(',').map((v) => unquote(v.trim())).filter(Boolean);
    } else {
      listKey = undefined;
      data[key] = unquote(value);
    }
  }
  const lineCount = m[0].split(/\r?\n/).length - (m[0].endsWith('\n') ? 1 : 0);
  return { data, lineCount, body: text.slice(m[0].length) };
}

function unquote(s: string): string {
  const t = s.trim();
  if (t.length >= 2 && ((t[0] === '"' && t.endsWith('"')) || (t[0] === "'" && t.endsWith("'")))) return t.slice(1, -1);
  return t;
}

/** Removes inline markdown (links, emphasis, code ticks) for display. */
export function stripInline(s: string): string {
  return s
    .replace(/!\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/\[([^\]]*)\]\[[^\]]*\]/g, '$1')
    .replace(/`([^`]*)`/g, '$1')
    .replace(/(\*\*|__)(.*?)\1/g, '$2')
    .replace(/(^|\W)[*_]([^*_]+)[*_](?=\W|$)/g, '$1$2')
    .replace(/<[^>]+>/g, '')
    .trim();
}

/** The first one or two sentences of a markdown body, as plain text, at most `max` characters. */
export function summarize(body: string, max = 240): string {
  const paragraphs = body
    .replace(/^\s{0,3}(`{3,}|~{3,})[\s\S]*?^\s{0,3}\1\s*$/gm, '')
    .split(/\n\s*\n/)
    .map((p) =>
      p
        .split('\n')
        .map((l) => l.replace(/^\s*(?:[-*+]|\d+\.)\s+/, '').replace(/^\s*>\s?/, '').replace(/^\s*#+\s*/, ''))
        .join(' ')
        .trim(),
    )
    .filter((p) => p && !/^[|\-: ]+$/.test(p));
  const text = stripInline(paragraphs[0] ?? '').replace(/\s+/g, ' ');
  // A sentence ends at . ! ? followed by a space or the end; dots inside `invoice.ts` or `v1.2` do not end it.
  const sentences = text.match(/(?:[^.!?]|[.!?]+(?![\s.!?]|$))+(?:[.!?]+(?=\s|$)|$)/g) ?? [text];
  let out = sentences[0]?.trim() ?? '';
  if (sentences[1] && out.length + sentences[1].length < max * 0.8) out += ' ' + sentences[1].trim();
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

/** Words of an identifier or path part: `applyDiscountRate` → apply, discount, rate. */
export function identifierWords(s: string): string[] {
  return s
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w.length >= 3);
}

/** Names too generic to link a file to a document by its name alone. */
export const GENERIC_NAMES = new Set([
  'index', 'main', 'util', 'utils', 'helpers', 'types', 'type', 'common', 'shared', 'lib', 'src', 'app', 'test', 'tests',
  'spec', 'core', 'base', 'mod', 'init', '__init__', 'constants', 'config', 'readme', 'docs', 'doc', 'data', 'model',
  'models', 'service', 'services', 'default', 'package', 'setup', 'tools', 'tool', 'scripts', 'script', 'bin', 'internal', 'pkg', 'cmd', 'the', 'and', 'for', 'with', 'this', 'that', 'from',
]);

/** Escapes a string for use inside a RegExp. */
export function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
