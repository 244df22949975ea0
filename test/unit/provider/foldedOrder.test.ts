import { strict as assert } from 'node:assert';
import { defaultConfig } from '../../../src/core/config';
import { rank } from '../../../src/core/provider/ranking';
import type { SuggestionItem } from '../../../src/core/types';

const record = (n: number, score: number, folded: boolean): SuggestionItem => ({
  type: 'decision',
  title: `ADR ${n}`,
  summary: '',
  relevanceScore: score,
  reason: 'linked by words',
  location: { path: `docs/adr/${n}.md` },
  entityId: `adr:${n}`,
  meta: folded ? { folded: true } : {},
});

describe('ranking: records folded under "Show more"', () => {
  it('keeps a folded record after a shown one that rounds to the same score', () => {
    // 0.5698 and 0.5702 both round to 0.57; the title alone would put "ADR 19" first.
    const out = rank(
      [record(23, 0.5698, false), record(19, 0.5702, true)],
      { currentFile: 'src/models.py' },
      0,
      {},
      { ...defaultConfig, minRelevanceScore: 0 },
    );
    assert.deepEqual(
      out.map((i) => i.entityId),
      ['adr:23', 'adr:19'],
    );
  });
});
