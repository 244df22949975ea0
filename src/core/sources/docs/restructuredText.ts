import { linesOf, type MarkdownSection } from './markdown';

/** Characters reStructuredText accepts as section adornment. */
const ADORNMENT = new Set([...'=-`:\'"~^_*+#<>.']);

/** The adornment character when the whole line is one repeated adornment character (3+), else undefined. */
function adornmentOf(line: string): string | undefined {
  const t = line.trimEnd();
  if (t.length < 3 || !ADORNMENT.has(t[0])) return undefined;
  for (let i = 1; i < t.length; i++) if (t[i] !== t[0]) return undefined;
  return t[0];
}

const isText = (line: string | undefined) =>
  line !== undefined && line.trim() !== '' && line[0] !== ' ' && line[0] !== '\t';

/**
 * Splits reStructuredText into sections at its titles: a text line underlined (and optionally
 * overlined) by a run of one punctuation character. Levels follow the order in which the
 * adornment styles first appear, as in docutils. One pass over the lines.
 */
export function splitRstSections(text: string, startLine = 1): MarkdownSection[] {
  const lines = linesOf(text);
  const styles: string[] = [];
  const sections: MarkdownSection[] = [];
  let current: MarkdownSection = { heading: '', level: 0, line: startLine, endLine: startLine, body: '' };
  let bodyLines: string[] = [];
  const close = (endIdx: number) => {
    current.body = bodyLines.join('\n').trim();
    current.endLine = Math.max(current.line, startLine + endIdx);
    if (current.level > 0 || current.body) sections.push(current);
  };
  const open = (idx: number, heading: string, style: string) => {
    let level = styles.indexOf(style) + 1;
    if (level === 0) level = styles.push(style);
    current = { heading: heading.trim(), level, line: startLine + idx, endLine: startLine + idx, body: '' };
    bodyLines = [];
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const before = i === 0 || lines[i - 1].trim() === '';
    const over = adornmentOf(line);
    // Overline, title, underline of the same character.
    if (
      over &&
      before &&
      lines[i + 1]?.trim() &&
      !adornmentOf(lines[i + 1]) &&
      adornmentOf(lines[i + 2] ?? '') === over
    ) {
      close(i - 1);
      open(i, lines[i + 1], `${over}o`);
      i += 2;
      continue;
    }
    const under = adornmentOf(lines[i + 1] ?? '');
    if (under && before && isText(line) && !over) {
      close(i - 1);
      open(i, line, `${under}u`);
      i += 1;
      continue;
    }
    bodyLines.push(line);
  }
  close(lines.length - 1);
  return sections;
}
