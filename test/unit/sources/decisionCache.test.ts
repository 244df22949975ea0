// Parsed decision records kept in the store between processes: a new process (a new store opened on
// the same state directory, a new source) reads and parses only the records that changed.
import { strict as assert } from 'node:assert';
import { appendFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { resolveConfig } from '../../../src/core/config';
import { MemoryLogger } from '../../../src/core/logger';
import { DecisionSource } from '../../../src/core/sources/decisions/decisionSource';
import { Store } from '../../../src/core/store/store';
import type { SuggestionItem } from '../../../src/core/types';
import { openWorkspace, type Workspace } from './sourceFixtures';

const NOW = Date.UTC(2024, 6, 1, 12);
const LOG = 'doc/architecture/decisions/0005-billing-decision-log.md';

describe('DecisionSource record cache', () => {
  let ws: Workspace;
  let stateDir: string;
  const stores: Store[] = [];

  afterEach(() => {
    for (const s of stores.splice(0)) s.dispose();
    ws?.dispose();
  });

  /** A source as a new process makes it: its own store opened on the workspace's state directory. */
  async function processSource(): Promise<DecisionSource> {
    const store = await Store.open({ stateDir });
    stores.push(store);
    return new DecisionSource({
      root: ws.root,
      store,
      logger: new MemoryLogger(),
      now: () => NOW,
      config: resolveConfig({}),
    });
  }

  /** What a process ends with: its store saved and closed, as the CLI does on exit. */
  function exit(): void {
    for (const s of stores.splice(0)) s.dispose();
  }

  function shown(items: SuggestionItem[]): string[] {
    return items.map((i) => `${i.type} ${i.title} · ${i.reason} · ${i.relevanceScore}`);
  }

  async function openWithLog(): Promise<void> {
    ws = await openWorkspace('nygard-repo');
    // A decision log (entries with their own links) and a glob: both must come back from the cache working.
    writeFileSync(
      join(ws.root, LOG),
      '# Decision log\n\n## 1. Money in cents\n\nStatus: accepted\n\nAll amounts in `src/billing/**` are integer cents.\n\n' +
        '## 2. Ledger is append-only\n\nStatus: accepted\n\nNever update rows written by src/payments/ledger.ts.\n',
    );
    stateDir = ws.store.stats().stateDir;
    ws.store.dispose();
  }

  it('a second process parses no unchanged record and answers the same', async () => {
    await openWithLog();
    const first = await processSource();
    const cold = await first.refresh();
    assert.ok(cold.parsed >= 5, `the first process parsed only ${cold.parsed} records`);
    const expected = ['src/payments/ledger.ts', 'src/billing/discounts.ts'].map((file) => shown(first.query({ file })));
    assert.ok(
      expected[1].some((s) => s.includes('Money in cents')),
      `the log entry's glob did not link:\n${expected[1].join('\n')}`,
    );
    exit();

    const second = await processSource();
    const warm = await second.refresh();
    assert.equal(warm.parsed, 0, 'an unchanged record was parsed again');
    assert.equal(warm.entries, cold.entries);
    assert.deepEqual(
      ['src/payments/ledger.ts', 'src/billing/discounts.ts'].map((file) => shown(second.query({ file }))),
      expected,
    );
  });

  it('a record changed between processes is parsed again, and only that one', async () => {
    await openWithLog();
    await (await processSource()).refresh();
    exit();
    appendFileSync(
      join(ws.root, LOG),
      '\n## 3. Refunds go through the ledger\n\nStatus: accepted\n\nSee src/payments/ledger.ts.\n',
    );

    const next = await processSource();
    const stats = await next.refresh();
    assert.equal(stats.parsed, 1);
    assert.ok(
      shown(next.query({ file: 'src/payments/ledger.ts' })).some((s) => s.includes('Refunds go through the ledger')),
      'the new entry of the changed record is not linked',
    );
    exit();

    // The re-parsed record was saved too: a third process parses nothing.
    assert.equal((await (await processSource()).refresh()).parsed, 0);
  });
});
