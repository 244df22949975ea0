import { strict as assert } from 'node:assert';
import { resolveConfig } from '../../../src/core/config';
import { DecisionSource } from '../../../src/core/sources/decisions/decisionSource';
import { openWorkspace, type Workspace } from './sourceFixtures';

const FOLDER = 'doc/architecture/decisions';

describe('a record open in the editor', () => {
  let ws: Workspace;
  let source: DecisionSource;

  before(async () => {
    ws = await openWorkspace('nygard-repo');
    source = new DecisionSource({ root: ws.root, store: ws.store, now: () => 0, config: resolveConfig({}) });
    await source.refresh();
  });

  after(() => ws.dispose());

  it('is not among its own decision items, whose words it shares in full', () => {
    for (const name of ['0003-price-rules-in-billing.md', '0004-use-events-for-ledger-updates.md']) {
      const items = source.query({ file: `${FOLDER}/${name}` });
      assert.deepEqual(
        items.filter((i) => i.location.path === `${FOLDER}/${name}`).map((i) => i.reason),
        [],
        name,
      );
    }
  });

  it('still suggests the other records it relates to', () => {
    const items = source.query({ file: `${FOLDER}/0002-write-ledger-entries-directly.md` });
    assert.ok(
      items.some((i) => i.type === 'decision' && i.location.path === `${FOLDER}/0004-use-events-for-ledger-updates.md`),
    );
  });
});
