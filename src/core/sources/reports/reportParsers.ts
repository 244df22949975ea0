import { parseXml, walkXml, type XmlElement } from './xml';

export type ReportFormat = 'junit' | 'jest-json' | 'mocha-json' | 'tap';

/** One test as a report tells it. */
export interface TestOutcome {
  name: string;
  /** Describe blocks / class, joined with ' › '. */
  suite?: string;
  status: 'failed' | 'passed' | 'skipped';
  /** Ways the report names the test file: paths (absolute or relative) or dotted class/module names. */
  fileHints: string[];
  /** 1-based line of the test's entry in the report. */
  reportLine: number;
  message?: string;
  stack?: string;
  /** Unix ms at which the run (or suite) started, when the report says. */
  timestamp?: number;
}

export interface ParsedReport {
  format: ReportFormat;
  tests: TestOutcome[];
  timestamp?: number;
}

export class ReportFormatError extends Error {}

/** Picks the parser by extension and content; undefined when the file is not a test report at all. */
export function parseReport(path: string, text: string): ParsedReport | undefined {
  const lower = path.toLowerCase();
  const head = text.replace(/^\uFEFF/, '').trimStart();
  if (lower.endsWith('.tap') || /^(TAP version \d+|1\.\.\d+|(not )?ok \d)/.test(head)) return parseTap(text);
  if (lower.endsWith('.xml') || head.startsWith('<')) {
    if (!/<testsuites?[\s>/]/.test(text.slice(0, 4096))) return undefined;
    return parseJUnit(text);
  }
  if (lower.endsWith('.json') || head.startsWith('{')) {
    let data: unknown;
    try {
      data = JSON.parse(text);
    } catch (err) {
      throw new ReportFormatError(`not valid JSON (${(err as Error).message})`);
    }
    if (isObject(data) && Array.isArray(data.testResults)) return parseJestJson(data, text);
    if (isObject(data) && Array.isArray(data.failures) && isObject(data.stats)) return parseMochaJson(data, text);
    return undefined;
  }
  return undefined;
}

// --- JUnit XML (jest-junit, vitest, mocha-junit-reporter, pytest, Maven Surefire) ---

export function parseJUnit(text: string): ParsedReport {
  let root: XmlElement;
  try {
    root = parseXml(text);
  } catch (err) {
    throw new ReportFormatError(`malformed XML: ${(err as Error).message}`);
  }
  if (root.name !== 'testsuites' && root.name !== 'testsuite')
    throw new ReportFormatError(`root element is <${root.name}>, not <testsuites>`);
  const tests: TestOutcome[] = [];
  let reportTime = parseTime(root.attrs.timestamp);
  walkXml(root, (el, ancestors) => {
    if (el.name !== 'testcase') return;
    const suites = ancestors.filter((a) => a.name === 'testsuite');
    const suiteEl = suites[suites.length - 1];
    const failure = el.children.find((c) => c.name === 'failure' || c.name === 'error');
    const skipped = el.children.some((c) => c.name === 'skipped');
    const timestamp = parseTime(suiteEl?.attrs.timestamp) ?? reportTime;
    if (timestamp !== undefined && (reportTime === undefined || timestamp < reportTime)) reportTime = timestamp;
    const { suite, name } = splitJUnitName(el.attrs.name ?? '(unnamed)', el.attrs.classname, suiteEl?.attrs.name);
    const hints = [
      el.attrs.file,
      suiteEl?.attrs.file,
      suiteEl?.attrs.filepath,
      looksLikePath(el.attrs.classname),
      looksLikePath(suiteEl?.attrs.name),
      el.attrs.classname,
    ].filter((h): h is string => !!h);
    const stack = failure ? failure.text.trim() || systemErr(el) : undefined;
    tests.push({
      name,
      suite,
      status: failure ? 'failed' : skipped ? 'skipped' : 'passed',
      fileHints: [...new Set(hints)],
      reportLine: el.line,
      message: failure ? (failure.attrs.message ?? firstLine(stack ?? '')).trim() : undefined,
      stack,
      timestamp,
    });
  });
  return { format: 'junit', tests, timestamp: reportTime };
}

function systemErr(el: XmlElement): string {
  return el.children.find((c) => c.name === 'system-err' || c.name === 'system-out')?.text.trim() ?? '';
}

