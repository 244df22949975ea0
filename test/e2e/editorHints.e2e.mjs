// Context where the eyes are, in the real workbench: the CodeLens over applyDiscount names ADR 0003
// and opens it, hovering its declaration shows the why-card, and the failing test of the demo's
// report is in the Problems view until the report passes. The picture of all three goes to
// test-results/screenshots/, and to docs/images/editor-hints.png when PC_UPDATE_README_IMAGES=1.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { REPO_ROOT } from '../harness/vscode-env.mjs';
import { closeAll, startWorkbench } from './fixture.mjs';

const FILE = 'src/pricing.ts';
const LENS = 'ADR 0003: Cap discounts at fifty percent';
const FAILING = 'Failing test “applyDiscount › caps stacked discounts at 50%”';

let wb;
let declaration;

before(async () => {
  wb = await startWorkbench({
    name: 'editor-hints',
    settings: { 'workbench.secondarySideBar.defaultVisibility': 'hidden' },
  });
  declaration =
    fs
      .readFileSync(path.join(wb.workspace, FILE), 'utf8')
      .split('\n')
      .findIndex((l) => l.includes('export function applyDiscount')) + 1;
});

after(async () => {
  await wb?.close();
  await closeAll();
});

const lens = () => wb.page.locator('.part.editor .codelens-decoration a', { hasText: LENS }).first();
const problem = () => wb.page.locator('.markers-panel .monaco-list-row', { hasText: FAILING }).first();

void test('the CodeLens over applyDiscount opens ADR 0003', async () => {
  await wb.openAt(FILE, declaration + 2, 5);
  await lens().waitFor({ state: 'visible', timeout: 90_000 });
  await lens().click();
  await wb.waitForActiveTab('0003-cap-discounts-at-fifty-percent.md');
});

void test('the failing test is in the Problems view, and hovering the declaration shows the why-card', async () => {
  await wb.openAt(FILE, declaration + 2, 5);
  await wb.waitForPanelState({
    file: FILE,
    symbol: 'applyDiscount',
    phase: 'ready',
    itemType: 'decision',
    itemTitle: 'Cap discounts at fifty percent',
  });
  await wb.executeCommand('workbench.actions.view.problems');
  await problem().waitFor({ state: 'visible', timeout: 60_000 });
  assert.match(await problem().innerText(), /reports\/junit\.xml, (just now|\d+ min ago)/);
  await wb.executeCommand('workbench.action.focusActiveEditorGroup');
  await lens().waitFor({ state: 'visible', timeout: 60_000 });
  const name = wb.page
    .locator('.part.editor .view-line', { hasText: 'export function applyDiscount' })
    .locator('span', { hasText: /^applyDiscount$/ })
    .first();
  const card = wb.page.locator('.monaco-hover', { hasText: 'is the way it is' }).first();
  for (let attempt = 1; !(await card.isVisible().catch(() => false)); attempt++) {
    // A hover opens when the pointer rests on a word; move onto it again if the first rest was missed.
    await name.hover({ position: { x: 5 + attempt, y: 5 } });
    await card.waitFor({ state: 'visible', timeout: 5_000 }).catch((err) => {
      if (attempt >= 5) throw err;
    });
  }
  const text = await card.innerText();
  assert.match(text, /Why applyDiscount is the way it is/);
  assert.match(text, /ADR 0003: Cap discounts at fifty percent/);
  assert.match(text, /Last change to these lines: Cap stacked discounts at 50% \(ADR-3\) — Ana Ruiz, \d+ days ago/);
  assert.match(text, /\d+ places? calls? applyDiscount/);
  const shot = await wb.screenshot('editor-hints');
  if (process.env.PC_UPDATE_README_IMAGES === '1')
    fs.copyFileSync(shot, path.join(REPO_ROOT, 'docs', 'images', 'editor-hints.png'));
});

void test('the failing test leaves the Problems view when the report is replaced by a passing one', async () => {
  await problem().waitFor({ state: 'visible', timeout: 30_000 });
  const report = path.join(wb.workspace, 'reports', 'junit.xml');
  const passing = fs
    .readFileSync(report, 'utf8')
    .replace(/<failure[\s\S]*?<\/failure>/, '')
    .replace(/failures="1"/g, 'failures="0"');
  fs.writeFileSync(report, passing);
  await problem().waitFor({ state: 'detached', timeout: 60_000 });
  assert.deepEqual(await wb.bridge('problems', { path: 'test/pricing.test.ts', source: 'Proactive Context' }), []);
});
