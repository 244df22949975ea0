/**
 * Whether the definition at the cursor uses what its file imports. A record about a package is about
 * the code that calls it: in a 5,000-line `models.py` that imports `multi_email_field`, the one model
 * with an e-mail list field, not each of the hundred definitions beside it.
 *
 * Read from the file's text, line by line, with no regular expression built from the text. Where the
 * text does not tell what an import binds (`import 'x'`, `require 'x'`, `import a.*`, `using A.B`), or
 * the names it binds appear nowhere else in the file, the import counts as used.
 */

/** Lines one import statement may take (`import {` … `} from 'x'`, `from x import (` … `)`). */
const MAX_STATEMENT_LINES = 40;
/** Lines above a definition that its decorators, annotations and doc comment may take. */
const MAX_PREAMBLE_LINES = 12;
/** Packages looked at per file: the rest count as used. */
const MAX_SPECS = 200;
/** Longest text read. */
const MAX_TEXT = 512 * 1024;
/** Longest line or statement read for an import (a minified line is none). */
const MAX_LINE = 2000;

/** What an import of one package binds: the names the code writes for it and the lines of its statements. */
interface Binding {
  names: string[];
  lines: number[];
}

/** An import whose binding the text does not tell. */
const UNKNOWN = 'unknown';

/**
 * The packages of `specs` that the definition on lines `start`..`end` (1-based, inclusive) does not
 * use, by its text, its decorators and its doc comment.
 */
export function unusedImports(
  text: string,
  specs: Iterable<string>,
  range: { start: number; end: number },
  definitions: readonly FileDefinition[] = [],
): Set<string> {
  const lines = (text.length > MAX_TEXT ? text.slice(0, MAX_TEXT) : text).split('\n');
  const importLines = lines.flatMap((l, i) => (IMPORT_LINE.test(l) || GO_IMPORT_LINE.test(l) ? [i] : []));
  const bindings = new Map<string, Binding>();
  for (const spec of [...specs].slice(0, MAX_SPECS)) {
    const b = bindingOf(lines, importLines, spec);
    if (b) bindings.set(spec, b);
  }
  const out = new Set<string>();
  if (!bindings.size) return out;
  const words = new WordLines(
    lines,
    [...bindings.values()].flatMap((b) => b.names.map(firstPart)),
  );
  const first = preambleStart(lines, range.start - 1);
  const last = Math.min(lines.length - 1, range.end - 1);
  for (const [spec, b] of bindings) {
    const own = new Set(b.lines);
    // The statement inside the definition (a local import) is its own use.
    if (b.lines.some((l) => l >= first && l <= last)) continue;
    if (!words.usedIn(b.names, own, 0, lines.length - 1)) continue;
    if (words.usedIn(b.names, own, first, last)) continue;
    // Through a helper of the file that uses the package (`create_client()`, `sdk = CirrusSDK()`).
    const helpers = helpersUsing(words, b.names, own, definitions, range);
    if (!helpers.length || !writes(lines, helpers, first, last)) out.add(spec);
  }
  return out;
}

/** True when a line of `from`..`to` (0-based) writes one of the names, on its own or as a member (`self.client()`). */
function writes(lines: readonly string[], names: readonly string[], from: number, to: number): boolean {
  for (let i = from; i <= to; i++) for (const name of names) if (hasWord(lines[i], name, true)) return true;
  return false;
}

/** `a` of `a.b.c`. */
function firstPart(name: string): string {
  const dot = name.indexOf('.');
  return dot > 0 ? name.slice(0, dot) : name;
}

/** Lines that may import (`import`, `from … import`, `require(`, `using`); Go's are matched on their own. */
const IMPORT_LINE = /\b(?:import|from|require|using)\b/;
/** A line of a Go import block: `"path"` or `alias "path"`. */
const GO_IMPORT_LINE = /^\s*(?:[A-Za-z_.]\w*\s+)?"[^"\s]+"\s*(?:\/\/.*)?$/;

/** A definition of the file, from the code index: its name and 1-based, inclusive lines. */
export interface FileDefinition {
  name: string;
  startLine: number;
  endLine: number;
}

