// The user opens src/pricing.ts, puts the cursor in applyDiscount and the Suggestions panel shows the
// decision, recent changes, callers and the failing test for it; moving the cursor updates the panel
// within a second (the latency is measured and written to test-results/e2e-latency.json); clicking an
// item opens the place it is about.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { RESULTS_DIR } from '../harness/vscode-env.mjs';
import { closeAll, log, startWorkbench } from './fixture.mjs';

const FILE = 'src/pricing.ts';
const APPLY_DISCOUNT = { symbol: 'applyDiscount', line: 18 };
const SUBTOTAL = { symbol: 'subtotal', line: 13 };
const ADR_FILE = '0003-cap-discounts-at-fifty-percent.md';
const MOVES = 10;
const BAR_MS = 1000;
const TARGET_MS = 150;

let wb;

before(async () => {
  wb = await startWorkbench({ name: 'suggestions' });
});

after(async () => {
  await wb?.close();
  await closeAll();
});

/** Opens pricing.ts at `at.line` with the container open and waits for the panel to show its items. */
async function showPricingAt(at) {
  await wb.quickOpen(FILE);
  await wb.goToLine(at.line);
  await wb.openContainer();
  await wb.waitForView('Proactive Context');
  return wb.waitForPanelItems({ file: FILE, symbol: at.symbol });
}

void test('the panel shows a decision, a recent change, a caller and the failing test for applyDiscount', async () => {
  const snap = await showPricingAt(APPLY_DISCOUNT);
  await wb.screenshot('applyDiscount');
  const byType = (type) => snap.items.filter((i) => i.type === type);
  const titles = (type) => byType(type).map((i) => i.title);

  assert.ok(
    byType('decision').some((i) => /0003|Cap discounts at fifty percent/i.test(i.title)),
    `no ADR 0003 decision among ${JSON.stringify(titles('decision'))}`,
  );
  const changes = byType('change');
  assert.ok(changes.length > 0, 'no recent change shown');
  assert.ok(
    changes.some((i) => /@ [0-9a-f]{7,}/.test(i.tooltip) && /Cap stacked discounts at 50%/.test(i.title)),
    `no commit "Cap stacked discounts at 50%" with its hash among ${JSON.stringify(changes.map((c) => [c.title, c.tooltip]))}`,
  );
  assert.ok(
    byType('related_code').some((i) =>
      /src\/(cart|checkout)\.ts|test\/pricing\.test\.ts/.test(`${i.title} ${i.tooltip}`),
    ),
    `no caller of applyDiscount among ${JSON.stringify(titles('related_code'))}`,
  );
  assert.ok(
    titles('warning').includes('Failing test: applyDiscount › caps stacked discounts at 50%'),
    `no failing-test warning among ${JSON.stringify(titles('warning'))}`,
  );
  // toCents is used in legacyTotalCents, another function of the file: not applyDiscount's concern.
  assert.ok(
    !titles('warning').some((t) => /toCents/.test(t)),
    `a deprecated use in another function among ${JSON.stringify(titles('warning'))}`,
  );
  assert.deepEqual(await wb.errorNotifications(), []);
});

