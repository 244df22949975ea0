import { strict as assert } from 'node:assert';
import { LexicalIndex } from '../../../src/core/sources/docs/lexicalIndex';
import { endsWithPath } from '../../../src/core/sources/docs/docsSource';

describe('LexicalIndex', () => {
  const doc = (key: string, title: string, body: string) => ({
    key,
    fields: { title: { terms: title.split(' '), weight: 2 }, body: { terms: body.split(' '), weight: 1 } },
  });

  it('returns only the best documents, ties in the order they were added, each with its matched terms and title figures', () => {
    const docs = [
      doc('a', 'page', 'click page'),
      doc('b', 'frame', 'page'),
      doc('c', 'page', 'click page'),
      doc('d', 'route', 'page click'),
      doc('e', 'other', 'nothing'),
    ];
    const index = new LexicalIndex(docs);
    const query = new Map([
      ['page', 1],
      ['click', 0.5],
    ]);
    const all = index.search(query, undefined, 10);
    assert.deepEqual(
      all.map((h) => h.key),
      ['a', 'c', 'd', 'b'],
      'equal scores keep the order of the documents',
    );
    assert.equal(all[0].score, all[1].score);
    const top = index.search(query, undefined, 2);
    assert.deepEqual(top, all.slice(0, 2), 'a smaller limit gives the same first hits, figures included');
    assert.deepEqual(top[0].matched, ['page', 'click']);
    assert.equal(top[0].titleCoverage, 1);
    assert.ok(top[0].titleWeight > 0);
    assert.deepEqual(index.search(new Map([['absent', 1]])), []);
  });

  it('answers a search the same whatever was searched before, capped terms included', () => {
    const docs = [
      doc('a', 'page', 'click page frame'),
      doc('b', 'frame', 'page route'),
      doc('c', 'route', 'click click frame'),
      doc('d', 'other', 'page'),
    ];
    const index = new LexicalIndex(docs);
    const capped = { has: (t: string) => t === 'frame' || t === 'route', cap: 0.1 };
    const first = index.search(
      new Map([
        ['page', 1],
        ['frame', 1],
        ['route', 1],
      ]),
      undefined,
      10,
      capped,
    );
    assert.ok(first.length === 4 && first.every((h) => h.score > 0));
    index.search(
      new Map([
        ['click', 1],
        ['frame', 1],
      ]),
      undefined,
      1,
    );
    index.search(new Map([['route', 1]]), undefined, 10, capped);
    assert.deepEqual(
      index.search(
        new Map([
          ['page', 1],
          ['frame', 1],
          ['route', 1],
        ]),
        undefined,
        10,
        capped,
      ),
      first,
    );
  });
});

describe('endsWithPath', () => {
  it("says what path.endsWith('/' + tail) says", () => {
    const cases: [string, string][] = [
      ['src/a/b.ts', 'a/b.ts'],
      ['src/a/b.ts', 'b.ts'],
      ['src/ab.ts', 'b.ts'],
      ['b.ts', 'b.ts'],
      ['/b.ts', 'b.ts'],
      ['src/a/', 'a/'],
      ['src/ba/', 'a/'],
      ['a/', 'a/'],
      ['x', ''],
      ['', ''],
      ['src/a/b.ts', 'src/a/b.ts/'],
    ];
    for (const [path, tail] of cases)
      assert.equal(endsWithPath(path, tail), path.endsWith('/' + tail), `${path} / ${tail}`);
  });
});
