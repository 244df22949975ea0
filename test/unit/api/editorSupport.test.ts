import { strict as assert } from 'node:assert';
import { mkdirSync, mkdtempSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { ContextService } from '../../../src/core/api/contextService';
import { FailureLocator } from '../../../src/core/api/service/editorSupport';
import { openEngine } from '../../../src/core/engine';
import { noDecisionRecords } from '../../../src/core/api/messages';
import { buildPanelState } from '../../../src/vscode/views/panelModel';
import { TempRepo } from '../git/repoFixture';

const PRICING = [
  "import { money } from './money';",
  '',
  '// ADR-2: totals never go negative.',
  'const FLOOR = 0;',
  '',
  'export function subtotal(xs: number[]): number {',
  '  return xs.reduce((a, b) => a + b, FLOOR);',
  '}',
  '',
  '/** Caps the discount (see ADR-2). */',
  'export function applyDiscount(total: number, percent: number): number {',
  '  return total - (total * Math.min(percent, 50)) / 100;',
  '}',
  '',
].join('\n');

const ADR_1 = [
  '# 1. Cap discounts',
  '',
  '## Status',
  '',
  'Superseded by [2. Cap stacked discounts](0002-cap-stacked-discounts.md)',
  '',
  '## Decision',
  '',
  'The cap lives in `applyDiscount` in `src/pricing.ts`.',
  '',
].join('\n');
const ADR_2 = [
  '# 2. Cap stacked discounts',
  '',
  '## Status',
  '',
  'Accepted',
  '',
  '## Decision',
  '',
  'Supersedes ADR 1. `applyDiscount` caps the sum of all discounts at 50%.',
  '',
].join('\n');

function junit(root: string, failing: boolean): string {
  const failure = failing
    ? `<failure message="expected 30 to be 50">AssertionError: expected 30 to be 50\n at applyDiscount ${join(root, 'src/pricing.ts')}:12:10\n at ${join(root, 'test/pricing.test.ts')}:5:7</failure>`
    : '';
  return `<?xml version="1.0" encoding="UTF-8"?>
<testsuites tests="1" failures="${failing ? 1 : 0}">
  <testsuite name="test/pricing.test.ts" tests="1" failures="${failing ? 1 : 0}" timestamp="2026-11-20T10:00:00">
    <testcase classname="test/pricing.test.ts" name="pricing &gt; caps stacked discounts">${failure}</testcase>
  </testsuite>
</testsuites>
`;
}

describe('ContextService: the editor surfaces', function () {
  this.timeout(60_000);
  const cleanup: (() => void)[] = [];
  afterEach(() => {
    for (const c of cleanup.splice(0).reverse()) c();
  });

  async function open(root: string): Promise<ContextService> {
    const state = mkdtempSync(join(tmpdir(), 'pc-editor-state-'));
    const service = await ContextService.open({ root, stateDir: state });
    cleanup.push(
      () => rmSync(state, { recursive: true, force: true }),
      () => service.dispose(),
    );
    await service.workspace.refreshAll();
    return service;
  }

  function repo(files: Record<string, string>): TempRepo {
    const r = new TempRepo();
    cleanup.push(() => r.dispose());
    r.commit('Start', files);
    return r;
  }

  it('finds the definitions decision records govern, by name and file or by a reference in a comment', async () => {
    const r = repo({
      'src/pricing.ts': PRICING,
      'src/money.ts': 'export function money(n: number): number {\n  return n;\n}\n',
      'docs/adr/0001-cap-discounts.md': ADR_1,
      'docs/adr/0002-cap-stacked-discounts.md': ADR_2,
    });
    const service = await open(r.dir);
    const passes = service.suggestions.passes;
    const anchors = service.decisions.anchors('src/pricing.ts');
    const summary = anchors.map(
      (a) =>
        `${a.symbol.name}:${a.symbol.startLine} ${a.decision.label} ${a.how}${a.successor ? ` -> ${a.successor.label}` : ''}`,
    );
    assert.deepEqual(summary, ['applyDiscount:11 0002 reference', 'applyDiscount:11 0001 names -> 0002']);
    // The ADR-2 comment above a constant governs no definition: code stands between it and subtotal.
    assert.ok(!anchors.some((a) => a.symbol.name === 'subtotal'));
    assert.deepEqual(
      service.decisions.anchors('src/money.ts'),
      [],
      'a record that does not name money.ts governs nothing in it',
    );
    assert.equal(service.suggestions.passes, passes, 'looking up anchors ran a suggestion pass');
  });

  it('lists each entry of a decision log as a record of its own, and anchors a definition to the entry that names it', async () => {
    const entry = (n: number, title: string, body: string) =>
      `## ${n}. ${title}\n\n**Status:** Accepted\n\n### Context\n\n${body}\n\n### Decision\n\n${body}\n\n`;
    const log =
      '# Decisions\n\n' +
      entry(1, 'Keep one database', 'Everything goes to Postgres.') +
      entry(2, 'Cap discounts', 'The cap lives in `applyDiscount` in `src/pricing.ts`.');
    const r = repo({ 'src/pricing.ts': PRICING.replace(/ADR-2/g, 'the cap'), 'docs/DECISIONS.md': log });
    const service = await open(r.dir);
    const list = await service.decisions.list();
    assert.deepEqual(
      list.map((d) => [d.number, d.title, d.status, d.path, d.line]),
      [
        [1, 'Keep one database', 'accepted', 'docs/DECISIONS.md', 3],
        [2, 'Cap discounts', 'accepted', 'docs/DECISIONS.md', 15],
      ],
    );
    // Each entry carries its own text, not the whole log.
    assert.match(list[1].body, /^## 2\. Cap discounts\n/);
    assert.ok(!list[1].body.includes('Postgres'));
    const anchors = service.decisions.anchors('src/pricing.ts');
    assert.deepEqual(
      anchors.map((a) => [a.symbol.name, a.decision.title, a.decision.line, a.how]),
      [['applyDiscount', 'Cap discounts', 15, 'names']],
    );
  });

  it('explains a definition from the panel’s suggestion without another pass, and with one without it', async () => {
    const r = repo({ 'src/pricing.ts': PRICING, 'docs/adr/0002-cap-stacked-discounts.md': ADR_2 });
    r.commit(
      'Raise the cap',
      { 'src/pricing.ts': PRICING.replace('Math.min(percent, 50)', 'Math.min(percent, 60)') },
      2,
    );
    const service = await open(r.dir);
    const span = { name: 'applyDiscount', startLine: 11, endLine: 13 };
    const place = { file: 'src/pricing.ts', line: 12, symbol: span };
    const panel = await service.suggestions.suggestAt(place);
    const before = service.suggestions.passes;
    const card = await service.suggestions.explainWhy(place, { suggestion: panel });
    assert.equal(service.suggestions.passes, before, 'explaining with the panel’s suggestion ran another pass');
    assert.deepEqual(
      card.lineHistory.map((c) => c.subject),
      ['Raise the cap', 'Start'],
    );
    const fresh = await service.suggestions.explainWhy(place);
    assert.equal(service.suggestions.passes, before + 1);
    assert.deepEqual(
      fresh.lineHistory.map((c) => c.subject),
      card.lineHistory.map((c) => c.subject),
    );
    assert.equal(fresh.callers, card.callers);

    // Hovering another definition than the panel's: its own lines' history, still without a pass.
    const other = await service.suggestions.explainWhy(
      { file: 'src/pricing.ts', line: 7, symbol: { name: 'subtotal', startLine: 6, endLine: 8 } },
      { suggestion: panel },
    );
    assert.equal(service.suggestions.passes, before + 1);
    assert.deepEqual(
      other.lineHistory.map((c) => c.subject),
      ['Start'],
      'subtotal was not touched by the raise',
    );
  });

  it('places failing tests at the test and at the source line of their stack, and drops them when the report passes or goes', async () => {
    const r = repo({
      'src/pricing.ts': PRICING,
      'test/pricing.test.ts':
        "import { applyDiscount } from '../src/pricing';\n\ndescribe('pricing', () => {\n  it('caps stacked discounts', () => {\n    expect(applyDiscount(100, 70)).toBe(50);\n  });\n});\n",
    });
    write(r.dir, 'reports/junit.xml', junit(r.dir, true));
    const service = await open(r.dir);
    const [failure, ...more] = service.suggestions.failingTests();
    assert.equal(more.length, 0);
    assert.equal(failure.report, 'reports/junit.xml');
    assert.deepEqual(failure.test, { path: 'test/pricing.test.ts', line: 5 });
    assert.deepEqual(failure.sources, [{ path: 'src/pricing.ts', line: 12 }]);
    assert.equal(failure.time, Date.parse('2026-11-20T10:00:00'));

    write(r.dir, 'reports/junit.xml', junit(r.dir, false));
    await service.workspace.refreshAll();
    assert.deepEqual(service.suggestions.failingTests(), []);
    write(r.dir, 'reports/junit.xml', junit(r.dir, true));
    await service.workspace.refreshAll();
    assert.equal(service.suggestions.failingTests().length, 1);
    unlinkSync(join(r.dir, 'reports/junit.xml'));
    await service.workspace.refreshAll();
    assert.deepEqual(service.suggestions.failingTests(), []);
  });

  it('places a failure’s source lines again once the index that knows the files is built', async () => {
    const r = repo({
      'src/pricing.ts': PRICING,
      'test/pricing.test.ts': "describe('pricing', () => {\n  it('caps stacked discounts', () => {});\n});\n",
    });
    write(r.dir, 'reports/junit.xml', junit(r.dir, true));
    const state = mkdtempSync(join(tmpdir(), 'pc-editor-state-'));
    const parts = await openEngine({ root: r.dir, stateDir: state });
    cleanup.push(
      () => rmSync(state, { recursive: true, force: true }),
      () => parts.dispose(),
    );
    const locator = new FailureLocator(parts);
    // Reports are read before the code is indexed: the stack's frames are matched to the files then known.
    await parts.indexer.refreshSources();
    assert.deepEqual(locator.current()[0]?.sources, []);
    await parts.index.build();
    assert.deepEqual(locator.current()[0]?.sources, [{ path: 'src/pricing.ts', line: 12 }]);
  });

  it('finds a test by its name in the test file when the stack does not reach it', async () => {
    const r = repo({
      'test/pricing.test.ts': "describe('pricing', () => {\n  it('caps stacked discounts', () => {});\n});\n",
    });
    write(r.dir, 'reports/junit.xml', junit(r.dir, true).replace(/\n at [^\n]*pricing\.test\.ts[^<]*/, ''));
    const service = await open(r.dir);
    assert.deepEqual(service.suggestions.failingTests()[0]?.test, { path: 'test/pricing.test.ts', line: 2 });
  });

  it('says where it looked for decision records in a workspace without any', async () => {
    const r = repo({ 'src/a.ts': 'export const a = 1;\n' });
    const service = await open(r.dir);
    const search = service.decisions.search();
    assert.equal(search.records, 0);
    assert.deepEqual(search.folders, []);
    assert.ok(
      search.conventions.some((c) => /folders named adr, adrs, decisions/.test(c)),
      JSON.stringify(search.conventions),
    );
    const { heading, detail } = noDecisionRecords(search);
    assert.equal(heading, 'No decision records yet');
    assert.match(
      detail,
      /^Looked for \.adr-dir \(adr-tools\), .*; folders named adr, .*: found none\. Record a Decision… writes the first one to docs\/adr/,
    );
    assert.match(detail, /“proactiveContext\.decisionFolders” setting/);

    // adr-tools configured for a folder that holds nothing yet.
    mkdirSync(join(r.dir, 'docs', 'decisions'), { recursive: true });
    writeFileSync(join(r.dir, '.adr-dir'), 'docs/decisions\n');
    await service.workspace.refreshAll();
    assert.match(
      noDecisionRecords(service.decisions.search()).detail,
      /^Looked in docs\/decisions, which holds no decision records\. Record a Decision… writes the first one there/,
    );
  });

  it('outside a git repository, says why recent changes are missing where they would be in the panel', async () => {
    const root = mkdtempSync(join(tmpdir(), 'pc-no-git-'));
    cleanup.push(() => rmSync(root, { recursive: true, force: true }));
    write(root, 'src/a.ts', 'export function alpha(): number {\n  return 1;\n}\n');
    const service = await open(root);
    const suggestion = await service.suggestions.suggestAt({ file: 'src/a.ts', line: 2 });
    const state = buildPanelState({
      phase: 'ready',
      file: 'src/a.ts',
      items: suggestion.items,
      notes: suggestion.notes,
      decisionHelp: noDecisionRecords(service.decisions.search()),
    });
    assert.deepEqual(state.sectionNotes, [
      { type: 'change', text: 'Not a git repository: recent changes and “usually changes with” are off.' },
    ]);
    assert.ok(!state.notes.some((n) => /git/.test(n)), 'the reason is also shown above everything');
    assert.equal(state.decisionHelp?.heading, 'No decision records yet');
  });
});

function write(root: string, rel: string, text: string): void {
  mkdirSync(dirname(join(root, rel)), { recursive: true });
  writeFileSync(join(root, rel), text);
}
