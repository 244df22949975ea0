import { strict as assert } from 'node:assert';
import { AnchorLines, failureMessage, lensTitle, lensesOf, renderWhyHover } from '../../../src/vscode/editor/hintText';
import { indexingText } from '../../../src/core/api/messages';
import type { DecisionAnchor, FailingTest } from '../../../src/core/api/types';

const NOW = Date.UTC(2026, 10, 20, 12);
const HOUR = 3_600_000;

function anchor(
  name: string,
  startLine: number,
  endLine: number,
  label: string,
  extra: Partial<DecisionAnchor> & { status?: string; title?: string } = {},
): DecisionAnchor {
  const { status = 'accepted', title = `Decision ${label}`, ...rest } = extra;
  return {
    symbol: { name, startLine, endLine },
    decision: { label, number: Number(label), title, status, path: `docs/adr/${label}-x.md` },
    how: 'names',
    reason: `ADR ${label} names \`${name}\` and src/pricing.ts`,
    ...rest,
  };
}

describe('editor hints', () => {
  describe('lenses', () => {
    it('names a live decision by number and title, and a retired one with its successor', () => {
      assert.equal(
        lensTitle(anchor('applyDiscount', 16, 21, '0004', { title: 'Format money with Intl' })),
        '$(law) ADR 0004: Format money with Intl',
      );
      const retired = anchor('toCents', 24, 26, '0003', {
        status: 'superseded',
        successor: {
          label: '0004',
          number: 4,
          title: 'Format money with Intl',
          status: 'accepted',
          path: 'docs/adr/0004-x.md',
        },
      });
      assert.equal(lensTitle(retired), '$(warning) Governed by superseded ADR 0003 → ADR 0004');
      assert.equal(
        lensTitle(anchor('f', 1, 2, '0005', { status: 'proposed', title: 'Try it' })),
        '$(law) ADR 0005: Try it (proposed)',
      );
    });

    it('draws at most two lenses over one definition, each opening its record', () => {
      const lenses = lensesOf([
        anchor('a', 3, 9, '0001'),
        anchor('a', 3, 9, '0002'),
        anchor('a', 3, 9, '0003'),
        anchor('b', 12, 14, '0001'),
      ]);
      assert.deepEqual(
        lenses.map((l) => [l.line, l.path]),
        [
          [3, 'docs/adr/0001-x.md'],
          [3, 'docs/adr/0002-x.md'],
          [12, 'docs/adr/0001-x.md'],
        ],
      );
      assert.match(lenses[0].tooltip, /names `a` and src\/pricing\.ts\. Click to open docs\/adr\/0001-x\.md\./);
    });
  });

  describe('AnchorLines', () => {
    const lines = () =>
      new AnchorLines([anchor('subtotal', 12, 14, '0001'), anchor('applyDiscount', 16, 21, '0002')], 1);
    const starts = (a: AnchorLines) => a.anchors.map((x) => [x.symbol.startLine, x.symbol.endLine]);

    it('moves definitions below an insertion and leaves those above alone', () => {
      const a = lines();
      a.edit(13, 13, 2); // two line breaks typed inside subtotal
      assert.deepEqual(starts(a), [
        [12, 16],
        [18, 23],
      ]);
      assert.equal(a.at(18)?.anchors[0].symbol.name, 'applyDiscount');
      assert.deepEqual(
        a.at(18)?.onDisk,
        { name: 'applyDiscount', startLine: 16, endLine: 21 },
        'the hover explains the definition where git and the index know it',
      );
      assert.equal(a.at(16), undefined);
    });

    it('moves a definition whose whole line is pushed down by Enter at its start', () => {
      const a = lines();
      a.edit(16, 16, 1, true);
      assert.deepEqual(starts(a)[1], [17, 22]);
      const b = lines();
      b.edit(16, 16, 1, false); // Enter after the declaration's start: it stays
      assert.deepEqual(starts(b)[1], [16, 22]);
    });

    it('moves definitions up when lines above them are deleted, and clamps ones inside the deletion', () => {
      const a = lines();
      a.edit(11, 15, 0); // lines 11–15 joined into one: subtotal's declaration was inside
      assert.deepEqual(starts(a), [
        [11, 11],
        [12, 17],
      ]);
    });

    it('ignores edits that change no line count, like typing within a line', () => {
      const a = lines();
      for (let i = 0; i < 200; i++) a.edit(18, 18, 0);
      assert.deepEqual(starts(a), [
        [12, 14],
        [16, 21],
      ]);
    });
  });

  it('renders the why-card: the decisions, the last change to the lines and the callers', () => {
    const retired = anchor('applyDiscount', 16, 21, '0001', {
      status: 'superseded',
      successor: {
        label: '0002',
        number: 2,
        title: 'Cap stacked discounts',
        status: 'accepted',
        path: 'docs/adr/0002-x.md',
      },
    });
    const text = renderWhyHover(
      [anchor('applyDiscount', 16, 21, '0002', { title: 'Cap stacked discounts' }), retired],
      {
        lineHistory: [
          {
            hash: 'abc1234def',
            author: 'Ana Ruiz',
            date: NOW - 3 * HOUR,
            subject: 'Cap stacked discounts at 50% (ADR-3)',
          },
        ],
        callers: 3,
        notes: [],
      },
      (p, line) => `file:///ws/${p}${line ? `#L${line}` : ''}`,
      NOW,
    );
    assert.match(text, /^\*\*Why `applyDiscount` is the way it is\*\*/);
    assert.match(text, /\[ADR 0002: Cap stacked discounts\]\(file:\/\/\/ws\/docs\/adr\/0002-x\.md\) · accepted/);
    assert.match(
      text,
      /· superseded — replaced by \[ADR 0002: Cap stacked discounts\]\(file:\/\/\/ws\/docs\/adr\/0002-x\.md\)/,
    );
    assert.match(
      text,
      /Last change to these lines: Cap stacked discounts at 50% \\\(ADR-3\\\) — Ana Ruiz, 3 hours ago \(`abc1234`\)/,
    );
    assert.match(text, /3 places call `applyDiscount`/);
    assert.match(
      text,
      /\n {2}ADR 0002 names `applyDiscount` and src\/pricing\.ts\n/,
      'the reason keeps its code as code',
    );
    const hostile = renderWhyHover(
      [anchor('f', 1, 2, '0001', { reason: 'line 3 refers to [x](javascript:alert(1)) *now* `a*b`' })],
      undefined,
      (p) => p,
      NOW,
    );
    assert.match(hostile, /line 3 refers to \\\[x\\\]\\\(javascript:alert\\\(1\\\)\\\) \\\*now\\\* `a\*b`/);
    const unknown = renderWhyHover(
      [anchor('f', 1, 2, '0001')],
      { lineHistory: [], callers: 0, notes: ['Not a git repository'] },
      (p) => p,
      NOW,
    );
    assert.match(unknown, /No commit changed these lines yet\./);
    assert.match(unknown, /Nothing in the index calls `f`/);
    assert.match(unknown, /_Not a git repository_/);
  });

  it('words a failing test for the Problems view with its report and age', () => {
    const f: FailingTest = {
      id: 't',
      name: 'applyDiscount > caps stacked discounts at 50%',
      message: 'expected 3000 to be 5000',
      report: 'reports/junit.xml',
      reportLine: 7,
      time: NOW - 2 * HOUR,
      sources: [],
    };
    assert.equal(
      failureMessage(f, 'test', NOW),
      'Failing test “applyDiscount > caps stacked discounts at 50%”: expected 3000 to be 5000 (reports/junit.xml, 2 hours ago)',
    );
    assert.equal(
      failureMessage({ ...f, suite: 'pricing' }, 'source', NOW),
      'The failing test “pricing › applyDiscount > caps stacked discounts at 50%” passes through this line: expected 3000 to be 5000 (reports/junit.xml, 2 hours ago)',
    );
  });

  it('says how far indexing got: files first, then commits', () => {
    assert.equal(indexingText({ done: 1200, total: 5000 }), 'Indexing 1,200 of 5,000 files');
    assert.equal(
      indexingText({ done: 5000, total: 5000, commits: { done: 3000, total: 10000 } }),
      'Reading history: 3,000 of 10,000 commits (5,000 files indexed)',
    );
    assert.equal(
      indexingText({ done: 5000, total: 5000, commits: { done: 10, total: 0 } }),
      'Reading history: 10 commits (5,000 files indexed)',
    );
  });
});
