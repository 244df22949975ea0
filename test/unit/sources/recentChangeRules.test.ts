import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CoChangeModel } from '../../../src/core/cochange/cochangeModel';
import { resolveConfig } from '../../../src/core/config';
import { GitService } from '../../../src/core/git/gitService';
import type { QueryContext } from '../../../src/core/sources/sourceQuery';
import { scoreItem } from '../../../src/core/provider/scoring';
import { HistorySources } from '../../../src/core/sources/git/historySources';
import { renderSuggestionList } from '../../../src/core/prompt/suggestionList';
import { ProactiveContextProvider } from '../../../src/core/provider/provider';
import { storePerTest } from '../store/storeFixture';
import { TempRepo } from '../git/repoFixture';

function context(file: string, now: number, symbolRange?: QueryContext['symbolRange']): QueryContext {
  return {
    query: { currentFile: file, cursorPosition: { line: 2, column: 1 } },
    symbolRange,
    config: resolveConfig({ recentChangeDays: 3650 }),
    now,
    signal: new AbortController().signal,
    note: () => undefined,
  };
}

/** Twelve other files, so that a commit touching all of them is a mass change. */
function everyFile(text: string): Record<string, string> {
  const files: Record<string, string> = { 'src/a.ts': `export function a() {\n  return ${text};\n}\n` };
  for (let i = 0; i < 12; i++) files[`src/f${i}.ts`] = `export const f${i} = ${text};\n`;
  return files;
}

describe('recent changes: focused commits of this file first', function () {
  this.timeout(60000);
  const store = storePerTest('pc-bulk-store-');
  let repo: TempRepo;
  let state: string;
  let sources: HistorySources;
  const now = Date.now();

  before(async () => {
    repo = new TempRepo(true, 'pc-bulk-', Math.floor(now / 1000) - 30 * 86400);
    state = mkdtempSync(join(tmpdir(), 'pc-bulk-state-'));
    repo.commit('start', everyFile('1'));
    repo.commit('fix a', { 'src/a.ts': 'export function a() {\n  return 2;\n}\n' });
    repo.commit('reformat everything', everyFile("'3'"));
    const git = new GitService(repo.dir);
    const model = new CoChangeModel({ root: repo.dir, store: { stateDir: state }, git, lineCountDays: () => 3650 });
    await model.update();
    sources = new HistorySources(
      repo.dir,
      git,
      model,
      { importsOf: () => [], importersOf: () => [] },
      () => Object.keys(everyFile('')),
      () => now,
    );
    // As the indexer does after each history update.
    await sources.refreshWorkingTree();
  });

  after(() => {
    repo.dispose();
    rmSync(state, { recursive: true, force: true });
  });

  it('shows a bulk change only, labelled, when the file has no focused commit', async () => {
    const ctx = context('src/a.ts', now);
    const titles = (await sources.changeSource().collect(ctx)).filter((i) => i.location.commit).map((i) => i.title);
    // Before: the reformat was listed below "fix a", taking a row a reader had no use for.
    assert.deepEqual(titles, ['fix a']);
    const onlyBulk = (await sources.changeSource().collect(context('src/f0.ts', now))).filter((i) => i.location.commit);
    const bulk = onlyBulk.find((i) => i.title === 'reformat everything');
    assert.ok(bulk, onlyBulk.map((i) => i.title).join(', '));
    assert.match(bulk.reason, /^bulk change: 13 files; \+1 −1 lines$/);
  });

  it('looks through a bulk change in the function’s line history, as blame looks through a listed reformat', async () => {
    const ctx = context('src/a.ts', now, { name: 'a', startLine: 1, endLine: 3 });
    const items = await sources.lineHistorySource().collect(ctx);
    // Before: the reformat (and the scaffold that wrote the file) were the function's changes.
    assert.deepEqual(
      items.map((i) => i.title),
      ['fix a'],
    );
    assert.equal(items[0].reason, 'changed a');
  });

  it('says each commit’s age once: in its age, not again in its reason', async () => {
    const ctx = context('src/a.ts', now, { name: 'a', startLine: 1, endLine: 3 });
    const items = [
      ...(await sources.changeSource().collect(ctx)),
      ...(await sources.lineHistorySource().collect(ctx)),
      ...(await sources.changeSource().collect(context('src/f0.ts', now))),
    ].filter((i) => i.location.commit);
    assert.ok(items.length >= 4, items.map((i) => i.title).join(', '));
    for (const i of items) {
      assert.doesNotMatch(`${i.reason} ${i.summary}`, /\bago\b|\bdays?\b|\bmonths?\b/, i.reason);
      assert.ok(i.timestamp, `${i.title} has no date for its age`);
    }
    const fix = items.find((i) => i.title === 'fix a' && i.location.line === undefined);
    assert.equal(fix?.reason, '+1 −1 lines');
    // The list outside the panel: one age per row.
    const text = renderSuggestionList(
      items.filter((i) => i.location.line === undefined),
      { now },
    );
    const rows = text.split('\n').filter((l) => /^ {2}\S/.test(l));
    assert.equal(rows.length, 3, text);
    for (const row of rows) assert.equal(row.match(/ ago\b/g)?.length, 1, row);
    assert.match(text, /^Recent changes \(3\)$/m);
    assert.match(text, /^ {2}fix a · a\.ts \(src\) @[0-9a-f]{8} · 28 days ago\n {6}why: \+1 −1 lines$/m);
  });

  it('says each part of a reason once when the file’s history and the lines’ history find the same commit', async () => {
    const provider = new ProactiveContextProvider(
      store(),
      () => resolveConfig({ recentChangeDays: 3650, minRelevanceScore: 0 }),
      [sources.changeSource(), sources.lineHistorySource()],
      () => ({ name: 'a', startLine: 1, endLine: 3 }),
      undefined,
      () => now,
    );
    const first = await provider.suggest(
      { currentFile: 'src/a.ts', cursorPosition: { line: 2, column: 1 } },
      { record: false },
    );
    const enriched = await provider.enrich(first);
    const fix = enriched?.items.find((i) => i.title === 'fix a');
    assert.ok(fix, JSON.stringify(enriched?.items.map((i) => i.title)));
    assert.deepEqual(fix.reason.split('; ').sort(), ['+1 −1 lines', 'changed a'], fix.reason);
  });
});

