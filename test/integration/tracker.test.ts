// What the panel follows: the cursor after it stops (debounced, older work cancelled), and honest
// states for editors that are not files of the workspace, or no editor at all.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { sleep, waitFor, workspaceRoot } from './chatSupport';
import {
  closeAllEditors,
  languageReady,
  lineOf,
  openAt,
  settle,
  testApi,
  waitForPanel,
  type ActivitySnapshot,
  type PanelSnapshot,
  type TestApi,
} from './support';

const FILE = 'src/pricing.ts';
const IDLE_STATUS = '$(lightbulb) Context';

suite('activity tracker', () => {
  let api: TestApi;

  suiteSetup(async () => {
    api = await testApi();
    await languageReady(vscode.Uri.file(path.join(workspaceRoot(), ...FILE.split('/'))));
  });

  suiteTeardown(async () => {
    await closeAllEditors();
  });

  test('the symbol at the cursor on line 18 of src/pricing.ts is applyDiscount', async () => {
    const editor = await openAt(FILE, 1);
    await settle(api);
    const seen: ActivitySnapshot[] = [];
    const sub = api.onDidChangeActivity((a) => seen.push(a));
    try {
      // The editor's symbols have a short time budget per move; a busy language server may miss one.
      const activity = await waitFor(
        async () => {
          editor.selection = new vscode.Selection(17, 2 + seen.length, 17, 2 + seen.length);
          await sleep(400);
          return seen.find((a) => a.path === FILE && a.line === 18 && a.symbol !== undefined);
        },
        20_000,
        'an activity on line 18 with a symbol',
      );
      assert.equal(activity.kind, 'file');
      assert.equal(activity.symbol, 'applyDiscount');
    } finally {
      sub.dispose();
    }
    const state = await waitForPanel(
      api,
      (s) => s.file === FILE && s.phase === 'ready' && s.symbol === 'applyDiscount',
      60_000,
      'the panel to show applyDiscount',
    );
    assert.ok(state.items.length > 0);
  });

  test('ten quick cursor moves end on where the cursor stopped, and no older position replaces it', async () => {
    const subtotal = await lineOf(FILE, 'export function subtotal');
    const legacy = await lineOf(FILE, 'export function legacyTotalCents');
    const editor = await openAt(FILE, subtotal + 1);
    await waitForPanel(api, (s) => s.file === FILE && s.symbol === 'subtotal', 60_000, 'the panel to show subtotal');
    await settle(api);

    const activities: ActivitySnapshot[] = [];
    // Activities and panel states in the order they happened.
    const timeline: ({ activity: ActivitySnapshot } | { state: PanelSnapshot })[] = [];
    const subs = [
      api.onDidChangeActivity((a) => {
        activities.push(a);
        timeline.push({ activity: a });
      }),
      api.onDidUpdatePanel((s) => timeline.push({ state: s })),
    ];
    const runsBefore = api.suggestionRuns();
    try {
      const lines = [
        legacy + 1,
        subtotal + 1,
        legacy + 1,
        subtotal + 1,
        legacy + 1,
        subtotal + 1,
        legacy + 1,
        subtotal + 1,
        legacy + 1,
        18,
      ];
      for (const [i, line] of lines.entries()) {
        editor.selection = new vscode.Selection(line - 1, 2 + i, line - 1, 2 + i);
        await sleep(3);
      }
      await waitForPanel(
        api,
        (s) => s.phase === 'ready' && s.file === FILE && s.symbol === 'applyDiscount',
        30_000,
        'the panel to show applyDiscount',
      );
      await settle(api);
    } finally {
      for (const s of subs) s.dispose();
    }

    // Debounce timing itself is unit-tested with a manual clock (test/unit/editor); on a busy machine
    // moves may land more than a debounce apart, so here the counts are only bounded.
    const runs = api.suggestionRuns() - runsBefore;
    assert.ok(runs >= 1 && runs <= 10, `ten quick moves computed suggestions ${runs} times`);
    assert.ok(
      activities.length >= 1 && activities.length <= 10,
      `ten quick moves produced ${activities.length} activities`,
    );
    const last = activities[activities.length - 1];
    assert.deepEqual([last.path, last.line, last.symbol], [FILE, 18, 'applyDiscount']);

    // Cancellation: once the panel shows where the cursor last stopped, no older position comes back
    // over it. Where it stopped is the last activity the extension saw: on a busy machine the window
    // may confirm an earlier selection after a later one, and the cursor really is there for a moment.
    const stopped = timeline.findLastIndex((e) => 'activity' in e);
    const states = timeline.slice(stopped + 1).flatMap((e) => ('state' in e ? [e.state] : []));
    const first = states.findIndex((s) => s.symbol === 'applyDiscount');
    assert.ok(first >= 0, `the panel never showed applyDiscount after the cursor stopped: ${timeline.length} events`);
    const later = states.slice(first).filter((s) => s.symbol !== 'applyDiscount');
    const story = timeline
      .map((e) => ('activity' in e ? `move ${e.activity.line}` : `panel ${e.state.phase} ${e.state.symbol ?? ''}`))
      .join(', ');
    assert.deepEqual(
      later.map((s) => `${s.phase} ${s.symbol}`),
      [],
      `an older position replaced the newest one in the panel: ${story}`,
    );
    assert.equal(api.panelState().symbol, 'applyDiscount');
  });

  test('an untitled editor shows an explanation, not an error', async () => {
    const doc = await vscode.workspace.openTextDocument({ content: 'x' });
    await vscode.window.showTextDocument(doc);
    try {
      const state = await waitForPanel(
        api,
        (s) => s.phase === 'unsupported-document' && /untitled/.test(s.message ?? ''),
        10_000,
        'the panel to explain the untitled editor',
      );
      assert.match(state.message ?? '', /not a file of the workspace/);
      assert.deepEqual(state.items, []);
      assert.equal(state.file, undefined);
      assert.equal(api.statusBarText(), IDLE_STATUS);
    } finally {
      await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
    }
  });

  test('a file outside the workspace folder says it is outside the workspace', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pc-outside-'));
    assert.ok(path.relative(workspaceRoot(), dir).startsWith('..'), 'the temporary folder is inside the workspace');
    const file = path.join(dir, 'elsewhere.ts');
    fs.writeFileSync(file, 'export const elsewhere = 1;\n');
    try {
      await openAt(FILE, 18);
      await waitForPanel(api, (s) => s.file === FILE, 30_000, 'the panel to show src/pricing.ts');
      await vscode.window.showTextDocument(vscode.Uri.file(file));
      const state = await waitForPanel(
        api,
        (s) => s.phase === 'unsupported-document' && /outside the workspace/.test(s.message ?? ''),
        10_000,
        'the panel to say the file is outside the workspace',
      );
      assert.deepEqual(state.items, [], 'items of the previous file are still shown');
      assert.equal(api.statusBarText(), IDLE_STATUS, 'the status bar still counts the previous file');
    } finally {
      await closeAllEditors();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  test('closing every editor leaves the panel asking to open a file', async () => {
    await openAt(FILE, 18);
    await waitForPanel(api, (s) => s.file === FILE, 30_000, 'the panel to show src/pricing.ts');
    await closeAllEditors();
    const state = await waitForPanel(
      api,
      (s) => s.phase === 'no-editor',
      10_000,
      'the panel to show that no editor is open',
    );
    assert.equal(state.message, undefined, 'the panel says what to do; the host repeats nothing');
    assert.deepEqual(state.items, []);
    assert.equal(api.statusBarText(), IDLE_STATUS);
  });
});
