import { strict as assert } from 'node:assert';
import { resolveConfig } from '../../../src/core/config';
import { ProactiveContextProvider } from '../../../src/core/provider/provider';
import type { SuggestionSource } from '../../../src/core/sources/sourceQuery';
import { kindFloor, passesFloor, scoreItem } from '../../../src/core/provider/scoring';
import { SUGGESTION_TYPES, type SuggestionItem, type SuggestionType } from '../../../src/core/types';
import { storePerTest } from '../store/storeFixture';

const NOW = Date.UTC(2024, 6, 1, 12);

function item(type: SuggestionType, link: number, id: string, path = 'src/other.ts', line?: number): SuggestionItem {
  return {
    entityId: `${type}:${id}`,
    type,
    title: `${type} ${id}`,
    summary: '',
    reason: `${id} is linked`,
    relevanceScore: link,
    location: { path, line },
  };
}

/** A source that answers the same items for every query. */
function fixed(items: SuggestionItem[]): SuggestionSource {
  return { name: 'fixed', kinds: SUGGESTION_TYPES, collect: () => Promise.resolve(items.map((i) => ({ ...i }))) };
}

describe('one score across kinds, with a floor per kind', () => {
  const store = storePerTest('pc-kind-floors-');

  const suggest = (
    items: SuggestionItem[],
    minRelevanceScore: number,
    query = { currentFile: 'src/a.ts', cursorPosition: { line: 10, column: 1 } },
  ) => {
    const config = resolveConfig({ minRelevanceScore });
    return new ProactiveContextProvider(
      store(),
      () => config,
      [fixed(items)],
      undefined,
      undefined,
      () => NOW,
    ).suggest(query, { record: false });
  };

  it('never shows an item under its kind’s floor, whatever minRelevanceScore says', async () => {
    const items = SUGGESTION_TYPES.flatMap((type) => [
      item(type, kindFloor[type] - 0.01, 'under'),
      item(type, kindFloor[type], 'at'),
    ]);
    for (const i of items) assert.equal(passesFloor(i), i.entityId.endsWith(':at'), i.entityId);
    const shown = (await suggest(items, 0)).items.map((i) => i.entityId).sort();
    assert.deepEqual(shown, SUGGESTION_TYPES.map((type) => `${type}:at`).sort());
  });

  it('ranks a strong decision link above a weak doc mention, even one at the cursor', async () => {
    const query = { currentFile: 'src/a.ts', cursorPosition: { line: 10, column: 1 } };
    const decision = item('decision', 0.9, 'names-this-file');
    const doc = item('doc', kindFloor.doc + 0.05, 'passing-mention', 'src/a.ts', 10);
    const [d, m] = [decision, doc].map((i) => scoreItem(i, query, NOW, 1));
    assert.equal(m.proximity, 1, 'the doc mention sits at the cursor');
    assert.ok(d.score > m.score, `${d.score} > ${m.score}`);
    const shown = (await suggest([doc, decision], 0, query)).items;
    assert.deepEqual(
      shown.map((i) => i.entityId),
      [decision.entityId, doc.entityId],
    );
    assert.ok(shown[0].relevanceScore > shown[1].relevanceScore);
  });

  it('shows items of equal score newest first: old commits whose recency has faded keep their order in time', async () => {
    const DAY = 86_400_000;
    // Titles in the reverse order of their dates, so an alphabetical tie-break would show the oldest first.
    const commits = [400, 200, 700, 300].map((days, i) => ({
      ...item('change', 0.9, `c${i}`, 'src/a.ts', 10),
      title: `${String.fromCharCode(100 - i)} commit ${days} days old`,
      timestamp: NOW - days * DAY,
    }));
    const shown = (await suggest(commits, 0)).items;
    assert.equal(new Set(shown.map((i) => i.relevanceScore)).size, 1, 'the four score alike');
    assert.deepEqual(
      shown.map((i) => i.title),
      ['c commit 200 days old', 'a commit 300 days old', 'd commit 400 days old', 'b commit 700 days old'],
    );
  });

  it('shows one warning per deprecated API in a file, at the use nearest the cursor, counting the others', async () => {
    const use = (line: number, name: string) => ({
      ...item('warning', 0.8, `${name}-${line}`, 'src/a.ts', line),
      title: `Deprecated: ${name} used at line ${line}`,
      summary: `${name} is deprecated.`,
      meta: { deprecated: name },
    });
    const shown = (await suggest([use(40, 'Field'), use(12, 'Field'), use(90, 'Field'), use(200, 'load')], 0)).items;
    assert.deepEqual(
      shown.map((i) => i.title),
      ['Deprecated: Field used at line 12 and 2 more places', 'Deprecated: load used at line 200'],
    );
    assert.equal(shown[0].location.line, 12);
    assert.equal(shown[0].summary, 'Field is deprecated. Also used at lines 40, 90.');
    assert.equal(shown[0].meta?.otherUses, 2);
  });
});
