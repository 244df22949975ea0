import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import picomatch from 'picomatch';
import { defaultConfig, type CoreConfig } from '../../config';
import { nullLogger, type Logger } from '../../logger';
import type { SuggestionItem } from '../../types';
import { ChangedFiles } from '../changedFiles';
import { formatAge, score, sourceQueryOf } from '../sourceQuery';
import type { RefreshStats, SourceWiring, SourceQuery, QueryContext, WorkspaceSource } from '../sourceQuery';
import { cleanMessage, parseReport, type ParsedReport, type TestOutcome } from './reportParsers';
import { importedFiles, ProjectFiles, sourceByName, stackFrames } from './testLinks';
import { walkFilesAsync } from './walk';
import { TimeSlice } from '../../timeSlice';

/** How a failed test was tied to a source file; the order is also the strength. */
export type TestLinkKind = 'stack' | 'test-file' | 'name' | 'import';

export interface FailedTest {
  id: string;
  report: string;
  format: ParsedReport['format'];
  name: string;
  suite?: string;
  testFile?: string;
  message: string;
  stack?: string;
  reportLine: number;
  /** When the run happened: the report's own timestamp, else the report file's mtime. */
  time: number;
}

interface Link {
  test: FailedTest;
  kind: TestLinkKind;
  /** Line of the first stack frame in the linked file. */
  line?: number;
}

interface CachedReport {
  mtimeMs: number;
  size: number;
  parsed?: ParsedReport;
}

const LINK_SCORE: Record<TestLinkKind, number> = { stack: 0.9, 'test-file': 0.88, name: 0.8, import: 0.7 };

export interface TestReportSourceOptions extends SourceWiring {
  /** Walk limits for finding report files (they sit in git-ignored folders the scanner skips). */
  maxDepth?: number;
  maxEntries?: number;
  /** Reports larger than this are skipped. */
  maxReportBytes?: number;
  /** Failures kept per source file; the rest are counted and the count is shown. */
  maxLinksPerFile?: number;
}

/**
 * Failing tests from the reports lying in the workspace (JUnit XML, Jest/Vitest JSON, mocha JSON,
 * TAP), tied to source files by stack frames, the test file's imports and naming conventions.
 */
export class TestReportSource implements WorkspaceSource {
  readonly name = 'reports';
  readonly kinds = ['warning'] as const;
  private readonly importsOfFile: ((file: string) => string[]) | undefined;
  private readonly root: string;
  private readonly config: CoreConfig;
  private readonly logger: Logger;
  private readonly now: () => number;
  private readonly maxDepth: number;
  private readonly maxEntries: number;
  private readonly maxReportBytes: number;
  private readonly maxLinksPerFile: number;
  private reports = new Map<string, CachedReport>();
  private bySource = new Map<string, { links: Link[]; more: number }>();
  private failures: FailedTest[] = [];
  private readonly testFileImports = new Map<string, { mtimeMs: number; imports: string[] }>();
  private lastCapped = false;
  private linked = false;

  constructor(ctx: TestReportSourceOptions) {
    this.root = ctx.root;
    this.importsOfFile = ctx.importsOf;
    this.config = ctx.config ?? defaultConfig;
    this.logger = ctx.logger ?? nullLogger;
    this.now = ctx.now ?? Date.now;
    this.maxDepth = ctx.maxDepth ?? 12;
    this.maxEntries = ctx.maxEntries ?? 100_000;
    this.maxReportBytes = ctx.maxReportBytes ?? 32 * 1024 * 1024;
    this.maxLinksPerFile = ctx.maxLinksPerFile ?? 50;
  }

  /** Failed tests found at the last refresh, newest report first. */
  list(): readonly FailedTest[] {
    return this.failures;
  }

  /** True when the last walk hit its depth or entry cap. */
  get capped(): boolean {
    return this.lastCapped;
  }

