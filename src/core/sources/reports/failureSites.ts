import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { FailedTest } from './testReportSource';
import { ProjectFiles, stackFrames } from './testLinks';

/** A line of the workspace a failing test points at. */
export interface FailureSite {
  /** Root-relative. */
  path: string;
  /** 1-based. */
  line: number;
}

/** A failed test with the places an editor can show it: the test itself and the source lines its stack passes through. */
export interface LocatedFailure {
  id: string;
  name: string;
  suite?: string;
  message: string;
  /** Root-relative path of the report that says it failed. */
  report: string;
  /** 1-based line of the test's entry in the report. */
  reportLine: number;
  /** When the run happened (unix ms). */
  time: number;
  /** The test's own line, when its file is known. */
  test?: FailureSite;
  /** Lines outside the test file that the failure's stack passes through, innermost first, one per file. */
  sources: FailureSite[];
}

/** Largest test file read to find a test by its name. */
const MAX_TEST_FILE_BYTES = 1024 * 1024;

/**
 * Places the failures of the last report run in the code: the test's line (its frame in the stack,
 * else the line that names it in the test file) and the source lines the stack passes through.
 * `files` lists the workspace's files, for stack traces written with another machine's paths.
 */
export function locateFailures(
  root: string,
  failures: readonly FailedTest[],
  files: Iterable<string>,
): LocatedFailure[] {
  const known = new Set(files);
  for (const f of failures) if (f.testFile) known.add(f.testFile);
  const project = new ProjectFiles(root, known);
  const texts = new Map<string, string[] | undefined>();
  const linesOf = (path: string) => {
    if (!texts.has(path)) texts.set(path, readLines(root, path));
    return texts.get(path);
  };
  return failures.map((f) => {
    const frames = stackFrames(f.stack ?? '', project);
    const sources: FailureSite[] = [];
    for (const frame of frames)
      if (frame.path !== f.testFile && !sources.some((s) => s.path === frame.path))
        sources.push({ path: frame.path, line: frame.line });
    let test: FailureSite | undefined;
    if (f.testFile) {
      const own = frames.find((fr) => fr.path === f.testFile);
      const line = own?.line ?? lineNaming(linesOf(f.testFile), f.name);
      if (line !== undefined) test = { path: f.testFile, line };
    }
    const located: LocatedFailure = {
      id: f.id,
      name: f.name,
      message: f.message,
      report: f.report,
      reportLine: f.reportLine,
      time: f.time,
      sources,
    };
    if (f.suite) located.suite = f.suite;
    if (test) located.test = test;
    return located;
  });
}

/** A nested test name after its last ` > ` or ` › `, found by index: `/\s+>\s+/` backtracks on long blank runs. */
function lastPartOf(name: string): string {
  const blank = (c: string | undefined) => c === ' ' || c === '\t' || c === '\n' || c === '\r';
  for (let i = name.length - 2; i > 0; i--) {
    if ((name[i] === '>' || name[i] === '›') && blank(name[i - 1]) && blank(name[i + 1])) return name.slice(i + 1);
  }
  return name;
}

/** The first line that quotes the test's own name (the part after the last `>`/`›` of a nested name). */
function lineNaming(lines: readonly string[] | undefined, name: string): number | undefined {
  if (!lines) return undefined;
  const own = lastPartOf(name).trim();
  if (!own || own.length < 3) return undefined;
  for (const quote of ["'", '"', '`']) {
    const needle = `${quote}${own}${quote}`;
    const i = lines.findIndex((l) => l.includes(needle));
    if (i >= 0) return i + 1;
  }
  return undefined;
}

function readLines(root: string, path: string): string[] | undefined {
  try {
    const abs = join(root, path);
    if (statSync(abs).size > MAX_TEST_FILE_BYTES) return undefined;
    return readFileSync(abs, 'utf8').split(/\r?\n/);
  } catch {
    return undefined;
  }
}
