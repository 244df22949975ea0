import { strict as assert } from 'node:assert';
import { isCommandLine } from '../../../src/core/sources/docs/docSections';
import type { SuggestionItem } from '../../../src/core/types';
import { docsWorkspace } from './docsFixture';

const said = (items: SuggestionItem[]) => items.map((i) => `${i.entityId}: ${i.reason}`).join('\n');
const ids = (items: SuggestionItem[]) => items.map((i) => i.entityId);

/**
 * Doc sections that name a file or a symbol without being about it: a word in a shell command,
 * another component's README, an assistant's tour of the repository, a heading every guide shares,
 * an overview of many parts, a map of the folders, a heading with nothing under it.
 */
describe('doc sections are about the code under the cursor', function () {
  this.timeout(30000);
  const docs = docsWorkspace();
  const write = docs.write;

  it('reads no symbol out of a shell command in backticks', async () => {
    write('app/controllers/sessions_controller.rb', 'class SessionsController\n  def create\n  end\nend\n');
    write('README.md', '# Tracker\n\n## Local setup\n\n* Create the database: `bundle exec rake db:create`\n');
    write('docs/auth.md', '# Auth\n\n## Signing in\n\nThe callback calls `create(auth_hash)` on the session.\n');
    await docs.source.refresh();
    const items = docs.source.query({ file: 'app/controllers/sessions_controller.rb', symbol: 'create' });
    assert.ok(!ids(items).includes('doc:README.md#local-setup'), said(items));
    assert.ok(ids(items).includes('doc:docs/auth.md#signing-in'), `a call in backticks still names it: ${said(items)}`);
    assert.equal(isCommandLine('npm run build'), true);
    assert.equal(isCommandLine('$ make test'), true);
    assert.equal(isCommandLine('class Booking'), false);
    assert.equal(isCommandLine('Session.create user'), false);
  });

  it('indexes no instructions written for coding assistants', async () => {
    write('web/src/hooks/useTableState.ts', 'export function useTableState() {}\n');
    const tour = '# Repository guide\n\n## Front end\n\nHooks live in `web/src/hooks/useTableState.ts`.\n';
    write('AGENTS.md', tour);
    write('CLAUDE.md', tour);
    write(
      'docs/front-end.md',
      '# Front end\n\n## Tables\n\nTables keep their state in `web/src/hooks/useTableState.ts`.\n',
    );
    await docs.source.refresh();
    const items = docs.source.query({ file: 'web/src/hooks/useTableState.ts', symbol: 'useTableState' });
    assert.deepEqual(
      items.map((i) => i.location.path),
      ['docs/front-end.md'],
      said(items),
    );
  });

  it('links another component’s README only by this file’s path or an identifier, never by a plain word', async () => {
    write('services/referral/src/Functions/TriggerPull.cs', 'public class TriggerPull { public void Run() {} }\n');
    write('services/referral/README.md', '# Referral function\n\n## Run\n\nStart it with the functions host.\n');
    write('services/mock-api/README.md', '# Mock API\n\n## Run\n\nStart the mock with `dotnet run`.\n');
    write('config/settings/production.py', 'DEBUG = False\n');
    write('locale/README.md', '# Translations\n\n## Production\n\nCompile the messages before a release.\n');
    write('README.md', '# Service\n\n## Production\n\nThe production settings read the environment.\n');
    await docs.source.refresh();
    const run = docs.source.query({ file: 'services/referral/src/Functions/TriggerPull.cs', symbol: 'Run' });
    assert.deepEqual(ids(run), ['doc:services/referral/README.md#run'], said(run));
    const production = docs.source.query({ file: 'config/settings/production.py' });
    assert.ok(!production.some((i) => i.location.path === 'locale/README.md'), said(production));
    assert.ok(ids(production).includes('doc:README.md#production'), said(production));
  });

  it('reads a dependency list’s entries as package names', async () => {
    write('requirements/base.txt', 'django==4.2\ncelery==5.3\n');
    write(
      'README.md',
      '# Rooms\n\n## Adding new apps\n\nRun `django-admin startapp` and list it in `django` settings.\n',
    );
    await docs.source.refresh();
    const items = docs.source.query({ file: 'requirements/base.txt', symbol: 'django' });
    assert.deepEqual(said(items), '');
  });

  it('shows no heading that has no text of its own', async () => {
    write('config/settings/base.py', 'DATABASES = {}\n');
    write('README.md', '# Rooms\n\n## Database\n\n### Postgres\n\nThe app needs Postgres 15 running locally.\n');
    await docs.source.refresh();
    const items = docs.source.query({ file: 'config/settings/base.py', symbol: 'DATABASES' });
    assert.ok(!ids(items).includes('doc:README.md#database'), said(items));
  });

  it('titles no section by a heading that several documents share', async () => {
    write('extension/test/unit/manual-capture.handler.spec.js', "describe('capture', () => {});\n");
    write('extension/test/unit/refund.handler.spec.js', "describe('refund', () => {});\n");
    for (const guide of ['WebComponents', 'AdvancedCheckout', 'ManualCapture'])
      write(
        `extension/docs/${guide}.md`,
        `# ${guide}\n\n## Manual capture\n\nCapture later with the capture handler.\n`,
      );
    write('extension/docs/Refund.md', '# Refunds\n\n## Refund\n\nRefund a captured payment.\n');
    await docs.source.refresh();
    const capture = docs.source.query({ file: 'extension/test/unit/manual-capture.handler.spec.js' });
    assert.deepEqual(said(capture), '');
    const refund = docs.source.query({ file: 'extension/test/unit/refund.handler.spec.js' });
    assert.ok(
      ids(refund).includes('doc:extension/docs/Refund.md#refund'),
      `one document's heading titles: ${said(refund)}`,
    );
  });

  it('links no file through an overview that names many types, and still through a section about a few', async () => {
    write('notification/src/kafka/RiskResultConsumer.kt', 'class RiskResultConsumer\n');
    write(
      'docs/alerts.md',
      '# Alerts\n\n## How alerts flow\n\n```\nRiskResultEvent → RiskResultConsumer → RulesEngine → AlertEvent → DeliveryRouter\n```\n',
    );
    write('docs/kafka.md', '# Kafka\n\n## Consumers\n\nThe RiskResultConsumer reads each RiskResultEvent once.\n');
    await docs.source.refresh();
    const items = docs.source.query({
      file: 'notification/src/kafka/RiskResultConsumer.kt',
      symbol: 'RiskResultConsumer',
    });
    assert.ok(!items.some((i) => i.location.path === 'docs/alerts.md'), said(items));
    assert.ok(ids(items).includes('doc:docs/kafka.md#consumers'), said(items));
  });

  it('links no file through a map of several folders, and still through a section about its folder', async () => {
    write('src/ui/connect/src/Referral.Web/Startup.cs', 'class Startup {}\n');
    write(
      'README.md',
      '# Services\n\n## UI\n\n- [Connect](/src/ui/connect/src/Referral.Web/)\n- [Manage](/src/ui/manage/src/Admin.Web/)\n',
    );
    write(
      'docs/connect.md',
      '# Connect\n\n## Start-up\n\nThe web project in `src/ui/connect/src/Referral.Web/` wires the services.\n',
    );
    await docs.source.refresh();
    const items = docs.source.query({ file: 'src/ui/connect/src/Referral.Web/Startup.cs' });
    assert.ok(!ids(items).includes('doc:README.md#ui'), said(items));
    assert.ok(ids(items).includes('doc:docs/connect.md#start-up'), said(items));
  });
});
