import { strict as assert } from 'node:assert';
import { mkdirSync, readFileSync, readdirSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { MemoryLogger } from '../../../src/core/logger';
import { parseReport } from '../../../src/core/sources/reports/reportParsers';
import { TestReportSource } from '../../../src/core/sources/reports/testReportSource';
import { parseXml, XmlError } from '../../../src/core/sources/reports/xml';
import { FIXTURES, openWorkspace, type Workspace } from './sourceFixtures';

const NOW = Date.UTC(2024, 6, 1, 12);
const SOURCES_TIME = new Date(Date.UTC(2024, 0, 1));

function touchTree(dir: string, time: Date, skip: (name: string) => boolean): void {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (skip(e.name)) continue;
    if (e.isDirectory()) touchTree(p, time, skip);
    else utimesSync(p, time, time);
  }
}

describe('test report parsing', () => {
  const fixture = (p: string) => readFileSync(join(FIXTURES, 'reports-repo', p), 'utf8');

  it('reads jest-junit XML: entities in attributes, CDATA stacks, suite and test names', () => {
    const r = parseReport('reports/junit.xml', fixture('reports/junit.xml'))!;
    assert.equal(r.format, 'junit');
    const failed = r.tests.filter((t) => t.status === 'failed');
    assert.equal(r.tests.length, 2);
    assert.equal(failed.length, 1);
    assert.equal(failed[0].suite, 'ledger');
    assert.equal(failed[0].name, 'applies refunds');
    assert.equal(
      failed[0].message,
      'expect(received).toBe(expected) // Object.is equality\n\nExpected: -500\nReceived: 500',
    );
    assert.match(failed[0].stack!, /ledger\.ts:12:10/);
    assert.equal(failed[0].reportLine, 6);
    assert.equal(failed[0].timestamp, new Date(2024, 5, 30, 10, 0, 0).getTime());
  });

  it('reads pytest, Surefire and mocha-junit-reporter XML flavours', () => {
    const py = parseReport('reports/pytest.xml', fixture('reports/pytest.xml'))!;
    assert.deepEqual(
      py.tests.map((t) => [t.suite, t.name, t.status]),
      [['test_ledger', 'test_refund_is_negative', 'failed']],
    );
    assert.match(py.tests[0].stack!, /^def test_refund_is_negative\(\):\n>       assert/);
    const sf = parseReport(
      'TEST-com.acme.ledger.LedgerTest.xml',
      fixture('target/surefire-reports/TEST-com.acme.ledger.LedgerTest.xml'),
    )!;
    assert.deepEqual(
      sf.tests.map((t) => [t.suite, t.name]),
      [
        ['LedgerTest', 'balanceSumsEntries'],
        ['LedgerTest', 'emptyLedgerIsZero'],
      ],
    );
    assert.equal(sf.tests[0].message, 'expected: <60> but was: <61>');
    const mo = parseReport('reports/mocha-junit.xml', fixture('reports/mocha-junit.xml'))!;
    assert.deepEqual(
      mo.tests.map((t) => [t.suite, t.name, t.fileHints[0]]),
      [['cart', 'totals line items', '/home/ci/builds/shop/test/cart.spec.js']],
    );
  });

  it('takes the innermost suite of nested testsuites', () => {
    const xml = `<testsuites><testsuite name="all" timestamp="2024-06-30T09:00:00"><testsuite name="ledger" timestamp="2024-06-30T10:00:00"><testcase name="posts" classname="ledger"><error message="TypeError: x is undefined" type="TypeError"/></testcase></testsuite></testsuite></testsuites>`;
    const r = parseReport('junit.xml', xml)!;
    assert.deepEqual(
      r.tests.map((t) => [t.suite, t.name, t.status, t.message]),
      [['ledger', 'posts', 'failed', 'TypeError: x is undefined']],
    );
  });

  it('reads vitest JUnit names split with >', () => {
    const xml = `<testsuites><testsuite name="src/cart.test.ts" timestamp="2024-06-30T10:00:00.000Z"><testcase classname="src/cart.test.ts" name="cart &gt; totals &gt; rounds" time="0.01"><failure message="expected 1 to be 2" type="AssertionError">AssertionError: expected 1 to be 2\n ❯ src/cart.ts:4:9</failure></testcase></testsuite></testsuites>`;
    const r = parseReport('junit.xml', xml)!;
    assert.deepEqual(
      [r.tests[0].suite, r.tests[0].name, r.tests[0].fileHints[0]],
      ['cart › totals', 'rounds', 'src/cart.test.ts'],
    );
  });

  it('reads Jest JSON, mocha JSON and node:test TAP', () => {
    const jest = parseReport('reports/jest-results.json', fixture('reports/jest-results.json'))!;
    assert.deepEqual(
      jest.tests.map((t) => [t.suite, t.name, t.status, t.timestamp]),
      [['discounts', 'caps at 100 percent', 'failed', 1719741600100]],
    );
    assert.equal(jest.tests[0].reportLine, 17);
    const mocha = parseReport('reports/mocha.json', fixture('reports/mocha.json'))!;
    assert.deepEqual(
      mocha.tests.map((t) => [t.suite, t.name]),
      [['refund policy', 'rejects zero refunds']],
    );
    const tap = parseReport('reports/node-test.tap', fixture('reports/node-test.tap'))!;
    assert.deepEqual(
      tap.tests.map((t) => [t.suite, t.name, t.status]),
      [['money', 'formats negative cents', 'failed']],
    );
    assert.equal(tap.tests[0].message, "Expected values to be strictly equal:\n\n'-0.5' !== '-0.05'");
    assert.match(tap.tests[0].stack!, /formatCents \(\/home\/ci\/builds\/shop\/src\/billing\/money\.ts:4:41\)/);
    assert.equal(tap.tests[0].reportLine, 4);
  });

  it('reads tape-style TAP with an `at:` line and comment groups', () => {
    const tap =
      'TAP version 13\n# ledger refunds\nok 1 posts\nnot ok 2 should be equal\n  ---\n    operator: equal\n    expected: -500\n    actual:   500\n    at: Test.<anonymous> (/ci/shop/test/ledger.js:8:5)\n  ...\nnot ok 3 later # TODO not yet\n';
    const r = parseReport('out.tap', tap)!;
    assert.deepEqual(
      r.tests.map((t) => [t.suite, t.name, t.status]),
      [
        ['ledger refunds', 'posts', 'passed'],
        ['ledger refunds', 'should be equal', 'failed'],
        ['ledger refunds', 'later', 'passed'],
      ],
    );
    assert.equal(r.tests[1].fileHints[0], '/ci/shop/test/ledger.js');
  });

  it('rejects broken XML and JSON with a reason, and ignores JSON that is not a report', () => {
    assert.throws(
      () => parseReport('reports/broken.xml', fixture('reports/broken.xml')),
      /malformed XML: Unclosed <failure>/,
    );
    assert.throws(
      () => parseReport('reports/broken-results.json', fixture('reports/broken-results.json')),
      /not valid JSON/,
    );
    assert.equal(parseReport('reports/summary.json', fixture('reports/summary.json')), undefined);
    assert.equal(
      parseReport('coverage/clover.xml', '<?xml version="1.0"?><coverage generated="1"><project/></coverage>'),
      undefined,
    );
  });

  it('tokenizes both quote styles, entities and mismatched tags', () => {
    const el = parseXml(`<a x='1 &amp; 2' y="it's &#x41;"><b>t&lt;</b><!-- c --></a>`);
    assert.deepEqual(el.attrs, { x: '1 & 2', y: "it's A" });
    assert.equal(el.children[0].text, 't<');
    assert.throws(() => parseXml('<a><b></a>'), XmlError);
    assert.throws(() => parseXml('<a x=1></a>'), /Unquoted attribute/);
  });
});

