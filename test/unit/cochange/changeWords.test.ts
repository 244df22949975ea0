import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CoChangeCounts } from '../../../src/core/cochange/cochangeCounts';
import { CoChangeModel } from '../../../src/core/cochange/cochangeModel';
import { relatedFiles } from '../../../src/core/cochange/relatedFiles';
import { extractTerms, TermIndex } from '../../../src/core/cochange/termIndex';
import { fileNameWords, FileIndex, identifierWords } from '../../../src/core/cochange/testPairing';
import { resolveConfig } from '../../../src/core/config';
import { GitService } from '../../../src/core/git/gitService';
import { diffWords } from '../../../src/core/git/hunks';
import type { QueryContext } from '../../../src/core/sources/sourceQuery';
import { HistorySources } from '../../../src/core/sources/git/historySources';
import { TempRepo } from '../git/repoFixture';

const NOW = 1_700_000_000_000;

/** Thirty files that share only words every file has, so that a rare word stands out. */
function filler(): Record<string, string> {
  const out: Record<string, string> = {};
  for (let i = 0; i < 30; i++)
    out[`misc/m${i}.ts`] = `export function value${i}(text: string) { return text.trim(); }\n`;
  return out;
}

describe('the words of a change', () => {
  it('are the identifiers on the added and removed lines of a diff, not its headers or context', () => {
    const diff = [
      'diff --git a/src/headerOnlyName.ts b/src/headerOnlyName.ts',
      'index 1111111..2222222 100644',
      '--- a/src/headerOnlyName.ts',
      '+++ b/src/headerOnlyName.ts',
      '@@ -3 +3,2 @@ function contextFunctionName() {',
      '-  const removedLedger = 1;',
      '+  const addedLedger = settleChargeback(1);',
      '+++counterWithPluses;',
      '@@ -9 +10 @@',
      '---decrementedValue;',
      '+ok',
    ].join('\n');
    const words = diffWords(diff);
    for (const w of [
      'removedLedger',
      'addedLedger',
      'settleChargeback',
      'counterWithPluses',
      'decrementedValue',
      'const',
    ])
      assert.ok(words.includes(w), w);
    for (const w of ['headerOnlyName', 'contextFunctionName', 'index'])
      assert.ok(!words.includes(w), `${w} is not on a changed line`);
  });

  it('come with the uncommitted hunks of a file; a clean or untracked file has none', async () => {
    const repo = new TempRepo();
    try {
      repo.commit('base', { 'src/refunds.ts': 'export function refund() {\n  return 1;\n}\n' });
      const git = new GitService(repo.dir);
      assert.deepEqual(await git.uncommittedChange('src/refunds.ts'), { hunks: [], words: [] });
      repo.write('src/refunds.ts', 'export function refund() {\n  return settleChargebackLedger();\n}\n');
      const change = await git.uncommittedChange('src/refunds.ts');
      assert.equal(change.hunks.length, 1);
      assert.ok(
        change.words.includes('settleChargebackLedger') && change.words.includes('return'),
        change.words.join(' '),
      );
      assert.ok(!change.words.includes('refund'), 'the unchanged first line is not part of the change');
      repo.write('src/new.ts', 'export const brandNewThing = 1;\n');
      assert.deepEqual(
        (await git.uncommittedChange('src/new.ts')).words,
        [],
        'all of an untracked file is new: its own words say nothing extra',
      );
    } finally {
      repo.dispose();
    }
  });

  it('bring in and lift the files that name what the change is about', () => {
    const idx = new TermIndex();
    for (const [p, text] of Object.entries(filler())) idx.set(p, extractTerms(text));
    idx.set(
      'src/refunds.ts',
      extractTerms('export function refund(order: Order) { return settleChargebackLedger(order); }'),
    );
    idx.set('jobs/ledger.ts', extractTerms('export function settleChargebackLedger(order: Order) {}'));
    idx.set('test/quarantine.test.ts', extractTerms('it("holds", () => quarantineBucketRelease());'));
    idx.set('src/bucket.ts', extractTerms('export function quarantineBucketRelease() {}'));
    const counts = new CoChangeCounts();
    counts.add(['src/refunds.ts', 'misc/m1.ts'], NOW - 86_400_000);
    const files = new FileIndex([
      ...Object.keys(filler()),
      'src/refunds.ts',
      'jobs/ledger.ts',
      'test/quarantine.test.ts',
      'src/bucket.ts',
    ]);
    const ctx = { cochange: counts, files, terms: idx, now: NOW };

    const plain = relatedFiles('src/refunds.ts', ctx);
    assert.ok(
      !plain.some((r) => r.path === 'test/quarantine.test.ts'),
      'nothing links the test to the file before the change',
    );
    const changed = relatedFiles('src/refunds.ts', { ...ctx, changeWords: ['quarantineBucketRelease', 'return'] });
    const hit = changed.findIndex((r) => r.path === 'test/quarantine.test.ts');
    assert.ok(hit >= 0 && hit < 2, changed.map((r) => r.path).join(', '));
    assert.ok(
      changed[hit].reasons.includes('mentions quarantineBucketRelease, which your change touches'),
      changed[hit].reasons.join('; '),
    );
    assert.ok(changed[hit].score > (plain.find((r) => r.path === 'misc/m1.ts')?.score ?? 0) / 2);
    assert.deepEqual(
      relatedFiles('src/refunds.ts', { ...ctx, changeWords: ['wordNoFileHas'] }),
      plain,
      'words no file has change nothing',
    );
  });
});

