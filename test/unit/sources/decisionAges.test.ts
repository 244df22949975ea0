import { strict as assert } from 'node:assert';
import { resolveConfig } from '../../../src/core/config';
import { DecisionSource } from '../../../src/core/sources/decisions/decisionSource';
import { TempRepo } from '../git/repoFixture';

describe('decision ages', function () {
  this.timeout(60000);

  it('come from commit dates: none while history is being read, never the time the checkout wrote the file', async () => {
    const repo = new TempRepo();
    try {
      repo.commit('records', {
        'docs/adr/0001-use-postgres.md':
          '# 1. Use Postgres\n\n## Status\n\nAccepted\n\n## Decision\n\n`src/db/pool.ts` opens the Postgres pool.\n',
        'src/db/pool.ts': 'export function openPool(): number {\n  return 1;\n}\n',
      });
      const committed = repo.time * 1000;
      const source = new DecisionSource({ root: repo.dir, config: resolveConfig() });
      await source.refresh();
      let historyRead = false;
      source.setLastCommit(
        () => (historyRead ? committed : undefined),
        () => historyRead,
      );
      const ages = () =>
        source
          .query({ file: 'src/db/pool.ts' })
          .filter((i) => i.type === 'decision')
          .map((i) => i.timestamp);
      assert.deepEqual(ages(), [undefined], 'no age until history says when the record was committed');
      historyRead = true;
      assert.deepEqual(ages(), [committed]);
    } finally {
      repo.dispose();
    }
  });
});
