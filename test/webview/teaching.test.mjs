// The Suggestions page when a group is empty for a reason (no decision records, no git history), while
// the workspace is indexed, and for users of screen readers and high-contrast themes.
import assert from 'node:assert/strict';
import {
  NOW,
  clearPosted,
  fixtureItems,
  fixtureState,
  openPanel,
  pageSuite,
  posted,
  sendToPage,
  showState,
} from './support.mjs';
import { BODY_CLASS, THEMES } from './themes.mjs';

const NO_GIT = 'Not a git repository: recent changes and “usually changes with” are off.';
const HELP = {
  heading: 'No decision records yet',
  detail:
    'Looked for the usual folders (docs/adr, docs/decisions) and an .adr-dir file; none exists here. Record a Decision… writes the first one to docs/adr as an ADR, or point the “proactiveContext.decisionFolders” setting at the folders where your team keeps them.',
};

describe('Suggestions page: empty groups, progress and accessibility (Chromium)', function () {
  this.timeout(60_000);
  const ui = pageSuite('pc-webview-teaching-');
  let page;

  afterEach(async () => {
    await page?.close();
  });

  const withoutTypes = (...types) => fixtureItems().filter((i) => !types.includes(i.type));

  it('says where decision records were looked for, above the list, with Record a Decision… and the folders setting', async () => {
    page = await openPanel(ui.browser, ui.server.origin);
    await showState(
      page,
      ui.protocol,
      fixtureState(ui.panelModel, { items: withoutTypes('decision'), decisionHelp: HELP }),
    );
    const section = page.locator('.empty-section[data-group="decision"]');
    assert.equal(await section.locator('.group-title').textContent(), 'Decisions');
    assert.equal(await section.locator('.empty-heading').textContent(), HELP.heading);
    assert.equal(await section.locator('.empty-detail').textContent(), HELP.detail);
    // Where decisions would be: before the list of the other groups.
    assert.equal(
      await page.evaluate(
        () =>
          document.querySelector('.empty-section').compareDocumentPosition(document.querySelector('.list')) &
          Node.DOCUMENT_POSITION_FOLLOWING,
      ),
      4,
    );
    assert.deepEqual(await section.locator('button').allTextContents(), [
      'Record a Decision…',
      'Choose Decision Folders…',
    ]);
    await clearPosted(page);
    await section.locator('button', { hasText: 'Record a Decision…' }).click();
    await section.locator('button', { hasText: 'Choose Decision Folders…' }).click();
    assert.deepEqual(await posted(page), [
      ui.protocol.panelCommand('recordDecision'),
      ui.protocol.panelCommand('openDecisionSettings'),
    ]);
  });

  it('has no Decisions help when the workspace has decision records', async () => {
    page = await openPanel(ui.browser, ui.server.origin);
    await showState(page, ui.protocol, fixtureState(ui.panelModel));
    assert.equal(await page.locator('.empty-section').count(), 0);
  });

  it('says why recent changes are missing where they would be, not above everything', async () => {
    page = await openPanel(ui.browser, ui.server.origin);
    const state = fixtureState(ui.panelModel, {
      items: withoutTypes('change'),
      notes: [NO_GIT, 'Callers come from the index, which is still being built.'],
    });
    assert.deepEqual(state.sectionNotes, [{ type: 'change', text: NO_GIT }]);
    await showState(page, ui.protocol, state);
    const section = page.locator('.empty-section[data-group="change"]');
    assert.equal(await section.locator('.group-title').textContent(), 'Recent changes');
    assert.equal(await section.locator('.empty-detail').textContent(), NO_GIT);
    assert.deepEqual(await page.locator('.notes .note').allTextContents(), [
      'Callers come from the index, which is still being built.',
    ]);
  });

  it('in a workspace with nothing to show, follows the message with the reasons', async () => {
    page = await openPanel(ui.browser, ui.server.origin);
    await showState(
      page,
      ui.protocol,
      ui.panelModel.buildPanelState({
        phase: 'ready',
        file: 'src/a.ts',
        items: [],
        notes: [NO_GIT],
        decisionHelp: HELP,
        now: NOW,
      }),
    );
    assert.equal(await page.evaluate(() => document.body.dataset.phase), 'empty');
    assert.deepEqual(await page.locator('.empty-section').evaluateAll((els) => els.map((e) => e.dataset.group)), [
      'decision',
      'change',
    ]);
  });

  it('shows the files, then the commits, done of all while the workspace is indexed', async () => {
    page = await openPanel(ui.browser, ui.server.origin);
    await showState(page, ui.protocol, fixtureState(ui.panelModel));
    await sendToPage(page, ui.protocol.indexingMessage({ done: 1200, total: 5000 }));
    await page.waitForSelector('.header-indexing');
    assert.equal(await page.textContent('.header-indexing'), 'Indexing 1,200 of 5,000 files');
    await sendToPage(
      page,
      ui.protocol.indexingMessage({ done: 5000, total: 5000, commits: { done: 3000, total: 10000 } }),
    );
    await page.waitForFunction(() => document.querySelector('.header-indexing')?.textContent?.includes('commits'));
    assert.equal(await page.textContent('.header-indexing'), 'Reading history: 3,000 of 10,000 commits');
    assert.equal(await page.getAttribute('.progress', 'aria-label'), 'Reading the git history');
    assert.equal(await page.getAttribute('.progress', 'aria-valuenow'), '3000');
    assert.equal(await page.getAttribute('.progress', 'aria-valuemax'), '10000');
    await sendToPage(page, ui.protocol.indexingMessage(null));
    await page.waitForSelector('.header-indexing', { state: 'detached' });
  });

  it('gives every item, action and button an accessible name', async () => {
    page = await openPanel(ui.browser, ui.server.origin);
    await showState(
      page,
      ui.protocol,
      fixtureState(ui.panelModel, { items: withoutTypes('decision', 'change'), decisionHelp: HELP, notes: [NO_GIT] }),
    );
    const unnamed = await page.evaluate(() =>
      [...document.querySelectorAll('button, [role="option"], [role="listbox"], [role="progressbar"], section')]
        .filter((e) => !e.hidden && e.offsetParent !== null)
        .filter((e) => {
          const labelled = e.getAttribute('aria-labelledby');
          const name =
            e.getAttribute('aria-label') ||
            (labelled && document.getElementById(labelled)?.textContent) ||
            e.textContent;
          return !name || !name.trim();
        })
        .map((e) => e.outerHTML.slice(0, 120)),
    );
    assert.deepEqual(unnamed, []);
  });

  it('shows a thick focus outline in the contrast colour in a high-contrast theme, on items and on buttons', async () => {
    page = await openPanel(ui.browser, ui.server.origin, 'hc');
    await page.evaluate((cls) => document.body.classList.add(cls), BODY_CLASS.hc);
    await showState(
      page,
      ui.protocol,
      fixtureState(ui.panelModel, { items: withoutTypes('decision'), decisionHelp: HELP }),
    );
    const ring = () =>
      page.evaluate(() => {
        const s = getComputedStyle(document.activeElement);
        return { style: s.outlineStyle, width: s.outlineWidth, color: s.outlineColor };
      });
    const orange = 'rgb(243, 133, 24)';
    assert.equal(THEMES.hc.contrastActiveBorder, '#f38518');
    // Tab order: the Decisions section's buttons come first, then the list.
    await page.keyboard.press('Tab');
    assert.equal(await page.evaluate(() => document.activeElement.textContent), 'Record a Decision…');
    assert.deepEqual(await ring(), { style: 'solid', width: '2px', color: orange });
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    assert.equal(await page.evaluate(() => document.activeElement.classList.contains('item')), true);
    assert.deepEqual(await ring(), { style: 'solid', width: '2px', color: orange });
  });
});