  async refresh(signal?: AbortSignal): Promise<RefreshStats> {
    const started = performance.now();
    const walk = await walkFilesAsync(this.root, { maxDepth: this.maxDepth, maxEntries: this.maxEntries, signal });
    this.lastCapped = walk.capped;
    if (walk.capped)
      this.logger.info(
        `Test report search stopped at ${this.maxEntries} entries or depth ${this.maxDepth}; some reports may be missed.`,
      );
    const isReport = picomatch([...this.config.testReportGlobs], { dot: true });
    const files = new ProjectFiles(this.root, walk.files);
    const next = new Map<string, CachedReport>();
    const reportPaths = walk.files.filter((f) => isReport(f));
    const changedFiles = new ChangedFiles({
      root: this.root,
      previous: this.reports,
      maxBytes: this.maxReportBytes,
      logger: this.logger,
      signal,
      messages: {
        tooLarge: (path, size) => `Skipped test report ${path}: ${size} bytes is over the limit.`,
        unreadable: (path, error) => `Skipped test report ${path}: ${error}`,
      },
    });
    const slice = new TimeSlice();
    for (const file of changedFiles.visit(reportPaths)) {
      await slice.pause();
      const { path } = file;
      if (file.kind === 'unchanged') {
        next.set(path, file.entry);
        continue;
      }
      const entry: CachedReport = { ...file.stamp };
      next.set(path, entry);
      if (file.kind === 'skipped') continue;
      try {
        entry.parsed = parseReport(path, file.text);
        changedFiles.markParsed();
        if (!entry.parsed) this.logger.debug(`${path} matches a report pattern but is not a test report.`);
      } catch (err) {
        changedFiles.markFailed(path, err);
      }
    }
    const removed = [...this.reports.keys()].some((p) => !next.has(p));
    const changed = removed || next.size !== this.reports.size || [...next].some(([p, r]) => this.reports.get(p) !== r);
    this.reports = next;
    // Links only change with the reports (a new test file comes with a new report run).
    if (changed || !this.linked) this.link(files);
    this.linked = true;
    return {
      files: reportPaths.length,
      parsed: changedFiles.parsed,
      skipped: changedFiles.skipped,
      entries: this.failures.length,
      ms: performance.now() - started,
    };
  }

  private link(files: ProjectFiles): void {
    const failures: FailedTest[] = [];
    const seen = new Map<string, FailedTest>();
    // Per source file, one link per test (the strongest), found by the test itself: a report with
    // ~100k failures on one file made a scan of the list per link quadratic (tens of seconds).
    const bySource = new Map<string, Map<FailedTest, Link>>();
    const add = (src: string, link: Link) => {
      let links = bySource.get(src);
      if (!links) bySource.set(src, (links = new Map<FailedTest, Link>()));
      const same = links.get(link.test);
      if (!same) links.set(link.test, link);
      else if (LINK_SCORE[link.kind] > LINK_SCORE[same.kind]) Object.assign(same, link);
    };
    // A test file's namesake and imports, worked out once per link pass, not once per failure in it.
    const related = new Map<string, { named?: string; imports: string[] }>();
    const relatedOf = (testFile: string) => {
      let r = related.get(testFile);
      if (!r)
        related.set(testFile, (r = { named: sourceByName(testFile, files), imports: this.importsOf(testFile)(files) }));
      return r;
    };
    const reports = [...this.reports.entries()].filter(([, r]) => r.parsed).sort((a, b) => b[1].mtimeMs - a[1].mtimeMs);
    for (const [report, cached] of reports) {
      for (const t of cached.parsed!.tests) {
        if (t.status !== 'failed') continue;
        const testFile = this.testFileOf(t, files);
        const time = t.timestamp ?? cached.parsed!.timestamp ?? cached.mtimeMs;
        const failed: FailedTest = {
          id: `test:${report}#${t.suite ? t.suite + '/' : ''}${t.name}`,
          report,
          format: cached.parsed!.format,
          name: t.name,
          suite: t.suite,
          testFile,
          message: cleanMessage(t.message ?? '') || 'failed',
          stack: t.stack,
          reportLine: t.reportLine,
          time,
        };
        // The same test in two reports of one run (JUnit and JSON): keep the newest report's.
        const key = `${testFile ?? ''}|${t.suite ?? ''}|${t.name}`;
        if (seen.has(key)) continue;
        seen.set(key, failed);
        failures.push(failed);
        if (testFile) add(testFile, { test: failed, kind: 'test-file' });
        // Frames come innermost first, so each file keeps the line nearest to the failure.
        for (const f of stackFrames(t.stack ?? '', files))
          if (f.path !== testFile) add(f.path, { test: failed, kind: 'stack', line: f.line });
        if (testFile) {
          const related = relatedOf(testFile);
          if (related.named) add(related.named, { test: failed, kind: 'name' });
          for (const imp of related.imports) add(imp, { test: failed, kind: 'import' });
        }
      }
    }
    this.failures = failures.sort((a, b) => b.time - a.time);
    this.bySource = new Map(
      [...bySource].map(([src, links]) => [src, keepStrongest([...links.values()], this.maxLinksPerFile)]),
    );
  }

  private testFileOf(t: TestOutcome, files: ProjectFiles): string | undefined {
    for (const h of t.fileHints) {
      const hit = files.resolve(h) ?? files.resolveDotted(h);
      if (hit) return hit;
    }
    // Fall back to the first frame that looks like a test file.
    for (const f of stackFrames(t.stack ?? '', files))
      if (/(\.|_|\/)(test|spec)s?[./_]|(^|\/)test_|Tests?\.\w+$|__tests__/.test(f.path)) return f.path;
    return undefined;
  }

