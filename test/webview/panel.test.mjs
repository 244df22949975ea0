// The Suggestions page in headless Chromium, served with the provider's real HTML and CSP.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import {
  SCREENSHOT_DIR,
  clearPosted,
  fixtureItems,
  fixtureState,
  openPanel,
  pageSuite,
  posted,
  sendToPage,
  showState,
  waitForReady,
} from './support.mjs';

describe('Suggestions page (Chromium)', function () {
  this.timeout(60_000);
  const suite = pageSuite('pc-webview-page-');
  let protocol;
  let panelModel;
  let server;
  let browser;
  let page;

  before(() => {
    ({ protocol, panelModel, server, browser } = suite);
  });

  beforeEach(async () => {
    page = await openPanel(browser, server.origin);
  });

  afterEach(async () => {
    await page?.close();
  });

  const ready = () => fixtureState(panelModel);
  const rowIds = () => page.$$eval('.list .item', (rows) => rows.map((r) => r.dataset.entityId));
  const focusedId = () =>
    page.evaluate(() => document.activeElement?.dataset?.entityId ?? document.activeElement?.dataset?.more ?? null);
  const lastPosted = async () => (await posted(page)).at(-1);

  it('says ready with the protocol version when it loads', async () => {
    const messages = await posted(page);
    assert.deepEqual(messages[0], { type: 'ready', version: protocol.PROTOCOL_VERSION });
    assert.equal(await page.evaluate(() => document.body.dataset.phase), 'loading');
  });

  it('renders groups in a fixed order with counts, and the top items of every group without expanding', async () => {
    await showState(page, protocol, ready());
    const groups = await page.$$eval('.group', (gs) =>
      gs.map((g) => ({
        type: g.dataset.group,
        title: g.querySelector('.group-title').textContent,
        count: g.querySelector('.badge').textContent,
        shown: g.querySelectorAll('.item').length,
      })),
    );
    assert.deepEqual(groups, [
      { type: 'decision', title: 'Decisions', count: '2', shown: 2 },
      { type: 'warning', title: 'Warnings', count: '1', shown: 1 },
      { type: 'change', title: 'Recent changes', count: '5', shown: 3 },
      { type: 'cochange', title: 'Usually changes with', count: '2', shown: 2 },
      { type: 'related_code', title: 'Callers', count: '2', shown: 2 },
      { type: 'doc', title: 'Docs', count: '1', shown: 1 },
    ]);
    assert.equal(await page.textContent('.group[data-group="change"] .more'), 'Show 2 more');
    assert.equal(await page.evaluate(() => document.body.dataset.itemCount), '13');
    assert.equal(await page.evaluate(() => document.body.dataset.phase), 'ready');
    assert.equal(await page.textContent('.header-file .header-name'), 'indexer.ts');
    assert.equal(await page.textContent('.header-file .header-description'), 'src/core/index');
    assert.equal(await page.textContent('.header-symbol'), 'indexWorkspace');
  });

  it('shows each item with its title, reason, age, score on hover, kind and actions', async () => {
    await showState(page, protocol, ready());
    const row = await page.$('.item[data-entity-id="adr:0007"]');
    assert.equal(await row.getAttribute('data-type'), 'decision');
    assert.equal(
      await row.$eval('.item-title', (e) => e.textContent),
      'ADR-0007: Cache parsed files in the index, not in memory',
    );
    assert.equal(await row.$eval('.item-reason', (e) => e.textContent), 'Governs src/core/index/indexer.ts');
    assert.equal(await row.$eval('.item-age', (e) => e.textContent), '3 days ago');
    assert.match(await row.getAttribute('title'), /^Relevance 0\.82\ndocs\/adr\/0007-cache\.md/);
    assert.equal(
      await row.getAttribute('aria-label'),
      'Decision: ADR-0007: Cache parsed files in the index, not in memory. Governs src/core/index/indexer.ts. 3 days ago',
    );
    assert.equal(await row.getAttribute('role'), 'option');
    const actions = await row.$$eval('button.action', (bs) =>
      bs.map((b) => [b.dataset.action, b.getAttribute('aria-label'), b.getAttribute('aria-pressed')]),
    );
    assert.deepEqual(
      actions.map((a) => a[0]),
      ['open', 'useful', 'pin', 'copy', 'dismiss'],
    );
    assert.ok(actions.every((a) => a[1].endsWith(': ADR-0007: Cache parsed files in the index, not in memory')));
    assert.equal(
      actions.find((a) => a[0] === 'useful')[2],
      'true',
      'an item marked useful shows its thumbs-up pressed',
    );
    const warning = await page.$('.item[data-type="warning"]');
    assert.equal(await warning.$('.item-age'), null, 'items without a time have no age');
    assert.match(
      await warning.getAttribute('aria-label'),
      /^Warning: parseLegacy\(\) is deprecated\. Called on line 42/,
    );
  });

  it('renders hostile titles and file names as text, never as elements', async () => {
    await showState(page, protocol, ready());
    assert.equal(
      await page.textContent('.item[data-entity-id="adr:0012"] .item-title'),
      '<img src=x onerror=alert(1)>',
    );
    const svgRow = await page.$$eval('.item[data-type="cochange"] .item-title', (ts) => ts.map((t) => t.textContent));
    assert.ok(svgRow.includes('"><svg onload=alert(2)>.tstest'), JSON.stringify(svgRow));
    await page.waitForTimeout(100);
    assert.equal(await page.$$eval('img, svg, script:not([nonce])', (els) => els.length), 0);
    assert.equal(await page.evaluate(() => window.__dialogs), 0);
    assert.deepEqual(page.dialogs, []);
    assert.deepEqual(await page.evaluate(() => window.__cspViolations), []);
  });

  it('names the file before its folder, dimmed, and says a reason every row of a group shares once', async () => {
    await showState(page, protocol, ready());
    const row = (id) =>
      page.$eval(`.item[data-entity-id="${id}"]`, (r) => ({
        title: r.querySelector('.item-title').firstChild.textContent,
        place: r.querySelector('.item-place')?.textContent ?? null,
        folder: r.querySelector('.item-folder')?.textContent ?? null,
        reason: r.querySelector('.item-reason')?.textContent ?? null,
        folderDimmed: getComputedStyle(r.querySelector('.item-folder')).color !== getComputedStyle(r).color,
      }));
    assert.deepEqual(await row('caller:src/cli/main.ts:88'), {
      title: 'runIndex',
      place: 'main.ts:88',
      folder: 'src/cli',
      reason: null,
      folderDimmed: true,
    });
    assert.deepEqual(await row('cochange:src/core/store/store.ts'), {
      title: 'store.ts',
      place: null,
      folder: 'src/core/store',
      reason: 'Changed together in 14 of 20 commits',
      folderDimmed: true,
    });
    // Both callers give the same reason: it heads the group once, and each row leaves it out.
    assert.equal(await page.textContent('.group[data-group="related_code"] .group-reason'), 'Calls indexWorkspace()');
    assert.equal(await page.$$eval('.group[data-group="related_code"] .item-reason', (r) => r.length), 0);
    assert.equal(await page.$$eval('.group[data-group="cochange"] .group-reason', (r) => r.length), 0);
    assert.equal(
      await page.getAttribute('.item[data-entity-id="caller:src/cli/main.ts:88"]', 'aria-label'),
      'Caller: runIndex, main.ts:88 in src/cli',
    );
  });

  it('shows inline code in titles as code, and code that looks like markup stays text', async () => {
    const state = ready();
    const hostile = {
      ...state.items[0],
      index: 99,
      entityId: 'adr:0031',
      title: 'ADR-0031: Deprecate `<img src=x onerror=alert(3)>` and `&&` in JSX',
      reason: 'in `src/app/`, which ADR-0031 is about',
    };
    await showState(page, protocol, { ...state, items: [hostile, ...state.items], counts: { ...state.counts } });
    const parts = await page.$eval('.item[data-entity-id="adr:0031"] .item-title', (t) =>
      Array.from(t.childNodes).map((n) => [n.nodeName, n.textContent]),
    );
    assert.deepEqual(parts, [
      ['#text', 'ADR-0031: Deprecate '],
      ['CODE', '<img src=x onerror=alert(3)>'],
      ['#text', ' and '],
      ['CODE', '&&'],
      ['#text', ' in JSX'],
    ]);
    assert.equal(await page.textContent('.item[data-entity-id="adr:0031"] .item-reason code'), 'src/app/');
    assert.equal(await page.$$eval('img, svg', (els) => els.length), 0);
    assert.deepEqual(await page.evaluate(() => window.__cspViolations), []);
  });

  it('puts the keyboard on the first item when the view gets focus, so the arrow keys work at once', async () => {
    await showState(page, protocol, ready());
    assert.equal(await focusedId(), null);
    const first = (await rowIds())[0];
    // What "Focus on Suggestions View" does to the page: the window gets focus, no element has it.
    await page.evaluate(() => {
      document.activeElement?.blur();
      window.dispatchEvent(new FocusEvent('focus'));
    });
    assert.equal(await focusedId(), first);
    await page.keyboard.press('ArrowDown');
    assert.equal(await focusedId(), (await rowIds())[1]);
  });

  it('ignores malformed host messages and keeps showing the last good state', async () => {
    const good = ready();
    await showState(page, protocol, good);
    const bad = [
      { type: 'state', version: 1, state: { ...good, items: [{ ...good.items[0], title: 42 }] } },
      { type: 'state', version: 99, state: { ...good, phase: 'error' } },
      { type: 'state', version: 1, state: { ...good, phase: 'error', message: 'x'.repeat(protocol.LIMITS.text + 1) } },
      { type: 'eval', version: 1, code: 'alert(1)' },
      'state',
    ];
    for (const m of bad) await sendToPage(page, m);
    await page.waitForFunction((n) => document.body.dataset.rejectedMessages === String(n), bad.length);
    assert.equal(await page.evaluate(() => document.body.dataset.phase), 'ready');
    assert.equal((await rowIds()).length, 11);
  });

  it('moves across items and groups with the arrow keys, Home and End, and acts with Enter, Delete, U, P and C', async () => {
    await showState(page, protocol, ready());
    await page.keyboard.press('Tab');
    assert.equal(await focusedId(), 'adr:0007', 'Tab lands on the first item');
    await page.keyboard.press('ArrowDown');
    assert.equal(await focusedId(), 'adr:0012');
    await page.keyboard.press('ArrowDown');
    assert.equal(await focusedId(), 'warn:deprecated:parseLegacy', 'ArrowDown crosses into the next group');
    await page.keyboard.press('ArrowUp');
    assert.equal(await focusedId(), 'adr:0012');
    assert.deepEqual(
      await page.$$eval('.item, .more', (rows) => rows.filter((r) => r.tabIndex === 0).map((r) => r.dataset.entityId)),
      ['adr:0012'],
      'one tab stop: roving tabindex',
    );

    await clearPosted(page);
    await page.keyboard.press('Enter');
    assert.deepEqual(await lastPosted(), { type: 'open', version: 1, entityId: 'adr:0012' });
    for (const [key, type] of [
      ['u', 'useful'],
      ['p', 'pin'],
      ['c', 'copy'],
      ['Delete', 'dismiss'],
    ]) {
      await page.keyboard.press(key);
      assert.deepEqual(await lastPosted(), { type, version: 1, entityId: 'adr:0012' }, key);
    }

    await page.keyboard.press('End');
    assert.equal(await focusedId(), 'doc:docs/indexing.md#incremental', 'End goes to the last row of the last group');
    await page.keyboard.press('Home');
    assert.equal(await focusedId(), 'adr:0007');
  });

  it('keeps the keyboard in the list after an item is dismissed', async () => {
    const state = ready();
    await showState(page, protocol, state);
    await page.focus('.item[data-entity-id="adr:0012"]');
    await page.keyboard.press('Delete');
    assert.deepEqual(await lastPosted(), { type: 'dismiss', version: 1, entityId: 'adr:0012' });
    const without = panelModel.buildPanelState({
      phase: 'ready',
      file: state.file,
      items: state.items.filter((i) => i.entityId !== 'adr:0012').map(toItem),
    });
    await showState(page, protocol, without);
    assert.equal(await focusedId(), 'warn:deprecated:parseLegacy', 'focus moves to the row that took its place');
  });

  it('opens an item on click, and runs only the button action when a button is clicked', async () => {
    await showState(page, protocol, ready());
    await clearPosted(page);
    await page.click('.item[data-entity-id="commit:a1b2c3d4"] .item-title');
    assert.deepEqual(await posted(page), [{ type: 'open', version: 1, entityId: 'commit:a1b2c3d4' }]);
    await clearPosted(page);
    await page.hover('.item[data-entity-id="doc:docs/indexing.md#incremental"]');
    await page.click('.item[data-entity-id="doc:docs/indexing.md#incremental"] button[data-action="dismiss"]');
    assert.deepEqual(await posted(page), [
      { type: 'dismiss', version: 1, entityId: 'doc:docs/indexing.md#incremental' },
    ]);
    await clearPosted(page);
    await page.hover('.item[data-entity-id="adr:0007"]');
    await page.click('.item[data-entity-id="adr:0007"] button[aria-label^="Pin to chat"]');
    assert.deepEqual(await posted(page), [{ type: 'pin', version: 1, entityId: 'adr:0007' }]);
  });

  it('keeps a folded record (a weaker link) behind "Show 1 more" until the group is expanded', async () => {
    const items = fixtureItems().map((i) => (i.entityId === 'adr:0012' ? { ...i, meta: { folded: true } } : i));
    await showState(page, protocol, fixtureState(panelModel, { items }));
    const decisions = () =>
      page.$$eval('.group[data-group="decision"] .item', (rows) => rows.map((r) => r.dataset.entityId));
    assert.deepEqual(await decisions(), ['adr:0007']);
    assert.equal(await page.textContent('.group[data-group="decision"] .badge'), '2');
    assert.equal(await page.textContent('.group[data-group="decision"] .more'), 'Show 1 more');
    await page.click('.group[data-group="decision"] .more');
    assert.deepEqual(await decisions(), ['adr:0007', 'adr:0012']);
  });

  it('expands a group with "Show 2 more", and keeps it expanded and focused across a reload', async () => {
    await showState(page, protocol, ready());
    await page.click('.group[data-group="change"] .more');
    assert.equal((await page.$$('.group[data-group="change"] .item')).length, 5);
    assert.equal(await page.textContent('.group[data-group="change"] .more'), 'Show fewer');
    await page.focus('.item[data-entity-id="commit:d4e5f6a7"]');

    await page.reload();
    await waitForReady(page);
    await showState(page, protocol, ready());
    assert.equal(
      (await page.$$('.group[data-group="change"] .item')).length,
      5,
      'still expanded after the page was rebuilt',
    );
    assert.equal(
      await page.getAttribute('.item[data-entity-id="commit:d4e5f6a7"]', 'tabindex'),
      '0',
      'the focused item is the tab stop again',
    );
    assert.equal((await page.$$('.group[data-group="decision"] .item')).length, 2);

    await page.keyboard.press('Tab');
    assert.equal(await focusedId(), 'commit:d4e5f6a7');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    assert.equal(await focusedId(), 'change', 'the Show fewer row is part of the keyboard order');
    await page.keyboard.press('Enter');
    assert.equal((await page.$$('.group[data-group="change"] .item')).length, 3);
    assert.equal(await focusedId(), 'change');
  });

  it('keeps the scroll position across a reload', async () => {
    await page.setViewportSize({ width: 320, height: 260 });
    await showState(page, protocol, ready());
    await page.evaluate(() => window.scrollTo(0, 300));
    await page.waitForFunction(() => JSON.parse(sessionStorage.getItem('vscode-webview-state')).scrollY === 300);
    await page.reload();
    await waitForReady(page);
    await showState(page, protocol, ready());
    assert.equal(await page.evaluate(() => Math.round(window.scrollY)), 300);
  });

  it('draws the last state at once when the page is rebuilt, before the host answers', async () => {
    await showState(page, protocol, ready());
    await page.reload();
    await waitForReady(page);
    assert.equal(await page.evaluate(() => document.body.dataset.phase), 'ready');
    assert.equal((await rowIds()).length, 11);
  });

  it('tells the user what to do in the empty state, with Refresh, Show Log and Settings', async () => {
    await showState(page, protocol, panelModel.buildPanelState({ phase: 'empty', file: 'src/core/index/indexer.ts' }));
    assert.equal(await page.textContent('.message-heading'), 'No suggestions for indexer.ts');
    await clearPosted(page);
    await page.click('button[data-command="showLog"]');
    await page.click('button[data-command="refresh"]');
    assert.deepEqual(await posted(page), [
      { type: 'showLog', version: 1 },
      { type: 'refresh', version: 1 },
    ]);
    assert.equal(await page.$$eval('button[data-command="openSettings"]', (b) => b.length), 1);
  });

  for (const [phase, text] of [
    ['no-workspace', 'Open a folder to see suggestions'],
    ['no-editor', 'Open a file to see suggestions'],
    ['unsupported-document', 'No suggestions for this editor'],
  ]) {
    it(`says calmly what to do in the ${phase} state, with no buttons that look like an error`, async () => {
      await showState(page, protocol, panelModel.buildPanelState({ phase, file: 'src/core/index/indexer.ts' }));
      assert.equal(await page.textContent('.message-heading'), text);
      assert.ok((await page.textContent('.message-detail')).length > 40);
      assert.equal(await page.getAttribute('.message', 'role'), 'status');
      assert.equal(await page.$$eval('.message button', (b) => b.length), 0);
    });
  }

  it("marks only an error's host message as an error", async () => {
    await showState(
      page,
      protocol,
      panelModel.buildPanelState({
        phase: 'unsupported-document',
        message: 'This editor is not a file of the workspace (a git: document)',
      }),
    );
    const neutral = await page.$eval('.message-host', (e) => getComputedStyle(e).borderLeftColor);
    await showState(
      page,
      protocol,
      panelModel.buildPanelState({ phase: 'error', message: 'Index database is locked by another process' }),
    );
    const error = await page.$eval('.message-host', (e) => getComputedStyle(e).borderLeftColor);
    assert.equal(error, 'rgb(190, 17, 0)');
    assert.notEqual(neutral, error);
    await showState(page, protocol, panelModel.buildPanelState({ phase: 'no-editor' }));
    assert.equal(await page.$('.message-host'), null, 'no host message repeats what the panel says');
  });

  it('shows the error with its detail, Show Log first', async () => {
    await showState(
      page,
      protocol,
      panelModel.buildPanelState({ phase: 'error', message: 'Index database is locked by another process' }),
    );
    assert.equal(await page.textContent('.message-heading'), 'Suggestions could not be loaded');
    assert.equal(await page.textContent('.message-host'), 'Index database is locked by another process');
    assert.equal(await page.getAttribute('.message', 'role'), 'alert');
    const buttons = await page.$$eval('.message-buttons button', (bs) => bs.map((b) => b.textContent));
    assert.deepEqual(buttons, ['Show Log', 'Refresh']);
    await clearPosted(page);
    await page.click('.message-buttons button:has-text("Show Log")');
    assert.deepEqual(await posted(page), [{ type: 'showLog', version: 1 }]);
  });

  it('shows notes such as a missing git repository next to the items', async () => {
    const note = 'Not a git repository: recent changes and co-change are off';
    await showState(page, protocol, fixtureState(panelModel, { notes: [note] }));
    assert.equal(await page.textContent('.note'), note);
    assert.equal((await rowIds()).length, 11);
  });

  it('shows indexing progress while it runs and hides it when it ends', async () => {
    await showState(page, protocol, ready());
    await sendToPage(page, protocol.indexingMessage({ done: 1200, total: 5000 }));
    await page.waitForSelector('.header-indexing');
    assert.equal(await page.textContent('.header-indexing'), 'Indexing 1,200 of 5,000 files');
    assert.equal(await page.getAttribute('.progress', 'aria-valuenow'), '1200');
    assert.equal(await page.getAttribute('.progress', 'role'), 'progressbar');
    await sendToPage(page, protocol.indexingMessage(null));
    await page.waitForSelector('.header-indexing', { state: 'detached' });
    assert.equal(await page.isVisible('.progress'), false);
    assert.equal((await rowIds()).length, 11, 'progress updates leave the items alone');
  });

  it('loads its styles and the codicon font under the CSP', async () => {
    await showState(page, protocol, ready());
    await page.evaluate(() => document.fonts.ready);
    assert.equal(await page.evaluate(() => document.fonts.check('16px codicon')), true);
    assert.equal(
      await page.evaluate(() => getComputedStyle(document.querySelector('.item-icon')).fontFamily),
      'codicon',
    );
    assert.deepEqual(await page.evaluate(() => window.__cspViolations), []);
  });

  it('shows a visible focus ring in the theme focus colour', async () => {
    await showState(page, protocol, ready());
    await page.keyboard.press('Tab');
    const outline = await page.evaluate(() => {
      const s = getComputedStyle(document.activeElement);
      return { style: s.outlineStyle, width: s.outlineWidth, color: s.outlineColor };
    });
    assert.deepEqual(outline, { style: 'solid', width: '1px', color: 'rgb(0, 95, 184)' });
  });

  it('saves a screenshot of the panel in light and dark themes', async () => {
    const compare = await browser.context.newPage();
    await compare.setViewportSize({ width: 1000, height: 700 });
    await compare.goto(`${server.origin}/compare.html?frame=light&frame=dark&frame=dark`);
    const frames = ['f0', 'f1', 'f2'].map((name) => compare.frame({ name }));
    for (const f of frames) await waitForReady(f);
    await showState(
      frames[0],
      protocol,
      fixtureState(panelModel, { notes: ['Not a git repository: recent changes and co-change are off'] }),
    );
    await showState(frames[1], protocol, ready());
    await sendToPage(frames[1], protocol.indexingMessage({ done: 1200, total: 5000 }));
    await frames[1].waitForSelector('.header-indexing');
    await showState(
      frames[2],
      protocol,
      panelModel.buildPanelState({
        phase: 'error',
        file: 'src/core/index/indexer.ts',
        message: 'Index database is locked by another process',
      }),
    );
    await frames[1].focus('.item[data-entity-id="commit:a1b2c3d4"]');
    await frames[0].hover('.item[data-entity-id="adr:0007"]');
    await compare.evaluate(() => document.fonts.ready);
    fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
    const file = path.join(SCREENSHOT_DIR, 'suggestions-panel.png');
    await compare.screenshot({ path: file });
    assert.ok(fs.statSync(file).size > 10_000);
    await compare.close();
  });
});

/** Turns a PanelItem back into the SuggestionItem shape buildPanelState takes. */
function toItem(p) {
  return {
    type: p.type,
    entityId: p.entityId,
    title: p.title,
    summary: p.summary,
    reason: p.reason,
    relevanceScore: p.relevanceScore,
    location: p.location,
  };
}
