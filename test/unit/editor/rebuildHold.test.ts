import * as assert from 'node:assert/strict';
import { AnswerMemo, type AnswerPlace } from '../../../src/vscode/rebuildHold';

const FILE = 'file:///ws|src/pricing.ts';
const applyDiscount = { name: 'applyDiscount', startLine: 18, endLine: 30 };
const subtotal = { name: 'subtotal', startLine: 13, endLine: 16 };
const at = (line: number, symbol?: AnswerPlace['symbol'], key = FILE): AnswerPlace => ({ key, line, symbol });

describe('AnswerMemo (the panel during Rebuild Index)', () => {
  it('keeps the previous answers for the places the panel showed while a rebuild runs, and only then', () => {
    const memo = new AnswerMemo<string>();
    memo.remember(at(18, applyDiscount), 'applyDiscount: 9 items');
    memo.remember(at(13, subtotal), 'subtotal: 5 items');
    assert.equal(memo.lookup(at(18, applyDiscount)), undefined, 'no rebuild: every stop runs a pass');

    const end = memo.begin();
    // The half-built index names no symbol yet: the same line still gets its complete answer.
    assert.equal(memo.lookup(at(18))?.answer, 'applyDiscount: 9 items');
    assert.deepEqual(memo.lookup(at(18))?.place.symbol, applyDiscount, 'the answer keeps its own symbol');
    // Another line of the same definition, as the tracker names it now.
    assert.equal(memo.lookup(at(25, applyDiscount))?.answer, 'applyDiscount: 9 items');
    assert.equal(memo.lookup(at(14, subtotal))?.answer, 'subtotal: 5 items');
    // Answers given during the rebuild are partial: never kept over the complete ones.
    memo.remember(at(18, applyDiscount), 'applyDiscount: 2 items (partial index)');
    assert.equal(memo.lookup(at(18))?.answer, 'applyDiscount: 9 items');
    end();
    end();
    assert.equal(memo.holding, false, 'ending twice counts once');
    assert.equal(memo.lookup(at(18)), undefined, 'after the rebuild the new index answers');
  });

  it('never lends an answer to another symbol, another file or another folder', () => {
    const memo = new AnswerMemo<string>();
    memo.remember(at(18, applyDiscount), 'applyDiscount');
    const end = memo.begin();
    // A definition nested inside applyDiscount that the old answer did not know.
    assert.equal(memo.lookup(at(22, { name: 'clamp', startLine: 21, endLine: 24 })), undefined);
    // A line of applyDiscount, but the tracker has no symbol for it: which definition is unknown.
    assert.equal(memo.lookup(at(22)), undefined);
    assert.equal(memo.lookup(at(18, applyDiscount, 'file:///ws|src/cart.ts')), undefined);
    assert.equal(memo.lookup(at(18, applyDiscount, 'file:///other|src/pricing.ts')), undefined);
    end();
  });

  it('holds while any of two overlapping rebuilds runs', () => {
    const memo = new AnswerMemo<string>();
    memo.remember(at(13, subtotal), 'subtotal');
    const endA = memo.begin();
    const endB = memo.begin();
    endA();
    assert.equal(memo.lookup(at(13))?.answer, 'subtotal');
    endB();
    assert.equal(memo.lookup(at(13)), undefined);
  });
});