/** Separates describe blocks from the test's own title across the reporters' naming habits. */
function splitJUnitName(
  name: string,
  classname: string | undefined,
  suiteName: string | undefined,
): { suite?: string; name: string } {
  if (name.includes(' > ')) {
    const parts = name.split(' > ');
    return { suite: parts.slice(0, -1).join(' › '), name: parts[parts.length - 1] };
  }
  const suite =
    suiteName && !looksLikePath(suiteName) && !/^(root suite|pytest|mocha tests|jest tests)$/i.test(suiteName)
      ? suiteName
      : undefined;
  if (suite && name.startsWith(suite + ' ') && name.length > suite.length + 1)
    return { suite, name: name.slice(suite.length + 1) };
  if (classname && !looksLikePath(classname) && name.endsWith(' ' + classname))
    return { suite: name.slice(0, -classname.length - 1), name: classname };
  if (classname && /^[\w$]+(\.[\w$]+)+$/.test(classname)) return { suite: classname.split('.').pop(), name };
  return {
    suite: suite ?? (classname && classname !== name && !looksLikePath(classname) ? classname : undefined),
    name,
  };
}

function looksLikePath(s: string | undefined): string | undefined {
  return s && /[/\\]/.test(s) && /\.[A-Za-z]{1,5}$/.test(s) ? s : undefined;
}

// --- Jest / Vitest JSON (`--json`) ---

// eslint-disable-next-line complexity -- one case per field of the report format
function parseJestJson(data: Record<string, unknown>, text: string): ParsedReport {
  const tests: TestOutcome[] = [];
  const runStart = typeof data.startTime === 'number' ? data.startTime : undefined;
  const finder = new LineFinder(text);
  for (const file of data.testResults as unknown[]) {
    if (!isObject(file)) continue;
    const testFile =
      typeof file.name === 'string' ? file.name : typeof file.testFilePath === 'string' ? file.testFilePath : undefined;
    const fileStart =
      typeof file.startTime === 'number'
        ? file.startTime
        : isObject(file.perfStats) && typeof file.perfStats.start === 'number'
          ? file.perfStats.start
          : runStart;
    const results = Array.isArray(file.assertionResults)
      ? file.assertionResults
      : Array.isArray(file.testResults)
        ? file.testResults
        : [];
    for (const a of results as unknown[]) {
      if (!isObject(a)) continue;
      const title = textOf(a.title) ?? textOf(a.fullName) ?? '(unnamed)';
      const ancestors = Array.isArray(a.ancestorTitles) ? a.ancestorTitles.map(String) : [];
      const messages = Array.isArray(a.failureMessages) ? a.failureMessages.map(String) : [];
      const status = a.status === 'failed' ? 'failed' : a.status === 'passed' ? 'passed' : 'skipped';
      const stack = messages.join('\n').trim() || undefined;
      tests.push({
        name: title,
        suite: ancestors.length ? ancestors.join(' › ') : undefined,
        status,
        fileHints: testFile ? [testFile] : [],
        reportLine: finder.lineOf(JSON.stringify(a.fullName ?? title)) ?? finder.lineOf(JSON.stringify(title)) ?? 1,
        message: stack ? cleanMessage(firstLine(stack)) : undefined,
        stack,
        timestamp: fileStart,
      });
    }
    // A test file that failed to load has no assertions but a message.
    if (!results.length && file.status === 'failed' && typeof file.message === 'string' && file.message.trim()) {
      tests.push({
        name: '(test file failed to run)',
        status: 'failed',
        fileHints: testFile ? [testFile] : [],
        reportLine: (testFile && finder.lineOf(JSON.stringify(testFile))) || 1,
        message: cleanMessage(firstLine(file.message)),
        stack: file.message,
        timestamp: fileStart,
      });
    }
  }
  return { format: 'jest-json', tests, timestamp: runStart };
}

// --- mocha JSON reporter ---

