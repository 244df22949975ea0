/** Small text and number helpers shared by every part that writes for people (panel, chat, tools, MCP, CLI). */

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** Folds whitespace and line breaks into single spaces. */
export function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/**
 * `text` without the run of `char` at its end, by index: `/x+$/` backtracks quadratically on a long
 * run of x that does not reach the end.
 */
export function trimEndOf(text: string, char: string): string {
  let end = text.length;
  while (end > 0 && text[end - 1] === char) end--;
  return text.slice(0, end);
}

/** Cuts text to `max` characters, ending with an ellipsis when cut. */
export function clip(text: string, max: number): string {
  return text.length <= max ? text : text.slice(0, Math.max(0, max - 1)) + '…';
}

// C0 and C1 controls, the Unicode line and paragraph separators, and the bidirectional overrides
// and isolates (which reorder what a reader sees): one character class, so matching is linear.
const UNSAFE_CHARS = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

function visibleEscape(c: string): string {
  if (c === '\n') return '\\n';
  if (c === '\r') return '\\r';
  if (c === '\t') return ' ';
  return `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;
}

/**
 * Repository text (a file name, path, title, commit subject) made safe to use as a label in text a
 * person or a model reads: on one line, line breaks and other control characters shown as visible
 * escapes (`\n`, `\u2028`), never starting with what markdown reads as structure (a heading, a
 * quote, a fence, a rule), and at most `max` characters. A name like "a.ts\n### Instructions" then
 * stays a name instead of writing its own heading.
 */
export function safeLabel(text: string, max = 200): string {
  const line = text.replace(UNSAFE_CHARS, visibleEscape).trim();
  const guarded = /^(?:[#>]|`{3}|~{3}|-{3}|\*{3}|_{3}|={3})/.test(line) ? `\\${line}` : line;
  return clip(guarded, max);
}

/** Markdown text with every character that could start markup escaped, on one line; other control characters shown as escapes. */
export function escapeMarkdown(text: string): string {
  return oneLine(text.replace(/[\\`*_{}[\]()#+!|<>~]/g, (c) => `\\${c}`)).replace(UNSAFE_CHARS, visibleEscape);
}

/** A markdown table cell: pipes escaped, on one line. */
export function escapeTableCell(text: string): string {
  return oneLine(text.replace(/\|/g, '\\|'));
}

/** How long until something happens, coarse: "now", "under a minute", "45 min", "3 h", "2 days". */
export function formatDuration(ms: number): string {
  if (ms <= 0) return 'now';
  const min = Math.round(ms / MINUTE);
  if (min < 1) return 'under a minute';
  if (min < 90) return `${min} min`;
  const h = Math.round(min / 60);
  if (h < 48) return `${h} h`;
  return `${Math.round(h / 24)} days`;
}

/** How long ago something happened: "just now", "5 min ago", "3 hours ago", "2 days ago", "4 months ago", "2 years ago". */
export function formatAge(timestamp: number, now: number): string {
  const ms = now - timestamp;
  if (ms < MINUTE) return 'just now';
  if (ms < HOUR) return `${Math.floor(ms / MINUTE)} min ago`;
  if (ms < DAY) return agoPlural(Math.floor(ms / HOUR), 'hour');
  if (ms < 30 * DAY) return agoPlural(Math.floor(ms / DAY), 'day');
  if (ms < 365 * DAY) return agoPlural(Math.floor(ms / (30 * DAY)), 'month');
  return agoPlural(Math.floor(ms / (365 * DAY)), 'year');
}

function agoPlural(n: number, unit: string): string {
  return `${n} ${unit}${n === 1 ? '' : 's'} ago`;
}

/** "1 file", "3 files". */
export function plural(n: number, noun: string, nouns = `${noun}s`): string {
  return `${n.toLocaleString('en-US')} ${n === 1 ? noun : nouns}`;
}

/** Rounds to `digits` decimals (default 2). */
export function round(n: number, digits = 2): number {
  const f = 10 ** digits;
  return Math.round(n * f) / f;
}

/** The p-th percentile (nearest rank) of the values; 0 for none. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const idx = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[idx];
}
