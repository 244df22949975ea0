// The walkthrough is found where VS Code lists them, on the Welcome page, and its first step's button
// brings the Suggestions panel forward (which also completes the step).
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { closeAll, startWorkbench } from './fixture.mjs';

const TITLE = 'Get started with Proactive Context';

let wb;

before(async () => {
  wb = await startWorkbench({ name: 'walkthrough' });
});

after(async () => {
  await wb?.close();
  await closeAll();
});

void test('the Welcome page lists the walkthrough, and its first step opens the panel', async () => {
  assert.equal(
    await wb.bridge('api', { method: 'panelVisible' }),
    false,
    'the panel is already showing before the walkthrough asks for it',
  );
  // Help: Welcome (the palette is not what this tests).
  await wb.executeCommand('workbench.action.openWalkthrough');
  const page = wb.page.locator('.part.editor .gettingStartedContainer');
  await page.waitFor({ state: 'visible', timeout: 30_000 });
  let entry = page.locator('button.getting-started-category', { hasText: TITLE }).first();
  if (!(await entry.isVisible().catch(() => false))) {
    // More walkthroughs than the page lists at once: "More…" shows them all.
    await page.locator('.button-link', { hasText: /^More/ }).first().click();
    entry = page.locator('button.getting-started-category', { hasText: TITLE }).first();
  }
  await entry.waitFor({ state: 'visible', timeout: 30_000 });
  await entry.click();
  const step = page.locator('button.getting-started-step', { hasText: 'See the panel follow your cursor' }).first();
  await step.waitFor({ state: 'visible', timeout: 30_000 });
  for (const name of [
    'Open a decision or a caller',
    'Subscribe a file and ask @context',
    'Watch a folder',
    'Record a decision',
  ]) {
    assert.equal(
      await page.locator('button.getting-started-step', { hasText: name }).count(),
      1,
      `the walkthrough has no step "${name}"`,
    );
  }
  await wb.screenshot('walkthrough');
  assert.equal(await step.getAttribute('aria-checked'), 'false');
  await page.locator('.monaco-button, a', { hasText: 'Open the Suggestions panel' }).first().click();
  await wb.waitForView('Proactive Context');
  await wb.webviewText();
  assert.equal(await wb.bridge('api', { method: 'panelVisible' }), true);
  await page
    .locator('button.getting-started-step[aria-checked="true"]', { hasText: 'See the panel follow your cursor' })
    .waitFor({ state: 'attached', timeout: 30_000 });
});
