import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCochangeEval, type QueryTrace } from '../../../src/measure/eval/cochangeEval';
import { extractImportSpecs, resolveRelative } from '../../../src/measure/eval/importExtractor';
import { TempRepo } from '../git/repoFixture';

describe('co-change evaluation', () => {
  let repo: TempRepo;

  before(() => {
    repo = new TempRepo();
    // Each file is created on its own, so that creation says nothing about coupling.
    for (const f of ['src/a.ts', 'src/b.ts', 'x/c.ts', 'y/d.ts', 'lib/e.ts', 'lib/f.ts'])
      repo.change(`create ${f}`, [f]);
    repo.commit('a imports b', {
      'src/a.ts': "import { b } from './b';\nexport const a = b;\n",
      'src/b.ts': 'export const b = 1;\n',
    });
    repo.change('a and b', ['src/a.ts', 'src/b.ts']);
    repo.change('e and f', ['lib/e.ts', 'lib/f.ts']);
    repo.change('e and f again', ['lib/e.ts', 'lib/f.ts']);
    // c and d change together for the first time here, then again.
    repo.change('c and d', ['x/c.ts', 'y/d.ts']);
    repo.change('c and d again', ['x/c.ts', 'y/d.ts']);
  });
  after(() => repo.dispose());

  it('is deterministic for a seed', async () => {
    const picks = async (seed: number) => {
      const seen: string[] = [];
      const res = await runCochangeEval(repo.dir, {
        replay: 10,
        window: 100,
        seed,
        inspect: (t) => seen.push(`${t.commit}:${t.query}`),
      });
      return { seen, res: { ...res, latencyMs: undefined } };
    };
    const one = await picks(7);
    const two = await picks(7);
    assert.deepEqual(one, two);
    assert.equal(one.res.queries, 6);
    const others = await Promise.all([1, 2, 3, 4, 5].map((s) => picks(s)));
    assert.ok(
      others.some((o) => o.seen.join() !== one.seen.join()),
      'another seed picks other query files',
    );
  });

  it('uses only history strictly before each evaluated commit', async () => {
    const traces: QueryTrace[] = [];
    // c and d share the word `create` at every parent: words are left out to see history alone.
    const res = await runCochangeEval(repo.dir, {
      replay: 10,
      window: 100,
      seed: 3,
      noTerms: true,
      inspect: (t) => traces.push(t),
    });
    const subject = (hash: string) => repo.git('log', '-1', '--format=%s', hash).trim();
    const firstCd = traces.find((t) => subject(t.commit) === 'c and d')!;
    const secondCd = traces.find((t) => subject(t.commit) === 'c and d again')!;
    assert.deepEqual(firstCd.rose, [], 'no co-change is known before c and d first change together');
    assert.ok(!firstCd.ranked.includes(firstCd.truth[0]), 'the later pair does not help the earlier query');
    assert.deepEqual(secondCd.rose, secondCd.truth, 'once seen, the pair is found');
    assert.ok(secondCd.ranked.includes(secondCd.truth[0]));
    assert.equal(res.queries, traces.length);
    assert.ok(res.recallAt10 < 1, 'the first c-and-d query is a miss');
  });

  it('finds the import at the parent commit without checking anything out', async () => {
    const traces: QueryTrace[] = [];
    await runCochangeEval(repo.dir, { replay: 10, window: 100, seed: 1, inspect: (t) => traces.push(t) });
    const ab = traces.find((t) => repo.git('log', '-1', '--format=%s', t.commit).trim() === 'a and b')!;
    if (ab.query === 'src/a.ts') assert.deepEqual(ab.imports!.importsOf('src/a.ts'), ['src/b.ts']);
    else assert.deepEqual(ab.imports!.importersOf('src/b.ts'), ['src/a.ts']);
  });

  it('with withChange, gives each query the words its commit changed in the query file, and nothing else', async () => {
    const own = new TempRepo();
    try {
      own.commit('start', {
        'src/pay.ts': 'export const untouchedHelper = 1;\nexport const amount = 2;\n',
        'src/ledger.ts': 'export const ledgerTotal = 0;\n',
      });
      own.commit('settle', {
        'src/pay.ts': 'export const untouchedHelper = 1;\nexport const amount = settleLedgerEntry(2);\n',
        'src/ledger.ts': 'export const ledgerTotal = settleLedgerEntry(0);\n',
      });
      const traces: QueryTrace[] = [];
      await runCochangeEval(own.dir, {
        replay: 5,
        window: 100,
        seed: 1,
        withChange: true,
        inspect: (t) => traces.push(t),
      });
      assert.equal(traces.length, 1);
      const words = traces[0].changeWords!;
      assert.ok(words.includes('settleLedgerEntry'), words.join(' '));
      const [mine, theirs] = traces[0].query === 'src/pay.ts' ? ['amount', 'ledgerTotal'] : ['ledgerTotal', 'amount'];
      assert.ok(words.includes(mine), `${traces[0].query}: ${words.join(' ')}`);
      assert.ok(!words.includes(theirs), 'the other file of the commit says nothing');
      assert.ok(!words.includes('untouchedHelper'), 'an unchanged line says nothing');
      const plain: QueryTrace[] = [];
      await runCochangeEval(own.dir, { replay: 5, window: 100, seed: 1, inspect: (t) => plain.push(t) });
      assert.equal(plain[0].changeWords, undefined, 'a path alone by default');
    } finally {
      own.dispose();
    }
  });

  it('says that a folder outside git has no history to replay', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pc-eval-nogit-'));
    try {
      const res = await runCochangeEval(dir, { replay: 5 });
      assert.equal(res.queries, 0);
      assert.match(res.note ?? '', /could not read the git history of .*: not a git repository/i);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('extracts and resolves the usual import forms', () => {
    const src = [
      "import x from './x';",
      "import { y } from '../lib/y.js';",
      "import type { T } from './types';",
      "export * from './all';",
      "import './side-effect';",
      "const z = require('./z');",
      "const w = await import('./w');",
      "import fs from 'node:fs';",
    ].join('\n');
    assert.deepEqual(
      extractImportSpecs(src).sort(),
      ['../lib/y.js', './all', './side-effect', './types', './w', './x', './z', 'node:fs'].sort(),
    );
    const files = new Set(['src/x.ts', 'lib/y.ts', 'src/types/index.ts', 'src/w.tsx']);
    const has = (p: string) => files.has(p);
    assert.equal(resolveRelative('src/main.ts', './x', has), 'src/x.ts');
    assert.equal(resolveRelative('src/main.ts', '../lib/y.js', has), 'lib/y.ts');
    assert.equal(resolveRelative('src/main.ts', './types', has), 'src/types/index.ts');
    assert.equal(resolveRelative('src/main.ts', './w', has), 'src/w.tsx');
    assert.equal(resolveRelative('src/main.ts', 'node:fs', has), undefined);
    assert.equal(resolveRelative('src/main.ts', '../../outside', has), undefined);
  });
});
