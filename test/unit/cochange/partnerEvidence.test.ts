import { strict as assert } from 'node:assert';
import type { ContextSuggestion } from '../../../src/core/types';
import { openRefreshed, type RepoService } from '../api/serviceFixture';
import { TempRepo } from '../git/repoFixture';

const WORDS = 'warehouseManifestCode: string, palletBarcodeScan: number, customsTariffBand: string';
const order = (n: number) =>
  `export function placeOrder(${WORDS}) {\n  return warehouseManifestCode + palletBarcodeScan + customsTariffBand + ${n};\n}\n`;
const totals = (n: number) => `export function orderTotal(lines: number[]) {\n  return lines.length + ${n};\n}\n`;

/**
 * "Usually changes with" shows a file on evidence from history: two shared commits, the test by
 * naming convention, or one shared commit, a shared large change set and an import. A file that only
 * shares words with this one, or changed with it once (created in the same commit, even one it
 * imports), ranks but is not shown.
 */
describe('co-change partners need history evidence', function () {
  this.timeout(60000);
  let ws: RepoService;

  before(async () => {
    const repo = new TempRepo(true, 'pc-partners-', Math.floor(Date.now() / 1000) - 15 * 86400);
    repo.commit('Start the site', {
      'src/site/config.ts': "import { load } from './loader';\n\nexport const config = load('site');\n",
      'src/site/config.test.ts': "import { config } from './config';\n\nexport const ok = Boolean(config);\n",
      'src/site/loader.ts': 'export function load(name: string) {\n  return { name };\n}\n',
      'src/site/layout.ts': 'export function layout() {\n  return "main";\n}\n',
      'src/site/utils.ts': 'export function joinClasses(a: string, b: string) {\n  return a + b;\n}\n',
    });
    // The site's pages keep changing; its configuration does not.
    for (let i = 1; i <= 3; i++)
      repo.commit(`Restyle ${i}`, {
        'src/site/layout.ts': `export function layout() {\n  return "main-${i}";\n}\n`,
        'src/site/utils.ts': `export function joinClasses(a: string, b: string) {\n  return a + b + ${i};\n}\n`,
      });
    repo.commit('Take orders', {
      'src/orders/order.ts': order(1),
      'src/orders/index.ts': "export { placeOrder } from './order';\n",
    });
    repo.commit('Refund orders', {
      'src/orders/refund.ts': `export function refundOrder(${WORDS}) {\n  return warehouseManifestCode + palletBarcodeScan + customsTariffBand;\n}\n`,
      'src/orders/index.ts': "export { placeOrder } from './order';\nexport { refundOrder } from './refund';\n",
    });
    repo.commit('Count totals', { 'src/orders/order.ts': order(2), 'src/orders/orderTotals.ts': totals(2) });
    repo.commit('Round totals', { 'src/orders/order.ts': order(3), 'src/orders/orderTotals.ts': totals(3) });
    // A scaffold of forty files in one commit: too large for pair counts.
    const scaffold: Record<string, string> = {
      'src/api/controller.ts': 'export function getHello() {\n  return "hello";\n}\n',
      'src/api/module.ts': "import { getHello } from './controller';\n\nexport const routes = [getHello];\n",
    };
    for (let i = 0; i < 38; i++) scaffold[`src/api/generated/part${i}.ts`] = `export const part${i} = ${i};\n`;
    repo.commit('Scaffold the api', scaffold);
    // Billing: an invoice and the tax rules it imports, created together, then changed together in
    // a large licence-header sweep (35 files: too large for pair counts, short of a sweep).
    repo.commit('Bill orders', {
      'src/billing/invoice.ts': "import { tax } from './tax';\n\nexport const invoice = (n: number) => n + tax(n);\n",
      'src/billing/tax.ts': 'export function tax(n: number) {\n  return n / 5;\n}\n',
    });
    const headers: Record<string, string> = {
      'src/billing/invoice.ts':
        "// Licensed.\nimport { tax } from './tax';\n\nexport const invoice = (n: number) => n + tax(n);\n",
      'src/billing/tax.ts': '// Licensed.\nexport function tax(n: number) {\n  return n / 5;\n}\n',
    };
    for (let i = 0; i < 33; i++)
      headers[`src/billing/rates/rate${i}.ts`] = `// Licensed.\nexport const rate${i} = ${i};\n`;
    repo.commit('Add licence headers', headers);
    repo.commit('Round invoices', {
      'src/billing/invoice.ts':
        "// Licensed.\nimport { tax } from './tax';\n\nexport const invoice = (n: number) => Math.round(n + tax(n));\n",
    });
    // Reports: a chart and the palette it imports, created together; the chart then changed alone.
    // A summary created with the money format it imports, in another folder.
    repo.commit('Report orders', {
      'src/reports/chart.ts': "import { palette } from './palette';\n\nexport const chart = () => palette[0];\n",
      'src/reports/palette.ts': "export const palette = ['red'];\n",
      'src/reports/summary.ts': "import { money } from '../format/money';\n\nexport const summary = () => money(1);\n",
      'src/format/money.ts': 'export function money(n: number) {\n  return `${n} EUR`;\n}\n',
    });
    repo.commit('Label the chart', {
      'src/reports/chart.ts': "import { palette } from './palette';\n\nexport const chart = () => `${palette[0]}!`;\n",
    });
    repo.commit('Add a route', {
      'src/api/module.ts': "import { getHello } from './controller';\n\nexport const routes = [getHello, getHello];\n",
    });
    ws = await openRefreshed(repo);
  });

  after(() => ws.dispose());

  const partners = (s: ContextSuggestion) => s.items.filter((i) => i.type === 'cochange');
  const said = (s: ContextSuggestion) =>
    partners(s)
      .map((i) => `${i.location.path}: ${i.reason} (${i.relevanceScore})`)
      .join('\n');

  it('does not show files created in the same commit and never changed with it since', async () => {
    const s = await ws.service.suggestions.suggestForPath({ file: 'src/site/config.ts' });
    const paths = partners(s).map((i) => i.location.path);
    assert.ok(paths.includes('src/site/config.test.ts'), `its test:\n${said(s)}`);
    // config.ts has no history but its creation: the file of its folder it imports came with it.
    assert.ok(paths.includes('src/site/loader.ts'), `its only commit, its folder and an import:\n${said(s)}`);
    assert.ok(!paths.includes('src/site/layout.ts') && !paths.includes('src/site/utils.ts'), said(s));
    // The ranking itself still knows them: a query for related files sees every signal.
    const ranked = ws.service.workspace.relatedFiles('src/site/config.ts', 10).map((r) => r.path);
    assert.ok(ranked.includes('src/site/layout.ts'), JSON.stringify(ranked));
  });

  it('shows a file it imports that changed with it once more, in a large change set', async () => {
    const s = await ws.service.suggestions.suggestForPath({ file: 'src/billing/invoice.ts' });
    assert.ok(
      partners(s).some((i) => i.location.path === 'src/billing/tax.ts'),
      `one shared commit, one shared large change set and an import:\n${said(s)}`,
    );
  });

  it('does not show a file it imports on one shared commit, unless it is young and they share a folder', async () => {
    const chart = await ws.service.suggestions.suggestForPath({ file: 'src/reports/chart.ts' });
    assert.ok(!partners(chart).some((i) => i.location.path === 'src/reports/palette.ts'), said(chart));
    const summary = await ws.service.suggestions.suggestForPath({ file: 'src/reports/summary.ts' });
    assert.ok(!partners(summary).some((i) => i.location.path === 'src/format/money.ts'), said(summary));
  });

  it('does not show a file that only shares words with it, and shows one that changed with it twice', async () => {
    const s = await ws.service.suggestions.suggestForPath({ file: 'src/orders/order.ts' });
    const paths = partners(s).map((i) => i.location.path);
    assert.ok(paths.includes('src/orders/orderTotals.ts'), `two shared commits:\n${said(s)}`);
    assert.ok(!paths.includes('src/orders/refund.ts'), `shares words, never changed with it:\n${said(s)}`);
  });

  it('does not show an importer of a file whose only commit was a large change set', async () => {
    const s = await ws.service.suggestions.suggestForPath({ file: 'src/api/controller.ts' });
    assert.ok(!partners(s).some((i) => i.location.path === 'src/api/module.ts'), said(s));
    const ranked = ws.service.workspace.relatedFiles('src/api/controller.ts', 10).map((r) => r.path);
    assert.ok(ranked.includes('src/api/module.ts'), JSON.stringify(ranked));
  });
});