describe('recent changes: the function’s own line history first', function () {
  this.timeout(60000);
  let repo: TempRepo;
  let state: string;
  let sources: HistorySources;
  const now = Date.now();
  const file = (early: string, busy: number) =>
    `export function early() {\n  return '${early}';\n}\n\nexport function busy() {\n  return ${busy};\n}\n`;

  before(async () => {
    repo = new TempRepo(true, 'pc-lines-first-', Math.floor(now / 1000) - 60 * 86400);
    state = mkdtempSync(join(tmpdir(), 'pc-lines-first-state-'));
    repo.commit('start', { 'src/service.ts': file('a', 0) });
    repo.commit('fix early', { 'src/service.ts': file('b', 0) });
    // A long, busy file: its other function changed in every one of the file's last 25 commits.
    for (let i = 1; i <= 25; i++) repo.commit(`tweak busy ${i}`, { 'src/service.ts': file('b', i) });
    const git = new GitService(repo.dir);
    const model = new CoChangeModel({ root: repo.dir, store: { stateDir: state }, git, lineCountDays: () => 3650 });
    await model.update();
    sources = new HistorySources(
      repo.dir,
      git,
      model,
      { importsOf: () => [], importersOf: () => [] },
      () => ['src/service.ts'],
      () => now,
    );
    await sources.refreshWorkingTree();
  });

  after(() => {
    repo.dispose();
    rmSync(state, { recursive: true, force: true });
  });

  it('finds the commit that changed the function though the file had 25 later commits, and ranks it above them', async () => {
    const ctx = context('src/service.ts', now, { name: 'early', startLine: 1, endLine: 3 });
    const own = await sources.lineHistorySource().collect(ctx);
    assert.deepEqual(
      own.map((i) => i.title),
      ['fix early', 'start'],
    );
    const file = await sources.changeSource().collect(ctx);
    assert.ok(
      file.some((i) => i.title === 'tweak busy 25'),
      'the file’s newest commits are there too',
    );
    const ranked = [...own, ...file]
      .map((i) => ({ title: i.title, score: scoreItem(i, ctx.query, now, 1).score }))
      .sort((a, b) => b.score - a.score);
    assert.equal(ranked[0].title, 'fix early', JSON.stringify(ranked.slice(0, 4)));
  });
});
