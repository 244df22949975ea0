// The panel and status bar for code with history: what governs applyDiscount, what warns about it,
// what changed it and what calls it, as the user sees them after putting the cursor there.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { closeAllEditors, openAt, settle, testApi, waitForPanel, type PanelSnapshot, type TestApi } from './support';

const FILE = 'src/pricing.ts';
const KINDS = ['decision', 'warning', 'change', 'related_code'];

suite('suggestions panel', () => {
  let api: TestApi;
  let state: PanelSnapshot;

  suiteSetup(async () => {
    api = await testApi();
    await openAt(FILE, 18);
    // The index, history and decision records load in the background after activation.
    state = await waitForPanel(
      api,
      (s) => s.phase === 'ready' && s.file === FILE && KINDS.every((k) => s.items.some((i) => i.type === k)),
      90_000,
      `decisions, warnings, changes and related code for ${FILE}`,
    );
    await settle(api);
    state = api.panelState();
  });

  suiteTeardown(async () => {
    await closeAllEditors();
  });

  test('line 18 of src/pricing.ts shows decisions, warnings, changes and related code for applyDiscount', () => {
    assert.equal(state.file, FILE);
    assert.equal(state.symbol, 'applyDiscount');
    for (const kind of KINDS)
      assert.ok(
        state.items.some((i) => i.type === kind),
        `no ${kind} item`,
      );
    const decision = state.items.find((i) => i.type === 'decision' && /Cap discounts at fifty percent/.test(i.title));
    assert.ok(
      decision,
      `ADR 3 is not among the decisions: ${state.items
        .filter((i) => i.type === 'decision')
        .map((i) => i.title)
        .join('; ')}`,
    );
    assert.match(decision.location.path, /^docs\/adr\/0003-/);
    for (const item of state.items)
      assert.ok(item.reason.trim().length > 0, `"${item.title}" does not say why it is shown`);
  });

  test('the failing test that covers the cap is a warning', () => {
    const warning = state.items.find((i) => i.type === 'warning' && /caps stacked discounts/.test(i.title));
    assert.ok(
      warning,
      `no warning about the failing test: ${state.items
        .filter((i) => i.type === 'warning')
        .map((i) => i.title)
        .join('; ')}`,
    );
    assert.match(
      warning.reason,
      /failed in reports\/junit\.xml/,
      'the warning does not say where the failure was reported',
    );
  });

  test('the status bar counts the suggestions and the warnings shown in the panel', () => {
    // Both read in one turn of the event loop: a late enrichment may have replaced the suite's snapshot.
    const shown = api.panelState();
    const text = api.statusBarText();
    const warnings = shown.items.filter((i) => i.type === 'warning').length;
    assert.ok(warnings > 0);
    assert.equal(text, `$(lightbulb) Context ${shown.items.length - warnings} $(warning) ${warnings}`);
  });

  test('another file replaces the items, and the status bar follows', async () => {
    await openAt('src/money.ts', 1);
    await waitForPanel(
      api,
      (s) => s.phase !== 'loading' && s.file === 'src/money.ts',
      30_000,
      'the panel to show src/money.ts',
    );
    await settle(api);
    const now = api.panelState();
    assert.equal(now.file, 'src/money.ts');
    assert.notEqual(now.symbol, 'applyDiscount');
    const pricingOnly = state.items.filter(
      (i) => i.type === 'decision' && /Cap discounts at fifty percent/.test(i.title),
    );
    assert.ok(
      !now.items.some((i) => pricingOnly.some((p) => p.entityId === i.entityId && i.reason === p.reason)),
      'the items of src/pricing.ts are still shown unchanged',
    );
    const warnings = now.items.filter((i) => i.type === 'warning').length;
    assert.equal(
      api.statusBarText(),
      warnings
        ? `$(lightbulb) Context ${now.items.length - warnings} $(warning) ${warnings}`
        : `$(lightbulb) Context ${now.items.length}`,
    );
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  });
});
