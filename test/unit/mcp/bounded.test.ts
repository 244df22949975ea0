import * as assert from 'node:assert/strict';
import { bounded } from '../../../src/mcp/bounded';

describe('bounded backend calls', () => {
  it('passes results and errors through when the work is fast enough', async () => {
    assert.equal(await bounded(Promise.resolve(7), 'Counting', 100), 7);
    await assert.rejects(bounded(Promise.reject(new Error('No subscription with id x.')), 'Unsubscribing', 100), /No subscription with id x/);
  });

  it('rejects at the timeout, naming what was slow', async () => {
    const slow = new Promise<number>((r) => setTimeout(() => r(1), 500));
    const started = Date.now();
    await assert.rejects(bounded(slow, 'Reading decisions', 50), /Reading decisions took longer than 50 ms/);
    assert.ok(Date.now() - started < 400);
  });

  it('rejects when the caller cancels, before or during the work', async () => {
    const ac = new AbortController();
    const p = bounded(new Promise((r) => setTimeout(r, 500)), 'Suggesting context', 1000, ac.signal);
    ac.abort();
    await assert.rejects(p, /Suggesting context was cancelled/);
    await assert.rejects(bounded(Promise.resolve(1), 'Listing', 1000, ac.signal), /Listing was cancelled/);
  });
});
