#!/usr/bin/env node
// Checks the history index against git on a real repository: for sampled files, the recent changes
// the index answers against `git log --first-parent` (the items must be identical), how often the
// old all-parents `git log -- file` answer differed, and the lines' history against git: its newest
// commit against `git blame --first-parent -w --ignore-revs-file` (whitespace and listed reformats
// looked past, as the source does), its list against `git log --first-parent -L` (which can do
// neither: what it shows more is counted). Times both sides.
//   node bench/history/compare-recent.mjs --root DIR [--files 300] [--days 30] [--ranges 60] [--seed 1] [--now wall]
// (after `npx tsc -p tsconfig.json`). "Now" is an hour after the last commit unless --now wall: a
// snapshot's history may have stopped months ago. Prints one JSON object.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { engineModule, takeOption } from '../synthetic/common.mjs';

const args = process.argv.slice(2);
const root = takeOption(args, 'root');
const sampleFiles = Number(takeOption(args, 'files', 300));
const days = Number(takeOption(args, 'days', 30));
const sampleRanges = Number(takeOption(args, 'ranges', 60));
const seed = Number(takeOption(args, 'seed', 1));
const nowFrom = takeOption(args, 'now', 'head');
if (!root) {
  process.stderr.write(
    'usage: compare-recent.mjs --root DIR [--files 300] [--days 30] [--ranges 60] [--seed 1] [--now wall]\n',
  );
  process.exit(2);
}

const { CoChangeModel } = engineModule('cochange/cochangeModel');
const { GitService } = engineModule('git/gitService');
const { sinceOf } = engineModule('cochange/recentWindow');
const { LineHistorySource } = engineModule('sources/git/lineHistorySource');
const { resolveConfig } = engineModule('config');
const { prng } = engineModule('random');

const SOURCE = /\.(?:[cm]?[jt]sx?|py|go|rs|rb|java|kt|cs|php|swift|scala|c|cc|cpp|h|hpp|ex|exs)$/;
const git = (argv) =>
  execFileSync('git', ['--literal-pathspecs', '-c', 'core.quotepath=false', ...argv], {
    cwd: root,
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
  });
const pct = (xs, p) =>
  xs.length ? [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))] : 0;
const ms = (xs) => ({ p50: +pct(xs, 50).toFixed(2), p95: +pct(xs, 95).toFixed(2), n: xs.length });
const random = prng(seed);
const sample = (xs, n) => {
  const pool = [...xs];
  const out = [];
  while (out.length < Math.min(n, xs.length)) out.push(pool.splice(Math.floor(random() * pool.length), 1)[0]);
  return out;
};

