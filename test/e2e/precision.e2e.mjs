// The panel shows what helps someone about to edit the code and leaves out the noise, on a Next.js
// app built for it (test/e2e/precisionFixture.mjs): route a's POST gets its own commits and the
// record about it, not the test of route b's POST (another function of the same name), not the
// whole-tree reformat as its change, and not the broad records above the specific one; a style sheet,
// which the code index does not parse, gets the Stylelint record, its commits and the style sheet
// that changes with it. The panel's picture goes to test-results/screenshots/, and to
// docs/images/panel-precision.png when PC_UPDATE_README_IMAGES=1.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { REPO_ROOT, sleep } from '../harness/vscode-env.mjs';
import { closeAll, startWorkbench } from './fixture.mjs';
import { makePrecisionRepo } from './precisionFixture.mjs';

const ROUTE_A = 'app/api/a/route.ts';
const POST_LINE = 5;
const STYLE_SHEET = 'sass/_buttons.scss';
const BROAD = /Use React Framework|Unit Testing Framework|Feature Flags/;

let wb;
let workspace;

before(async () => {
  workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'pc-precision-'));
  makePrecisionRepo(workspace);
  wb = await startWorkbench({
    name: 'precision',
    workspace,
    settings: { 'workbench.secondarySideBar.defaultVisibility': 'hidden' },
  });
});

after(async () => {
  await wb?.close();
  await closeAll();
  if (workspace) fs.rmSync(workspace, { recursive: true, force: true });
});

/** Waits until the panel's snapshot passes `ok` (the enriched answer follows the first one); returns it. */
async function waitForSnapshot(ok, what, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  let snap;
  while (Date.now() < deadline) {
    snap = await wb.panelSnapshot().catch(() => undefined);
    if (snap && snap.phase === 'ready' && ok(snap)) return snap;
    await sleep(100);
  }
  throw new Error(`the panel never showed ${what}; last: ${JSON.stringify(snap)}`);
}

const ofType = (snap, type) => snap.items.filter((i) => i.type === type);
const titles = (snap, type) => ofType(snap, type).map((i) => i.title);

void test('route a’s POST: its own commits and its record, without another route’s test or the reformat', async () => {
  await wb.quickOpen(ROUTE_A);
  await wb.goToLine(POST_LINE);
  await wb.openContainer();
  await wb.waitForView('Proactive Context');
  await wb.waitForPanelItems({ file: ROUTE_A, symbol: 'POST' });
  // The commits of POST's lines come with the enriched answer; the oldest is outside the recent window.
  const snap = await waitForSnapshot(
    (s) => s.symbol === 'POST' && titles(s, 'change').includes('Refuse empty orders'),
    "POST's line history",
  );

  assert.deepEqual(
    titles(snap, 'change'),
    ['Give orders random ids', 'Refuse orders with a negative total', 'Refuse empty orders'],
    'the three commits that changed POST, newest first, and not the reformat of the whole tree',
  );
  const decisions = titles(snap, 'decision');
  assert.equal(decisions[0], 'ADR 0004: Validate orders where they arrive', JSON.stringify(decisions));
  // b's test imports b's POST: no call there is a call of this POST.
  const callers = ofType(snap, 'related_code');
  assert.ok(
    !callers.some((i) => /b\.test\.ts/.test(`${i.title} ${i.tooltip}`)),
    `a call of route b's POST shown as a caller: ${JSON.stringify(callers)}`,
  );

  // Broad records are never above the specific one; where one shows, it is in the group of
  // repository-wide decisions below it.
  const misplaced = await wb.webviewBody().evaluate((body, broad) => {
    const rows = [...body.querySelectorAll('.item[data-type="decision"]')];
    const specific = rows.findIndex((r) => /ADR 0004/.test(r.textContent ?? ''));
    return rows
      .map((r, i) => ({ i, text: r.querySelector('.item-title')?.textContent ?? '', group: r.closest('.group') }))
      .filter((r) => new RegExp(broad).test(r.text))
      .filter(
        (r) => r.i < specific || !/repository-wide/i.test(r.group?.querySelector('.group-title')?.textContent ?? ''),
      )
      .map((r) => r.text);
  }, BROAD.source);
  assert.deepEqual(misplaced, [], 'broad records shown as if they governed POST');

  // Every recent change says its age once: in the age column, not again in its reason.
  const rows = await wb
    .webviewBody()
    .evaluate((body) =>
      [...body.querySelectorAll('.item[data-type="change"]')].map(
        (r) => r.querySelector('.item-detail')?.textContent ?? '',
      ),
    );
  for (const row of rows) assert.equal(row.match(/ ago\b/g)?.length, 1, `the age said more than once: ${row}`);

  await wb.runCommand('Notifications: Clear All Notifications');
  await wb.goToLine(POST_LINE);
  await wb.waitForPanelItems({ file: ROUTE_A, symbol: 'POST' });
  // A wider side bar keeps the rows readable in the picture: drag its edge to the right.
  const box = await wb.page.locator('.part.sidebar').boundingBox();
  await wb.page.mouse.move(box.x + box.width + 1, box.y + box.height / 2);
  await wb.page.mouse.down();
  await wb.page.mouse.move(box.x + box.width + 120, box.y + box.height / 2, { steps: 5 });
  await wb.page.mouse.up();
  await waitForSnapshot((s) => titles(s, 'change').includes('Refuse empty orders'), 'the same items after the resize');
  await wb
    .webviewBody()
    .evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
  const shot = await wb.screenshot('route-a-post');
  // The README's copy changes only when asked: PC_UPDATE_README_IMAGES=1 npm run test:e2e -- precision
  if (process.env.PC_UPDATE_README_IMAGES === '1') {
    fs.mkdirSync(path.join(REPO_ROOT, 'docs', 'images'), { recursive: true });
    fs.copyFileSync(shot, path.join(REPO_ROOT, 'docs', 'images', 'panel-precision.png'));
  }
});

void test('a style sheet gets the Stylelint record, its commits and the style sheet that changes with it', async () => {
  await wb.quickOpen(STYLE_SHEET);
  await wb.openContainer();
  const snap = await waitForSnapshot(
    (s) => s.file === STYLE_SHEET && ofType(s, 'decision').length > 0 && ofType(s, 'cochange').length > 0,
    `the items of ${STYLE_SHEET}`,
  );
  assert.deepEqual(titles(snap, 'decision'), ['ADR 0005: Lint style sheets with Stylelint']);
  assert.deepEqual(titles(snap, 'change').slice(0, 2), ['Space out the buttons', 'Darken the buttons']);
  assert.ok(
    ofType(snap, 'cochange').some((i) => i.entityId === 'cochange:sass/_theme.scss'),
    `no _theme.scss among ${JSON.stringify(titles(snap, 'cochange'))}`,
  );
  await wb.screenshot('style-sheet');
  assert.deepEqual(await wb.errorNotifications(), []);
});