  private importsOf(testFile: string): (files: ProjectFiles) => string[] {
    return (files) => {
      let mtimeMs = 0;
      try {
        const st = statSync(join(this.root, testFile));
        mtimeMs = st.mtimeMs;
        if (st.size > this.config.index.maxFileBytes) return [];
      } catch {
        return [];
      }
      const cached = this.testFileImports.get(testFile);
      if (cached && cached.mtimeMs === mtimeMs) return cached.imports;
      let imports: string[] = [];
      try {
        imports = importedFiles(testFile, readFileSync(join(this.root, testFile), 'utf8'), files);
      } catch {
        imports = [];
      }
      this.testFileImports.set(testFile, { mtimeMs, imports });
      return imports;
    };
  }

  collect(ctx: QueryContext): Promise<SuggestionItem[]> {
    return Promise.resolve(this.query(sourceQueryOf(ctx, this.importsOfFile)));
  }

  // eslint-disable-next-line complexity -- the ranking signals of one query, in order
  query(q: SourceQuery): SuggestionItem[] {
    if (!q.file) return [];
    const linked = this.bySource.get(q.file);
    if (!linked?.links.length) return [];
    const { links, more } = linked;
    let fileMtime: number | undefined;
    try {
      fileMtime = statSync(join(this.root, q.file)).mtimeMs;
    } catch {
      fileMtime = undefined;
    }
    const now = this.now();
    const items: SuggestionItem[] = [];
    for (const link of links) {
      const t = link.test;
      const stale = fileMtime !== undefined && t.time < fileMtime;
      const inSymbol =
        link.line !== undefined &&
        q.symbolRange !== undefined &&
        link.line >= q.symbolRange.start &&
        link.line <= q.symbolRange.end;
      const nearCursor = link.line !== undefined && q.line !== undefined && Math.abs(link.line - q.line) <= 10;
      let s = LINK_SCORE[link.kind] + (inSymbol ? 0.06 : nearCursor ? 0.03 : 0);
      if (stale) s *= 0.5;
      const label = t.suite ? `${t.suite} › ${t.name}` : t.name;
      const why =
        link.kind === 'stack'
          ? `its stack trace points at line ${link.line}${inSymbol && q.symbol ? ` (inside ${q.symbol})` : ''}`
          : link.kind === 'test-file'
            ? 'it is defined in this file'
            : link.kind === 'name'
              ? `${t.testFile} is this file's test by name`
              : `its test file ${t.testFile} imports this file`;
      const reason =
        `test \`${t.suite ? t.suite + ' ' : ''}${t.name}\` failed in ${t.report} (${formatAge(t.time, now)}); ${why}` +
        (stale ? ' — stale: the report is older than the last change to this file' : '');
      const meta: Record<string, string | number | boolean> = {
        stale,
        link: link.kind,
        report: t.report,
        format: t.format,
      };
      if (t.testFile) meta.testFile = t.testFile;
      if (link.kind === 'stack' && link.line !== undefined) meta.sourceLine = link.line;
      if (t.suite) meta.suite = t.suite;
      items.push({
        type: 'warning',
        title: `Failing test: ${label}`,
        summary: summarizeFailure(t),
        relevanceScore: score(s),
        reason,
        location: { path: t.report, line: t.reportLine },
        entityId: t.id,
        timestamp: t.time,
        meta,
      });
    }
    items.sort((a, b) => b.relevanceScore - a.relevanceScore);
    if (more > 0) {
      const top = items[0];
      top.summary += ` … and ${more.toLocaleString('en-US')} more failure${more === 1 ? '' : 's'} in this file`;
      top.meta = { ...top.meta, moreFailures: more };
    }
    return items;
  }
}

/** The strongest links first (by kind, then newest), at most `max`; how many were left out. */
function keepStrongest(links: Link[], max: number): { links: Link[]; more: number } {
  if (links.length <= max) return { links, more: 0 };
  const sorted = links.sort((a, b) => LINK_SCORE[b.kind] - LINK_SCORE[a.kind] || b.test.time - a.test.time);
  return { links: sorted.slice(0, max), more: links.length - max };
}

function summarizeFailure(t: FailedTest): string {
  const msg = t.message.replace(/\s+/g, ' ').trim();
  const short = msg.length > 200 ? msg.slice(0, 199).trimEnd() + '…' : msg;
  return t.testFile ? `${short} (${t.testFile})` : short;
}