const stateDir = mkdtempSync(join(tmpdir(), 'pc-compare-'));
try {
  const now =
    nowFrom === 'wall' ? Date.now() : Number(git(['log', '-1', '--format=%ct', 'HEAD']).trim()) * 1000 + 3_600_000;
  const service = new GitService(root);
  const model = new CoChangeModel({
    root,
    store: { stateDir },
    git: service,
    lineCountDays: () => days,
    now: () => now,
  });
  const mined = await model.update();
  const since = sinceOf(now, days);
  const tracked = git(['ls-files', '-z']).split('\0').filter(Boolean);
  // Files changed in the window first: most sampled files would otherwise have nothing to compare.
  const recent = new Set(
    git([
      'log',
      '--first-parent',
      '-m',
      '--no-renames',
      '--relative',
      '--name-only',
      '-z',
      '--format=',
      `--since=${since / 1000}`,
      'HEAD',
      '--',
    ])
      .split('\0')
      .map((s) => s.replace(/^\n/, ''))
      .filter(Boolean),
  );
  const active = tracked.filter((f) => recent.has(f));
  const files = [
    ...sample(active, Math.ceil(sampleFiles / 2)),
    ...sample(
      tracked.filter((f) => !recent.has(f)),
      Math.floor(sampleFiles / 2),
    ),
  ];

  const result = {
    root,
    days,
    mined,
    files: files.length,
    identical: 0,
    differing: [],
    commitsCompared: 0,
    allParentsDiffer: 0,
    allParentsExample: undefined,
    indexMs: [],
    gitMs: [],
  };
  for (const file of files) {
    let t0 = performance.now();
    const fromIndex = model.history.recent(file, 8, since);
    result.indexMs.push(performance.now() - t0);
    t0 = performance.now();
    const fromGit = await service.recentCommits(file, { days, maxCount: 8, now });
    result.gitMs.push(performance.now() - t0);
    result.commitsCompared += fromGit.length;
    if (JSON.stringify(fromIndex) === JSON.stringify(fromGit)) result.identical++;
    else if (result.differing.length < 5)
      result.differing.push({
        file,
        index: fromIndex.map((c) => c.hash.slice(0, 10)),
        git: fromGit.map((c) => c.hash.slice(0, 10)),
      });
    // The answer before the index: all parents, history simplified by git.
    const old = git([
      'log',
      '--no-renames',
      '--relative',
      '--format=%H',
      '-n',
      '8',
      `--since=${since / 1000}`,
      'HEAD',
      '--',
      file,
    ])
      .split('\n')
      .filter(Boolean);
    if (old.join() !== fromGit.map((c) => c.hash).join()) {
      result.allParentsDiffer++;
      result.allParentsExample ??= {
        file,
        firstParent: fromGit.map((c) => c.subject),
        allParents: old.map((h) => git(['log', '-1', '--format=%s', h]).trim()),
      };
    }
  }

  // Lines' history: random ten-line ranges of source files with several commits.
  const ignoreFile = git(['ls-files', '--', '.git-blame-ignore-revs']).trim();
  // (An older engine has no list: the script also measures the build before it.)
  const ignored = service.ignoredRevisions ? await service.ignoredRevisions() : new Set();
  const lines = {
    ranges: 0,
    ignoredRevisions: ignored.size,
    answered: 0,
    newestAsBlame: 0,
    blameOnIgnored: 0,
    newestDiffering: [],
    identical: 0,
    shorter: 0,
    lookedPast: 0,
    lookedPastExamples: [],
    differing: [],
    sourceMs: [],
    gitMs: [],
  };
  const source = new LineHistorySource(service, model, (f) => service.uncommittedHunks(f));
  const candidates = sample(
    tracked.filter((f) => model.history.revisions(f, 3).length >= 3 && SOURCE.test(f)),
    sampleRanges,
  );
  const subject = (h) => git(['log', '-1', '--format=%s', h]).trim();
  for (const file of candidates) {
    const length = git(['show', `HEAD:${file}`]).split('\n').length;
    if (length < 12) continue;
    const start = 1 + Math.floor(random() * (length - 11));
    const range = { name: 'range', startLine: start, endLine: start + 9 };
    const ctx = {
      query: { currentFile: file },
      symbolRange: range,
      config: resolveConfig(),
      now,
      signal: new AbortController().signal,
      note: () => undefined,
    };
    let t0 = performance.now();
    const items = await source.collect(ctx);
    lines.sourceMs.push(performance.now() - t0);
    t0 = performance.now();
    const logL = git([
      'log',
      '--first-parent',
      '--format=%H',
      '--no-patch',
      '-n',
      '5',
      `-L${range.startLine},${range.endLine}:${file}`,
      'HEAD',
    ])
      .split('\n')
      .filter((h) => /^[0-9a-f]{40,64}$/.test(h));
    lines.gitMs.push(performance.now() - t0);
    lines.ranges++;
    const got = items.map((i) => i.location.commit);
    // The newest commit blame names for any of the lines (committer time: the first-parent line is in order).
    const blame = git([
      'blame',
      '--first-parent',
      '-w',
      ...(ignoreFile ? ['--ignore-revs-file', ignoreFile] : []),
      '--porcelain',
      `-L${range.startLine},${range.endLine}`,
      'HEAD',
      '--',
      file,
    ]);
    let newest;
    let newestTime = -1;
    let current;
    for (const line of blame.split('\n')) {
      const head = /^([0-9a-f]{40,64}) \d+ \d+/.exec(line);
      if (head) current = head[1];
      else if (line.startsWith('committer-time ') && Number(line.slice(15)) > newestTime)
        [newest, newestTime] = [current, Number(line.slice(15))];
    }
    // Blame gives no line to a deletion; the source, like git log -L, counts one inside the range.
    if (got.length) lines.answered++;
    // Lines an ignored commit added have nowhere else to go: blame names the ignored commit for them.
    if (got.length && newest && ignored.has(newest)) lines.blameOnIgnored++;
    else if (got.length && got[0] === newest) lines.newestAsBlame++;
    else if (got.length && lines.newestDiffering.length < 5)
      lines.newestDiffering.push({
        file,
        range: [range.startLine, range.endLine],
        source: got[0]?.slice(0, 10),
        blame: newest?.slice(0, 10),
      });
    // git log -L walks all history and ignores nothing; the source reads the file's newest 20 commits.
    // What it shows that the source looked past: its commits newer than the source's oldest, not shown.
    const oldest = got.length ? logL.indexOf(got[got.length - 1]) : logL.length;
    const past = logL.filter((h, i) => !got.includes(h) && (oldest < 0 || i < oldest));
    const inOrder = got
      .filter((h) => logL.includes(h))
      .every((h, i, xs) => !i || logL.indexOf(xs[i - 1]) < logL.indexOf(h));
    if (got.join() === logL.join()) lines.identical++;
    else if (got.length < logL.length && got.every((h, i) => h === logL[i])) lines.shorter++;
    else if (past.length && inOrder) {
      lines.lookedPast++;
      if (lines.lookedPastExamples.length < 5) lines.lookedPastExamples.push({ file, lookedPast: past.map(subject) });
    } else if (lines.differing.length < 5)
      lines.differing.push({
        file,
        range: [range.startLine, range.endLine],
        source: got.map((h) => h.slice(0, 10)),
        git: logL.map((h) => h.slice(0, 10)),
      });
  }
  const summary = {
    ...result,
    indexMs: ms(result.indexMs),
    gitMs: ms(result.gitMs),
    lineHistory: { ...lines, sourceMs: ms(lines.sourceMs), gitMs: ms(lines.gitMs) },
  };
  process.stdout.write(`${JSON.stringify(summary, null, 2)}\n`);
} finally {
  rmSync(stateDir, { recursive: true, force: true });
}
