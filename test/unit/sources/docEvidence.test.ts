import { strict as assert } from 'node:assert';
import type { SuggestionItem } from '../../../src/core/types';
import { docsWorkspace } from './docsFixture';

const said = (items: SuggestionItem[]) => items.map((i) => `${i.entityId}: ${i.reason}`).join('\n');

/**
 * A doc section is shown for a file only on evidence that it is about this file: a folder mention
 * that leads to the file's own folder, a mention outside a listing of many files, a document that
 * is not a test's fixture.
 */
describe('doc sections need specific evidence', function () {
  this.timeout(30000);
  const docs = docsWorkspace();
  const write = docs.write;

  it('reads a folder mention from the document it is in: another component’s hooks/ is not this one’s', async () => {
    write('web/src/segments/hooks/useSegmentForm.ts', 'export const useSegmentForm = () => 1;\n');
    write('web/src/impact/hooks/useImpact.ts', 'export const useImpact = () => 1;\n');
    write(
      'web/src/impact/README.md',
      '# Impact views\n\n## Layout\n\nThe data hooks live in `hooks/`, the charts next to them.\n',
    );
    write(
      'docs/layout.md',
      '# Layout\n\n## Segments\n\nSegment forms keep their state in `web/src/segments/hooks/`.\n',
    );
    await docs.source.refresh();
    const segments = docs.source.query({ file: 'web/src/segments/hooks/useSegmentForm.ts' });
    assert.ok(!segments.some((i) => i.location.path === 'web/src/impact/README.md'), said(segments));
    assert.ok(
      segments.some((i) => i.entityId === 'doc:docs/layout.md#segments'),
      `a mention of the folder from the root still links: ${said(segments)}`,
    );
    const impact = docs.source.query({ file: 'web/src/impact/hooks/useImpact.ts' });
    assert.ok(
      impact.some((i) => i.entityId === 'doc:web/src/impact/README.md#layout'),
      `the README's own hooks/ is this file's folder: ${said(impact)}`,
    );
  });

  it('links no file through a section that lists many files, and still through one that is about it', async () => {
    const files = ['alerts', 'rules', 'delivery', 'email', 'webhook', 'consumer', 'anomaly', 'models', 'seeder'];
    for (const f of files) write(`service/src/${f}/${f}Thing.kt`, `class ${f}Thing\n`);
    const rows = files.map((f) => `| ${f} | \`service/src/${f}/${f}Thing.kt\` |`).join('\n');
    write('docs/ui/alerts.md', `# Alerts\n\n## Key files\n\n| Part | Location |\n|---|---|\n${rows}\n`);
    write('docs/delivery.md', '# Delivery\n\n## Webhooks\n\nRetries live in `service/src/webhook/webhookThing.kt`.\n');
    await docs.source.refresh();
    const webhook = docs.source.query({ file: 'service/src/webhook/webhookThing.kt', symbol: 'webhookThing' });
    assert.ok(!webhook.some((i) => i.location.path === 'docs/ui/alerts.md'), said(webhook));
    assert.ok(
      webhook.some((i) => i.entityId === 'doc:docs/delivery.md#webhooks'),
      said(webhook),
    );
    const seeder = docs.source.query({ file: 'service/src/seeder/seederThing.kt', symbol: 'seederThing' });
    assert.deepEqual(said(seeder), '');
  });

  it('shows no document of a test fixture, and keeps the README of a test folder', async () => {
    write('packages/core/src/adr/Adr.ts', 'export class Adr {}\n');
    write(
      'packages/core/integration-tests/ro-project/docs/adr/20200101-first-adr.md',
      '# First ADR\n\n## Adr\n\nThe `Adr` class reads this record in the tests.\n',
    );
    write(
      'packages/core/integration-tests/README.md',
      '# Integration tests\n\n## Read-only project\n\nThe `Adr` suite reads ro-project.\n',
    );
    await docs.source.refresh();
    const paths = docs.source
      .query({ file: 'packages/core/src/adr/Adr.ts', symbol: 'Adr' })
      .map((i) => i.location.path);
    assert.ok(!paths.some((p) => p.includes('ro-project')), JSON.stringify(paths));
    assert.ok(paths.includes('packages/core/integration-tests/README.md'), JSON.stringify(paths));
  });

  it('titles no section after a module name that the project’s docs use everywhere', async () => {
    write('src/adr/Adr.ts', 'export class Adr {}\n');
    write('src/adr/Slug.ts', 'export class Slug {}\n');
    // Sixty sections, a fifth of which say "ADR" as the project's subject; one is about slugs.
    const sections = Array.from({ length: 60 }, (_, i) =>
      i % 5 === 0 ? `## ADR tip ${i}\n\nWrite one ADR per decision.\n` : `## Topic ${i}\n\nSomething else entirely.\n`,
    );
    write(
      'docs/guide.md',
      `# Guide\n\n${sections.join('\n')}\n## What is an ADR\n\nA record.\n\n## Slug\n\nEach has a slug.\n`,
    );
    await docs.source.refresh();
    const adr = docs.source.query({ file: 'src/adr/Adr.ts' });
    assert.ok(!adr.some((i) => i.entityId === 'doc:docs/guide.md#what-is-an-adr'), said(adr));
    const slug = docs.source.query({ file: 'src/adr/Slug.ts' });
    assert.ok(
      slug.some((i) => i.entityId === 'doc:docs/guide.md#slug'),
      `a rare name still titles: ${said(slug)}`,
    );
  });

  it('links no section by a key of a data file, nor by a file name many files carry', async () => {
    write('package.json', '{\n  "name": "shop",\n  "workspaces": ["web", "api"]\n}\n');
    write('docs/dev.md', '# Development\n\n## Mock server\n\nThe mock reads `workspaces` from its own settings.\n');
    for (const service of ['audit', 'gateway', 'orders', 'prices', 'risk', 'users'])
      write(`${service}/src/Application.kt`, 'fun main() {}\n');
    write('docs/observability.md', '# Observability\n\n## Metrics\n\nEach Application exposes its metrics.\n');
    await docs.source.refresh();
    const pkg = docs.source.query({ file: 'package.json', symbol: 'workspaces' });
    assert.ok(!pkg.some((i) => i.location.path === 'docs/dev.md'), said(pkg));
    const app = docs.source.query({ file: 'gateway/src/Application.kt' });
    assert.ok(!app.some((i) => i.location.path === 'docs/observability.md'), said(app));
  });

  it('reads a test file as named after what it tests: link_test.go is titled by "Link"', async () => {
    write('internal/e2e/link/link_test.go', 'package link\n');
    write('README.md', '# Tool\n\n## Link\n\nLink two documents.\n\n## Merge\n\nMerge two documents.\n');
    await docs.source.refresh();
    const items = docs.source.query({ file: 'internal/e2e/link/link_test.go' });
    assert.ok(
      items.some((i) => i.entityId === 'doc:README.md#link'),
      said(items),
    );
  });
});