void test('moving the cursor between two functions updates the panel within a second', async () => {
  await showPricingAt(APPLY_DISCOUNT);
  const frame = await wb.panelFrame();
  // Record when the Enter of Go to Line goes down, in the workbench page.
  await wb.page.evaluate(() => {
    window.addEventListener(
      'keydown',
      (e) => {
        if (e.key === 'Enter') window.__pcEnterAt = Date.now();
      },
      true,
    );
  });
  await wb.focusEditor();

  const samples = [];
  for (let i = 0; i < MOVES; i++) {
    const to = i % 2 === 0 ? SUBTOTAL : APPLY_DISCOUNT;
    // Inside the panel: note the first moment the page shows the destination's items.
    await frame.evaluate((symbol) => {
      const shows = () =>
        document.body.dataset.phase === 'ready' &&
        Number(document.body.dataset.itemCount ?? 0) > 0 &&
        document.querySelector('.header-symbol .header-name')?.textContent === symbol &&
        document.querySelectorAll('.item').length > 0;
      window.__pcShownAt = undefined;
      window.__pcObserver?.disconnect();
      window.__pcObserver = new MutationObserver(() => {
        if (window.__pcShownAt === undefined && shows()) window.__pcShownAt = Date.now();
      });
      window.__pcObserver.observe(document.body, {
        attributes: true,
        childList: true,
        subtree: true,
        characterData: true,
      });
      window.__pcAlreadyShown = shows();
    }, to.symbol);
    assert.equal(
      await frame.evaluate(() => window.__pcAlreadyShown),
      false,
      `the panel already showed ${to.symbol} before the cursor moved`,
    );

    let early = false;
    await wb.goToLine(to.line, {
      beforeEnter: async () => {
        await wb.page.evaluate(() => {
          window.__pcEnterAt = undefined;
        });
        early = await frame.evaluate(() => window.__pcShownAt !== undefined);
      },
    });
    assert.equal(
      early,
      false,
      `the panel switched to ${to.symbol} before Enter was pressed (Go to Line moved the cursor early)`,
    );
    const handle = await frame.waitForFunction(
      (symbol) =>
        document.body.dataset.phase === 'ready' &&
        Number(document.body.dataset.itemCount ?? 0) > 0 &&
        document.querySelector('.header-symbol .header-name')?.textContent === symbol
          ? Date.now()
          : false,
      to.symbol,
      { polling: 10, timeout: 10_000 },
    );
    const polledAt = await handle.jsonValue();
    const shownAt = (await frame.evaluate(() => window.__pcShownAt)) ?? polledAt;
    const enterAt = await wb.page.evaluate(() => window.__pcEnterAt);
    assert.ok(typeof enterAt === 'number', 'the Enter key press was not seen by the workbench');
    const ms = Math.min(shownAt, polledAt) - enterAt;
    samples.push({ to: to.symbol, line: to.line, ms });
    log(`cursor to ${to.symbol} (line ${to.line}): panel updated after ${ms} ms`);
    await wb.waitForStatusBarLine(to.line);
  }

  const sorted = samples.map((s) => s.ms).sort((a, b) => a - b);
  const pct = (p) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
  const p50 = pct(50);
  const p95 = pct(95);
  process.stdout.write(
    `cursor-to-panel ms: p50=${p50} p95=${p95} (n=${sorted.length}, min=${sorted[0]}, max=${sorted.at(-1)}, design target <= ${TARGET_MS})\n`,
  );
  fs.mkdirSync(RESULTS_DIR, { recursive: true });
  fs.writeFileSync(
    path.join(RESULTS_DIR, 'e2e-latency.json'),
    `${JSON.stringify(
      {
        measure: 'cursor-to-panel',
        description:
          'Go to Line Enter pressed in the workbench until the Suggestions webview shows the items of the new function',
        file: FILE,
        unit: 'ms',
        p50,
        p95,
        min: sorted[0],
        max: sorted.at(-1),
        barMs: BAR_MS,
        designTargetMs: TARGET_MS,
        samples,
        measuredAt: new Date().toISOString(),
      },
      null,
      2,
    )}\n`,
  );
  assert.ok(
    sorted.at(-1) < BAR_MS,
    `the panel took ${sorted.at(-1)} ms after the cursor stopped (bar: under ${BAR_MS} ms); samples ${sorted.join(', ')}`,
  );
});

void test('clicking the decision opens the ADR', async () => {
  const snap = await showPricingAt(APPLY_DISCOUNT);
  const decision = snap.items.find((i) => i.type === 'decision' && /0003|fifty percent/i.test(i.title));
  assert.ok(decision, 'no ADR 0003 decision to click');
  await wb.panelItem(decision.entityId).locator('.item-title').click();
  const title = await wb.waitForActiveTab(ADR_FILE);
  assert.ok(title.startsWith(ADR_FILE), `active tab: ${title}`);
});

void test('clicking a caller opens cart.ts or checkout.ts at the calling line', async () => {
  let snap = await showPricingAt(APPLY_DISCOUNT);
  const isCaller = (i) => i.type === 'related_code' && /src\/(cart|checkout)\.ts:\d+/.test(i.tooltip);
  if (!snap.items.some(isCaller)) {
    // Only the first few callers show; open the rest of the group.
    await wb.webviewBody().locator('.more[data-more="related_code"]').click();
    snap = await wb.waitForPanelItems({ file: FILE, symbol: APPLY_DISCOUNT.symbol });
    snap = await wb.panelSnapshot();
  }
  const caller = snap.items.find(isCaller);
  assert.ok(
    caller,
    `no caller in cart.ts or checkout.ts among ${JSON.stringify(snap.items.filter((i) => i.type === 'related_code'))}`,
  );
  const [, file, line] = /src\/((?:cart|checkout)\.ts):(\d+)/.exec(caller.tooltip);
  await wb.panelItem(caller.entityId).locator('.item-title').click();
  assert.ok((await wb.waitForActiveTab(file)).startsWith(file));
  await wb.waitForStatusBarLine(Number(line));
  const source = fs.readFileSync(path.join(wb.workspace, 'src', file), 'utf8').split('\n');
  assert.match(source[Number(line) - 1], /applyDiscount\(/, `line ${line} of ${file} does not call applyDiscount`);
});

void test('clicking a recent change opens its diff', async () => {
  const snap = await showPricingAt(APPLY_DISCOUNT);
  const change = snap.items.find((i) => i.type === 'change' && /Cap stacked discounts at 50%/.test(i.title));
  assert.ok(
    change,
    `no "Cap stacked discounts at 50%" change among ${JSON.stringify(snap.items.filter((i) => i.type === 'change').map((i) => i.title))}`,
  );
  const hash = /@ ([0-9a-f]{7,})/.exec(change.tooltip)?.[1];
  assert.ok(hash, `the change shows no commit hash: ${change.tooltip}`);
  await wb.panelItem(change.entityId).locator('.item-title').click();
  const title = await wb.waitForActiveTab(hash.slice(0, 7));
  assert.match(title, /pricing\.ts/);
  await wb.page
    .locator('.part.editor .editor-group-container.active .monaco-diff-editor')
    .first()
    .waitFor({ state: 'visible', timeout: 10_000 });
  await wb.screenshot('change-diff');
});
