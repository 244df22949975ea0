import { strict as assert } from 'node:assert';
import { resolveConfig } from '../../../src/core/config';
import { ProactiveContextProvider } from '../../../src/core/provider/provider';
import type { QueryContext, SuggestionSource } from '../../../src/core/sources/sourceQuery';
import type { SuggestionItem, SuggestionType } from '../../../src/core/types';
import { storePerTest } from '../store/storeFixture';

/** A source that counts its calls and answers one item for the file asked about. */
function counting(name: string, type: SuggestionType, slow = false): SuggestionSource & { calls: number } {
  const source = {
    name,
    kinds: [type],
    slow,
    calls: 0,
    collect(ctx: QueryContext): Promise<SuggestionItem[]> {
      source.calls++;
      const file = ctx.query.currentFile ?? '';
      return Promise.resolve([
        {
          entityId: `${name}:${file}`,
          type,
          title: `${name} for ${file}`,
          summary: '',
          reason: `${name} says so`,
          relevanceScore: 0.8,
          location: { path: file },
        },
      ]);
    },
  };
  return source;
}

describe('one cursor stop', () => {
  const store = storePerTest('pc-source-calls-');

  it('asks each fast source once, and the enrichment asks only the slow ones, once', async () => {
    const fast = [
      counting('decisions', 'decision'),
      counting('history', 'change'),
      counting('callers', 'related_code'),
    ];
    const slow = counting('language server', 'related_code', true);
    const config = resolveConfig({ minRelevanceScore: 0 });
    const provider = new ProactiveContextProvider(store(), () => config, [...fast, slow]);
    const first = await provider.suggest({ currentFile: 'src/a.ts', cursorPosition: { line: 3, column: 1 } });
    assert.deepEqual(
      fast.map((s) => s.calls),
      [1, 1, 1],
    );
    assert.equal(slow.calls, 0, 'the slow source does not hold back the first answer');
    assert.equal(first.items.length, 3);

    const enriched = await provider.enrich(first);
    assert.deepEqual(
      fast.map((s) => s.calls),
      [1, 1, 1],
      'enriching asks no fast source again',
    );
    assert.equal(slow.calls, 1);
    assert.equal(enriched?.id, first.id);
    assert.equal(enriched?.items.length, 4);
  });
});
