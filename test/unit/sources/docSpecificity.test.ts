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
    write(
      'docs/auth.md',
      '# Auth\n\n## Signing in\n\nThe callback of `sessions_controller.rb` calls `create(auth_hash)` on the session.\n',
    );
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

  it('links a file to its own component’s README by a plain word, and to no other component’s README', async () => {
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

  it('shows no section of another component’s document, even one that names this file or class', async () => {
    write('src/Activator/Reactor.cs', 'public class Reactor { public void Run() {} }\n');
    write('src/Activator/Proactor.cs', 'public class Proactor {}\n');
    write('src/Gateway.Rmq/RmqConsumer.cs', 'public class RmqConsumer {}\n');
    write('src/Gateway.Rmq/RmqProducer.cs', 'public class RmqProducer {}\n');
    write(
      'src/Gateway.Rmq/README.md',
      '# RMQ gateway\n\n## Purpose\n\nUse it with the `Reactor` of `src/Activator/Reactor.cs`.\n',
    );
    write('docs/pump.md', '# Message pump\n\n## Reactor\n\nThe `Reactor` reads one message at a time.\n');
    // A slot of one component and its README is a component too.
    write('src/slots/PumpSlot/index.jsx', 'export const PumpSlot = () => null;\n');
    write('src/slots/PumpSlot/README.md', '# Pump slot\n\n## Replaced\n\nThis slot shows what the `Reactor` read.\n');
    await docs.source.refresh();
    const items = docs.source.query({ file: 'src/Activator/Reactor.cs', symbol: 'Reactor' });
    assert.deepEqual(ids(items), ['doc:docs/pump.md#reactor'], said(items));
  });

  it('reads a documentation site in its own folder as the whole workspace’s documentation', async () => {
    write('src/Store.ts', 'export class Store {}\n');
    write('homepage/docs/guide.md', '# Guide\n\n## Storage\n\nEvery thing is kept in `src/Store.ts`.\n');
    write('homepage/docs/intro.md', '# Intro\n\n## Start\n\nOpen the app.\n');
    await docs.source.refresh();
    const items = docs.source.query({ file: 'src/Store.ts', symbol: 'Store' });
    assert.deepEqual(ids(items), ['doc:homepage/docs/guide.md#storage'], said(items));
  });

  it('shows no page a tool generated from the code', async () => {
    write('core/src/thing/Thing.ts', 'export class Thing { observeAnyValue() {} }\n');
    write(
      'site/docs/reference/classes/Thing.md',
      '# Class: Thing\n\nDefined in: [src/thing/Thing.ts:3](https://example.org)\n\n### observeAnyValue()\n\n> **observeAnyValue**(): `Observable`\n',
    );
    write(
      'docs/components/pos-value/readme.md',
      '# pos-value\n\nShows one value with `observeAnyValue`.\n\n<!-- Auto Generated Below -->\n\n## Methods\n\n### `observeAnyValue`\n\nCalls `observeAnyValue` of the thing.\n',
    );
    write(
      'docs/api.md',
      '<!-- This file is auto-generated by api-docs. Do not edit. -->\n# API\n\n## observeAnyValue\n\nSee `observeAnyValue`.\n',
    );
    write('docs/things.md', '# Things\n\n## Values\n\nA view subscribes with `observeAnyValue` and redraws.\n');
    await docs.source.refresh();
    const items = docs.source.query({ file: 'core/src/thing/Thing.ts', symbol: 'Thing.observeAnyValue' });
    assert.deepEqual(
      ids(items).sort(),
      ['doc:docs/components/pos-value/readme.md#pos-value', 'doc:docs/things.md#values'],
      said(items),
    );
  });

  it('shows no proposal, RFC or numbered feature spec as documentation of the code', async () => {
    write('src/Outbox/TimedArchiver.cs', 'public class TimedArchiver { public void ArchiveBatch() {} }\n');
    write('specs/0026-timed-archiver/README.md', '# Timed archiver\n\n## Summary\n\nMake `ArchiveBatch` fall back.\n');
    write('docs/rfc/0004-archiving.md', '# Archiving\n\n## Design\n\n`ArchiveBatch` moves old rows.\n');
    write('docs/proposals/archive.md', '# Archive\n\n## Plan\n\n`ArchiveBatch` runs hourly.\n');
    write('docs/outbox.md', '# Outbox\n\n## Archiving\n\n`ArchiveBatch` moves dispatched messages away.\n');
    await docs.source.refresh();
    const items = docs.source.query({ file: 'src/Outbox/TimedArchiver.cs', symbol: 'TimedArchiver.ArchiveBatch' });
    assert.deepEqual(ids(items), ['doc:docs/outbox.md#archiving'], said(items));
  });

  it('links a plain-word name only where the section speaks of its class, its file or its component', async () => {
    write('core/src/Store.ts', 'export class Store { fetch() {} }\n');
    write('src/registrar/pool.py', 'class EPPConnectionPool:\n    def connection(self):\n        pass\n');
    write('src/initialize.js', 'export function initialize() {}\n');
    write('docs/auth.md', '# Authentication\n\n## Session\n\nThe session wraps `fetch` with a token.\n');
    write('docs/store.md', '# Storage\n\n## Loading\n\nThe `Store` loads a document with `fetch`.\n');
    write('docs/epp-connection-pool.md', '# Pool\n\n## Lifecycle\n\nA request borrows one with `connection()`.\n');
    write('docs/other.md', '# Other\n\n## Sockets\n\nEach `connection` is closed on exit.\n');
    write('README.md', '# App\n\n## Start\n\nCall `initialize()` before rendering.\n');
    await docs.source.refresh();
    const fetch = docs.source.query({ file: 'core/src/Store.ts', symbol: 'Store.fetch' });
    assert.deepEqual(ids(fetch), ['doc:docs/store.md#loading'], said(fetch));
    const connection = docs.source.query({ file: 'src/registrar/pool.py', symbol: 'EPPConnectionPool.connection' });
    assert.deepEqual(ids(connection), ['doc:docs/epp-connection-pool.md#lifecycle'], said(connection));
    const initialize = docs.source.query({ file: 'src/initialize.js', symbol: 'initialize' });
    assert.deepEqual(ids(initialize), ['doc:README.md#start'], said(initialize));
  });

  it('links the section of a conventions document titled by the kind of file at hand', async () => {
    write('rooms/models.py', 'class Room:\n    pass\n');
    write('rooms/admin.py', 'class RoomAdmin:\n    pass\n');
    write(
      'docs/coding-conventions.md',
      '# Coding conventions\n\n## Models\n\nA model class is singular and in CamelCase.\n\n## Naming\n\nNames are English.\n',
    );
    write('docs/guide.md', '# Guide\n\n## Models\n\nThe app has rooms and bookings.\n');
    await docs.source.refresh();
    const items = docs.source.query({ file: 'rooms/models.py', symbol: 'Room' });
    assert.deepEqual(ids(items), ['doc:docs/coding-conventions.md#models'], said(items));
    assert.deepEqual(said(docs.source.query({ file: 'rooms/admin.py', symbol: 'RoomAdmin' })), '');
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
