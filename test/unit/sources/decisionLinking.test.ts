import { strict as assert } from 'node:assert';
import { openEngine, searchDecisions, type EngineParts } from '../../../src/core/engine';
import type { SuggestionItem } from '../../../src/core/types';
import { TempRepo } from '../git/repoFixture';

/** A record in the front-matter style: only a title and prose. */
const record = (title: string, body: string) =>
  `---\ntitle: "${title}"\n---\n\n## Background\n\n${body}\n\n## Decision\n\n${body}\n`;

/** Unrelated code that makes the workspace big enough for word statistics, with `server` in most paths. */
function serverFiles(n: number): Record<string, string> {
  const files: Record<string, string> = {};
  for (let i = 0; i < n; i++)
    files[`server/module${i}/handler${i}.ts`] =
      `export function handle${i}(input: string): string {\n  return input + '${i}';\n}\n`;
  return files;
}

describe('linking decision records to code by content', function () {
  this.timeout(60000);
  let repo: TempRepo;
  let engine: EngineParts;

  afterEach(() => {
    engine?.dispose();
    repo?.dispose();
  });

  async function open(files: Record<string, string>): Promise<void> {
    repo = new TempRepo();
    repo.commit('workspace', files);
    engine = await openEngine({ root: repo.dir, stateDir: repo.stateDir });
    await engine.indexer.refreshAll();
  }

  const decisions = (items: SuggestionItem[]) =>
    items.filter((i) => i.type === 'decision').map((i) => i.location.path.split('/').pop()!);
  const query = (file: string, symbol?: string, line?: number) =>
    engine.decisions.query({ file, symbol, symbolRange: line ? { start: line, end: line + 5 } : undefined, line });

  it('ranks a record titled after the file above records that only mention its words in the body', async () => {
    await open({
      ...serverFiles(30),
      'docs/adr/feature-flags.md': record(
        'Feature flags',
        'They are stored in one table of the main database, read through a cache that refreshes every ten seconds, and written only by the admin service, which records who changed what and when, so that an audit can replay every change.',
      ),
      'docs/adr/naming.md': record('Naming', 'Feature flag names: every feature flag is named in kebab case.'),
      'docs/adr/logging.md': record('Logging', 'Log with levels.'),
      'src/db/tables/featureFlags.ts': 'export const featureFlagsTable = { name: "feature_flags" };\n',
    });
    const items = query('src/db/tables/featureFlags.ts');
    assert.equal(decisions(items)[0], 'feature-flags.md');
    const titled = items.find((i) => i.location.path.endsWith('feature-flags.md'))!;
    assert.equal(titled.reason, 'ADR "Feature flags" is titled after featureFlags (this module)');
    const body = items.find((i) => i.location.path.endsWith('naming.md'));
    assert.ok(!body || body.relevanceScore < titled.relevanceScore);
    assert.ok(!decisions(items).includes('logging.md'));
  });

  it('titles no record after the part of a module’s name that many files’ names carry', async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 25; i++) files[`src/CarbonAwarePart${i}.cs`] = `public class CarbonAwarePart${i} {}\n`;
    await open({
      ...files,
      'docs/adr/0010-packaging.md': record('Create packages for CarbonAware SDK', 'Ship one package per layer.'),
      'docs/adr/0016-watt-time.md': record('WattTime v3 changes', 'Move to the third version of the API.'),
      'src/CarbonAwareController.cs': 'public class CarbonAwareController {}\n',
      'src/WattTimeClient.cs': 'public class WattTimeClient {}\n',
    });
    const controller = query('src/CarbonAwareController.cs');
    assert.ok(!controller.some((i) => /titled after/.test(i.reason)), JSON.stringify(controller.map((i) => i.reason)));
    const client = query('src/WattTimeClient.cs');
    assert.equal(
      client.find((i) => i.type === 'decision')?.reason,
      'ADR 0016 is titled after WattTimeClient (this module)',
    );
  });

  it('gives words in most paths of the workspace little weight, so a test file finds the testing record and not the server ones', async () => {
    await open({
      ...serverFiles(40),
      'package.json': '{"name":"app","devDependencies":{"vitest":"1"}}\n',
      'docs/adr/server-routing.md': record(
        'Server routing',
        'The server matches routes by path; the server owns every route.',
      ),
      'docs/adr/billing.md': record('Billing periods', 'Invoices are monthly.'),
      'docs/adr/caching.md': record('Caching', 'Responses are cached for a minute.'),
      'docs/adr/logging.md': record('Logging', 'One line per request.'),
      'docs/adr/unit-testing.md': record('Unit testing framework', 'We run unit tests with vitest.'),
      'server/handler3.test.ts':
        "import { describe, expect, it } from 'vitest';\nimport { handle3 } from './module3/handler3';\n\ndescribe('handle3', () => {\n  it('appends', () => expect(handle3('a')).toBe('a3'));\n});\n",
    });
    // `server` is in nearly every path here: the routing record shares only that word with the test.
    const shown = decisions(query('server/handler3.test.ts'));
    assert.deepEqual(shown, ['unit-testing.md'], `shown: ${shown.join(', ')}`);
  });

  it('links a record through a package the file imports', async () => {
    await open({
      ...serverFiles(25),
      'docs/adr/data-fetching.md': record('Preferred data fetching method', 'We fetch all data with SWR.'),
      'docs/adr/forms.md': record('Form architecture', 'Forms keep their state in one hook.'),
      'web/src/hooks/useProjects.ts':
        "import useSWR from 'swr';\n\nexport const useProjects = () => useSWR('/api/projects');\n",
    });
    const items = query('web/src/hooks/useProjects.ts');
    assert.equal(decisions(items)[0], 'data-fetching.md');
    assert.match(items[0].reason, /^this file imports swr, which ADR "Preferred data fetching method" is about$/);
  });

  it('links a record that writes a package’s name in mixed case (NestJS, GraphQL) to a file importing it', async () => {
    await open({
      ...serverFiles(25),
      'docs/adr/backend.md': record('Backend framework', 'The API is built with NestJS on Node.'),
      'docs/adr/queries.md': record('Query language', 'Clients query through GraphQL.'),
      'docs/adr/logging.md': record('Logging', 'Log with levels.'),
      'api/src/app.module.ts': "import { Module } from '@nestjs/common';\n\n@Module({})\nexport class AppModule {}\n",
      'web/src/client.ts': "import { parse } from 'graphql';\n\nexport const doc = parse('{ a }');\n",
    });
    assert.deepEqual(decisions(query('api/src/app.module.ts')), ['backend.md']);
    assert.deepEqual(decisions(query('web/src/client.ts')), ['queries.md']);
  });

  it('never links the record about recording decisions to code by its words', async () => {
    const meta =
      'We keep a record of each decision on the merge queue, the review rules and the release train, written when it is merged.';
    const workspace = (first: string, second: string) => ({
      ...serverFiles(25),
      'docs/adr/0001-record-architecture-decisions.md': record(first, meta),
      'docs/adr/0002-use-adrs.md': record(second, meta),
      'docs/adr/0003-release-train.md': record('Release train', 'Releases leave every second Tuesday.'),
      'scripts/mergeQueue.ts': 'export function mergeQueue(review: string): string {\n  return review;\n}\n',
    });
    await open(workspace('Record architecture decisions', 'Use ADRs'));
    assert.deepEqual(decisions(query('scripts/mergeQueue.ts', 'mergeQueue', 1)), []);
    // They are still found by a search for them.
    assert.ok(
      engine.decisions
        .search('record decisions', 5)
        .some((d) => d.path.endsWith('0001-record-architecture-decisions.md')),
    );
    engine.dispose();
    repo.dispose();
    // The same words under a title the file is named after do link; a title the file only has a parameter of does not.
    await open(workspace('Queue rules', 'Use review rules'));
    assert.deepEqual(decisions(query('scripts/mergeQueue.ts', 'mergeQueue', 1)).sort(), [
      '0001-record-architecture-decisions.md',
    ]);
  });

  it('links the one record of a decision log that a file is about, at its heading', async () => {
    const entry = (n: number, title: string, body: string) =>
      `## ${n}. ${title}\n\n**Status:** Accepted\n\n### Context\n\n${body}\n\n### Decision\n\n${body}\n\n`;
    await open({
      ...serverFiles(25),
      'DECISIONS.md':
        '# Decisions\n\n' +
        entry(1, 'Keep one database', 'Everything goes to Postgres.') +
        entry(2, 'Cache reads in Redis', 'Reads are cached for a minute.') +
        entry(3, 'Ship weekly', 'Releases leave on Tuesday.'),
      // An index of records kept in files of their own is not a log.
      'docs/adr/README.md':
        '# Records\n\n' +
        entry(1, 'Use queues', 'See [the record](0001-use-queues.md).') +
        entry(2, 'Use Kafka', 'See [the record](0002-use-kafka.md).'),
      'docs/adr/0001-use-queues.md':
        '# 1. Use queues\n\n## Status\n\nAccepted\n\n## Decision\n\nJobs go through queues.\n',
      'docs/adr/0002-use-kafka.md':
        '# 2. Use Kafka\n\n## Status\n\nAccepted\n\n## Decision\n\nEvents go through Kafka.\n',
      'src/redisCache.ts': "import { createClient } from 'redis';\n\nexport const redisCache = createClient();\n",
    });
    const items = query('src/redisCache.ts').filter((i) => i.type === 'decision');
    assert.deepEqual(
      items.map((i) => [i.title, i.location]),
      [['ADR 2: Cache reads in Redis', { path: 'DECISIONS.md', line: 15, endLine: 26, adr: '2' }]],
    );
    assert.equal(items[0].summary, 'Reads are cached for a minute.');
    assert.equal(engine.decisions.list().find((d) => d.path === 'DECISIONS.md')?.entries?.length, 3);
    assert.equal(engine.decisions.list().find((d) => d.path === 'docs/adr/README.md')?.entries, undefined);
    // A memory search finds the entry itself: its own title, line and text.
    const [hit] = searchDecisions(engine.decisions, 'where are reads cached', 5);
    assert.deepEqual([hit.title, hit.path, hit.line], ['ADR 2: Cache reads in Redis (accepted)', 'DECISIONS.md', 15]);
    assert.match(
      hit.snippet,
      /^## 2\. Cache reads in Redis \*\*Status:\*\* Accepted .*Reads are cached for a minute\./,
    );
    assert.ok(!hit.snippet.includes('Postgres'));
  });

  it('reads a log whose records have no numbers in their headings, and gives a path a record names to that record', async () => {
    const entry = (title: string, label: string, body: string) =>
      `## 🚀 ${title}\n<a id="x"></a>*${label} — 2025-11-24*\n\n### Context\n\n${body}\n\n### Decision\n\n${body}\n\n---\n\n`;
    await open({
      ...serverFiles(25),
      'DECISIONS.md':
        '# DECISIONS.md\n\nEach decision has a **Context** and a **Decision**.\n\n' +
        entry('Adopt Pytest for testing', 'DEC 7', 'Tests run with pytest.') +
        entry('Ship as a zipapp', 'DEC 8', 'The build in `scripts/build_zipapp.py` makes one file.'),
      'scripts/build_zipapp.py': 'def build():\n    return 1\n',
    });
    const items = query('scripts/build_zipapp.py').filter((i) => i.type === 'decision');
    assert.deepEqual(
      items.map((i) => [i.title, i.reason, i.location.line]),
      [['ADR 8: Ship as a zipapp', 'ADR 8 names scripts/build_zipapp.py', 18]],
    );
  });

  it('shows a fourth and fifth record only when they come close to the best one', async () => {
    const adr = (n: number, title: string, decision: string) =>
      `# ${n}. ${title}\n\n## Status\n\nAccepted\n\n## Decision\n\n${decision}\n`;
    const rules: Record<string, string> = {};
    for (let n = 2; n <= 6; n++)
      rules[`docs/adr/000${n}-billing-rule-${n}.md`] = adr(
        n,
        `Billing rule ${n}`,
        `Everything in \`src/billing/\` follows rule ${n}.`,
      );
    await open({
      ...serverFiles(10),
      ...rules,
      'docs/adr/0001-invoice-totals.md': adr(1, 'Invoice totals', '`src/billing/invoice.ts` rounds totals half up.'),
      'src/billing/invoice.ts': 'export const invoice = 1;\n',
    });
    const items = query('src/billing/invoice.ts').filter((i) => i.type === 'decision');
    // The folder records are three quarters as strong as the one naming the file: three of them make it, not five.
    assert.deepEqual(
      items.map((i) => i.location.path.split('/').pop()),
      ['0001-invoice-totals.md', '0002-billing-rule-2.md', '0003-billing-rule-3.md', '0004-billing-rule-4.md'],
    );
    assert.ok(
      items[3].relevanceScore < items[0].relevanceScore * 0.85,
      'the fifth would have been as strong as the fourth',
    );
    // Records as strong as the best are all shown.
    const other = query('src/billing/ledger.ts').filter((i) => i.type === 'decision');
    assert.equal(other.length, 5);
  });

  it('splits identifiers at camelCase and snake_case to match words of a title', async () => {
    await open({
      ...serverFiles(25),
      'docs/adr/discount-rates.md': record('Discount rate rounding', 'Rates are rounded half up.'),
      'docs/adr/shipping.md': record('Shipping zones', 'Zones are per country.'),
      'src/pricing.ts': 'export function applyDiscountRate(x: number): number {\n  return x;\n}\n',
      'src/pricing.py': 'def apply_discount_rate(x):\n    return x\n',
    });
    assert.equal(decisions(query('src/pricing.ts', 'applyDiscountRate', 1))[0], 'discount-rates.md');
    assert.equal(decisions(query('src/pricing.py', 'apply_discount_rate', 1))[0], 'discount-rates.md');
  });

  it('prefers the record of the area folder that matches the file’s package', async () => {
    await open({
      ...serverFiles(25),
      'package.json': '{"name":"app"}\n',
      'frontend/package.json': '{"name":"frontend"}\n',
      'contributing/ADRs/front-end/preferred-export.md': record('Preferred export', 'Modules use named exports.'),
      'contributing/ADRs/front-end/handling-tables.md': record(
        'Handling tables',
        'Tables keep their state in the URL.',
      ),
      'contributing/ADRs/back-end/preferred-export.md': record('Preferred export', 'Modules use named exports.'),
      'contributing/ADRs/back-end/sql-standards.md': record('SQL standards', 'Columns are snake_case.'),
      'contributing/ADRs/overarching/logging.md': record('Logging', 'Errors are logged with their cause.'),
      'frontend/src/component/Export.tsx': 'export const ExportButton = () => null;\n',
      'src/lib/export.ts': 'export const exportService = {};\n',
    });
    const front = engine.decisions
      .query({ file: 'frontend/src/component/Export.tsx' })
      .filter((i) => i.type === 'decision');
    assert.equal(front[0]?.location.path, 'contributing/ADRs/front-end/preferred-export.md');
    const back = engine.decisions.query({ file: 'src/lib/export.ts' }).filter((i) => i.type === 'decision');
    assert.equal(back[0]?.location.path, 'contributing/ADRs/back-end/preferred-export.md');
    const other = back.find((i) => i.location.path.includes('/front-end/'));
    assert.ok(
      !other || other.relevanceScore < back[0].relevanceScore,
      'the front-end twin ranks lower for back-end code',
    );
  });

  it('dates a record by its own date, else by its last commit, else by its file when it is not committed yet', async () => {
    const accepted = (title: string, date = '') =>
      `# ${title}\n\n${date}## Status\n\nAccepted\n\n## Decision\n\n\`src/orders/orderEvents.ts\` publishes the order events to Kafka.\n`;
    await open({
      'docs/adr/0001-order-events-in-kafka.md': accepted('1. Order events in Kafka', 'Date: 2021-03-04\n\n'),
      'docs/adr/0002-order-event-topics.md': accepted('2. Order event topics'),
      'src/orders/orderEvents.ts':
        'import { Kafka } from "kafkajs";\nexport function publishOrderEvent(kafka: Kafka): void {}\n',
    });
    const committed = repo.time * 1000;
    repo.write('docs/adr/0003-order-event-keys.md', accepted('3. Order event keys'));
    await engine.indexer.refreshAll();
    const dates = new Map(
      engine.decisions
        .query({ file: 'src/orders/orderEvents.ts' })
        .filter((i) => i.type === 'decision')
        .map((i) => [i.location.path.split('/').pop(), i.timestamp]),
    );
    assert.deepEqual([...dates.keys()].sort(), [
      '0001-order-events-in-kafka.md',
      '0002-order-event-topics.md',
      '0003-order-event-keys.md',
    ]);
    assert.equal(dates.get('0001-order-events-in-kafka.md'), Date.UTC(2021, 2, 4), 'the date the record states');
    assert.equal(
      dates.get('0002-order-event-topics.md'),
      committed,
      'its last commit, not the time the checkout wrote it',
    );
    assert.ok(dates.get('0003-order-event-keys.md')! > committed, 'a record not committed yet: the time of its file');
  });

  it('finds records for memory searches with the same model', async () => {
    await open({
      'docs/adr/0001-use-knex.md':
        '# 1. Use Knex for SQL\n\n## Status\n\nAccepted\n\n## Decision\n\nAll queries go through knex.\n',
      'docs/adr/0002-use-zod.md':
        '# 2. Validate with zod\n\n## Status\n\nAccepted\n\n## Decision\n\nInput is parsed with zod.\n',
    });
    assert.deepEqual(
      searchDecisions(engine.decisions, 'which sql query builder do we use', 5).map((d) => d.path),
      ['docs/adr/0001-use-knex.md'],
    );
    assert.match(
      searchDecisions(engine.decisions, 'validation', 5)[0].title,
      /^ADR 0002: Validate with zod \(accepted\)$/,
    );
  });

  it('does not link a record by words of the file’s text alone', async () => {
    await open({
      ...serverFiles(25),
      'docs/adr/naming.md': record('Naming', 'Modules are named in kebab case.'),
      'docs/adr/caching.md': record(
        'Response caching',
        'Responses are cached for a minute; cached responses carry an age header and an etag header.',
      ),
      'src/report.ts':
        '// Totals of the day. Upstream responses are cached for a minute; cached responses carry an age header,\n// an etag header and a cache header. Response caching upstream: a minute per response, the age header grows.\nexport const dailyTotals = (rows: number[]) => rows.reduce((a, b) => a + b, 0);\n',
      'src/http/responseCache.ts': 'export const responseCache = new Map<string, string>();\n',
    });
    assert.deepEqual(decisions(query('src/report.ts')), []);
    assert.deepEqual(
      decisions(query('src/http/responseCache.ts')),
      ['caching.md'],
      'a module named after it does link it',
    );
  });

  it('does not let a common word of the file stand for a rarer longer word of one record', async () => {
    const files = serverFiles(30);
    for (let i = 0; i < 30; i++)
      files[`server/module${i}/config.ts`] = `export const config = { port: ${8000 + i} };\n`;
    await open({
      ...files,
      'docs/adr/configmap.md': record(
        'Proxy settings outside the control plane',
        'The proxy reads a configmap. Each configmap holds CONFIG2 and CONFIG3; the configmap is mounted read-only, and a configmap change restarts nothing.',
      ),
      'docs/adr/loader-retries.md': record(
        'Loader retries',
        'The config loader retries three times before it gives up.',
      ),
      'src/loader/configLoader.ts': 'export function loadConfig(path: string): string {\n  return path;\n}\n',
    });
    const items = query('src/loader/configLoader.ts');
    assert.deepEqual(decisions(items), ['loader-retries.md'], `shown: ${items.map((i) => i.reason).join(' | ')}`);
  });

  it('names the title word the definition is named after', async () => {
    await open({
      ...serverFiles(25),
      'docs/adr/rate-limit.md': record(
        'Rate limit policy',
        'Each connection gets a local bucket. Local buckets refill per connection; a connection over its local bucket waits. Local connection counters reset every second.',
      ),
      'docs/adr/logging.md': record('Logging', 'One line per request.'),
      'src/limits/localConnection.ts':
        'export class RateLimitPolicy {\n  allow(connection: string, local: number): boolean {\n    return connection.length < local;\n  }\n}\n',
    });
    const item = query('src/limits/localConnection.ts', 'RateLimitPolicy', 1).find((i) =>
      i.location.path.endsWith('rate-limit.md'),
    );
    assert.ok(item, 'linked');
    assert.match(
      item.reason,
      /^ADR "Rate limit policy" is about (rate|limit|policy), which the definition here is named after$/,
      item.reason,
    );
  });

  it('links a file the code index does not read (a Dockerfile, a shell script) by the words of its text', async () => {
    await open({
      ...serverFiles(25),
      'docs/adr/0006-postgres.md':
        '# 6. Postgres\n\n## Status\n\nAccepted\n\n## Decision\n\nWe store bookings in PostgreSQL: Postgres range types keep bookings from overlapping.\n',
      'docs/adr/0007-translations.md':
        '# 7. Translations\n\n## Status\n\nAccepted\n\n## Decision\n\nThe interface is German; every string goes through gettext.\n',
      'docker/entrypoint':
        '#!/bin/bash\nif [ -z "${POSTGRES_USER}" ]; then\n  export POSTGRES_USER=postgres\nfi\nexport DATABASE_URL="postgres://${POSTGRES_USER}@${POSTGRES_HOST}/${POSTGRES_DB}"\nuntil pg_isready -h "${POSTGRES_HOST}"; do sleep 1; done\n',
    });
    assert.deepEqual(decisions(query('docker/entrypoint')), ['0006-postgres.md']);
  });

  it('links a record through the doc comment of the symbol at the cursor, and not for a symbol without it', async () => {
    await open({
      ...serverFiles(25),
      'docs/adr/webhooks.md': record(
        'Idempotent webhook retries',
        'A webhook delivery may arrive twice; an idempotency key makes every retry harmless.',
      ),
      'docs/adr/logging.md': record('Logging', 'One line per request.'),
      'src/payments/inbound.ts':
        'export function settle(amount: number): number {\n  return amount;\n}\n\n/**\n * Webhook deliveries are retried: the idempotency key makes a retry harmless.\n */\nexport function accept(payload: string): string {\n  return payload;\n}\n',
    });
    const commented = query('src/payments/inbound.ts', 'accept', 8).find((i) =>
      i.location.path.endsWith('webhooks.md'),
    );
    assert.ok(commented, 'linked through the comment above accept');
    assert.match(commented.reason, /, which the doc comment here is about$/, commented.reason);
    // The same words sit in the file's text, but they are not this symbol's comment: alone they make no link.
    assert.deepEqual(decisions(query('src/payments/inbound.ts', 'settle', 1)), []);
  });

  it('links a record by the folders of the file when their words are rare in the workspace', async () => {
    await open({
      ...serverFiles(30),
      'docs/adr/shipping.md': record(
        'Shipping zones',
        'Parcels are priced per zone; each country belongs to exactly one zone.',
      ),
      'docs/adr/logging.md': record('Logging', 'One line per request.'),
      'src/shipping/zones/calc.ts': 'export function total(weight: number): number {\n  return weight * 2;\n}\n',
      'src/billing/calc.ts': 'export function total(weight: number): number {\n  return weight * 3;\n}\n',
    });
    const items = query('src/shipping/zones/calc.ts');
    assert.deepEqual(decisions(items), ['shipping.md']);
    assert.match(
      items[0].reason,
      /^in `src\/shipping\/zones\/`, which ADR "Shipping zones" is about$/,
      items[0].reason,
    );
    assert.deepEqual(decisions(query('src/billing/calc.ts')), [], 'the same file in another folder is not linked');
  });

  it('links the record titled after the symbol at the cursor, however common its word is in the workspace', async () => {
    const files = serverFiles(25);
    for (let i = 0; i < 25; i++)
      files[`server/module${i}/handler${i}.ts`] += `import { django } from 'django';\nexport const app${i} = django;\n`;
    await open({
      ...files,
      'docs/adr/0004-django.md':
        '# 4. Django\n\n## Status\n\nAccepted\n\n## Decision\n\nWe write the service in a batteries-included framework with an admin and a mature ORM.\n',
      'docs/adr/0005-caching.md':
        '# 5. Caching\n\n## Status\n\nAccepted\n\n## Decision\n\nResponses are cached for a minute.\n',
      'requirements/base.txt': 'redis==5.0.2\ndjango==4.2.11\ndjango-environ==0.11.2\n',
    });
    const item = query('requirements/base.txt', 'django', 2).find((i) => i.location.path.endsWith('0004-django.md'));
    assert.ok(item, 'linked');
    assert.equal(item.reason, 'ADR 0004 is titled after django');
  });
  it('links no record by a symbol name that many definitions share (`index`), and does by a telling one', async () => {
    await open({
      ...serverFiles(20),
      'docs/adr/0001-api-design.md':
        '# 1. API design\n\n## Status\n\nAccepted\n\n## Decision\n\nEvery controller has an `index` action and a `show` action, and `createPayment` validates first.\n',
      'docs/adr/0002-logging.md': '# 2. Logging\n\n## Status\n\nAccepted\n\n## Decision\n\nOne line per request.\n',
      'src/webhooks/notifications.ts':
        'export function index(body: string): string {\n  return body;\n}\nexport function createPayment(): void {}\n',
    });
    const generic = query('src/webhooks/notifications.ts', 'index', 1).find((i) =>
      i.location.path.endsWith('0001-api-design.md'),
    );
    assert.ok(!generic || !generic.reason.includes('mentions `index`'), generic?.reason);
    const telling = query('src/webhooks/notifications.ts', 'createPayment', 4).find((i) =>
      i.location.path.endsWith('0001-api-design.md'),
    );
    assert.equal(telling?.reason, 'ADR 0001 mentions `createPayment`');
  });
});
