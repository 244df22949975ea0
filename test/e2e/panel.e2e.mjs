// The user opens the Proactive Context activity-bar container, sees the Suggestions panel render,
// and refreshes it from the command palette without any error.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { closeAll, manifest, startWorkbench } from './fixture.mjs';

let wb;

before(async () => {
  wb = await startWorkbench({ name: 'panel' });
});

after(async () => {
  await wb?.close();
  await closeAll();
});

void test('the Proactive Context container shows the Suggestions webview with content', async () => {
  await wb.screenshot('workbench');
  await wb.openContainer('Proactive Context');
  await wb.waitForView('Proactive Context');
  // The only view of the container shares its name, so the side bar's title says it once, in full,
  // instead of "Proactive Context: Sugge…".
  const title = wb.page.locator('.part.sidebar .composite.title h2').first();
  assert.equal((await title.innerText()).trim().toLowerCase(), 'proactive context');
  const cut = await title.evaluate((h2) => h2.scrollWidth > h2.clientWidth);
  assert.equal(cut, false, 'the side bar title is cut off');
  const text = await wb.webviewText();
  assert.ok(text.length > 0, 'the panel rendered no text');
  await wb.screenshot('panel');
});

void test('"Proactive Context: Refresh" runs from the command palette without an error', async () => {
  const refresh = (manifest.contributes?.commands ?? []).find((c) => c.command === 'proactiveContext.refresh');
  assert.ok(refresh, 'package.json declares no proactiveContext.refresh command');
  assert.match(`${refresh.category}: ${refresh.title}`, /^Proactive Context: Refresh/);
  await wb.runCommand('Proactive Context: Refresh');
  // The same command run through the extension host settles when the refresh does (rejecting if it
  // fails): by then any error of the palette's run is on screen too.
  await wb.bridge('command', { command: 'proactiveContext.refresh' });
  await wb.screenshot('after-refresh');
  const errors = await wb.errorNotifications();
  assert.deepEqual(errors, [], `error notifications after Refresh: ${errors.map((e) => e.message).join(' | ')}`);
});
