import { strict as assert } from 'node:assert';
import { summarize } from '../../../src/core/sources/docs/markdown';

describe('summarize', () => {
  it('does not split a sentence at the dot of a file name or version', () => {
    assert.equal(
      summarize('`src/billing/invoice.ts` rounds every total. Version 1.2 keeps it.'),
      'src/billing/invoice.ts rounds every total. Version 1.2 keeps it.',
    );
  });

  it('keeps the first sentences of the first paragraph only', () => {
    assert.equal(summarize('First point here! Second one?\n\nAnother paragraph.'), 'First point here! Second one?');
  });
});
