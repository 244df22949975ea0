// The Suggestions page given the host's state in its HTML (a JSON data block), in headless Chromium
// under the provider's real HTML and CSP: drawn before any message, never as markup.
import assert from 'node:assert/strict';
import { fixtureState, openPanel, pageSuite, posted, showState, waitForReady } from './support.mjs';

describe('Suggestions page: the state inlined at load (Chromium)', function () {
  this.timeout(60_000);
  const suite = pageSuite('pc-webview-initial-');
  let protocol;
  let panelModel;
  let server;
  let browser;

  before(() => {
    ({ protocol, panelModel, server, browser } = suite);
  });

  it('draws the state inlined in its HTML as soon as it loads, before any message from the host', async () => {
    const hostile = '</script><img src=x onerror=alert(3)><!--';
    const state = fixtureState(panelModel, { symbol: hostile });
    server.setInitialState(state);
    let fresh;
    try {
      fresh = await openPanel(browser, server.origin);
      assert.equal(await fresh.evaluate(() => document.body.dataset.phase), 'ready');
      assert.equal(await fresh.evaluate(() => document.body.dataset.itemCount), String(state.items.length));
      assert.equal((await fresh.evaluate(() => document.querySelectorAll('.list .item').length)) > 0, true);
      assert.equal(await fresh.$eval('.header-symbol .header-name', (e) => e.textContent), hostile);
      assert.equal(await fresh.evaluate(() => document.querySelectorAll('img').length), 0);
      assert.deepEqual(await fresh.evaluate(() => window.__cspViolations), []);
      assert.deepEqual(fresh.dialogs, []);
      // It still asks: the host answers with anything newer.
      assert.ok((await posted(fresh)).some((m) => m.type === 'ready'));
    } finally {
      server.setInitialState(undefined);
      await fresh?.close();
    }
  });

  it('shown again, draws what it saved since, not the older state inlined when it was made', async () => {
    const inlined = fixtureState(panelModel, { symbol: 'inlinedAtLoad' });
    server.setInitialState(inlined, 'load-a');
    let fresh;
    try {
      fresh = await openPanel(browser, server.origin);
      assert.equal(await fresh.$eval('.header-symbol .header-name', (e) => e.textContent), 'inlinedAtLoad');
      await showState(fresh, protocol, fixtureState(panelModel, { symbol: 'sentLater', items: [] }));
      // The same page shown again (the same load): the state sent later.
      await fresh.reload();
      await waitForReady(fresh);
      assert.equal(await fresh.$eval('.header-symbol .header-name', (e) => e.textContent), 'sentLater');
      // A page made anew (another load): its own inlined state, newer than anything saved.
      server.setInitialState(fixtureState(panelModel, { symbol: 'madeAnew' }), 'load-b');
      await fresh.reload();
      await waitForReady(fresh);
      assert.equal(await fresh.$eval('.header-symbol .header-name', (e) => e.textContent), 'madeAnew');
    } finally {
      server.setInitialState(undefined);
      await fresh?.close();
    }
  });

  it('ignores an inlined state that is not a valid one and waits for the host', async () => {
    server.setInitialState({ ...fixtureState(panelModel), phase: 'bogus' });
    let fresh;
    try {
      fresh = await openPanel(browser, server.origin);
      assert.equal(await fresh.evaluate(() => document.body.dataset.phase), 'loading');
      assert.equal(await fresh.evaluate(() => document.querySelectorAll('.item').length), 0);
      await showState(fresh, protocol, fixtureState(panelModel));
    } finally {
      server.setInitialState(undefined);
      await fresh?.close();
    }
  });
});
