// Restricted Mode: with Workspace Trust on and the demo folder not trusted, the panel shows the
// decision that governs applyDiscount and says why history is off, and no git process starts in the
// workspace (a logging `git` first on code-server's PATH counts every call). Trusting the folder in
// the Workspace Trust editor brings recent changes without a reload.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { makeRunDir } from '../harness/vscode-env.mjs';
import { closeAll, startWorkbench } from './fixture.mjs';

const FILE = 'src/pricing.ts';
const NOTE = /Restricted Mode: history and co-change are off until you trust this folder/;

let wb;
let gitLog;

/** A `git` that appends its working folder and arguments to a log, then runs the real git. */
function loggingGit() {
  const run = makeRunDir('restricted-git');
  const real = spawnSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).stdout.trim();
  assert.ok(real, 'git is not on PATH');
  const bin = run.path('bin');
  fs.mkdirSync(bin, { recursive: true });
  const log = run.path('git-calls.log');
  fs.writeFileSync(
    path.join(bin, 'git'),
    `#!/bin/sh\nprintf '%s\\t%s\\n' "$(pwd -P)" "$*" >> '${log}'\nexec '${real}' "$@"\n`,
    { mode: 0o755 },
  );
  return { bin, log, run };
}

/** The logged git calls made from inside the workspace. */
function callsInWorkspace() {
  if (!fs.existsSync(gitLog)) return [];
  const root = fs.realpathSync(wb.workspace);
  return fs
    .readFileSync(gitLog, 'utf8')
    .split('\n')
    .filter((l) => l === root || l.startsWith(`${root}/`) || l.startsWith(`${root}\t`));
}

before(async () => {
  const spy = loggingGit();
  gitLog = spy.log;
  wb = await startWorkbench({ name: 'restricted', restricted: true, pathPrepend: [spy.bin] });
  wb.closeHooks.unshift(() => spy.run.remove());
});

after(async () => {
  await wb?.close();
  await closeAll();
});

void test('in Restricted Mode the panel shows decisions, says why history is off, and no git process starts', async () => {
  assert.deepEqual(
    await wb.bridge('trust'),
    { trusted: false },
    'the folder opened trusted: the scenario needs Restricted Mode',
  );
  await wb.openContainer();
  await wb.waitForView('Proactive Context');
  const line =
    fs
      .readFileSync(path.join(wb.workspace, FILE), 'utf8')
      .split('\n')
      .findIndex((l) => l.includes('export function applyDiscount')) + 1;
  await wb.openAt(FILE, line);
  // The symbol comes from the code index and the decision from the records found: both listed the
  // workspace (by walking it, since git may not run).
  const state = await wb.waitForPanelState({
    file: FILE,
    symbol: 'applyDiscount',
    itemType: 'decision',
    itemTitle: 'Cap discounts at fifty percent',
    timeoutMs: 120_000,
  });
  assert.equal(state.items.filter((i) => i.type === 'change' || i.type === 'cochange').length, 0);
  const notes = [...(state.notes ?? []), ...(state.sectionNotes ?? []).map((n) => n.text)];
  assert.ok(
    notes.some((n) => NOTE.test(n)),
    `no Restricted Mode note: ${JSON.stringify(notes)}`,
  );
  const text = await wb.webviewText();
  assert.match(text, NOTE);
  await wb.screenshot('restricted');
  assert.deepEqual(callsInWorkspace(), [], 'git ran in the untrusted workspace');
});

void test('trusting the folder brings recent changes without a reload', async () => {
  // A restarted extension host would start a new bridge, which writes a new port and token.
  const bridgeBefore = fs.readFileSync(wb.bridgeFile, 'utf8');
  await wb.executeCommand('workbench.trust.manage');
  const trust = wb.page.locator('.workspace-trust-editor .monaco-button', { hasText: /^Trust$/ }).first();
  await trust.waitFor({ state: 'visible', timeout: 30_000 });
  await wb.screenshot('trust-editor');
  await trust.click();
  assert.deepEqual(await wb.bridge('trust', { wait: true, timeoutMs: 30_000 }, { timeoutMs: 35_000 }), {
    trusted: true,
  });
  const line =
    fs
      .readFileSync(path.join(wb.workspace, FILE), 'utf8')
      .split('\n')
      .findIndex((l) => l.includes('export function applyDiscount')) + 1;
  await wb.openAt(FILE, line);
  const state = await wb.waitForPanelState({ file: FILE, itemType: 'change', timeoutMs: 120_000 });
  const notes = [...(state.notes ?? []), ...(state.sectionNotes ?? []).map((n) => n.text)];
  assert.ok(!notes.some((n) => NOTE.test(n)), `the Restricted Mode note stayed: ${JSON.stringify(notes)}`);
  // What the user sees: the panel lists the change for the file in the editor.
  const snap = await wb.waitForPanelItems({ file: FILE, timeoutMs: 60_000 });
  assert.ok(
    snap.items.some((i) => i.type === 'change'),
    `the panel shows no recent change: ${JSON.stringify(snap.items.map((i) => i.title))}`,
  );
  await wb.screenshot('trusted');
  assert.equal(fs.readFileSync(wb.bridgeFile, 'utf8'), bridgeBefore, 'the extension host was restarted');
  // The same logging git sees calls now: its silence before was not a PATH the server ignored.
  assert.ok(
    callsInWorkspace().length > 0,
    `no git call in the workspace was logged after trust; all calls: ${fs.existsSync(gitLog) ? fs.readFileSync(gitLog, 'utf8').slice(0, 2000) : 'none'}`,
  );
});
