// `npm start` lands on the point: the demo opens on src/pricing.ts with the cursor on applyDiscount,
// no Welcome page, and the Suggestions view already showing the decision that governs it. The
// picture goes to test-results/screenshots/, and to docs/images/first-screen.png for the README when
// PC_UPDATE_README_IMAGES=1.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import {
  REPO_ROOT,
  RESULTS_DIR,
  launchChromium,
  freePort,
  makeRunDir,
  spawnGroup,
  stopGroup,
} from '../harness/vscode-env.mjs';
import { Workbench, closeAll } from './fixture.mjs';

const FILE = 'src/pricing.ts';
const DOCS_IMAGES = path.join(REPO_ROOT, 'docs', 'images');

let start;
let wb;

/** Resolves with the URL `npm start` prints once code-server answers. */
function printedUrl(proc, timeoutMs = 180_000) {
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(
      () => reject(new Error(`npm start printed no URL within ${timeoutMs / 1000} s:\n${out.slice(-2000)}`)),
      timeoutMs,
    );
    const onData = (chunk) => {
      out += chunk.toString();
      const m = /running in VS Code: (\S+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    };
    proc.child.stdout.on('data', onData);
    proc.child.stderr.on('data', onData);
    void proc.exited.then(({ code }) =>
      reject(new Error(`npm start exited (code ${code}) before printing a URL:\n${out.slice(-2000)}`)),
    );
  });
}

before(async () => {
  const run = makeRunDir('start-e2e');
  const port = await freePort();
  const logsDir = path.join(RESULTS_DIR, 'logs');
  fs.mkdirSync(logsDir, { recursive: true });
  // Exactly what `npm start` runs, on a fresh profile of its own instead of the persistent one.
  start = spawnGroup(
    process.execPath,
    [
      path.join(REPO_ROOT, 'test', 'harness', 'run-vscode.mjs'),
      '--no-build',
      '--port',
      String(port),
      '--profile',
      run.path('profile'),
    ],
    {
      env: run.env,
      cwd: REPO_ROOT,
      logFile: path.join(logsDir, 'e2e-start-npm-start.log'),
      prefix: 'npm-start',
    },
  );
  const url = await printedUrl(start);
  const browser = await launchChromium(run);
  await browser.page.goto(url);
  wb = new Workbench({
    page: browser.page,
    run,
    server: start,
    workspace: run.path('profile', 'demo'),
    url,
    name: 'start',
  });
  wb.closeHooks.push(async () => {
    await browser.close();
    await stopGroup(start.pid);
    run.remove();
  });
  await wb.waitReady();
});

after(async () => {
  await wb?.close();
  await closeAll();
});

void test('the first screen is the demo file at applyDiscount with the panel showing its decision', async () => {
  await wb.waitForActiveTab('pricing.ts', 60_000);
  const source = fs.readFileSync(path.join(wb.workspace, FILE), 'utf8').split('\n');
  const line = source.findIndex((l) => l.includes('export function applyDiscount')) + 1;
  await wb.waitForStatusBarLine(line, 30_000);
  const tabs = await wb.page.locator('.part.editor .tab').allInnerTexts();
  assert.ok(!tabs.some((t) => /Welcome/i.test(t)), `a Welcome page is open: ${JSON.stringify(tabs)}`);
  await wb.waitForView('Proactive Context', 60_000);
  const snap = await wb.waitForPanelItems({ file: FILE, symbol: 'applyDiscount', timeoutMs: 120_000 });
  const decision = snap.items.find((i) => i.type === 'decision' && /Cap discounts at fifty percent/.test(i.title));
  assert.ok(decision, `the panel lists no ADR 0003: ${JSON.stringify(snap.items.map((i) => i.title))}`);
  // The keyboard stays in the editor: the cursor is where the user starts typing.
  assert.equal(
    await wb.page.evaluate(() => !!document.activeElement?.closest('.part.editor')),
    true,
    'the editor does not have the keyboard',
  );
  // The lens over applyDiscount is part of the picture.
  await wb.page
    .locator('.part.editor .codelens-decoration', { hasText: 'ADR 0003: Cap discounts at fifty percent' })
    .first()
    .waitFor({ state: 'visible', timeout: 60_000 });
  const shot = await wb.screenshot('first-screen');
  assert.ok(fs.statSync(shot).size > 20_000, 'the first-screen picture is suspiciously small');
  if (process.env.PC_UPDATE_README_IMAGES === '1') {
    fs.mkdirSync(DOCS_IMAGES, { recursive: true });
    fs.copyFileSync(shot, path.join(DOCS_IMAGES, 'first-screen.png'));
  }
});
