// The user pins a suggestion to chat and subscribes the chat to the current file from the palette:
// both subscriptions are listed (in the palette's quick pick and by the CLI on the extension's state
// folder), "Unsubscribe…" removes the one picked, and subscriptions survive a window reload.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { after, before, test } from 'node:test';
import { sleep } from '../harness/vscode-env.mjs';
import { closeAll, startWorkbench } from './fixture.mjs';

const FILE = 'src/pricing.ts';
const ADR_PATH = 'docs/adr/0003-cap-discounts-at-fifty-percent.md';

let wb;

before(async () => {
  wb = await startWorkbench({ name: 'subscriptions' });
});

after(async () => {
  await wb?.close();
  await closeAll();
});

const stateDir = () => wb.stateDir();
const cliSubscriptions = () => wb.cliSubscriptions();

/** Polls the CLI until `check(subscriptions)` holds (the extension saves its data shortly after a change). */
async function waitForCli(check, what, timeoutMs = 10_000) {
  const deadline = Date.now() + timeoutMs;
  let subs = [];
  while (Date.now() < deadline) {
    subs = cliSubscriptions();
    if (check(subs)) return subs;
    await sleep(250);
  }
  throw new Error(`the CLI never listed ${what}; it lists ${JSON.stringify(subs.map((s) => s.target))}`);
}

/** Rows of "Proactive Context: List Subscriptions" (closes the quick pick again). */
async function listedInPalette() {
  await wb.runCommand('Proactive Context: List Subscriptions', { awaitClose: false });
  const rows = await wb.quickPickRows('Active subscriptions');
  await wb.closeQuickPick();
  return rows;
}

void test('pin to chat on a suggestion creates a subscription', async () => {
  await wb.quickOpen(FILE);
  await wb.goToLine(18);
  await wb.openContainer();
  await wb.waitForView('Proactive Context');
  const snap = await wb.waitForPanelItems({ file: FILE, symbol: 'applyDiscount' });
  const decision = snap.items.find((i) => i.type === 'decision' && /0003|fifty percent/i.test(i.title));
  assert.ok(decision, `no ADR 0003 decision among ${JSON.stringify(snap.items.map((i) => i.title))}`);

  assert.ok(fs.existsSync(stateDir()), `the extension's state folder ${stateDir()} does not exist`);
  assert.ok(!cliSubscriptions().some((s) => s.path === ADR_PATH), 'the ADR is subscribed before pinning');

  const row = wb.panelItem(decision.entityId);
  const pin = row.locator('button[data-action="pin"]');
  await row.hover();
  assert.equal(await pin.getAttribute('aria-pressed'), 'false');
  await pin.click();
  await wb.waitForNotification(`Subscribed to ${ADR_PATH}`);
  await row.locator('button[data-action="pin"][aria-pressed="true"]').waitFor({ state: 'attached', timeout: 5_000 });

  const subs = await waitForCli((s) => s.some((x) => x.kind === 'file' && x.path === ADR_PATH), ADR_PATH);
  assert.equal(subs.filter((s) => s.path === ADR_PATH).length, 1);
  const rows = await listedInPalette();
  assert.ok(
    rows.some((r) => r.includes(ADR_PATH)),
    `List Subscriptions does not show ${ADR_PATH}: ${JSON.stringify(rows)}`,
  );
});

void test('Subscribe Chat to Current File, then Unsubscribe… removes it', async () => {
  await wb.quickOpen(FILE);
  await wb.runCommand('Proactive Context: Subscribe Chat to Current File');
  await wb.waitForNotification(`Subscribed to ${FILE}`);
  let rows = await listedInPalette();
  assert.ok(
    rows.some((r) => r.startsWith(FILE)),
    `List Subscriptions does not show ${FILE}: ${JSON.stringify(rows)}`,
  );
  const subscribed = await waitForCli((s) => s.some((x) => x.kind === 'file' && x.path === FILE), FILE);
  const id = subscribed.find((s) => s.path === FILE).id;

  await wb.runCommand('Proactive Context: Unsubscribe…', { awaitClose: false });
  await wb.quickPickRows('Unsubscribe');
  const widget = wb.page.locator('.quick-input-widget');
  const row = widget.locator('.monaco-list-row', { hasText: id });
  await row.locator('.quick-input-list-checkbox, input[type="checkbox"], .monaco-custom-toggle').first().click();
  await widget
    .locator('.monaco-list-row[aria-checked="true"]', { hasText: id })
    .waitFor({ state: 'attached', timeout: 5_000 });
  const ok = widget.locator('.quick-input-action .monaco-button, .quick-input-ok .monaco-button', { hasText: 'OK' });
  if (await ok.isVisible().catch(() => false)) await ok.click();
  else await wb.page.keyboard.press('Enter');
  await widget.waitFor({ state: 'hidden', timeout: 10_000 });
  await wb.waitForNotification('Removed 1 subscription');

  await waitForCli((s) => !s.some((x) => x.path === FILE), `no ${FILE}`);
  rows = await listedInPalette();
  assert.ok(!rows.some((r) => r.startsWith(FILE)), `List Subscriptions still shows ${FILE}: ${JSON.stringify(rows)}`);
  assert.ok(
    rows.some((r) => r.includes(ADR_PATH)),
    `unsubscribing ${FILE} also removed the pinned ADR: ${JSON.stringify(rows)}`,
  );
  assert.deepEqual(await wb.errorNotifications(), []);
});

void test('a subscription survives a restart of the extension host', async () => {
  await wb.quickOpen('src/money.ts');
  await wb.runCommand('Proactive Context: Subscribe Chat to Current File');
  await wb.waitForNotification('Subscribed to src/money.ts');
  // Developer: Reload Window restarts the workbench and the extension host. The test bridge writes
  // its address again when the new extension host has started: forget the old one first.
  fs.rmSync(wb.bridgeFile, { force: true });
  const reloaded = wb.page.waitForEvent('framenavigated', {
    predicate: (f) => f === wb.page.mainFrame(),
    timeout: 30_000,
  });
  await wb.runCommand('Developer: Reload Window').catch(() => {
    // The palette may vanish with the page before its input is seen hidden.
  });
  await reloaded;
  await wb.waitReady();
  // The new extension host is up and Proactive Context active (the bridge activates it): only then
  // does the palette know its commands, however long a busy machine takes to get there.
  await wb.bridge('api', { method: 'panelState' }, { timeoutMs: 120_000 });
  const rows = await listedInPalette();
  assert.ok(
    rows.some((r) => r.startsWith('src/money.ts')),
    `after the restart List Subscriptions does not show src/money.ts: ${JSON.stringify(rows)}`,
  );
  assert.ok(cliSubscriptions().some((s) => s.path === 'src/money.ts'));
});
