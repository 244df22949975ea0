import { strict as assert } from 'node:assert';
import type { SuggestionItem } from '../../../src/core/types';
import { docsWorkspace } from './docsFixture';

const said = (items: SuggestionItem[]) => items.map((i) => `${i.entityId}: ${i.reason}`).join('\n');

/** Sections that name a file among others, and documents that record a moment rather than the code. */
describe('doc sections that only list a file, or report on it', function () {
  this.timeout(30000);
  const docs = docsWorkspace();
  const write = docs.write;

  it('links no section that lists the file among others ("Source", "Key files")', async () => {
    write('app/matching/engines.py', 'def aggregate(scores):\n    return sum(scores)\n');
    write('app/matching/service.py', 'def match(a, b):\n    return a == b\n');
    write('app/domain/spec.py', 'def render(t):\n    return t\n');
    write(
      'docs/matching.md',
      '# Matching\n\n## Source\n\n`app/matching/service.py`, `app/matching/engines.py`, `app/domain/spec.py`\n\n' +
        '## Aggregation\n\nThe engine in `app/matching/engines.py` takes the harmonic mean of the field scores, ' +
        'so that one poor field pulls the whole match down; weights come from the region spec.\n',
    );
    await docs.source.refresh();
    const items = docs.source.query({ file: 'app/matching/engines.py', symbol: 'aggregate' });
    const ids = items.map((i) => i.entityId);
    assert.ok(!ids.includes('doc:docs/matching.md#source'), said(items));
    assert.ok(ids.includes('doc:docs/matching.md#aggregation'), `prose about the file still links: ${said(items)}`);
  });

  it('indexes no QA or tech-debt report', async () => {
    write('app/jobs/worker.py', 'def run():\n    return 1\n');
    write('docs/qa/tech-debt/complexity.md', '# Complexity\n\n## High\n\n- `app/jobs/worker.py`: run is long.\n');
    write('docs/jobs.md', '# Jobs\n\n## Worker\n\nThe worker in `app/jobs/worker.py` picks the oldest job first.\n');
    await docs.source.refresh();
    const items = docs.source.query({ file: 'app/jobs/worker.py', symbol: 'run' });
    assert.deepEqual(
      items.map((i) => i.location.path),
      ['docs/jobs.md'],
      said(items),
    );
  });
});
