/** References to decisions written in code comments: `ADR-12`, `docs/adr/0012-x.md`, `DECISION:` notes. */

export interface InlineAdrRef {
  line: number;
  number?: number;
  /** A path to an ADR file as written. */
  path?: string;
  text: string;
  /** The comment is indented: it sits inside a definition (or a class), not at the file's top level. */
  indented?: boolean;
}

export interface DecisionNote {
  line: number;
  endLine: number;
  text: string;
}

export interface InlineScan {
  refs: InlineAdrRef[];
  notes: DecisionNote[];
}

const COMMENT = /(\/\/|\/\*|^\s*\*|#|--|<!--|^\s*;|"""|''')/;
const ADR_NUMBER = /\bADR[-_ ]?#?(\d{1,5})\b/gi;
/** A record's file name: `0012-use-queues.md`. Tested on whole tokens, so it is anchored at both ends. */
const ADR_FILE = /^\d{1,5}[-_][\w.-]+\.md$/;
/** Characters that end a path token in a comment. */
const TOKEN_BREAK = /[\s"'`()<>[\]{},;]+/;
const NOTE = /\bDECISION\s*:\s*(.*)$/;

/** Finds decision references and notes inside the comments of a source file. */
export function scanInline(text: string): InlineScan {
  const refs: InlineAdrRef[] = [];
  const notes: DecisionNote[] = [];
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const c = COMMENT.exec(line);
    if (!c) continue;
    const comment = line.slice(c.index);
    // ` * ADR-12` continues a block comment at the top level: its one space is the comment's, not a block's.
    const lead = /^[ \t]*/.exec(line)![0].length;
    const indented = lead - (line[lead] === '*' ? 1 : 0) > 0 ? { indented: true } : {};
    if (comment.includes('.md')) {
      for (const raw of comment.split(TOKEN_BREAK)) {
        let token = raw;
        while (
          token.length &&
          (token.endsWith('.') || token.endsWith(':') || token.endsWith('!') || token.endsWith('?'))
        )
          token = token.slice(0, -1);
        if (!token.endsWith('.md') || !/^[\w.@/-]+$/.test(token)) continue;
        if (ADR_FILE.test(token.slice(token.lastIndexOf('/') + 1)))
          refs.push({ line: i + 1, path: token, text: token, ...indented });
      }
    }
    for (const m of comment.matchAll(ADR_NUMBER))
      refs.push({ line: i + 1, number: Number(m[1]), text: m[0], ...indented });
    const note = NOTE.exec(comment);
    if (note) {
      const parts = [cleanComment(note[1])];
      let end = i;
      // A note continues on the following comment lines until a blank comment or code.
      for (let j = i + 1; j < lines.length && j <= i + 5; j++) {
        const cont = /^\s*(\/\/|\*(?!\/)|#|--|;)\s?(.*)$/.exec(lines[j]);
        if (!cont || !cont[2].trim() || /\b[A-Z]{3,}\s*:/.test(cont[2])) break;
        parts.push(cleanComment(cont[2]));
        end = j;
      }
      const textOut = parts.filter(Boolean).join(' ').trim();
      if (textOut) notes.push({ line: i + 1, endLine: end + 1, text: textOut });
    }
  }
  return { refs, notes };
}

function cleanComment(s: string): string {
  return s
    .replace(/\*\/\s*$/, '')
    .replace(/-->\s*$/, '')
    .trim();
}
