import { strict as assert } from 'node:assert';
import type { ImportName } from '../../../src/core/index/facts';
import { ImportGraph } from '../../../src/core/index/importGraph';
import type { ResolvedImport } from '../../../src/core/index/resolve';
import { prng } from '../../../src/core/random';

/** What the graph should answer, kept the plain way: every file's current import rows. */
class PlainGraph {
  readonly rows = new Map<string, ResolvedImport[]>();

  importers(path: string): string[] {
    const out: string[] = [];
    // Rows come in the order their files were (re)written, then in file order.
    for (const [from, rows] of this.rows)
      for (const r of rows) if (r.resolved === path) out.push(`${from} ${r.names.map((n) => n.local).join(',')}`);
    return out;
  }

  targets(path: string): string[] {
    return [...new Set((this.rows.get(path) ?? []).flatMap((r) => (r.resolved === null ? [] : [r.resolved])))].sort();
  }

  modules(path: string): string[] {
    return (this.rows.get(path) ?? [])
      .flatMap((r) => r.names.filter((n) => n.name === '*' && n.local !== '*' && !n.reexport).map((n) => n.local))
      .sort();
  }
}

describe('ImportGraph', () => {
  it('answers importers, targets and module names like the rows it holds, across thousands of rewrites and removals', () => {
    const graph = new ImportGraph();
    const plain = new PlainGraph();
    const files = Array.from({ length: 40 }, (_, i) => `src/f${i}.ts`);
    const random = prng(7);
    const next = (n: number) => Math.floor(random() * n);
    for (let step = 0; step < 3000; step++) {
      const file = files[next(files.length)];
      if (next(5) === 0) {
        graph.replace([file], []);
        plain.rows.delete(file);
        continue;
      }
      const rows: ResolvedImport[] = Array.from({ length: next(4) }, (_, k) => {
        const names: ImportName[] =
          next(3) === 0 ? [{ name: '*', local: `ns${k}` }] : [{ name: `n${k}`, local: `n${k}` }];
        return { spec: `./x${k}`, resolved: next(6) === 0 ? null : files[next(files.length)], names, line: k + 1 };
      });
      graph.replace([file], [{ path: file, imports: rows }]);
      plain.rows.delete(file);
      plain.rows.set(file, rows);
      if (step % 100 === 99) {
        for (const f of files) {
          const seen: string[] = [];
          graph.forEachImporter(f, (from, names) => seen.push(`${from} ${names.map((n) => n.local).join(',')}`));
          assert.deepEqual(seen, plain.importers(f), `importers of ${f} at step ${step}`);
          assert.deepEqual(graph.targetsOf(f).sort(), plain.targets(f), `targets of ${f} at step ${step}`);
          assert.deepEqual(
            [...(graph.moduleNames(f) ?? [])].sort(),
            plain.modules(f),
            `module names of ${f} at step ${step}`,
          );
        }
      }
    }
  });
});
