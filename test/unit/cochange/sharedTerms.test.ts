import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { CoChangeCounts } from '../../../src/core/cochange/cochangeCounts';
import { relatedFiles } from '../../../src/core/cochange/relatedFiles';
import { extractTerms, TermIndex, type SimilarFile } from '../../../src/core/cochange/termIndex';
import { prng } from '../../../src/core/random';
import { FileIndex } from '../../../src/core/cochange/testPairing';
import { WorkspaceTerms } from '../../../src/core/cochange/workspaceTerms';
import { runCochangeEval } from '../../../src/measure/eval/cochangeEval';
import { TempRepo } from '../git/repoFixture';

const NOW = Date.UTC(2026, 0, 1);

/** Files that share only everyday words with each other. */
function filler(n: number): Record<string, string> {
  const out: Record<string, string> = {};
  for (let i = 0; i < n; i++)
    out[`misc/m${i}.ts`] = `export function helper${i}(value: string) { return value.trim(); }\n`;
  return out;
}

/** The index written plainly (a set of files per term), to check the packed one against. */
class PlainTermIndex {
  private readonly byTerm = new Map<string, Set<string>>();
  private readonly byFile = new Map<string, string[]>();

  set(path: string, terms: readonly string[]): void {
    this.delete(path);
    this.byFile.set(path, [...terms]);
    for (const t of terms) {
      const set = this.byTerm.get(t) ?? new Set<string>();
      set.add(path);
      this.byTerm.set(t, set);
    }
  }

  delete(path: string): void {
    for (const t of this.byFile.get(path) ?? []) this.byTerm.get(t)?.delete(path);
    this.byFile.delete(path);
  }

  similarTo(path: string): SimilarFile[] {
    const mine = this.byFile.get(path);
    const files = this.byFile.size;
    if (!mine?.length || files < 2) return [];
    const cap = Math.min(Math.max(8, Math.floor(files * 0.02)), Math.floor(files / 3));
    const df = (t: string) => this.byTerm.get(t)?.size ?? 0;
    const usable = mine.filter((t) => df(t) > 1 && df(t) <= cap).sort((a, b) => df(a) - df(b));
    const acc = new Map<string, number>();
    const best = new Map<string, string>();
    let norm = 0;
    for (const t of usable) {
      const idf = Math.log(files / df(t));
      norm += idf;
      for (const f of this.byTerm.get(t)!) {
        if (f === path) continue;
        acc.set(f, (acc.get(f) ?? 0) + idf);
        if (!best.has(f)) best.set(f, t);
      }
    }
    if (!norm) return [];
    const out = [...acc].map(([f, s]) => ({
      path: f,
      score: (s / norm) * Math.min(1, Math.sqrt(mine.length / Math.max(1, this.byFile.get(f)!.length))),
      term: best.get(f)!,
    }));
    return out.sort((a, b) => b.score - a.score || (a.path < b.path ? -1 : 1));
  }
}

