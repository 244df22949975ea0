import * as assert from 'node:assert/strict';
import { CancelledError, TimeoutError, withTimeout, withTimeoutOr } from '../../../src/shared/timeout';

const never = new Promise<number>(() => undefined);

describe('bounded waits', () => {
  it('passes results and errors through when the work settles first', async () => {
    assert.equal(await withTimeout(Promise.resolve(7), 1000, { what: 'Counting' }), 7);
    await assert.rejects(
      withTimeout(Promise.reject(new Error('No subscription with id x.')), 1000),
      /No subscription with id x/,
    );
  });

  it('rejects with a TimeoutError naming what did not finish', async () => {
    const err = await withTimeout(never, 5, { what: 'Reading decisions' }).catch((e: unknown) => e);
    assert.ok(err instanceof TimeoutError);
    assert.match(err.message, /^Reading decisions took longer than 5 ms\.$/);
  });

  it('rejects with a CancelledError when the caller cancels, before or during the wait', async () => {
    const ac = new AbortController();
    const pending = withTimeout(never, 60_000, { what: 'Suggesting context', signal: ac.signal });
    ac.abort();
    await assert.rejects(
      pending,
      (e: unknown) => e instanceof CancelledError && /Suggesting context was cancelled/.test(e.message),
    );
    await assert.rejects(
      withTimeout(Promise.resolve(1), 60_000, { what: 'Listing', signal: ac.signal }),
      /Listing was cancelled/,
    );
  });

  it('settles with a fallback instead, for waits whose result is optional', async () => {
    assert.equal(await withTimeoutOr(never, 5, 'fallback'), 'fallback');
    assert.equal(await withTimeoutOr(Promise.resolve('done'), 1000, 'fallback'), 'done');
    await assert.rejects(withTimeoutOr(Promise.reject(new Error('real failure')), 1000, 'fallback'), /real failure/);
  });
});
