// The Suggestions panel on the demo workspace in the light, the dark and the high-contrast default
// themes: each renders the real suggestions for applyDiscount, and in high contrast the focused item
// shows a solid outline in the theme's contrast colour. The pictures go to test-results/screenshots/,
// and to docs/images/ for the README when PC_UPDATE_README_IMAGES=1.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { REPO_ROOT, sleep } from '../harness/vscode-env.mjs';
import { closeAll, startWorkbench } from './fixture.mjs';

const FILE = 'src/pricing.ts';
const DOCS_IMAGES = path.join(REPO_ROOT, 'docs', 'images');
const THEMES = [
  {
    name: 'Default Light Modern',
    kind: 'light',
    workbenchClass: 'vs',
    webviewClass: 'vscode-light',
    image: 'panel-light.png',
  },
  {
    name: 'Default Dark Modern',
    kind: 'dark',
    workbenchClass: 'vs-dark',
    webviewClass: 'vscode-dark',
    image: 'panel-dark.png',
  },
  {
    name: 'Default High Contrast',
    kind: 'high-contrast',
    workbenchClass: 'hc-black',
    webviewClass: 'vscode-high-contrast',
    image: 'panel-high-contrast.png',
  },
];

let wb;

before(async () => {
  wb = await startWorkbench({
    name: 'screenshots',
    settings: { 'workbench.colorTheme': THEMES[0].name, 'workbench.secondarySideBar.defaultVisibility': 'hidden' },
  });
});

after(async () => {
  await wb?.close();
  await closeAll();
});

/** Relative luminance (0 dark … 1 light) of a CSS rgb()/rgba() colour. */
function luminance(css) {
  const [r, g, b] = (css.match(/[\d.]+/g) ?? ['0', '0', '0']).slice(0, 3).map((v) => Number(v) / 255);
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** Waits until the workbench chrome and the panel's page are both painted in the theme's colours. */
async function waitForTheme(theme, timeoutMs = 20_000) {
  await wb.page.locator(`.monaco-workbench.${theme.workbenchClass}`).waitFor({ state: 'attached', timeout: timeoutMs });
  const fits = (l) => (theme.kind === 'light' ? l > 0.6 : l < 0.3);
  const deadline = Date.now() + timeoutMs;
  let seen = {};
  while (Date.now() < deadline) {
    const sidebar = await wb.page.locator('.part.sidebar').evaluate((el) => getComputedStyle(el).backgroundColor);
    const panel = await wb
      .webviewBody()
      .evaluate((el) => ({
        classes: el.className,
        background: getComputedStyle(el).backgroundColor,
        color: getComputedStyle(el).color,
      }))
      .catch(() => ({}));
    seen = { sidebar, ...panel };
    if (
      fits(luminance(sidebar)) &&
      panel.classes?.split(/\s+/).includes(theme.webviewClass) &&
      fits(1 - luminance(panel.color))
    )
      return;
    await sleep(100);
  }
  assert.fail(`the workbench is not painted in ${theme.name}: ${JSON.stringify(seen)}`);
}

void test('the panel with the demo suggestions in the light, the dark and the high-contrast theme', async () => {
  await wb.quickOpen(FILE);
  await wb.goToLine(18);
  await wb.openContainer();
  await wb.waitForView('Proactive Context');
  const snap = await wb.waitForPanelItems({ file: FILE, symbol: 'applyDiscount' });
  const types = new Set(snap.items.map((i) => i.type));
  for (const t of ['decision', 'warning', 'change', 'related_code'])
    assert.ok(types.has(t), `no ${t} item to show in the screenshots`);
  // Keep the cursor line and the panel in the picture, without a toast over them.
  await wb.runCommand('Notifications: Clear All Notifications');
  await wb.goToLine(18);
  await wb.waitForPanelItems({ file: FILE, symbol: 'applyDiscount' });

  // A wider side bar keeps the item titles readable in the pictures: drag its edge to the right.
  const box = await wb.page.locator('.part.sidebar').boundingBox();
  await wb.page.mouse.move(box.x + box.width + 1, box.y + box.height / 2);
  await wb.page.mouse.down();
  await wb.page.mouse.move(box.x + box.width + 120, box.y + box.height / 2, { steps: 5 });
  await wb.page.mouse.up();

  // The README's copies change only when asked: PC_UPDATE_README_IMAGES=1 npm run test:e2e -- screenshots
  const updateReadme = process.env.PC_UPDATE_README_IMAGES === '1';
  if (updateReadme) fs.mkdirSync(DOCS_IMAGES, { recursive: true });
  for (const theme of THEMES) {
    // The theme picker is not what this tests (and lists High Contrast below the fold): set it directly.
    await wb.bridge('configure', { key: 'workbench.colorTheme', value: theme.name });
    await wb.goToLine(18);
    await waitForTheme(theme);
    const again = await wb.waitForPanelItems({ file: FILE, symbol: 'applyDiscount' });
    assert.ok(again.items.length >= 8, `only ${again.items.length} items drawn in the ${theme.kind} theme`);
    if (theme.kind === 'high-contrast') {
      // Keyboard focus on the first item: it must be seen without colour fills.
      const first = wb.panelItem(again.items[0].entityId);
      await first.focus();
      const ring = await first.evaluate((el) => ({
        focused: el === document.activeElement,
        style: getComputedStyle(el).outlineStyle,
        width: getComputedStyle(el).outlineWidth,
      }));
      assert.deepEqual(
        ring,
        { focused: true, style: 'solid', width: '2px' },
        'the focused item shows no solid outline in high contrast',
      );
    }
    // The picture after the webview has painted its new colours: two animation frames later.
    await wb
      .webviewBody()
      .evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
    const shot = await wb.screenshot(`panel-${theme.kind}`);
    const size = fs.statSync(shot).size;
    assert.ok(size > 20_000, `the ${theme.kind} screenshot is suspiciously small (${size} bytes)`);
    if (updateReadme) fs.copyFileSync(shot, path.join(DOCS_IMAGES, theme.image));
  }
});