function parseMochaJson(data: Record<string, unknown>, text: string): ParsedReport {
  const stats = data.stats as Record<string, unknown>;
  const timestamp = parseTime(typeof stats.start === 'string' ? stats.start : undefined);
  const finder = new LineFinder(text);
  const tests: TestOutcome[] = [];
  for (const f of data.failures as unknown[]) {
    if (!isObject(f)) continue;
    const title = textOf(f.title) ?? '(unnamed)';
    const full = textOf(f.fullTitle) ?? title;
    const err = isObject(f.err) ? f.err : {};
    const stack = typeof err.stack === 'string' ? err.stack : undefined;
    tests.push({
      name: title,
      suite: full.endsWith(' ' + title) ? full.slice(0, -title.length - 1) : undefined,
      status: 'failed',
      fileHints: typeof f.file === 'string' ? [f.file] : [],
      reportLine: finder.lineOf(JSON.stringify(full)) ?? finder.lineOf(JSON.stringify(title)) ?? 1,
      message: typeof err.message === 'string' ? err.message : stack ? firstLine(stack) : undefined,
      stack,
      timestamp,
    });
  }
  return { format: 'mocha-json', tests, timestamp };
}

// --- TAP (node --test, tape, prove) ---

// eslint-disable-next-line complexity -- a line scanner over the TAP forms
export function parseTap(text: string): ParsedReport {
  const lines = text.split(/\r?\n/);
  const tests: TestOutcome[] = [];
  const subtests: { indent: number; name: string }[] = [];
  let group: string | undefined;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    // tape and prove name a group of assertions with a plain comment line.
    const comment = /^# (?!Subtest:)(.+)$/.exec(line);
    if (comment && !/^(tests|pass|fail|skip|todo|cancelled|duration_ms|suites)\b/.test(comment[1].trim())) {
      group = comment[1].trim();
      continue;
    }
    const sub = /^(\s*)# Subtest: (.*)$/.exec(line);
    if (sub) {
      const indent = sub[1].length;
      while (subtests.length && subtests[subtests.length - 1].indent >= indent) subtests.pop();
      subtests.push({ indent, name: sub[2].trim() });
      continue;
    }
    const m = tapTestLine(line);
    if (!m) continue;
    const indent = m.indent;
    const directive = m.directive;
    // The YAML block follows, indented two more spaces than the test line.
    const yaml: string[] = [];
    if (lines[i + 1] !== undefined && /^\s*---\s*$/.test(lines[i + 1])) {
      let j = i + 2;
      for (; j < lines.length && !/^\s*\.\.\.\s*$/.test(lines[j]); j++) yaml.push(lines[j]);
      i = j;
    }
    const diag = parseTapYaml(yaml);
    while (subtests.length && subtests[subtests.length - 1].indent > indent) subtests.pop();
    const parents = subtests.filter((s) => s.indent < indent).map((s) => s.name);
    if (subtests.length && subtests[subtests.length - 1].indent === indent) subtests.pop();
    const failed = !m.ok && directive !== 'TODO' && diag.failureType !== 'subtestsFailed';
    if (!m.ok && diag.failureType === 'subtestsFailed') continue;
    const where = diag.location ?? diag.at ?? diag.file;
    const wherePath = where ? (pathBeforeLineNumber(where) ?? where) : undefined;
    tests.push({
      name: m.name || `test ${m.number ?? ''}`.trim(),
      suite: parents.length ? parents.join(' › ') : indent === 0 ? group : undefined,
      status: failed ? 'failed' : directive === 'SKIP' ? 'skipped' : 'passed',
      fileHints: wherePath ? [wherePath] : [],
      reportLine: Number(lineIndexOf(lines, line, i)) + 1,
      message: diag.error ?? diag.message,
      stack:
        [where && /:\d+/.test(where) ? `at ${where}` : undefined, diag.stack].filter(Boolean).join('\n') || undefined,
    });
  }
  return { format: 'tap', tests };
}

/**
 * A TAP test line: `ok 3 - name # SKIP reason`. Parsed in steps rather than one regex: a lazy name
 * between optional spaces and an optional directive backtracked quadratically on long lines.
 */
function tapTestLine(
  line: string,
): { indent: number; ok: boolean; number?: string; name: string; directive?: string } | undefined {
  const head = /^([ \t]*)(not ok|ok)\b[ \t]*(\d*)[ \t]*(?:-[ \t]*)?/i.exec(line);
  if (!head) return undefined;
  const rest = line.slice(head[0].length);
  const hash = /#[ \t]*(SKIP|TODO)\b/i.exec(rest);
  return {
    indent: head[1].length,
    ok: head[2].toLowerCase() === 'ok',
    number: head[3] || undefined,
    name: (hash ? rest.slice(0, hash.index) : rest).trim(),
    directive: hash?.[1].toUpperCase(),
  };
}