/** Definitions and top-level variables the file's other code gives `names` through. */
function helpersUsing(
  words: WordLines,
  names: readonly string[],
  skip: ReadonlySet<number>,
  definitions: readonly FileDefinition[],
  range: { start: number; end: number },
): string[] {
  const out = new Set<string>();
  const inside: [number, number][] = [];
  for (const d of definitions) {
    inside.push([d.startLine - 1, d.endLine - 1]);
    // The definition at the cursor, and those around it (its class), are not its helpers.
    if (d.startLine <= range.start && d.endLine >= range.end) continue;
    if (/^[A-Za-z_$][\w$]*$/.test(d.name) && words.usedIn(names, skip, d.startLine - 1, d.endLine - 1)) out.add(d.name);
  }
  for (const i of words.linesOf(names)) {
    if (skip.has(i) || inside.some(([a, b]) => i >= a && i <= b)) continue;
    const assigned = ASSIGNED.exec(words.line(i));
    if (assigned) out.add(assigned[1]);
  }
  return [...out];
}

/** A top-level variable given a value: `sdk = Client()`, `const client = new Client()`, `db: Db = connect()`. */
const ASSIGNED = /^(?:(?:export\s+)?(?:const|let|var)\s+)?([A-Za-z_$][\w$]*)\s*(?::[^=]{0,80})?(?::)?=[^=]/;

