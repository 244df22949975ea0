// The palette's input-box flows, typed as a user types them: a pattern subscription (a bad regex is
// refused in the box), a memory search subscription, and Record a Decision… writing an ADR in the
// repository's own format. Results are checked where the user and other tools see them.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { closeAll, startWorkbench } from './fixture.mjs';

const FILE = 'src/pricing.ts';

let wb;

before(async () => {
  wb = await startWorkbench({ name: 'input-boxes' });
});

after(async () => {
  await wb?.close();
  await closeAll();
});

const input = () => wb.page.locator('.quick-input-widget .quick-input-box input');

/** Waits for the input box titled `title`, types `text` and presses Enter. */
async function answer(title, text) {
  await wb.page
    .locator('.quick-input-widget .quick-input-title', { hasText: title })
    .waitFor({ state: 'visible', timeout: 15_000 });
  await input().fill(text);
  await wb.page.keyboard.press('Enter');
}

async function listed() {
  await wb.runCommand('Proactive Context: List Subscriptions', { awaitClose: false });
  const rows = await wb.quickPickRows('Active subscriptions');
  await wb.closeQuickPick();
  return rows;
}

void test('Subscribe Chat to Lines Matching a Pattern… refuses a bad regex in the box, then subscribes', async () => {
  await wb.openAt(FILE, 18, 5);
  await wb.runCommand('Proactive Context: Subscribe Chat to Lines Matching a Pattern…', { awaitClose: false });
  await wb.page
    .locator('.quick-input-widget .quick-input-title', { hasText: `Lines of ${FILE} matching` })
    .waitFor({ state: 'visible', timeout: 15_000 });
  await input().fill('discount(');
  await wb.page
    .locator('.quick-input-widget .quick-input-message', { hasText: 'Invalid regular expression /discount(/' })
    .waitFor({ state: 'visible', timeout: 10_000 });
  await wb.page.keyboard.press('Enter');
  assert.equal(await input().isVisible(), true, 'the box closed on an invalid regular expression');
  await answer(`Lines of ${FILE} matching`, 'discount|capped');
  await wb.waitForNotification(`Subscribed to ${FILE} lines matching /discount|capped/`);
  const rows = await listed();
  assert.ok(
    rows.some((r) => r.includes(`${FILE} lines matching /discount|capped/`)),
    JSON.stringify(rows),
  );
  assert.ok(
    wb.cliSubscriptions().some((s) => s.kind === 'pattern' && s.path === FILE && s.pattern === 'discount|capped'),
  );
});

void test('Subscribe Chat to a Memory Search… subscribes to the search typed', async () => {
  await wb.runCommand('Proactive Context: Subscribe Chat to a Memory Search…', { awaitClose: false });
  await answer('Subscribe chat to a memory search', 'money type for amounts');
  await wb.waitForNotification('Subscribed to memory search “money type for amounts”');
  const rows = await listed();
  assert.ok(
    rows.some((r) => r.includes('memory search “money type for amounts”')),
    JSON.stringify(rows),
  );
  assert.ok(wb.cliSubscriptions().some((s) => s.kind === 'memory' && s.target === 'money type for amounts'));
});

void test('Record a Decision… writes the next ADR in the repository’s own format and opens it', async () => {
  const folder = path.join(wb.workspace, 'docs', 'adr');
  const before = fs.readdirSync(folder);
  await wb.runCommand('Proactive Context: Record a Decision…', { awaitClose: false });
  await answer('Record a decision (1/3)', 'Format money with Intl');
  await answer('Record a decision (2/3)', 'Receipts print amounts by hand and get the currency symbol wrong.');
  await answer('Record a decision (3/3)', 'Format every amount with Intl.NumberFormat in src/money.ts.');
  await wb.waitForActiveTab('0005-format-money-with-intl.md');
  const added = fs.readdirSync(folder).filter((f) => !before.includes(f));
  assert.deepEqual(added, ['0005-format-money-with-intl.md']);
  const text = fs.readFileSync(path.join(folder, added[0]), 'utf8');
  // The newest record (0004) is MADR with front matter: the new one follows it.
  assert.match(text, /^---\nstatus: accepted\ndate: \d{4}-\d{2}-\d{2}\n---\n\n# Format money with Intl\n/);
  assert.match(
    text,
    /## Context and Problem Statement\n\nReceipts print amounts by hand and get the currency symbol wrong\.\n/,
  );
  assert.match(text, /## Decision Outcome\n\nFormat every amount with Intl\.NumberFormat in src\/money\.ts\.\n/);
  await wb.waitForNotification('Recorded docs/adr/0005-format-money-with-intl.md');
});