/** `src/a.ts:12:3` → `src/a.ts`: the first token with a `:line` after a non-empty path, scanned once. */
export function pathBeforeLineNumber(text: string): string | undefined {
  for (const token of text.split(/[\s()'"]/)) {
    const at = token.search(/:\d/);
    if (at > 0) return token.slice(0, at);
  }
  return undefined;
}

function lineIndexOf(lines: string[], line: string, after: number): number {
  for (let k = after; k >= 0; k--) if (lines[k] === line) return k;
  return after;
}

/** Reads the few YAML shapes TAP producers emit: scalars, quoted scalars, `|-` blocks, and `at:` mappings. */
function parseTapYaml(lines: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  if (!lines.length) return out;
  const base = Math.min(...lines.filter((l) => l.trim()).map((l) => l.length - l.trimStart().length));
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i];
    if (l.length - l.trimStart().length !== base) continue;
    // The s flag lets .* take the rest of the line in one step (a stray \r would otherwise make \s* and .* trade places).
    const kv = /^\s*([\w-]+):(.*)$/s.exec(l);
    if (!kv) continue;
    const key = kv[1];
    let value = kv[2].trim();
    const nested: string[] = [];
    while (
      i + 1 < lines.length &&
      (lines[i + 1].length - lines[i + 1].trimStart().length > base || !lines[i + 1].trim())
    )
      nested.push(lines[++i]);
    if (/^[|>][-+]?$/.test(value) || (!value && nested.length)) {
      if (!value && nested.every((n) => !n.trim() || /^\s*[\w-]+:/.test(n))) {
        // A mapping such as `at: { file, line, column }`.
        const map: Record<string, string> = {};
        for (const n of nested) {
          const m = /^\s*([\w-]+):(.*)$/s.exec(n);
          if (m) map[m[1]] = unquoteYaml(m[2].trim());
        }
        if (key === 'at' && map.file)
          value = `${map.file}${map.line ? ':' + map.line : ''}${map.column ? ':' + map.column : ''}`;
        else value = Object.values(map).join(' ');
      } else {
        const ind = Math.min(...nested.filter((n) => n.trim()).map((n) => n.length - n.trimStart().length));
        value = nested
          .map((n) => n.slice(ind))
          .join('\n')
          .trimEnd();
      }
    } else value = unquoteYaml(value);
    out[key] = value;
  }
  return out;
}

function unquoteYaml(s: string): string {
  if (s.length >= 2 && s[0] === "'" && s.endsWith("'")) return s.slice(1, -1).replace(/''/g, "'");
  if (s.length >= 2 && s[0] === '"' && s.endsWith('"')) {
    try {
      return JSON.parse(s) as string;
    } catch {
      return s.slice(1, -1);
    }
  }
  return s;
}

// --- shared ---

class LineFinder {
  private starts: number[] | undefined;
  constructor(private readonly text: string) {}
  lineOf(needle: string): number | undefined {
    const at = this.text.indexOf(needle);
    if (at < 0) return undefined;
    if (!this.starts) {
      this.starts = [0];
      for (let i = 0; i < this.text.length; i++) if (this.text.charCodeAt(i) === 10) this.starts.push(i + 1);
    }
    let lo = 0;
    let hi = this.starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.starts[mid] <= at) lo = mid;
      else hi = mid - 1;
    }
    return lo + 1;
  }
}

/** Parses ISO timestamps; a JUnit timestamp without a zone is local time, as reporters write it. */
export function parseTime(s: string | undefined): number | undefined {
  if (!s) return undefined;
  const ms = Date.parse(s.trim());
  return Number.isFinite(ms) ? ms : undefined;
}

function firstLine(s: string): string {
  return (
    s
      .split(/\r?\n/)
      .find((l) => l.trim())
      ?.trim() ?? ''
  );
}

/** Drops ANSI colour codes that Jest and Vitest leave in failure messages. */
export function cleanMessage(s: string): string {
  return s.replace(/\u001b\[[0-9;]*m/g, '').trim();
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** A report's string or number field as text; anything else is absent. */
function textOf(v: unknown): string | undefined {
  return typeof v === 'string' ? v : typeof v === 'number' ? String(v) : undefined;
}
