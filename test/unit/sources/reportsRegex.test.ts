import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { pathBeforeLineNumber } from '../../../src/core/sources/reports/reportParsers';
import { lineRefs } from '../../../src/core/sources/reports/testLinks';

const adversarial = join(__dirname, '..', '..', 'fixtures', 'sources', 'adversarial.js');

/** Runs one adversarial case in a child; a hang guard, not a timing assertion: it is killed if it never ends. */
function runCase(name: string): unknown {
  const child = spawnSync(process.execPath, [adversarial, name], {
    timeout: 15_000,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  assert.equal(child.signal, null, `${name} did not finish`);
  assert.equal(child.status, 0, child.stderr);
  return JSON.parse(child.stdout);
}

/** The expression stack frames were read with before; kept here to check the scanner agrees with it on ordinary lines. */
const OLD_FRAME = /((?:file:\/\/)?(?:[A-Za-z]:)?[^\s()'"`<>❯→]*?[\w@$+-]+\.[A-Za-z0-9]{1,6}):(\d+)(?::(\d+))?/g;

describe('report parsing regular expressions on hostile text', () => {
  it('reads a stack frame after a long run that made the old expression backtrack', () => {
    assert.deepEqual(runCase('stackFrame'), [{ path: 'src/a.ts', line: 3, column: 4 }]);
  });

  it('reads TAP lines, locations and YAML blocks made to backtrack', () => {
    assert.equal(runCase('tapLine'), 2);
    assert.equal(runCase('tapWhere'), 1);
    assert.equal(runCase('tapYaml'), 1);
  });

  it('reads Python and JavaScript imports in files made to backtrack', () => {
    assert.deepEqual(runCase('pythonImports'), [['app/__init__.py'], []]);
    assert.deepEqual(runCase('jsImports'), ['src/a.ts']);
  });

  it('looks for JSON in a model reply with an unclosed fence', () => {
    assert.match(String(runCase('fencedReply')), /held no JSON list of decisions/);
  });

  it('finds the same frame references as before on ordinary stack lines', () => {
    const lines = [
      '    at applyRefund (/home/ci/builds/shop/src/payments/ledger.ts:12:10)',
      '    at Object.<anonymous> (file:///C:/work/shop/test/cart.spec.js:4:9)',
      ' ❯ src/cart.ts:4:9',
      'tests/test_ledger.py:42: AssertionError',
      '   --> src/geometry.rs:7:5',
      'main.go:12 +0x1d',
      'at http://localhost:8080/assets/app.min.js:1:2345 and lib/x.mjs:3',
      'no reference: version 1.2.3 at 10:30, a:b:c',
      'C:\\\\work\\\\a.ts:3:1 then "quoted/path.tsx:9"',
    ];
    for (const l of lines) {
      const old = [...l.matchAll(OLD_FRAME)].map((m) => ({ path: m[1], line: m[2], column: m[3] }));
      assert.deepEqual(lineRefs(l), old, l);
    }
  });

  it('takes the path before the line number of a TAP location', () => {
    assert.equal(pathBeforeLineNumber('test/a.test.js:12:3'), 'test/a.test.js');
    assert.equal(pathBeforeLineNumber('at (file:///w/t.mjs:4:1)'), 'file:///w/t.mjs');
    assert.equal(pathBeforeLineNumber('no location'), undefined);
  });
});
