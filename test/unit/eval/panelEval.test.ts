import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SuggestionItem } from '../../../src/core/types';
import { LabelsError } from '../../../src/measure/eval/labelFile';
import { figures, runPanelEval } from '../../../src/measure/eval/panelEval';
import { placeHistory, repoFacts } from '../../../src/measure/eval/panelGit';
import { expectedItems, judgePanel, visibleItems } from '../../../src/measure/eval/panelJudge';
import { readPanelLabels, type PanelCase, type PanelLabels } from '../../../src/measure/eval/panelLabels';
import { TempRepo } from '../git/repoFixture';

const cli = join(__dirname, '..', '..', '..', 'src', 'cli', 'main.js');

const STORE = (body: string, load: string) =>
  `import { db } from '../db';\n\nexport function saveOrder(order: { id: string }): void {\n  ${body}\n}\n\nexport function loadOrder(id: string): unknown {\n  ${load}\n}\n`;

function item(
  type: SuggestionItem['type'],
  entityId: string,
  location: SuggestionItem['location'],
  meta?: SuggestionItem['meta'],
  title = entityId,
): SuggestionItem {
  return { type, entityId, location, meta, title, summary: '', reason: '', relevanceScore: 0.5 };
}

describe('panel evaluation', function () {
  this.timeout(90000);
  let repo: TempRepo;
  let labelsDir: string;
  let labels: PanelLabels;
  const c: Record<string, string> = {};
  const theCase: PanelCase = {
    file: 'src/orders/store.ts',
    line: 3,
    symbol: 'saveOrder',
    decisions: ['docs/adr/0001-store-orders-in-postgres.md'],
    docs: ['docs/guide.md#Saving orders'],
    callers: ['src/api/checkout.ts:checkout'],
    cochange: [],
    acceptable: ['src/jobs/retry.ts'],
  };

  before(() => {
    repo = new TempRepo();
    const filler: Record<string, string> = {};
    for (let i = 0; i < 6; i++) filler[`src/util/u${i}.ts`] = `export const u${i} = ${i};\n`;
    repo.commit('scaffold the shop', {
      ...filler,
      'docs/adr/0001-store-orders-in-postgres.md':
        '# 1. Store orders in Postgres\n\n## Status\n\nAccepted\n\n## Decision\n\n`saveOrder` in `src/orders/store.ts` writes each order in one transaction.\n',
      'docs/adr/0002-write-small-functions.md':
        '# 2. Write small functions\n\n## Status\n\nAccepted\n\n## Decision\n\nEvery function in `src/` stays under forty lines.\n',
      'docs/guide.md':
        '# Guide\n\n## Saving orders\n\nCall saveOrder once per order.\n\n## Deploying\n\nRun the deploy script.\n',
      'src/jobs/retry.ts': 'export const retries = 3;\n',
    });
    c.first = repo.commit('store orders', {
      'src/db.ts':
        'export const db = { insert: (t: string, v: unknown) => [t, v], get: (t: string, id: string) => [t, id] };\n',
      'src/orders/store.ts': STORE("db.insert('orders', order);", "return db.get('orders', id);"),
      'src/api/checkout.ts':
        "import { saveOrder } from '../orders/store';\n\nexport function checkout(id: string): void {\n  saveOrder({ id });\n}\n",
      'src/admin/replay.ts':
        "import { saveOrder } from '../orders/store';\n\nexport function replayOrders(ids: string[]): void {\n  for (const id of ids) saveOrder({ id });\n}\n",
    });
    c.transaction = repo.commit('save orders in one transaction', {
      'src/orders/store.ts': STORE("db.insert('orders', { ...order, tx: true });", "return db.get('orders', id);"),
      'src/api/checkout.ts':
        "import { saveOrder } from '../orders/store';\n\nexport function checkout(id: string): void {\n  saveOrder({ id });\n  // one transaction\n}\n",
    });
    c.load = repo.commit('load orders by id', {
      'src/orders/store.ts': STORE(
        "db.insert('orders', { ...order, tx: true });",
        "return db.get('orders', String(id));",
      ),
      'src/api/checkout.ts':
        "import { saveOrder } from '../orders/store';\n\nexport function checkout(id: string): void {\n  saveOrder({ id });\n  // one transaction, by id\n}\n",
    });
    const reformat: Record<string, string> = {
      'src/orders/store.ts': STORE(
        "db.insert('orders', { ...order, tx: true }); ",
        "return db.get('orders', String(id));",
      ),
    };
    for (let i = 0; i < 6; i++) reformat[`src/util/u${i}.ts`] = `export const u${i} = ${i}; \n`;
    c.bulk = repo.commit('reformat everything', reformat);
    c.retry = repo.commit('retry five times', { 'src/jobs/retry.ts': 'export const retries = 5;\n' });
    labels = { repo: 'example/shop', commit: repo.head(), set: 'reported', bulkFiles: 5, cases: [theCase] };
    labelsDir = mkdtempSync(join(tmpdir(), 'pc-panel-labels-'));
    writeFileSync(join(labelsDir, 'labels.json'), JSON.stringify(labels));
  });
  after(() => {
    repo.dispose();
    rmSync(labelsDir, { recursive: true, force: true });
  });

  it('takes its ground truth for changes and co-changes from git, leaving out bulk commits', async () => {
    const facts = await repoFacts(repo.dir, 5);
    const h = await placeHistory(facts, 'src/orders/store.ts', { start: 3, end: 5 });
    assert.deepEqual(h.fileCommits, [c.load, c.transaction, c.first]);
    assert.deepEqual(
      h.symbolCommits,
      [c.transaction, c.first],
      'loadOrder changed in c.load, not saveOrder; the reformat is bulk',
    );
    assert.deepEqual([...h.bulk], [c.bulk]);
    assert.deepEqual(
      [...h.cochanged],
      ['src/api/checkout.ts'],
      'changed with the store in three of its commits; the rest only once',
    );
    const defaults = await repoFacts(repo.dir, undefined);
    assert.equal(defaults.bulkLimit, 10, '14 tracked files: a fifth is 3, never fewer than 10');
  });

  it('follows the file through a rename and counts a merged branch as a change of its lines', async () => {
    const r = new TempRepo();
    try {
      const fn = (body: string) => `export function total(xs: number[]): number {\n  ${body}\n}\n`;
      const created = r.commit('add total', {
        'lib/sum.ts': fn('return xs.reduce((a, b) => a + b, 0);'),
        'lib/sum.test.ts': 'test\n',
      });
      mkdirSync(join(r.dir, 'src'));
      r.git('mv', 'lib/sum.ts', 'src/total.ts');
      const renamed = r.commitAll('move sum to src');
      r.git('checkout', '-q', '-b', 'feature');
      const onBranch = r.commit('skip NaN', {
        'src/total.ts': fn('return xs.filter((x) => !Number.isNaN(x)).reduce((a, b) => a + b, 0);'),
        'lib/sum.test.ts': 'test NaN\n',
      });
      r.git('checkout', '-q', 'main');
      r.git('merge', '-q', '--no-ff', '-m', 'Merge skip-NaN', 'feature');
      const merge = r.head();
      const h = await placeHistory(await repoFacts(r.dir, undefined), 'src/total.ts', { start: 1, end: 3 });
      assert.deepEqual(
        h.symbolCommits,
        [merge, onBranch, created],
        'the pull request, its commit and the creation under the old name',
      );
      assert.deepEqual(new Set(h.fileCommits), new Set([merge, onBranch, renamed, created]));
      assert.deepEqual(
        [...h.cochanged],
        ['lib/sum.test.ts'],
        'the merge and the creation, along the first parent; the old name is the file itself',
      );
    } finally {
      r.dispose();
    }
  });

  it("keeps a file's own history when a snapshot lacks the objects needed to follow its renames", async () => {
    const r = new TempRepo();
    try {
      r.commit('add y', { 'y.ts': 'export const y = 1;\n'.repeat(20) });
      r.git('mv', 'y.ts', 'x.ts');
      // Renamed with an edit, so that git compares contents to see the rename.
      r.write('x.ts', 'export const y = 1;\n'.repeat(19) + 'export const w = 0;\n');
      const moved = r.commitAll('rename y to x');
      const changed = r.commit('change x', {
        'x.ts': 'export const y = 1;\n'.repeat(19) + 'export const w = 0;\nexport const z = 2;\n',
      });
      // The old name's first content is gone from the object store, as in a partial snapshot.
      const blob = r.git('rev-parse', 'HEAD~2:y.ts').trim();
      rmSync(join(r.dir, '.git', 'objects', blob.slice(0, 2), blob.slice(2)));
      const h = await placeHistory(await repoFacts(r.dir, undefined), 'x.ts', undefined);
      assert.deepEqual(h.fileCommits, [changed, moved]);
    } finally {
      r.dispose();
    }
  });

  it("takes the file's history for a place whose past lines a snapshot lacks", async () => {
    const r = new TempRepo();
    try {
      const first = r.commit('add x', { 'x.ts': 'export function x(): number {\n  return 1;\n}\n' });
      const second = r.commit('change x', { 'x.ts': 'export function x(): number {\n  return 2;\n}\n' });
      // The first version is gone from the object store, as in a partial snapshot: `git log -L` cannot run.
      const blob = r.git('rev-parse', 'HEAD~1:x.ts').trim();
      rmSync(join(r.dir, '.git', 'objects', blob.slice(0, 2), blob.slice(2)));
      const h = await placeHistory(await repoFacts(r.dir, undefined), 'x.ts', { start: 1, end: 3 });
      assert.deepEqual(h.symbolCommits, []);
      assert.deepEqual(h.fileCommits, [second, first]);
    } finally {
      r.dispose();
    }
  });

  it('judges the visible items by hand-checkable rules and counts them exactly', async () => {
    const h = await placeHistory(await repoFacts(repo.dir, 5), 'src/orders/store.ts', { start: 3, end: 5 });
    const adr = (n: string) => ({ path: `docs/adr/${n}` });
    const ranked: SuggestionItem[] = [
      item('decision', 'decision:docs/adr/0001-store-orders-in-postgres.md', adr('0001-store-orders-in-postgres.md')),
      item('decision', 'decision:docs/adr/0001-store-orders-in-postgres.md', adr('0001-store-orders-in-postgres.md')),
      item('decision', 'decision:docs/adr/0002-write-small-functions.md', adr('0002-write-small-functions.md')),
      item('decision', 'decision:src/orders/store.ts#note-abc', { path: 'src/orders/store.ts', line: 2 }),
      item('decision', 'decision:docs/adr/0009-hidden.md', adr('0009-hidden.md')),
      item('change', `commit:${c.transaction}:src/orders/store.ts`, {
        path: 'src/orders/store.ts',
        commit: c.transaction,
      }),
      item('change', `commit:${c.bulk}:src/orders/store.ts`, { path: 'src/orders/store.ts', commit: c.bulk }),
      item('change', `commit:${c.retry}:src/jobs/retry.ts`, { path: 'src/jobs/retry.ts', commit: c.retry }),
      item('change', `commit:${c.load}:src/orders/store.ts`, { path: 'src/orders/store.ts', commit: c.load }),
      item('cochange', 'cochange:src/api/checkout.ts', { path: 'src/api/checkout.ts' }),
      item('cochange', 'cochange:src/db.ts', { path: 'src/db.ts' }),
      item('cochange', 'cochange:src/jobs/retry.ts', { path: 'src/jobs/retry.ts' }),
      item(
        'related_code',
        'caller:src/api/checkout.ts:checkout:saveOrder',
        { path: 'src/api/checkout.ts', line: 4 },
        { enclosing: 'checkout' },
      ),
      item(
        'related_code',
        'caller:src/admin/replay.ts:replayOrders:saveOrder',
        { path: 'src/admin/replay.ts', line: 4 },
        { enclosing: 'replayOrders' },
      ),
      item('doc', 'doc:docs/guide.md#saving-orders', { path: 'docs/guide.md', line: 3 }, { heading: 'Saving orders' }),
      item('doc', 'doc:docs/guide.md#deploying', { path: 'docs/guide.md', line: 7 }, { heading: 'Deploying' }),
      item(
        'warning',
        'deprecated:src/orders/store.ts:4',
        { path: 'src/orders/store.ts', line: 4 },
        undefined,
        'Deprecated: insert used at line 4',
      ),
      item(
        'warning',
        'deprecated:src/orders/store.ts:4:again',
        { path: 'src/orders/store.ts', line: 4 },
        undefined,
        'Deprecated: insert used at line 4',
      ),
      item(
        'warning',
        'deprecated:src/orders/store.ts:8',
        { path: 'src/orders/store.ts', line: 8 },
        undefined,
        'Deprecated: get used at line 8',
      ),
      item(
        'warning',
        'deprecated:src/orders/store.ts:9',
        { path: 'src/orders/store.ts', line: 9 },
        undefined,
        'hidden',
      ),
    ];
    const visible = visibleItems(ranked);
    assert.deepEqual(
      visible.map((i) => i.type),
      [
        'decision',
        'decision',
        'decision',
        'warning',
        'warning',
        'warning',
        'change',
        'change',
        'change',
        'cochange',
        'cochange',
        'cochange',
        'related_code',
        'related_code',
        'doc',
        'doc',
      ],
      'panel order, one item per entity, three per group',
    );
    const judged = judgePanel(theCase, h, visible, { start: 3, end: 5 });
    assert.deepEqual(
      judged.map((j) => j.verdict),
      [
        'correct',
        'noise',
        'correct',
        'correct',
        'noise',
        'noise',
        'correct',
        'noise',
        'noise',
        'correct',
        'noise',
        'neutral',
        'correct',
        'noise',
        'correct',
        'noise',
      ],
    );
    const expected = expectedItems(theCase, h).map((e) => ({
      ...e,
      found: judged.some((j) => j.type === e.kind && j.expected === e.key),
    }));
    assert.deepEqual(
      expected.map((e) => [e.kind, e.found]),
      [
        ['decision', true],
        ['doc', true],
        ['related_code', true],
        ['change', true],
        ['change', false],
      ],
      "the symbol's two commits are expected; the first one is shown",
    );
    const f = figures([
      {
        file: theCase.file,
        items: judged,
        expected,
        noise: judged.filter((j) => j.verdict === 'noise').length,
        decisionNoise: judged.filter((j) => j.record && j.verdict === 'noise').length,
      },
    ]);
    assert.equal(f.precision, 0.467, '7 right of 15 judged (one acceptable item counts neither way)');
    assert.equal(f.noisePerPanel, 8);
    assert.equal(f.decisionNoisePerPanel, 1, 'the broad record');
    assert.equal(f.recall, 0.8, '4 of 5 expected items visible');
    assert.deepEqual(f.byKind.warning, {
      shown: 3,
      correct: 1,
      noise: 2,
      precision: 0.333,
      expected: 0,
      found: 0,
      recall: 1,
    });
    assert.deepEqual(f.byKind.change, {
      shown: 3,
      correct: 1,
      noise: 2,
      precision: 0.333,
      expected: 2,
      found: 1,
      recall: 0.5,
    });
  });

  it("runs the product's passes on a checkout and judges what the panel shows, reading the workspace only", async () => {
    const before = repo.git('status', '--porcelain', '--ignored');
    const filesBefore = readdirSync(repo.dir).sort();
    const r = await runPanelEval(repo.dir, labels);
    assert.equal(r.cases, 1);
    assert.equal(r.note, undefined);
    const [one] = r.perCase;
    assert.deepEqual(one.range, { start: 3, end: 5 }, "the code index's span of saveOrder");
    const shown = (verdict: string) => one.items.filter((i) => i.verdict === verdict).length;
    assert.equal(one.noise, shown('noise'));
    assert.equal(r.precision, Number((shown('correct') / (shown('correct') + shown('noise'))).toFixed(3)));
    const specific = one.items.find((i) => i.target === 'docs/adr/0001-store-orders-in-postgres.md');
    assert.equal(specific?.verdict, 'correct', 'the record that names the function is shown and right');
    const broad = one.items.find((i) => i.target === 'docs/adr/0002-write-small-functions.md');
    assert.ok(!broad || broad.verdict === 'noise', 'the broad record is noise when shown');
    assert.ok(
      one.items
        .filter((i) => i.type === 'change' && i.target === c.bulk.slice(0, 12))
        .every((i) => i.verdict === 'noise'),
      'the bulk commit never counts',
    );
    assert.equal(
      one.items.find((i) => i.type === 'related_code' && i.target.startsWith('src/api/checkout.ts'))?.verdict,
      'correct',
      'the labelled caller is shown',
    );
    assert.ok(
      one.items.every(
        (i) => i.type !== 'related_code' || i.target.startsWith('src/api/checkout.ts') || i.verdict === 'noise',
      ),
    );
    assert.equal(repo.git('status', '--porcelain', '--ignored'), before, 'nothing was written into the workspace');
    assert.deepEqual(readdirSync(repo.dir).sort(), filesBefore);
  });

  it('refuses malformed label files with an error naming the case and field', () => {
    const bad = join(labelsDir, 'bad.json');
    const write = (x: unknown) => writeFileSync(bad, typeof x === 'string' ? x : JSON.stringify(x));
    const refuses = (x: unknown, message: RegExp) => {
      write(x);
      assert.throws(
        () => readPanelLabels(bad),
        (e: Error) => e instanceof LabelsError && message.test(e.message),
        String(message),
      );
    };
    refuses('{ not json', /cannot read labels/);
    refuses({ ...labels, commit: 'abc' }, /"commit" must be a full 40-character commit hash/);
    refuses({ ...labels, set: 'holdout' }, /"set" must be "reported" or "check"/);
    refuses({ ...labels, cases: [{ ...theCase, docs: undefined }] }, /case 0: "docs" must be a list of strings/);
    refuses({ ...labels, cases: [{ ...theCase, caller: [] }] }, /case 0: unknown field "caller"/);
    refuses(
      { ...labels, cases: [{ ...theCase, acceptable: ['src/api/checkout.ts:checkout'] }] },
      /both in "callers" and "acceptable"/,
    );
    refuses({ ...labels, cases: [theCase, theCase] }, /case 1: the same place is labelled twice/);
    refuses(
      { ...labels, cases: [{ ...theCase, file: '../x.ts' }] },
      /case 0: "file" must be a path relative to the root/,
    );
    write({ ...labels, set: undefined });
    assert.equal(readPanelLabels(bad).set, 'reported', 'the reported set by default');
  });

  it('runs as `eval panel --json`, and exits 2 with a one-line message on bad usage or labels', () => {
    const run = (...args: string[]) =>
      spawnSync(process.execPath, [cli, 'eval', 'panel', ...args], { encoding: 'utf8', timeout: 90000 });
    const ok = run('--root', repo.dir, '--labels', join(labelsDir, 'labels.json'), '--json');
    assert.equal(ok.status, 0, ok.stderr);
    const out = JSON.parse(ok.stdout) as Record<string, unknown>;
    for (const key of ['cases', 'precision', 'noisePerPanel', 'decisionNoisePerPanel', 'recall'])
      assert.equal(typeof out[key], 'number', key);
    assert.equal(typeof (out.byKind as Record<string, { precision: number }>).decision.precision, 'number');
    assert.equal((out.repos as unknown[]).length, 1);
    const missing = run('--root', repo.dir);
    assert.equal(missing.status, 2);
    assert.match(missing.stderr, /eval panel needs --labels FILE/);
    writeFileSync(join(labelsDir, 'broken.json'), JSON.stringify({ ...labels, cases: [{ file: 'x.ts' }] }));
    const broken = run('--root', repo.dir, '--labels', join(labelsDir, 'broken.json'));
    assert.equal(broken.status, 2);
    assert.match(broken.stderr, /broken\.json: case 0: "decisions" must be a list of strings/);
    const noCheckout = run('--repos', labelsDir, '--labels', join(labelsDir, 'labels.json'));
    assert.equal(noCheckout.status, 2);
    assert.match(noCheckout.stderr, /no checkout of example\/shop/);
  });
});
