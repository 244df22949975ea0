import { readdirSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { extname, join } from 'node:path';
import { checkWorkspaceFile } from './workspacePaths';

/** Where a symbol's declaration and body are: 1-based, inclusive lines. */
export interface SymbolRange {
  path: string;
  startLine: number;
  endLine: number;
}

/** Finds a symbol's current declaration; the code index implements it. An empty path means "anywhere in the workspace". */
export interface SymbolLocator {
  locate(path: string, name: string): Promise<SymbolRange | undefined>;
}

type DeclKind = 'block' | 'value' | 'python';

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * Ways `name` is declared, each a test on one line (or a few joined lines). Source lines are hostile
 * input: every expression here is linear (no adjacent quantifiers that can trade characters), and the
 * two shapes that need more than that are checked in code.
 */
function declarationPatterns(name: string): { test: (s: string) => boolean; kind: DeclKind; joined?: boolean }[] {
  const n = escapeRegExp(name);
  const modifier =
    'export|default|declare|abstract|public|private|protected|static|async|override|readonly|pub(?:\\([\\w:]+\\))?|unsafe';
  const mods = `(?:(?:${modifier}|const)\\s+)*`;
  // Without `const`: a run of "const " must not be shared between the modifiers and the keyword.
  const modsNoConst = `(?:(?:${modifier})\\s+)*`;
  const re = (source: string) => {
    const r = new RegExp(source);
    return (s: string) => r.test(s);
  };
  const pythonClass = new RegExp(`^\\s*class\\s+${n}\\b`);
  const callable = new RegExp(`^\\s*${mods}\\*?${n}[ \\t]*(?:<[^>]*>[ \\t]*)?\\(`);
  return [
    { test: re(`^\\s*(?:async\\s+)?def\\s+${n}\\b`), kind: 'python' },
    { test: (s) => pythonClass.test(s) && isPythonClassLine(s), kind: 'python' },
    { test: re(`^\\s*${mods}function\\s*(?:\\*\\s*)?${n}\\b`), kind: 'block' },
    { test: re(`^\\s*${mods}(?:class|interface|enum|struct|trait|namespace|module|impl)\\s+${n}\\b`), kind: 'block' },
    { test: re(`^\\s*${mods}fn\\s+${n}\\b`), kind: 'block' },
    { test: re(`^\\s*func\\s+(?:\\([^)]*\\)\\s*)?${n}\\b`), kind: 'block' },
    {
      test: (s) => {
        const m = callable.exec(s);
        return !!m && opensBodyAfterParams(s, m[0].length);
      },
      kind: 'block',
      joined: true,
    },
    { test: re(`^\\s*${mods}type\\s+${n}\\b`), kind: 'value' },
    { test: re(`^\\s*${modsNoConst}(?:const|let|var)\\s+${n}\\b`), kind: 'value' },
    {
      test: re(`^\\s*${mods}${n}\\s*[:=]\\s*(?:async\\s+)?(?:function\\b|\\([^)]*\\)\\s*=>|\\w+\\s*=>)`),
      kind: 'value',
    },
  ];
}

/** `class Name(Base):  # note` — no brace, and a colon ends the line before any comment. */
function isPythonClassLine(line: string): boolean {
  if (line.includes('{')) return false;
  const hash = line.indexOf('#');
  return (hash < 0 ? line : line.slice(0, hash)).trimEnd().endsWith(':');
}

/**
 * After `name(` at `from`: parameters without `;`, a `)`, then an optional `: type` and a `{`
 * (`method(a, b): T {`). One pass: only the first `{` after each `)` can open the body.
 */
function opensBodyAfterParams(s: string, from: number): boolean {
  const semi = s.indexOf(';', from);
  const end = semi < 0 ? s.length : semi;
  let close = -1;
  for (let i = from; i < end; i++) {
    const c = s[i];
    if (c === ')') close = i;
    else if (c === '{' && close >= 0) {
      const between = s.slice(close + 1, i).trim();
      if (between === '' || (between.startsWith(':') && !/[=;{]/.test(between) && between.length > 1)) return true;
      close = -1;
    }
  }
  return false;
}

/**
 * Finds `name` (or `Container.member`) declared in `text` without a code index: function, class,
 * def, method, const declarations, then the end of the body by brace or indent matching.
 */
export function findSymbolInText(text: string, name: string, path = ''): SymbolRange | undefined {
  const lines = text.split(/\r?\n/);
  const parts = name.split(/[.#]/).filter(Boolean);
  let from = 0;
  let to = lines.length - 1;
  for (let i = 0; i < parts.length; i++) {
    const found = findIn(lines, parts[i], i === 0 ? from : from + 1, to);
    if (!found) return undefined;
    from = found.start;
    to = found.end;
  }
  return { path, startLine: from + 1, endLine: to + 1 };
}

function findIn(lines: string[], name: string, from: number, to: number): { start: number; end: number } | undefined {
  for (const { test, kind, joined } of declarationPatterns(name)) {
    for (let i = from; i <= to; i++) {
      if (!lines[i].includes(name)) continue;
      const probe = joined ? lines.slice(i, Math.min(i + 5, to + 1)).join('\n') : lines[i];
      if (!test(probe)) continue;
      const end = kind === 'python' ? indentEnd(lines, i, to) : bracketEnd(lines, i, to, kind);
      return { start: leadingDecorations(lines, i, from), end };
    }
  }
  return undefined;
}

/** Includes decorators and a doc comment directly above the declaration. */
function leadingDecorations(lines: string[], start: number, floor: number): number {
  let s = start;
  while (s - 1 >= floor) {
    const t = lines[s - 1].trim();
    if (t.startsWith('@') || t.startsWith('/**') || t.startsWith('*') || t.startsWith('///') || t.startsWith('#[')) s--;
    else break;
  }
  return s;
}

function indentOf(line: string): number {
  return /^\s*/.exec(line)![0].replace(/\t/g, '    ').length;
}

function indentEnd(lines: string[], start: number, to: number): number {
  const base = indentOf(lines[start]);
  let end = start;
  // The signature may span lines until the colon.
  let i = start + 1;
  for (; i <= to; i++) {
    const line = lines[i];
    if (!line.trim()) continue;
    if (indentOf(line) <= base && !/^\s*[)\]]/.test(line)) break;
    end = i;
  }
  return end;
}

// eslint-disable-next-line complexity -- a scanner over each declaration kind's brackets
function bracketEnd(lines: string[], start: number, to: number, kind: DeclKind): number {
  let depth = 0;
  let sawBrace = false;
  let quote: string | undefined;
  let blockComment = false;
  for (let i = start; i <= to; i++) {
    const line = lines[i];
    for (let c = 0; c < line.length; c++) {
      const ch = line[c];
      if (blockComment) {
        if (ch === '*' && line[c + 1] === '/') {
          blockComment = false;
          c++;
        }
        continue;
      }
      if (quote) {
        if (ch === '\\') c++;
        else if (ch === quote) quote = undefined;
        continue;
      }
      if (ch === '/' && line[c + 1] === '/') break;
      if (ch === '#' && kind !== 'block' && c === 0) break;
      if (ch === '/' && line[c + 1] === '*') {
        blockComment = true;
        c++;
        continue;
      }
      if (ch === '"' || ch === "'" || ch === '`') {
        quote = ch;
        continue;
      }
      if (ch === '{' || ch === '(' || ch === '[') {
        depth++;
        if (ch === '{') sawBrace = true;
      } else if (ch === '}' || ch === ')' || ch === ']') {
        depth = Math.max(0, depth - 1);
        if (depth === 0 && ch === '}' && sawBrace) return i;
      } else if (ch === ';' && depth === 0) {
        return i;
      }
    }
    // Strings other than template literals do not span lines.
    if (quote && quote !== '`') quote = undefined;
    if (depth === 0 && kind === 'value' && !blockComment && !quote) {
      const t = line.trimEnd();
      const continues =
        /(=>|[=,+\-*/?:|&(.[{])$/.test(t) ||
        (i + 1 <= to && /^\s*[.?:|&+\-*/]/.test(lines[i + 1] ?? '') && !/^\s*\/[/*]/.test(lines[i + 1] ?? ''));
      if (!continues) return i;
    }
  }
  return to;
}

const CODE_EXTENSIONS = new Set([
  '.ts',
  '.tsx',
  '.js',
  '.jsx',
  '.mjs',
  '.cjs',
  '.py',
  '.go',
  '.rs',
  '.java',
  '.kt',
  '.cs',
  '.swift',
  '.rb',
  '.php',
  '.c',
  '.h',
  '.cc',
  '.cpp',
  '.hpp',
  '.scala',
  '.dart',
  '.vue',
  '.svelte',
]);
const SKIP_DIRS = new Set([
  'node_modules',
  'out',
  'dist',
  'build',
  'target',
  'vendor',
  '__pycache__',
  'coverage',
  'bin',
  'obj',
]);

/** Looks for a symbol across the workspace's code files when no index can say where it is; bounded by count and time. */
export async function findSymbolInWorkspace(
  root: string,
  name: string,
  options: { maxFiles?: number; maxFileBytes?: number; timeBudgetMs?: number; signal?: AbortSignal } = {},
): Promise<SymbolRange | undefined> {
  const maxFiles = options.maxFiles ?? 5000;
  const maxBytes = options.maxFileBytes ?? 512 * 1024;
  const deadline = Date.now() + (options.timeBudgetMs ?? 1500);
  const needle = name.split(/[.#]/)[0];
  const queue = [''];
  let seen = 0;
  while (queue.length) {
    const dir = queue.shift()!;
    let entries: string[];
    try {
      entries = readdirSync(join(root, dir)).sort();
    } catch {
      continue;
    }
    for (const entry of entries) {
      if (options.signal?.aborted || Date.now() > deadline || seen >= maxFiles) return undefined;
      const rel = dir ? `${dir}/${entry}` : entry;
      if (entry.startsWith('.')) continue;
      let st;
      try {
        st = statSync(join(root, rel), { throwIfNoEntry: false });
      } catch {
        continue;
      }
      if (!st) continue;
      if (st.isDirectory()) {
        if (!SKIP_DIRS.has(entry)) queue.push(rel);
        continue;
      }
      if (
        !st.isFile() ||
        !CODE_EXTENSIONS.has(extname(entry).toLowerCase()) ||
        st.size > maxBytes ||
        !isReadable(root, rel)
      )
        continue;
      seen++;
      let text: string;
      try {
        text = await readFile(join(root, rel), 'utf8');
      } catch {
        continue;
      }
      if (!text.includes(needle)) continue;
      const found = findSymbolInText(text, name, rel);
      if (found) return found;
    }
  }
  return undefined;
}

/** Inside the workspace once links are followed, and not a secret by its name or its link target's. */
function isReadable(root: string, rel: string): boolean {
  try {
    checkWorkspaceFile(root, rel);
    return true;
  } catch {
    return false;
  }
}