/** The first line of a definition's decorators, annotations and comments right above it (0-based). */
function preambleStart(lines: readonly string[], start: number): number {
  let i = start;
  while (i > 0 && start - i < MAX_PREAMBLE_LINES && /^\s*(?:@|#|\/\/|\/\*|\*)/.test(lines[i - 1] ?? '')) i--;
  return Math.max(0, i);
}

const WORD = /[A-Za-z_$][\w$]*/g;
/** Lines a name is looked for on at most, past which it counts as used. */
const MAX_OCCURRENCES = 5000;

/** Where the names imports bind are written: one pass over the file's text, then each question in their lines. */
class WordLines {
  /** Lines of each name, not after a dot (`Client`, not `x.Client`). */
  private readonly bare = new Map<string, number[]>();

  constructor(
    private readonly lines: readonly string[],
    names: readonly string[],
  ) {
    const wanted = new Set(names);
    lines.forEach((line, i) => {
      for (const m of line.matchAll(WORD)) if (wanted.has(m[0]) && line[m.index - 1] !== '.') add(this.bare, m[0], i);
    });
  }

  line(i: number): string {
    return this.lines[i];
  }

  /** True when a line of `from`..`to` (0-based) outside `skip` writes one of the names as a whole word. */
  usedIn(names: readonly string[], skip: ReadonlySet<number>, from: number, to: number): boolean {
    for (const name of names) {
      const list = this.bare.get(firstPart(name)) ?? [];
      if (list.length > MAX_OCCURRENCES) return true;
      for (let k = firstAtLeast(list, from); k < list.length && list[k] <= to; k++)
        if (!skip.has(list[k]) && (!name.includes('.') || hasWord(this.lines[list[k]], name, false))) return true;
    }
    return false;
  }

  /** The lines that write one of the names (by its first part), in order. */
  linesOf(names: readonly string[]): number[] {
    const out = new Set<number>();
    for (const name of names) for (const i of this.bare.get(firstPart(name)) ?? []) out.add(i);
    return [...out].sort((a, b) => a - b);
  }
}

function add(map: Map<string, number[]>, word: string, line: number): void {
  const list = map.get(word);
  if (!list) map.set(word, [line]);
  else if (list[list.length - 1] !== line) list.push(line);
}

/** Index of the first entry of a sorted list at least `n`. */
function firstAtLeast(list: readonly number[], n: number): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (list[mid] < n) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

const WORD_CHAR = /[\w$]/;

/**
 * `name` in `line` with no word character on either side. An imported name after a dot (`x.Client`) is
 * another thing; a `member` of the class may be (`self.client()`).
 */
function hasWord(line: string, name: string, member: boolean): boolean {
  for (let at = line.indexOf(name); at >= 0; at = line.indexOf(name, at + 1)) {
    const before = at > 0 ? line[at - 1] : '';
    const after = line[at + name.length] ?? '';
    if (!WORD_CHAR.test(before) && (member || before !== '.') && !WORD_CHAR.test(after)) return true;
  }
  return false;
}

/** Import statements of one package read at most. */
const MAX_STATEMENTS = 20;

/** What every import statement of `spec` binds; undefined when the text does not tell. */
function bindingOf(lines: readonly string[], importLines: readonly number[], spec: string): Binding | undefined {
  const names: string[] = [];
  const at: number[] = [];
  let statements = 0;
  for (const i of importLines) {
    if (!lines[i].includes(spec)) continue;
    const b = statementAt(lines, i, spec);
    if (b === UNKNOWN) return undefined;
    if (!b) continue;
    names.push(...b.names);
    at.push(...b.lines);
    if (++statements >= MAX_STATEMENTS) break;
  }
  const known = names.filter((n) => n.length > 0);
  return known.length > 0 ? { names: known, lines: at } : undefined;
}

/** The binding of the import statement on line `i` that names `spec`, if that line imports it. */
function statementAt(lines: readonly string[], i: number, spec: string): Binding | typeof UNKNOWN | undefined {
  const line = lines[i];
  if (line.length > MAX_LINE) return undefined;
  const quoted = quotes(line, spec);
  if (quoted) return quotedImport(lines, i, line);
  const py = /^\s*from\s+([\w.]+)\s+import\s+(.*)$/.exec(line);
  if (py) return py[1] === spec ? pythonFrom(lines, i, py[2]) : undefined;
  const imp = /^\s*import\s+(?:static\s+)?(.+)$/.exec(line);
  if (imp) return dottedImport(imp[1], spec, i);
  if (/^\s*using\s/.test(line)) return UNKNOWN;
  return undefined;
}

/** True when the line writes `spec` in quotes: a JavaScript, TypeScript or Go import. */
function quotes(line: string, spec: string): boolean {
  return line.includes(`'${spec}'`) || line.includes(`"${spec}"`) || line.includes('`' + spec + '`');
}

/** `import … from 'x'`, `const x = require('x')`, a Go import line. */
function quotedImport(lines: readonly string[], i: number, line: string): Binding | typeof UNKNOWN | undefined {
  const req = /(?:const|let|var)\s+(\{[^}]*\}|[A-Za-z_$][\w$]*)\s*=\s*(?:await\s+)?(?:require|import)\(/.exec(line);
  if (req) return { names: namesIn(req[1]), lines: [i] };
  const go = /^\s*(?:import\s+)?(?:([A-Za-z_]\w*|[._])\s+)?"([^"]+)"\s*(?:\/\/.*)?$/.exec(line);
  if (go) return go[1] === '.' || go[1] === '_' ? UNKNOWN : { names: goNames(go[1], go[2]), lines: [i] };
  // `import 'x'` binds nothing the code writes; a string elsewhere (`jest.mock('x')`) is no import.
  if (/^\s*import\s*['"]/.test(line)) return UNKNOWN;
  if (!/\bfrom\s*['"]/.test(line)) return undefined;
  let j = i;
  while (j > 0 && i - j < MAX_STATEMENT_LINES && !/^\s*(?:import|export)\b/.test(lines[j])) j--;
  const statement = lines.slice(j, i + 1).join(' ');
  if (statement.length > MAX_LINE) return UNKNOWN;
  // `export … from 'x'` passes the package on: what uses it is elsewhere.
  if (!/^\s*import\b/.test(statement)) return UNKNOWN;
  const head = /^\s*import\s+(?:type\s+)?([^'"]*?)\s*\bfrom\s*['"][^'"]*['"]\s*;?\s*$/.exec(statement);
  if (!head) return UNKNOWN;
  const lineNumbers = Array.from({ length: i - j + 1 }, (_, k) => j + k);
  return { names: namesIn(head[1]), lines: lineNumbers };
}

/** The names a JavaScript import or destructuring binds: `a, { b, c as d, e: f }`, `* as ns`. */
function namesIn(head: string): string[] {
  const out: string[] = [];
  const braces = /\{([^}]*)\}/.exec(head);
  if (braces) {
    for (const part of braces[1].split(',')) {
      const words = part.trim().split(/\s+as\s+|\s*:\s*/);
      const name = words[words.length - 1].replace(/^type\s+/, '').trim();
      if (/^[A-Za-z_$][\w$]*$/.test(name)) out.push(name);
    }
  }
  const rest = braces ? head.slice(0, braces.index) + head.slice(braces.index + braces[0].length) : head;
  for (const part of rest.split(',')) {
    const p = part.trim();
    const ns = /^\*\s+as\s+([A-Za-z_$][\w$]*)$/.exec(p);
    if (ns) out.push(ns[1]);
    else if (/^[A-Za-z_$][\w$]*$/.test(p)) out.push(p);
  }
  return out;
}

/** The name Go code writes for a package: its alias, or the last part of its path (`yaml.v3` → yaml, `go-redis` → redis). */
function goNames(alias: string | undefined, path: string): string[] {
  if (alias) return [alias];
  const parts = path.split('/');
  let last = parts[parts.length - 1];
  if (/^v\d+$/.test(last) && parts.length > 1) last = parts[parts.length - 2];
  last = last.replace(/\.v\d+$/, '');
  const names = [last, last.replace(/^go-/, '').replace(/-go$/, ''), last.replace(/[-.]/g, '')];
  return [...new Set(names.filter((n) => /^[A-Za-z_]\w*$/.test(n)))];
}

/** `from x import a, b as c` and `from x import (` … `)`. */
function pythonFrom(lines: readonly string[], i: number, rest: string): Binding | typeof UNKNOWN {
  let body = rest.replace(/#.*$/, '');
  const at = [i];
  if (body.trim().startsWith('(')) {
    for (let j = i + 1; !body.includes(')') && j < lines.length && j - i < MAX_STATEMENT_LINES; j++) {
      body += ' ' + lines[j].replace(/#.*$/, '');
      at.push(j);
    }
  } else {
    for (let j = i; body.trimEnd().endsWith('\\') && j + 1 < lines.length && j - i < MAX_STATEMENT_LINES; j++) {
      body = body.trimEnd().slice(0, -1) + ' ' + lines[j + 1].replace(/#.*$/, '');
      at.push(j + 1);
    }
  }
  const names: string[] = [];
  for (const part of body.replace(/[()]/g, ' ').split(',')) {
    const p = part.trim();
    if (p === '*') return UNKNOWN;
    const words = p.split(/\s+as\s+/);
    const name = words[words.length - 1].trim();
    if (/^[A-Za-z_]\w*$/.test(name)) names.push(name);
  }
  return { names, lines: at };
}

/**
 * `import a.b.c`, `import a.b.c as d` (Python), `import a.b.C;` (Java), `import a.b.{C, D => E}` (Scala),
 * `import a.b.C as D` (Kotlin).
 */
function dottedImport(rest: string, spec: string, i: number): Binding | typeof UNKNOWN | undefined {
  const names: string[] = [];
  for (const part of rest.replace(/;\s*$/, '').split(/,(?![^{]*\})/)) {
    const m = /^\s*([\w.]+)(\.\{[^}]*\}|\.\*|\._)?(?:\s+as\s+([A-Za-z_]\w*))?/.exec(part);
    if (!m || (m[1] !== spec && !m[1].startsWith(spec + '.'))) continue;
    if (m[2] === '.*' || m[2] === '._') return UNKNOWN;
    if (m[2]) {
      for (const item of m[2].slice(2, -1).split(',')) {
        const words = item.trim().split(/\s*=>\s*/);
        const name = words[words.length - 1].trim();
        if (name === '_') return UNKNOWN;
        if (/^[A-Za-z_]\w*$/.test(name)) names.push(name);
      }
    } else if (m[3]) names.push(m[3]);
    else names.push(m[1] === spec && !spec.includes('.') ? spec : lastOrWhole(m[1], rest));
  }
  return names.length ? { names, lines: [i] } : undefined;
}

/** Java and Kotlin write an imported class by its own name; Python writes a module by its whole dotted path. */
function lastOrWhole(path: string, rest: string): string {
  return /;\s*$/.test(rest) || /^[A-Z]/.test(path.slice(path.lastIndexOf('.') + 1))
    ? path.slice(path.lastIndexOf('.') + 1)
    : path;
}
