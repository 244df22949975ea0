import { strict as assert } from 'node:assert';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { MemoryLogger } from '../../../src/core/logger';
import { DocsSource, sectionsOf } from '../../../src/core/sources/docs/docsSource';
import { openWorkspace, type Workspace } from './sourceFixtures';

describe('DocsSource', () => {
  let ws: Workspace;
  let source: DocsSource;
  let logger: MemoryLogger;

  beforeEach(async () => {
    ws = await openWorkspace('docs-repo');
    logger = new MemoryLogger();
    source = new DocsSource({ root: ws.root, store: ws.store, logger });
    await source.refresh();
  });
  afterEach(() => ws.dispose());

  it('splits READMEs, top-level and docs/ markdown into sections, leaving decision records out', () => {
    const bySection = source
      .sections()
      .map((s) => `${s.path}#${s.slug}:${s.line}`)
      .sort();
    assert.deepEqual(bySection, [
      'CONTRIBUTING.md#contributing:1',
      'CONTRIBUTING.md#running-the-tests:6',
      'README.md#configuration:12',
      'README.md#installation:5',
      'README.md#payments:17',
      'README.md#shop:1',
      'docs/guide/billing.md#applydiscount:5',
      'docs/guide/billing.md#billing:1',
      'docs/guide/billing.md#discount-campaigns:14',
      'docs/guide/billing.md#money:10',
      'packages/web/README.md#web-storefront:1',
    ]);
  });

  it('ranks a section about the symbol above ones that mention it in code, above prose mentions', () => {
    const items = source.query({ file: 'src/billing/discounts.ts', symbol: 'applyDiscount' });
    const ids = items.map((i) => i.entityId);
    assert.equal(ids[0], 'doc:docs/guide/billing.md#applydiscount');
    assert.equal(items[0].reason, 'docs/guide/billing.md § applyDiscount is about `applyDiscount`');
    const config = items.find((i) => i.entityId === 'doc:README.md#configuration');
    assert.ok(config);
    assert.equal(config.reason, 'README.md § Configuration mentions `applyDiscount`');
    assert.deepEqual(config.location, { path: 'README.md', line: 12, endLine: 16 });
    assert.equal(
      config.summary,
      'Set DISCOUNT_CAP to limit what applyDiscount may take off a price, in percent. The default is 50.',
    );
    const prose = items.find((i) => i.entityId === 'doc:CONTRIBUTING.md#running-the-tests');
    assert.ok(prose);
    assert.ok(prose.relevanceScore < config.relevanceScore);
    assert.ok(!ids.some((id) => id.includes('docs/adr')), 'ADRs are the decisions source’s');
  });

  it('finds sections naming the file path, its file name and its folder', () => {
    const ledger = source.query({ file: 'src/payments/ledger.ts' });
    assert.equal(ledger[0].entityId, 'doc:README.md#payments');
    assert.equal(ledger[0].reason, 'README.md § Payments mentions src/payments/ledger.ts');
    const money = source.query({ file: 'src/billing/money.ts' });
    assert.equal(money[0].entityId, 'doc:docs/guide/billing.md#money');
    assert.equal(money[0].reason, 'docs/guide/billing.md § Money mentions money.ts');
    const refunds = source.query({ file: 'src/payments/refunds.ts' });
    assert.equal(refunds[0].entityId, 'doc:README.md#payments');
    assert.equal(refunds[0].reason, "README.md § Payments mentions src/payments/ (this file's folder)");
  });

  it('titles no section after the file’s folder alone: a folder holds many files', () => {
    const items = source.query({ file: 'src/billing/invoice.ts' });
    assert.ok(
      !items.some((i) => i.entityId === 'doc:docs/guide/billing.md#billing'),
      items.map((i) => `${i.title}: ${i.reason}`).join('\n'),
    );
    assert.ok(items.every((i) => !/this file's folder/.test(i.reason) || /mentions src\/billing\//.test(i.reason)));
  });

  it('does not take a heading that names the project for one titled after a folder named after it', async () => {
    // Sixty sections, a fifth of which name the project, as docs do; one is about networks.
    const sections = Array.from({ length: 60 }, (_, i) =>
      i % 5 === 0
        ? `## Ledger part ${i}\n\nShopkit keeps the ledger.\n`
        : `## Topic ${i}\n\nSomething else entirely.\n`,
    );
    writeFileSync(
      join(ws.root, 'docs/many.md'),
      `# Many\n\n${sections.join('\n')}\n## Who is using Shopkit?\n\nMany teams use shopkit.\n\n## Networks\n\nShopkit talks to networks.\n`,
    );
    mkdirSync(join(ws.root, 'shopkit'), { recursive: true });
    writeFileSync(join(ws.root, 'shopkit/networks.ts'), 'export const net = 1;\n');
    await source.refresh();
    const items = source.query({ file: 'shopkit/networks.ts' });
    assert.ok(
      !items.some((i) => i.title.startsWith('Who is using Shopkit?')),
      items.map((i) => `${i.title}: ${i.reason}`).join('\n'),
    );
    assert.ok(
      items.some((i) => i.title.startsWith('Networks') && /titled after/.test(i.reason)),
      'the module name still titles its section',
    );
  });

  it('links no section by a symbol many files define, a dunder or a protocol method', async () => {
    writeFileSync(
      join(ws.root, 'docs/protocols.md'),
      '# Protocols\n\n## Building\n\nEvery validator has `build`.\n\n## Hashing\n\nModels define `__hash__` and `toString`.\n\n## Refunds\n\nCall `refundOrder` to refund.\n',
    );
    const counted = new DocsSource({
      root: ws.root,
      store: ws.store,
      logger,
      definitionFiles: (name) => (name === 'build' ? 40 : 1),
    });
    await counted.refresh();
    for (const symbol of ['build', '__hash__', 'toString']) {
      const items = counted.query({ file: 'src/validators/bool.ts', symbol });
      assert.ok(
        !items.some((i) => i.location.path === 'docs/protocols.md'),
        `${symbol}: ${items.map((i) => i.reason).join('; ')}`,
      );
    }
    assert.ok(
      counted.query({ file: 'src/orders.ts', symbol: 'refundOrder' }).some((i) => i.title.startsWith('Refunds')),
      'a name one file defines still links',
    );
  });

  it('re-indexes a changed document and forgets a section that is gone', async () => {
    const p = join(ws.root, 'README.md');
    writeFileSync(p, readFileSync(p, 'utf8').replace('## Payments', '## Billing and payments'));
    const stats = await source.refresh();
    assert.equal(stats.parsed, 1);
    const ids = source.query({ file: 'src/payments/ledger.ts' }).map((i) => i.entityId);
    assert.ok(ids.includes('doc:README.md#billing-and-payments'));
    assert.ok(!ids.includes('doc:README.md#payments'));
    assert.ok(!source.sections().some((s) => s.heading === 'Payments'));
  });

  it('skips node_modules and binary markdown with a logged reason', async () => {
    mkdirSync(join(ws.root, 'node_modules/lib'), { recursive: true });
    writeFileSync(join(ws.root, 'node_modules/lib/README.md'), '# lib\n\nCalls `applyDiscount`.\n');
    writeFileSync(join(ws.root, 'docs/diagram.md'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 1]));
    await source.refresh();
    assert.ok(!source.sections().some((s) => s.path.startsWith('node_modules')));
    assert.ok(logger.lines.some((l) => l.level === 'warn' && l.message.includes('docs/diagram.md')));
  });

  it('names a repeated heading with the heading above it, so changelog sections can be told apart', () => {
    const text =
      '# Changelog\n\n## 0.3.2\n\n### Bug Fixes\n\n- `Ledger` rounding\n\n## 0.3.1\n\n### Bug Fixes\n\n- `Ledger` totals\n\n### Features\n\nmore\n';
    const sections = sectionsOf('CHANGELOG.md', text);
    assert.deepEqual(
      sections.map((s) => s.display),
      ['Changelog', '0.3.2', '0.3.2 › Bug Fixes', '0.3.1', '0.3.1 › Bug Fixes', 'Features'],
    );
    assert.deepEqual(
      sections.map((s) => s.heading).slice(2, 3),
      ['Bug Fixes'],
      'matching still uses the heading itself',
    );
  });

  it('climbs as many headings as it takes to tell repeated sections apart', () => {
    const text = [
      '## v2.1.0',
      "### What's Changed",
      '#### Changes',
      '- `Field` alias',
      '#### Fixes',
      '- x',
      '## v2.0.0',
      "### What's Changed",
      '#### Changes',
      '- `Field` default',
      '### New Contributors',
      '- y',
    ].join('\n\n');
    const sections = sectionsOf('HISTORY.md', text);
    assert.deepEqual(
      sections.map((s) => s.display),
      [
        'v2.1.0',
        "v2.1.0 › What's Changed",
        "v2.1.0 › What's Changed › Changes",
        'Fixes',
        'v2.0.0',
        "v2.0.0 › What's Changed",
        "v2.0.0 › What's Changed › Changes",
        'New Contributors',
      ],
    );
  });

  it('reads front matter as the page title, not as a heading made by its closing fence', () => {
    const text =
      '---\ntitle: Basic usage\ndescription: "Guide covering parsing and error handling"\n---\n\nimport { Tabs } from "ui";\n\nThis page walks you through it.\n\n## Defining a schema\n\ntext\n';
    const sections = sectionsOf('content/basics.mdx', text);
    assert.deepEqual(
      sections.map((s) => [s.heading, s.line]),
      [
        ['Basic usage', 5],
        ['Defining a schema', 10],
      ],
    );
    assert.ok(!sections.some((s) => s.heading.includes('description')));
  });

  it('ignores headings inside code fences', () => {
    const sections = sectionsOf('x.md', '# Title\n\n```sh\n# not a heading\n```\n\n## Real\n\ntext\n');
    assert.deepEqual(
      sections.map((s) => s.heading),
      ['Title', 'Real'],
    );
  });

  it('shows a release-notes section only when it names the file', async () => {
    writeFileSync(
      join(ws.root, 'CHANGELOG.md'),
      '# Changelog\n\n## [7.1.0]\n\n### Bug Fixes\n\n- hooks: features load again after a refresh\n- billing: invoices round half up\n\n## [7.0.0]\n\n### Bug Fixes\n\n- `useFeatures` keeps the last value\n\n### Features\n\n- src/hooks/useFlags.ts reads flags\n',
    );
    await source.refresh();
    const release = (file: string, symbol?: string) =>
      source.query({ file, symbol }).filter((i) => i.location.path === 'CHANGELOG.md');
    assert.deepEqual(release('src/hooks/useSegments.ts'), [], 'words of the folder are not enough');
    assert.deepEqual(release('src/billing/invoices.ts'), [], 'nor words of the name');
    // An entry naming a function says when it changed, which the function's own history says.
    assert.deepEqual(release('src/hooks/useFeatures.ts', 'useFeatures'), [], 'nor the symbol');
    assert.deepEqual(
      release('src/hooks/useFlags.ts').map((i) => i.reason),
      ['CHANGELOG.md § Features mentions src/hooks/useFlags.ts'],
    );
  });

  it('shows a translated document once, as its original, and keeps a translation whose original is not here', async () => {
    mkdirSync(join(ws.root, 'doc'), { recursive: true });
    mkdirSync(join(ws.root, 'docs/ja'), { recursive: true });
    const section = '# Payments\n\n## Ledger\n\nThe ledger lives in src/payments/ledger.ts.\n';
    writeFileSync(join(ws.root, 'doc/README-ja.md'), section);
    writeFileSync(join(ws.root, 'doc/README.zh-CN.md'), section);
    writeFileSync(join(ws.root, 'docs/payments.md'), section);
    writeFileSync(join(ws.root, 'docs/ja/payments.md'), section);
    writeFileSync(join(ws.root, 'docs/ja/only-here.md'), section);
    await source.refresh();
    const paths = [...new Set(source.query({ file: 'src/payments/ledger.ts' }).map((i) => i.location.path))].sort();
    assert.deepEqual(paths, ['README.md', 'docs/ja/only-here.md', 'docs/payments.md']);
  });

  it('needs the folder with a name as common as main.rs, and more than a bare src/ for a folder', async () => {
    mkdirSync(join(ws.root, 'src/cli'), { recursive: true });
    writeFileSync(
      join(ws.root, 'docs/usage.md'),
      '# Usage\n\n## Line numbers\n\n```\nbat -n main.rs\n```\n\n## Search\n\n```\nbatgrep needle src/\n```\n\n## Entry\n\nThe program starts in src/cli/main.rs.\n',
    );
    await source.refresh();
    const reasons = (file: string) =>
      source
        .query({ file })
        .filter((i) => i.location.path === 'docs/usage.md')
        .map((i) => i.reason);
    assert.deepEqual(
      reasons('src/cli/main.rs'),
      ['docs/usage.md § Entry mentions src/cli/main.rs'],
      'main.rs alone may be any main.rs',
    );
    assert.deepEqual(reasons('src/options.rs'), [], 'src/ holds all the code');
  });

  it('matches headings by whole names, never by a fragment of the file name', async () => {
    mkdirSync(join(ws.root, 'docs/design'), { recursive: true });
    writeFileSync(
      join(ws.root, 'docs/design/state.md'),
      '# State\n\n## Context\n\nThe config context is read once at start.\n\n## Config context\n\nHolds the static settings of the page.\n',
    );
    await source.refresh();
    const items = source.query({ file: 'src/components/ConfigContext.tsx' });
    const titled = items.find((i) => i.entityId === 'doc:docs/design/state.md#config-context');
    assert.ok(titled, 'the section titled after the whole name is shown');
    assert.match(titled.reason, /is titled after/);
    assert.ok(
      !items.some((i) => i.entityId === 'doc:docs/design/state.md#context'),
      'the "Context" section shares one word of two',
    );
  });

  it('shows no section of a plan, an evolution report or a retrospective, even one naming the class', async () => {
    mkdirSync(join(ws.root, 'docs/plans'), { recursive: true });
    mkdirSync(join(ws.root, 'docs/retro/2020'), { recursive: true });
    const steps = '# Steps\n\n## Step 2: refunds\n\nMove `refundOrder` into src/payments/ledger.ts.\n';
    writeFileSync(join(ws.root, 'docs/plans/refunds.md'), steps);
    writeFileSync(join(ws.root, 'docs/evolution-report.md'), steps);
    writeFileSync(join(ws.root, 'docs/retro/2020/04.md'), '# Insights\n\n`refundOrder` was slow.\n');
    writeFileSync(
      join(ws.root, 'docs/refunds.md'),
      '# Refunds\n\n## Ledger\n\n`refundOrder` books in src/payments/ledger.ts.\n',
    );
    await source.refresh();
    const paths = source.query({ file: 'src/payments/ledger.ts', symbol: 'refundOrder' }).map((i) => i.location.path);
    assert.ok(paths.includes('docs/refunds.md'), 'the reference document is shown');
    assert.deepEqual(
      paths.filter((p) => p !== 'README.md' && p !== 'docs/refunds.md'),
      [],
      'plans, reports and retrospectives are history, not documentation',
    );
  });

  it('shows one section of a document, its best, however many of its sections name the code', async () => {
    writeFileSync(
      join(ws.root, 'docs/refunds.md'),
      [
        '# Refunds',
        '',
        '## refundOrder',
        '',
        '`refundOrder` books a refund in src/payments/ledger.ts.',
        '',
        '## Limits',
        '',
        '`refundOrder` refuses more than the order paid.',
        '',
        '## Reports',
        '',
        'The monthly report lists each `refundOrder` call.',
        '',
      ].join('\n'),
    );
    await source.refresh();
    const items = source.query({ file: 'src/payments/ledger.ts', symbol: 'refundOrder' });
    const refunds = items.filter((i) => i.location.path === 'docs/refunds.md');
    assert.deepEqual(
      refunds.map((i) => i.entityId),
      ['doc:docs/refunds.md#refundorder'],
    );
  });
});