describe('TestReportSource', () => {
  let ws: Workspace;
  let source: TestReportSource;
  let logger: MemoryLogger;

  beforeEach(async () => {
    ws = await openWorkspace('reports-repo');
    const jest = join(ws.root, 'reports/jest-results.json');
    writeFileSync(jest, readFileSync(jest, 'utf8').replaceAll('__ROOT__', ws.root));
    touchTree(ws.root, SOURCES_TIME, () => false);
    // The reports were written after the sources they judge.
    touchTree(join(ws.root, 'reports'), new Date(NOW - 3600_000), () => false);
    logger = new MemoryLogger();
    source = new TestReportSource({ root: ws.root, logger, now: () => NOW });
    await source.refresh();
  });
  afterEach(() => ws.dispose());

  it('finds every failing test in every format, skipping broken reports with a logged reason', () => {
    const names = source
      .list()
      .map((t) => `${t.suite} › ${t.name}`)
      .sort();
    assert.deepEqual(names, [
      'LedgerTest › balanceSumsEntries',
      'LedgerTest › emptyLedgerIsZero',
      'cart › totals line items',
      'discounts › caps at 100 percent',
      'ledger › applies refunds',
      'money › formats negative cents',
      'refund policy › rejects zero refunds',
      'test_ledger › test_refund_is_negative',
    ]);
    const warnings = logger.lines.filter((l) => l.level === 'warn').map((l) => l.message);
    assert.ok(warnings.some((m) => m.includes('reports/broken.xml') && m.includes('malformed XML')));
    assert.ok(warnings.some((m) => m.includes('reports/broken-results.json') && m.includes('not valid JSON')));
  });

  it('links a failure through a CI machine absolute stack path, with the line, title and reason', () => {
    const items = source.query({
      file: 'src/payments/ledger.ts',
      line: 12,
      symbol: 'applyRefund',
      symbolRange: { start: 10, end: 13 },
    });
    assert.equal(items.length, 1);
    const it0 = items[0];
    assert.equal(it0.type, 'warning');
    assert.equal(it0.title, 'Failing test: ledger › applies refunds');
    assert.equal(
      it0.reason,
      'test `ledger applies refunds` failed in reports/junit.xml (' +
        ageOf(new Date(2024, 5, 30, 10).getTime()) +
        '); its stack trace points at line 12 (inside applyRefund)',
    );
    assert.deepEqual(it0.location, { path: 'reports/junit.xml', line: 6 });
    assert.equal(it0.entityId, 'test:reports/junit.xml#ledger/applies refunds');
    assert.equal(it0.meta?.testFile, 'test/ledger.test.js');
    assert.equal(it0.meta?.sourceLine, 12);
    assert.equal(it0.meta?.stale, false);
    assert.match(it0.summary, /^expect\(received\)\.toBe\(expected\)/);
  });

  it('links a failure through an absolute stack path inside the workspace', () => {
    const items = source.query({ file: 'src/billing/discounts.ts' });
    assert.deepEqual(
      items.map((i) => [i.title, i.meta?.sourceLine, i.meta?.link]),
      [['Failing test: discounts › caps at 100 percent', 3, 'stack']],
    );
  });

  it('links Java and Python frames to their source files', () => {
    const java = source.query({ file: 'src/main/java/com/acme/ledger/Ledger.java' });
    assert.deepEqual(
      java.map((i) => [i.title, i.meta?.link]),
      [
        ['Failing test: LedgerTest › emptyLedgerIsZero', 'stack'],
        ['Failing test: LedgerTest › balanceSumsEntries', 'name'],
      ],
    );
    const py = source.query({ file: 'app/ledger.py' });
    assert.deepEqual(
      py.map((i) => [i.meta?.link, i.meta?.sourceLine, i.meta?.testFile]),
      [['stack', 7, 'tests/test_ledger.py']],
    );
  });

  it('links a failure to the files its test file imports', () => {
    const items = source.query({ file: 'src/payments/refunds.ts' });
    assert.equal(items.length, 1);
    assert.equal(items[0].meta?.link, 'import');
    assert.match(items[0].reason, /its test file test\/refund-policy\.spec\.js imports this file$/);
    assert.ok(
      items[0].relevanceScore < source.query({ file: 'src/billing/discounts.ts' })[0].relevanceScore,
      'an import link is weaker than a stack frame',
    );
  });

  it('links a failure by naming convention when neither stack nor path says more', () => {
    const items = source.query({ file: 'src/cart/cart.ts' });
    assert.deepEqual(
      items.map((i) => [i.title, i.meta?.link]),
      [['Failing test: cart › totals line items', 'name']],
    );
    assert.match(items[0].reason, /test\/cart\.spec\.js is this file's test by name/);
  });

  it('shows the failure on the test file itself', () => {
    const items = source.query({ file: 'test/money.test.js' });
    assert.deepEqual(
      items.map((i) => i.meta?.link),
      ['test-file'],
    );
  });

  it('labels a failure stale when the source changed after the report, and ranks it lower', () => {
    const fresh = source.query({ file: 'src/billing/money.ts' })[0];
    assert.equal(fresh.meta?.stale, false);
    utimesSync(join(ws.root, 'src/billing/money.ts'), new Date(NOW), new Date(NOW));
    const stale = source.query({ file: 'src/billing/money.ts' })[0];
    assert.equal(stale.meta?.stale, true);
    assert.match(stale.reason, /stale: the report is older than the last change to this file/);
    assert.ok(stale.relevanceScore < fresh.relevanceScore);
  });

  it('judges staleness by the report timestamp, not a copied report file', async () => {
    // CI artifacts downloaded now have a new mtime, but the run happened on 2024-06-30.
    touchTree(join(ws.root, 'reports'), new Date(NOW), () => false);
    utimesSync(join(ws.root, 'src/payments/ledger.ts'), new Date(Date.UTC(2024, 6, 1)), new Date(Date.UTC(2024, 6, 1)));
    await source.refresh();
    assert.equal(source.query({ file: 'src/payments/ledger.ts' })[0].meta?.stale, true);
  });

  it('finds reports in git-ignored folders but never in node_modules, and picks up new reports on refresh', async () => {
    mkdirSync(join(ws.root, 'node_modules/some-lib/reports'), { recursive: true });
    writeFileSync(
      join(ws.root, 'node_modules/some-lib/reports/junit.xml'),
      readFileSync(join(ws.root, 'reports/junit.xml')),
    );
    mkdirSync(join(ws.root, 'test-results'), { recursive: true });
    writeFileSync(
      join(ws.root, 'test-results/results.xml'),
      '<testsuite name="refunds" timestamp="2024-06-30T11:00:00"><testcase name="refunds validates" classname="refunds validates"><failure message="nope">Error: nope\n    at validateRefund (src/payments/refunds.ts:2:25)</failure></testcase></testsuite>',
    );
    const stats = await source.refresh();
    assert.equal(stats.parsed, 1, 'only the new report is parsed again');
    assert.ok(!source.list().some((t) => t.report.startsWith('node_modules')));
    const items = source.query({ file: 'src/payments/refunds.ts' });
    assert.deepEqual(
      items.map((i) => i.meta?.link),
      ['stack', 'import'],
    );
    assert.ok(statSync(join(ws.root, 'test-results/results.xml')).isFile());
  });

  it('returns nothing for a file no failing test touches', () => {
    assert.deepEqual(source.query({ file: 'src/payments/unknown.ts' }), []);
    assert.deepEqual(source.query({}), []);
  });
});

function ageOf(ms: number): string {
  const h = Math.floor((NOW - ms) / 3600_000);
  const n = h >= 24 ? Math.floor(h / 24) : h;
  return `${n} ${h >= 24 ? 'day' : 'hour'}${n === 1 ? '' : 's'} ago`;
}
