import { strict as assert } from 'node:assert';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseReport } from '../../../src/core/sources/reports/reportParsers';
import { TestReportSource } from '../../../src/core/sources/reports/testReportSource';
import { openWorkspace, type Workspace } from './sourceFixtures';

/** A JUnit report with `count` failures, each with a stack frame in src/pay.ts. */
function junitWithFailures(count: number): string {
  const cases = Array.from(
    { length: count },
    (_, i) =>
      `<testcase name="case ${i}" classname="pay" file="test/pay.test.ts"><failure message="expected ${i}">Error: boom\n    at pay (src/pay.ts:${(i % 40) + 1}:3)</failure></testcase>`,
  );
  return `<?xml version="1.0"?>\n<testsuites><testsuite name="pay" timestamp="2024-06-30T10:00:00">\n${cases.join('\n')}\n</testsuite></testsuites>\n`;
}

describe('test reports: hostile and huge input', () => {
  let ws: Workspace;
  beforeEach(async () => {
    ws = await openWorkspace();
    mkdirSync(join(ws.root, 'src'));
    mkdirSync(join(ws.root, 'test'));
    mkdirSync(join(ws.root, 'reports'));
    writeFileSync(join(ws.root, 'src/pay.ts'), 'export function pay() {}\n');
    writeFileSync(join(ws.root, 'test/pay.test.ts'), "import { pay } from '../src/pay';\n");
  });
  afterEach(() => ws.dispose());

  it('keeps the strongest failures per file and says how many more there are', async () => {
    writeFileSync(join(ws.root, 'reports/junit.xml'), junitWithFailures(3000));
    const source = new TestReportSource({ root: ws.root, maxLinksPerFile: 20 });
    const stats = await source.refresh();
    assert.equal(stats.entries, 3000, 'every failure is still listed');
    const items = source.query({ file: 'src/pay.ts' });
    assert.equal(items.length, 20);
    assert.ok(
      items.every((i) => i.meta?.link === 'stack'),
      'the stack links outrank the import links',
    );
    assert.match(items[0].summary, /… and 2,980 more failures in this file$/);
    assert.equal(items[0].meta?.moreFailures, 2980);
    assert.equal(items.filter((i) => /more failures/.test(i.summary)).length, 1, 'said once');
    assert.equal(source.query({ file: 'test/pay.test.ts' }).length, 20);
  });

  it('expands no entity a report declares: billion laughs stay text', async () => {
    const laughs = [
      '<?xml version="1.0"?>',
      '<!DOCTYPE lolz [',
      ' <!ENTITY lol "lol">',
      ...Array.from({ length: 9 }, (_, i) => ` <!ENTITY lol${i + 1} "${`&lol${i === 0 ? '' : i};`.repeat(10)}">`),
      ']>',
      '<testsuites><testsuite name="lolz"><testcase name="t" classname="x"><failure message="&lol9;">&lol9;</failure></testcase></testsuite></testsuites>',
    ].join('\n');
    const r = parseReport('reports/junit.xml', laughs)!;
    assert.equal(r.tests[0].message, '&lol9;');
    assert.equal(r.tests[0].stack, '&lol9;');
    writeFileSync(join(ws.root, 'reports/junit.xml'), laughs);
    const source = new TestReportSource({ root: ws.root });
    assert.equal((await source.refresh()).entries, 1);
  });

  it('reads no external entity: XXE stays text and no file is opened', () => {
    const xxe = [
      '<?xml version="1.0"?>',
      '<!DOCTYPE r [ <!ENTITY xxe SYSTEM "file:///etc/passwd"> <!ENTITY % p SYSTEM "http://127.0.0.1:1/x.dtd"> %p; ]>',
      '<testsuites><testsuite name="s"><testcase name="t" classname="x"><failure message="&xxe;">&xxe;</failure></testcase></testsuite></testsuites>',
    ].join('\n');
    const r = parseReport('reports/junit.xml', xxe)!;
    assert.equal(r.tests[0].message, '&xxe;');
    assert.doesNotMatch(JSON.stringify(r), /root:/);
  });
});
