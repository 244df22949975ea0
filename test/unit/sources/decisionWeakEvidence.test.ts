import { strict as assert } from 'node:assert';
import { decisionWorkspace } from './decisionWorkspace';

/** A Nygard record: a title and prose. */
const record = (n: number, title: string, body: string) =>
  `# ${n}. ${title}\n\n## Status\n\nAccepted\n\n## Context\n\n${body}\n\n## Decision\n\n${body}\n`;

/** Files that say nothing any record speaks of, so that the workspace's words have their usual shares. */
function filler(n: number): Record<string, string> {
  const files: Record<string, string> = {};
  for (let i = 0; i < n; i++)
    files[`backend/src/parts/part${i}.ts`] =
      `export function part${i}(label: string): string {\n  return label + '${i}';\n}\n`;
  return files;
}

const paths = (shown: { location: { path: string } }[]) => shown.map((i) => i.location.path);

describe('decision records on weak evidence', function () {
  this.timeout(60000);
  const decisions = decisionWorkspace(() => ({
    ...filler(120),
    'backend/src/handlers/publishing.ts':
      'export function publishPost(title: string, text: string): { title: string; text: string } {\n  return { title, text };\n}\n',
    'backend/src/main.ts': 'export function main(): void {\n  start();\n}\nfunction start(): void {}\n',
    'backend/src/config.ts': 'export function loadConfig(): Record<string, string> {\n  return {};\n}\n',
    'backend/src/db.ts': 'export function connect(url: string): string {\n  return url;\n}\n',
    'backend/src/store/pool.ts': 'export function openPool(size: number): number {\n  return size;\n}\n',
    'backend/src/store/cache.ts': 'export function cacheGet(key: string): string {\n  return key;\n}\n',
    'backend/src/jobs/reminderJob.ts':
      'export function thresholdLatency(quota: number): number {\n  return quota;\n}\n' +
      'export function pendingBacklog(watermark: number): number {\n  return watermark;\n}\n' +
      'export function escalateQuota(watermark: number): number {\n  return watermark * 2;\n}\n',
    'backend/src/kube/deploymentApi.ts':
      '/** Applies the deployment of a service. */\nexport function applyDeployment(namespace: string, rules: string[]): string {\n  return namespace + rules.join();\n}\n',
    'backend/src/events/consumerLoop.ts': 'export function pollOnce(batch: number): number {\n  return batch;\n}\n',
    'docs/adr/0007-helm-deployment.md': record(
      7,
      'Use Helm as deployment tool',
      'Charts describe each service; Helm applies them and rolls back a failed release.',
    ),
    'docs/adr/0008-ingress-controller.md': record(
      8,
      'Single ingress controller per cluster',
      'One ingress controller serves every namespace, outside the deployment of the application; each deployment only adds its rules.',
    ),
    'docs/adr/0009-resilience.md': record(
      9,
      'Resilience patterns',
      'A consumer that fails three times parks the message in a dead-letter topic; the consumer then moves on.',
    ),
    'backend/src/billing/invoiceTotals.ts':
      'export function roundCurrency(total: number): number {\n  return Math.round(total);\n}\n',
    'backend/src/billing/invoiceLines.ts':
      'export function roundCurrency(total: number): number {\n  return Math.round(total);\n}\n' +
      'export function applyDiscount(total: number): number {\n  return total;\n}\n',
    'docs/adr/0010-invoice-numbers.md': record(
      10,
      'Invoice numbers',
      'Each invoice takes the next number of its year; its lines and totals are kept with it, and numbers are never reused.',
    ),
    'docs/adr/0011-money.md': record(
      11,
      'Money',
      'Amounts round half to even in one currency, and a discount never takes an amount below zero.',
    ),
    'docs/adr/0001-storage.md': record(
      1,
      'Storage',
      'Every post and comment lives in Postgres, reached through one connection string; Postgres gives transactions and indexes.',
    ),
    'docs/adr/0002-database-connections.md': record(
      2,
      'Database connections',
      'Connections are opened once, in `backend/src/db.ts`, and shared; `backend/src/store/pool.ts` sizes the pool.',
    ),
    'docs/adr/0003-alerting.md': record(
      3,
      'Alerting',
      'An alert fires when the latency crosses its threshold or the backlog of pending work grows past the watermark.',
    ),
    'docs/adr/0004-rate-limits.md': record(
      4,
      'Rate limits',
      'Each tenant has a quota; past the threshold its requests wait, and the backlog is escalated past the watermark.',
    ),
    'backend/src/rota/shiftPlanner.ts':
      'export function planShifts(hours: number): number {\n  return hours;\n}\n' +
      'export function fortnightOvertime(hours: number): number {\n  return hours;\n}\n',
    'backend/src/overtime/payRules.ts':
      'export function tally(hours: number): number {\n  return hours;\n}\n' +
      'export function fortnightOvertime(hours: number): number {\n  return hours * 2;\n}\n',
    'backend/src/archive/sweeper.ts': 'export function archivalSweep(days: number): number {\n  return days;\n}\n',
    'docs/adr/0012-staffing.md': record(
      12,
      'Staffing',
      'Hours past the contract count as overtime, settled once a fortnight with the rest of the pay.',
    ),
    'docs/adr/0013-retention.md': record(
      13,
      'Retention',
      'Old rows go to cold storage for archival; the archive keeps them seven years.',
    ),
    'config/initializers/analytics.rb': 'Analytics.configure do |config|\n  config.enabled = true\nend\n',
    'config/initializers/mailer_patch.rb': 'module MailerPatch\n  def deliver!(mail)\n    mail\n  end\nend\n',
    'config/initializers/sentry.rb': 'Sentry.init do |config|\n  config.dsn = nil\nend\n',
    'docs/adr/0014-mail-audit.md': record(
      14,
      'Mail audit',
      'Every message sent is recorded by the patch in `mailer_patch.rb`, among the initializers.',
    ),
    'backend/src/wire/payloads.ts':
      'export function serialize(doc: { id: string }): string {\n  return doc.id;\n}\n' +
      'export function toJsonBody(doc: { id: string }): string {\n  return JSON.stringify(doc);\n}\n',
    'docs/adr/0015-json-documents.md': record(
      15,
      'Store JSON documents',
      'Documents are kept whole as one column each, instead of a table per kind of document.',
    ),
    'docs/adr/0005-queues.md': record(
      5,
      'Queues',
      'Work waits in a backlog; pending items are escalated by latency, and the quota of each queue is fixed.',
    ),
  }));

  it('counts a word of the file once, not again as the longer record word it starts (post, Postgres)', () => {
    assert.deepEqual(paths(decisions('backend/src/handlers/publishing.ts', 'publishPost', 1)), []);
  });

  it('shows one record, not a list, when only rare words in common link them', () => {
    const shown = decisions('backend/src/jobs/reminderJob.ts', 'thresholdLatency', 1);
    assert.equal(shown.length, 1, JSON.stringify(shown.map((i) => `${i.location.path}: ${i.reason}`)));
    assert.match(shown[0].reason, /both speak of/);
  });

  it('shows no record linked only by rare words in common below another one', () => {
    assert.deepEqual(paths(decisions('backend/src/billing/invoiceTotals.ts', 'roundCurrency', 1)), [
      'docs/adr/0010-invoice-numbers.md',
    ]);
    // Three rare words (round, currency, discount) link the money record, but the file is named after the invoice one.
    assert.deepEqual(paths(decisions('backend/src/billing/invoiceLines.ts', 'roundCurrency', 1)), [
      'docs/adr/0010-invoice-numbers.md',
    ]);
  });

  it('leaves out a record that only mentions the word a file is named after below one titled by it', () => {
    const shown = decisions('backend/src/kube/deploymentApi.ts', 'applyDeployment', 2);
    assert.deepEqual(
      shown.map((i) => `${i.location.path}: ${i.reason}`),
      ['docs/adr/0007-helm-deployment.md: ADR 0007 is about deployment, which this file is named after'],
    );
    // With no record titled by it, the mention is the best evidence there is, and it is shown.
    assert.deepEqual(paths(decisions('backend/src/events/consumerLoop.ts', 'pollOnce', 1)), [
      'docs/adr/0009-resilience.md',
    ]);
  });

  it('links no record by two rare words alone, unless one of them names this code', () => {
    // `fortnight` and `overtime` meet in the staffing record by chance...
    assert.deepEqual(paths(decisions('backend/src/rota/shiftPlanner.ts', 'planShifts', 1)), []);
    // ...but the definition at the cursor is named after one of them...
    assert.deepEqual(paths(decisions('backend/src/rota/shiftPlanner.ts', 'fortnightOvertime', 4)), [
      'docs/adr/0012-staffing.md',
    ]);
    // ...and a file in `overtime/` is where the record's subject lives.
    const shown = decisions('backend/src/overtime/payRules.ts', 'tally', 1);
    assert.deepEqual(paths(shown), ['docs/adr/0012-staffing.md']);
    assert.match(shown[0].reason, /both speak of/);
  });

  it('counts a word and its longer form as one rare word (`archive`, `archival`)', () => {
    assert.deepEqual(paths(decisions('backend/src/archive/sweeper.ts', 'archivalSweep', 1)), []);
  });

  it('links no record titled by a word every codebase names its parts with, that the file only defines (`json`)', () => {
    assert.deepEqual(paths(decisions('backend/src/wire/payloads.ts', 'serialize', 1)), []);
  });

  it('does not link one initializer through another one a record names', () => {
    assert.deepEqual(paths(decisions('config/initializers/mailer_patch.rb', 'MailerPatch', 1)), [
      'docs/adr/0014-mail-audit.md',
    ]);
    assert.deepEqual(paths(decisions('config/initializers/analytics.rb', undefined, 1)), []);
  });

  it('does not link the files of a source root through a sibling a record names', () => {
    assert.deepEqual(paths(decisions('backend/src/db.ts', 'connect', 1)), ['docs/adr/0002-database-connections.md']);
    assert.deepEqual(paths(decisions('backend/src/config.ts', 'loadConfig', 1)), []);
    assert.deepEqual(paths(decisions('backend/src/main.ts', 'main', 1)), []);
    // A folder about one thing is a neighbourhood: the record naming its pool speaks of its cache too.
    assert.deepEqual(paths(decisions('backend/src/store/cache.ts', 'cacheGet', 1)), [
      'docs/adr/0002-database-connections.md',
    ]);
  });
});