describe('files a change is about, by their names', () => {
  it('reads the words of identifiers and of file names alike, singular and lower-cased', () => {
    assert.deepEqual(identifierWords('$ZodRecordDef'), ['zod', 'record', 'def']);
    assert.deepEqual(identifierWords('HTTPServerOptions'), ['http', 'server', 'option']);
    assert.deepEqual(identifierWords('parse_entries_v2'), ['parse', 'entry']);
    assert.deepEqual(fileNameWords('packages/zod/src/v4/classic/tests/discriminated-unions.test.ts'), [
      'discriminated',
      'union',
    ]);
    assert.deepEqual(fileNameWords('tests/test_query_builder.py'), ['query', 'builder']);
    assert.deepEqual(fileNameWords('src/index.ts'), [], 'a name every folder has names nothing');
    assert.deepEqual(fileNameWords('lib/status.go'), ['status'], 'a word that ends in -us keeps its s');
  });

  it('brings in the test named after what the change is about, and not one named after a word it lacks', () => {
    const tests = ['record', 'object', 'string', 'number', 'discriminated-unions', 'tuple', 'array', 'default'];
    const paths = [
      ...tests.map((t) => `v4/classic/tests/${t}.test.ts`),
      'v4/core/schemas.ts',
      'v4/core/api.ts',
      'v4/classic/schemas.ts',
    ];
    const counts = new CoChangeCounts();
    // The schemas file changes with every test once: history alone cannot tell them apart.
    tests.forEach((t, i) =>
      counts.add(['v4/core/schemas.ts', `v4/classic/tests/${t}.test.ts`], NOW - (i + 1) * 3_600_000),
    );
    const ctx = { cochange: counts, files: new FileIndex(paths), now: NOW };
    const change = ['$ZodRecord', '$ZodRecordDef', 'keyType', 'valueType', 'partialRecord'];
    const changed = relatedFiles('v4/core/schemas.ts', { ...ctx, changeWords: change });
    assert.equal(changed[0].path, 'v4/classic/tests/record.test.ts', changed.map((r) => r.path).join(', '));
    assert.ok(changed[0].reasons.includes('your change is about record'), changed[0].reasons.join('; '));
    const union = relatedFiles('v4/core/schemas.ts', {
      ...ctx,
      changeWords: ['DiscriminatedUnionOptions', 'discriminator'],
    });
    assert.equal(
      union[0].path,
      'v4/classic/tests/discriminated-unions.test.ts',
      'every word of the name is in the change',
    );
    const half = relatedFiles('v4/core/schemas.ts', { ...ctx, changeWords: ['unionOptions'] });
    assert.ok(
      !half
        .find((r) => r.path.endsWith('discriminated-unions.test.ts'))
        ?.reasons.some((r) => r.startsWith('your change is about')),
      'union alone is not discriminated-unions',
    );
    const plain = relatedFiles('v4/core/schemas.ts', ctx);
    assert.ok(
      !plain.some((r) => r.reasons.some((x) => x.startsWith('your change is about'))),
      'no change, no such reason',
    );
  });

  it('gives a name on most of the tree (a package named in every path) little weight', () => {
    const paths = Array.from({ length: 40 }, (_, i) => `src/widget${i}/schema.ts`).concat([
      'src/record.test.ts',
      'src/core.ts',
    ]);
    const files = new FileIndex(paths);
    const words = new Map([
      ['schema', 3],
      ['record', 1],
    ]);
    const named = files.namedBy(words, 'src/core.ts', 50);
    const record = named.find((n) => n.path === 'src/record.test.ts')!;
    const schema = named.find((n) => n.path === 'src/widget0/schema.ts')!;
    assert.ok(record && schema, named.map((n) => n.path).join(', '));
    assert.ok(record.score > schema.score * 2, `${record.score} vs ${schema.score}`);
    assert.deepEqual(files.namedBy(new Map(), 'src/core.ts', 10), []);
  });
});