describe('shared words in file contents', () => {
  it('keeps identifiers long enough to name something, once each', () => {
    assert.deepEqual(extractTerms('const id = settleInvoice(id, $cache); settleInvoice(x); a_b;'), [
      'const',
      'settleInvoice',
      '$cache',
    ]);
  });

  it('does not keep the text of the files it read alive', () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const idx = new TermIndex();
    gc();
    const before = process.memoryUsage().heapUsed;
    for (let i = 0; i < 40; i++) {
      // Each file brings a new long word: a term cut from the text would hold all 256 KB of it.
      const text = `export const aRatherLongConstantName${i} = "${'x'.repeat(256 * 1024)}";\n`;
      idx.set(`src/f${i}.ts`, extractTerms(text));
    }
    gc();
    const grownMb = (process.memoryUsage().heapUsed - before) / 1048576;
    assert.equal(idx.size, 40);
    assert.ok(grownMb < 3, `the terms of 40 files hold ${grownMb.toFixed(1)} MB`);
  });

  it('answers as a plain index does through many sets, deletes and reused ids', () => {
    const random = prng(7);
    const packed = new TermIndex();
    const plain = new PlainTermIndex();
    const vocabulary = Array.from({ length: 60 }, (_, i) => `term${i}Word`);
    const paths = Array.from({ length: 50 }, (_, i) => `src/f${i}.ts`);
    const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)];
    for (let step = 0; step < 1500; step++) {
      const path = pick(paths);
      if (random() < 0.2) {
        packed.delete(path);
        plain.delete(path);
      } else {
        const terms = [...new Set(Array.from({ length: 1 + Math.floor(random() * 12) }, () => pick(vocabulary)))];
        packed.set(path, terms);
        plain.set(path, terms);
      }
      if (step % 25 === 0)
        for (const p of paths) assert.deepEqual(packed.similarTo(p), plain.similarTo(p), `${p} after step ${step}`);
    }
    assert.ok(
      paths.some((p) => packed.similarTo(p).length > 0),
      'the files share words',
    );
  });

  it('finds files by the rare words they share, not the common ones', () => {
    const idx = new TermIndex();
    for (const [p, text] of Object.entries(filler(60))) idx.set(p, extractTerms(text));
    idx.set(
      'src/order.ts',
      extractTerms('export function settleInvoiceLedger(value: string) { return value.trim(); }'),
    );
    idx.set(
      'ui/panel.ts',
      extractTerms('import { settleInvoiceLedger } from "../src/order"; settleInvoiceLedger(value.trim());'),
    );
    const similar = idx.similarTo('src/order.ts');
    assert.equal(similar[0]?.path, 'ui/panel.ts');
    assert.equal(similar[0]?.term, 'settleInvoiceLedger');
    assert.ok(
      similar.every((s) => !s.path.startsWith('misc/')),
      '`value` and `trim` are in every file and bring nothing in',
    );

    idx.set('ui/panel.ts', extractTerms('export const panel = 1;'));
    assert.deepEqual(idx.similarTo('src/order.ts'), [], 'a file that no longer names it is no longer similar');
    idx.delete('src/order.ts');
    assert.equal(idx.has('src/order.ts'), false);
    assert.equal(idx.size, 61);
  });

  it('brings in a file with no shared history or import, and says which word links them', () => {
    const idx = new TermIndex();
    const paths = Object.keys(filler(30));
    for (const [p, text] of Object.entries(filler(30))) idx.set(p, extractTerms(text));
    idx.set('api/refunds.ts', extractTerms('export function reconcileChargeback() {}'));
    idx.set('jobs/nightly.ts', extractTerms('reconcileChargeback();'));
    const counts = new CoChangeCounts();
    counts.add(['api/refunds.ts', 'misc/m1.ts'], NOW - 86_400_000);
    const files = new FileIndex([...paths, 'api/refunds.ts', 'jobs/nightly.ts']);
    const without = relatedFiles('api/refunds.ts', { cochange: counts, files, now: NOW });
    assert.ok(!without.some((r) => r.path === 'jobs/nightly.ts'));
    const withTerms = relatedFiles('api/refunds.ts', { cochange: counts, files, terms: idx, now: NOW });
    const hit = withTerms.find((r) => r.path === 'jobs/nightly.ts');
    assert.ok(hit, 'the file that calls the same rare name is found');
    assert.ok(hit.reasons.includes('mentions reconcileChargeback too'), hit.reasons.join('; '));
  });

  it('reads the workspace once, then follows each changed file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pc-terms-'));
    try {
      const texts: Record<string, string> = {
        'a.ts': 'export const quarantineBucket = 1;',
        'b.ts': 'export const other = 2;',
      };
      for (let i = 0; i < 8; i++) texts[`m${i}.ts`] = `export const value${i} = ${i};`;
      for (const [p, text] of Object.entries(texts)) writeFileSync(join(dir, p), text);
      const terms = new WorkspaceTerms(dir);
      assert.equal(terms.similarity(), undefined, 'nothing before the first read');
      await terms.refresh(Object.keys(texts));
      assert.deepEqual(terms.similarity()!.similarTo('a.ts'), []);
      writeFileSync(join(dir, 'b.ts'), 'import { quarantineBucket } from "./a";');
      await terms.fileChanged('b.ts');
      assert.deepEqual(
        terms
          .similarity()!
          .similarTo('a.ts')
          .map((s) => s.path),
        ['b.ts'],
      );
      rmSync(join(dir, 'b.ts'));
      await terms.fileChanged('b.ts');
      assert.deepEqual(terms.similarity()!.similarTo('a.ts'), [], 'a deleted file shares nothing');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('takes the words of each replayed commit from its parent, never from the commit itself', async () => {
    const repo = new TempRepo();
    try {
      repo.commit('start', {
        ...filler(12),
        'svc/order.ts': 'export function settleInvoiceLedger() {}\n',
        'ui/panel.ts': 'export const panel = 1;\n',
      });
      repo.commit('panel learns the word', {
        'svc/order.ts': 'export function settleInvoiceLedger() { return 1; }\n',
        'ui/panel.ts': 'settleInvoiceLedger();\n',
      });
      repo.commit('both again', {
        'svc/order.ts': 'export function settleInvoiceLedger() { return 2; }\n',
        'ui/panel.ts': 'settleInvoiceLedger(); settleInvoiceLedger();\n',
      });
      // The index moves on with the replay: what each query saw is taken as it runs.
      const seen = new Map<string, { truth: string[]; similar: string[] }>();
      await runCochangeEval(repo.dir, {
        replay: 10,
        window: 100,
        seed: 5,
        inspect: (t) =>
          seen.set(repo.git('log', '-1', '--format=%s', t.commit).trim(), {
            truth: t.truth,
            similar: t.terms!.similarTo(t.query).map((s) => s.path),
          }),
      });
      assert.deepEqual(
        seen.get('panel learns the word')?.similar,
        [],
        'the word the commit adds is not known before it',
      );
      const again = seen.get('both again')!;
      assert.deepEqual(again.similar, again.truth);
    } finally {
      repo.dispose();
    }
  });
});
