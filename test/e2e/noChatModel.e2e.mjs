// In a VS Code with no chat model (no Copilot, no test model), VS Code turns every @context request
// away before the participant runs. The walkthrough's "Ask @context" and the subscribe notification
// say a model is needed, and "Show What @context Would Send" opens the prompt a question would get,
// with the subscribed file's current content in it.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { closeAll, startWorkbench } from './fixture.mjs';

const TITLE = 'Get started with Proactive Context';
const STEP = 'Subscribe a file and ask @context';
const FILE = 'src/money.ts';
/** A line of src/money.ts that only its content holds. */
const FILE_LINE = 'Cannot add ${a.currency} to ${b.currency}';
const NEEDS_MODEL = '@context needs a chat model, such as GitHub Copilot';
const PREVIEW_TAB = /What @context would send/;

let wb;

before(async () => {
  // No testExtensions: the fake chat model is not loaded, so no model is registered at all.
  wb = await startWorkbench({ name: 'noChatModel' });
});

after(async () => {
  await wb?.close();
  await closeAll();
});

/** Counts the matches of `text` in the active editor with the Find widget, as a user would look. */
async function findInEditor(text) {
  await wb.focusEditor();
  await wb.page.keyboard.press('Control+F');
  const input = wb.page
    .locator('.part.editor .find-widget.visible textarea, .part.editor .find-widget.visible input')
    .first();
  await input.waitFor({ state: 'visible', timeout: 10_000 });
  await input.fill(text);
  const count = wb.page.locator('.part.editor .find-widget.visible .matchesCount');
  // The count reads "No results", "1 of 2" or (no match selected yet) "? of 2" once the search has run.
  await wb.page.waitForFunction(
    (el) => /No results|\S+ of \d+/.test(el?.textContent ?? ''),
    await count.elementHandle(),
    { timeout: 10_000 },
  );
  const shown = (await count.innerText()).trim();
  await wb.page.keyboard.press('Escape');
  return shown;
}

void test('subscribing says the file reaches @context once a chat model is available', async () => {
  await wb.quickOpen(FILE);
  await wb.runCommand('Proactive Context: Subscribe Chat to Current File');
  const message = await wb.waitForNotification(`Subscribed to ${FILE}`);
  assert.match(message, /included in @context turns once a chat model such as GitHub Copilot is available/);
  assert.doesNotMatch(message, /Every @context turn includes/);
});

void test('the walkthrough says a chat model is needed, and its Ask @context explains instead of sending a turn', async () => {
  await wb.executeCommand('workbench.action.openWalkthrough');
  const page = wb.page.locator('.part.editor .gettingStartedContainer');
  await page.waitFor({ state: 'visible', timeout: 30_000 });
  let entry = page.locator('button.getting-started-category', { hasText: TITLE }).first();
  if (!(await entry.isVisible().catch(() => false))) {
    await page.locator('.button-link', { hasText: /^More/ }).first().click();
    entry = page.locator('button.getting-started-category', { hasText: TITLE }).first();
  }
  await entry.waitFor({ state: 'visible', timeout: 30_000 });
  await entry.click();
  const step = page.locator('button.getting-started-step', { hasText: STEP }).first();
  await step.waitFor({ state: 'visible', timeout: 30_000 });
  await step.click();
  await page
    .locator('button.getting-started-step.expanded', { hasText: STEP })
    .waitFor({ state: 'visible', timeout: 10_000 });
  assert.match(await step.innerText(), /chat model, such as GitHub Copilot/);
  await wb.screenshot('walkthrough-step');

  await step
    .locator('.monaco-button, a', { hasText: /^Ask @context$/ })
    .first()
    .click();
  await wb.waitForNotification(NEEDS_MODEL);
  // No chat request went out: the chat view was not opened for a turn that could only fail.
  assert.equal(await wb.page.locator('.interactive-session .interactive-request').count(), 0);

  // The notification offers the preview, which needs no model.
  const toast = wb.page.locator('.notifications-toasts .notification-toast', { hasText: NEEDS_MODEL }).first();
  await toast.locator('.monaco-button', { hasText: 'Show What @context Would Send' }).click();
  await wb.waitForActiveTab(PREVIEW_TAB, 60_000);
  assert.match(await findInEditor(FILE_LINE), /of [1-9]\d*$/);
});

void test('Show What @context Would Send opens the prompt with the subscribed file in it', async () => {
  await wb.quickOpen('src/pricing.ts');
  await wb.runCommand('Proactive Context: Show What @context Would Send');
  const title = await wb.waitForActiveTab(PREVIEW_TAB, 60_000);
  await wb.screenshot('prompt-preview');
  assert.doesNotMatch(title, /pricing\.ts|Untitled/);
  // The subscribed file's current content, the ledger, and the placeholder for the question.
  assert.match(await findInEditor(FILE_LINE), /of [1-9]\d*$/);
  assert.match(await findInEditor('| Part | Tokens | Notes |'), /of [1-9]\d*$/);
  assert.match(await findInEditor('(your question goes here)'), /of [1-9]\d*$/);
  assert.deepEqual(await wb.errorNotifications(), []);
});