describe('related files in the panel follow an uncommitted change', function () {
  this.timeout(60000);
  let state: string;
  beforeEach(() => {
    state = mkdtempSync(join(tmpdir(), 'pc-change-words-'));
  });
  afterEach(() => rmSync(state, { recursive: true, force: true }));

  it('shows the file that names what the edit calls, then drops it when the edit is committed away', async () => {
    const repo = new TempRepo();
    try {
      repo.commit('base', { ...filler(), 'jobs/ledger.ts': 'export function settleChargebackLedger() {}\n' });
      repo.commit('refunds', { 'src/refunds.ts': 'export function refund() {\n  return 1;\n}\n' });
      repo.commit('touch', {
        'src/refunds.ts': 'export function refund() {\n  return 2;\n}\n',
        'misc/m1.ts': 'export const changed = 1;\n',
      });
      const git = new GitService(repo.dir);
      const model = new CoChangeModel({ root: repo.dir, store: { stateDir: state }, git });
      await model.update();
      const files = () => repo.git('ls-files', '-z').split('\0').filter(Boolean);
      const sources = new HistorySources(
        repo.dir,
        git,
        model,
        { importsOf: () => [], importersOf: () => [] },
        files,
        () => NOW,
      );
      await sources.refreshTerms();
      await sources.refreshWorkingTree();
      const ctx: QueryContext = {
        query: { currentFile: 'src/refunds.ts' },
        config: resolveConfig({}),
        now: NOW,
        signal: new AbortController().signal,
        note: () => undefined,
      };
      const shown = async () => (await sources.cochangeSource().collect(ctx)).map((i) => i.title);

      assert.ok(!(await shown()).includes('jobs/ledger.ts'), 'a clean file: only history speaks');
      repo.write('src/refunds.ts', 'export function refund() {\n  return settleChargebackLedger();\n}\n');
      sources.invalidate('src/refunds.ts');
      // The word index re-reads the file off the query path; wait for it rather than race it.
      await sources.refreshTerms();
      const items = await sources.cochangeSource().collect(ctx);
      const ledger = items.find((i) => i.title === 'jobs/ledger.ts');
      assert.ok(ledger, items.map((i) => i.title).join(', '));
      assert.match(ledger.reason, /settleChargebackLedger, which your change touches/);

      repo.write('src/refunds.ts', 'export function refund() {\n  return 2;\n}\n');
      sources.invalidate('src/refunds.ts');
      await sources.refreshTerms();
      assert.ok(!(await shown()).includes('jobs/ledger.ts'), 'the edit undone, the file goes');
    } finally {
      repo.dispose();
    }
  });
});

describe('the related-files ranking keeps its file index', function () {
  this.timeout(60000);
  it('across a history pass over the same files, and builds it again when a file comes', async () => {
    const state = mkdtempSync(join(tmpdir(), 'pc-file-index-'));
    const repo = new TempRepo();
    try {
      repo.commit('base', { ...filler(), 'src/a.ts': 'export const a = 1;\n', 'src/a.test.ts': 'a();\n' });
      const git = new GitService(repo.dir);
      const model = new CoChangeModel({ root: repo.dir, store: { stateDir: state }, git });
      await model.update();
      let list = repo.git('ls-files', '-z').split('\0').filter(Boolean);
      const sources = new HistorySources(
        repo.dir,
        git,
        model,
        { importsOf: () => [], importersOf: () => [] },
        () => [...list],
        () => NOW,
      );
      // What each ranking reads: one index per list of files.
      const index = () => (sources as unknown as { fileIndex?: FileIndex }).fileIndex;
      sources.related('src/a.ts');
      const first = index();
      assert.ok(first, 'the first ranking builds the file index');
      // A history pass (or HEAD moving) with the same files listed: the index is not built again.
      sources.invalidate();
      sources.related('src/a.ts');
      assert.equal(index(), first, 'the file index was built again for the same files');
      list = [...list, 'src/b.ts'];
      sources.invalidate();
      sources.related('src/a.ts');
      assert.notEqual(index(), first, 'a new file must reach the file index');
      assert.equal(index()!.has('src/b.ts'), true);
    } finally {
      repo.dispose();
      rmSync(state, { recursive: true, force: true });
    }
  });
});
