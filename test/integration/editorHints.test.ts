// Context where the eyes are: a CodeLens over the code a decision governs, the why-card on hover,
// failing tests in the Problems view, and a typing path that costs the engine nothing.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { waitFor, workspaceRoot, writeWorkspaceFile } from './chatSupport';
import { closeAllEditors, lineOf, openAt, settle, testApi, waitForPanel, type TestApi } from './support';

const FILE = 'src/pricing.ts';
const REPORT = 'reports/junit.xml';
const ADR_3 = /ADR 0003: Cap discounts at fifty percent/;

function uri(rel: string): vscode.Uri {
  return vscode.Uri.file(path.join(workspaceRoot(), ...rel.split('/')));
}

async function lensesAt(rel: string): Promise<{ line: number; title: string; command?: string; args?: unknown[] }[]> {
  await vscode.workspace.openTextDocument(uri(rel));
  const lenses =
    (await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', uri(rel), 100)) ?? [];
  return lenses
    .filter((l) => l.command?.command === 'proactiveContext.openDecisionRecord')
    .map((l) => ({
      line: l.range.start.line + 1,
      title: l.command?.title ?? '',
      command: l.command?.command,
      args: l.command?.arguments,
    }));
}

function hoverText(hovers: vscode.Hover[] | undefined): string {
  return (hovers ?? [])
    .flatMap((h) => h.contents.map((c) => (typeof c === 'string' ? c : 'value' in c ? c.value : '')))
    .join('\n');
}

function ourProblems(rel: string): vscode.Diagnostic[] {
  return vscode.languages.getDiagnostics(uri(rel)).filter((d) => d.source === 'Proactive Context');
}

/** Resolves once `check` holds for the diagnostics (checked now and on every change). */
function diagnosticsWhere(check: () => boolean, what: string, timeoutMs = 30_000): Promise<void> {
  return new Promise((resolve, reject) => {
    if (check()) return resolve();
    const timer = setTimeout(() => {
      sub.dispose();
      reject(new Error(`timed out after ${timeoutMs / 1000} s waiting for ${what}`));
    }, timeoutMs);
    const sub = vscode.languages.onDidChangeDiagnostics(() => {
      if (!check()) return;
      clearTimeout(timer);
      sub.dispose();
      resolve();
    });
  });
}

suite('editor hints', () => {
  let api: TestApi;
  let applyDiscount: number;

  suiteSetup(async () => {
    api = await testApi();
    applyDiscount = await lineOf(FILE, 'export function applyDiscount');
    await openAt(FILE, applyDiscount + 2);
    await waitForPanel(
      api,
      (s) =>
        s.phase === 'ready' &&
        s.file === FILE &&
        s.symbol === 'applyDiscount' &&
        s.items.some((i) => ADR_3.test(i.title)),
      90_000,
      'the panel to show ADR 0003 for applyDiscount',
    );
    await settle(api);
  });

  suiteTeardown(async () => {
    await closeAllEditors();
  });

  test('a CodeLens over applyDiscount names ADR 0003 and opens the record', async () => {
    const lenses = await waitFor(
      async () => {
        const found = await lensesAt(FILE);
        return found.some((l) => ADR_3.test(l.title)) ? found : undefined;
      },
      30_000,
      'a lens for ADR 0003',
    );
    const lens = lenses.find((l) => ADR_3.test(l.title))!;
    assert.equal(lens.line, applyDiscount);
    assert.deepEqual(
      lenses.map((l) => l.line),
      [applyDiscount],
      `lenses over code no record governs: ${JSON.stringify(lenses)}`,
    );
    await vscode.commands.executeCommand(lens.command!, ...(lens.args ?? []));
    assert.match(
      vscode.window.activeTextEditor?.document.uri.path ?? '',
      /docs\/adr\/0003-cap-discounts-at-fifty-percent\.md$/,
    );
    // An entry of a decision log opens at its heading: the command takes the line after the file.
    const record = lens.args![0] as vscode.Uri;
    const heading = (await vscode.workspace.openTextDocument(record))
      .getText()
      .split('\n')
      .findIndex((l) => l.startsWith('## '));
    assert.ok(heading > 0, 'the record has a section heading below its title');
    await vscode.commands.executeCommand(lens.command!, record, heading + 1);
    assert.equal(vscode.window.activeTextEditor?.selection.active.line, heading);
    await openAt(FILE, applyDiscount + 2);
  });

  test('money.ts shows the superseded record over toCents with its successor', async () => {
    const lenses = await waitFor(
      async () => {
        const found = await lensesAt('src/money.ts');
        return found.some((l) => /superseded ADR 0002 → ADR 0004/.test(l.title)) ? found : undefined;
      },
      30_000,
      'a lens for superseded ADR 0002',
    );
    const toCents = await lineOf('src/money.ts', 'export function toCents');
    assert.ok(
      lenses.some((l) => l.line === toCents && /superseded ADR 0002 → ADR 0004/.test(l.title)),
      JSON.stringify(lenses),
    );
    await openAt(FILE, applyDiscount + 2);
  });

  test('hovering the declaration of applyDiscount shows the why-card without another engine pass', async () => {
    await settle(api);
    // Passes beyond the panel's own runs: the panel may still refresh, the hover must add none.
    const extra = () => api.enginePasses() - api.suggestionRuns();
    const passes = extra();
    const text = hoverText(
      await vscode.commands.executeCommand<vscode.Hover[]>(
        'vscode.executeHoverProvider',
        uri(FILE),
        new vscode.Position(applyDiscount - 1, 20),
      ),
    );
    assert.match(text, /Why `applyDiscount` is the way it is/);
    assert.match(text, ADR_3);
    assert.match(
      text,
      /Last change to these lines: Cap stacked discounts at 50% \\\(ADR-3\\\) — Ana Ruiz, \d+ days ago/,
    );
    assert.match(text, /\d+ places? calls? `applyDiscount`/);
    assert.equal(extra(), passes, 'the hover ran a suggestion pass although the panel had one for this place');
    const again = hoverText(
      await vscode.commands.executeCommand<vscode.Hover[]>(
        'vscode.executeHoverProvider',
        uri(FILE),
        new vscode.Position(applyDiscount - 1, 20),
      ),
    );
    assert.equal(again, text);
    const body = hoverText(
      await vscode.commands.executeCommand<vscode.Hover[]>(
        'vscode.executeHoverProvider',
        uri(FILE),
        new vscode.Position(applyDiscount + 1, 4),
      ),
    );
    assert.doesNotMatch(body, /Why `applyDiscount`/, 'the why-card shows on lines inside the body too');
  });

  test('the failing test of the report is a problem at the test and at the source line, gone when the report passes', async () => {
    const original = fs.readFileSync(uri(REPORT).fsPath, 'utf8');
    const testLine = await lineOf('test/pricing.test.ts', '[40, 30]');
    await diagnosticsWhere(
      () => ourProblems('test/pricing.test.ts').length > 0 && ourProblems(FILE).length > 0,
      'the failing test in the Problems view',
    );
    const [atTest] = ourProblems('test/pricing.test.ts');
    assert.equal(atTest.range.start.line + 1, testLine);
    assert.match(
      atTest.message,
      /^Failing test “applyDiscount › caps stacked discounts at 50%”: expected 3000 to be 5000 .*\(reports\/junit\.xml, (just now|\d+ min ago|\d+ hours? ago)\)$/,
    );
    const [atSource] = ourProblems(FILE);
    assert.equal(atSource.range.start.line + 1, 20);
    assert.match(atSource.message, /passes through this line/);
    try {
      writeWorkspaceFile(
        REPORT,
        original
          .replace(/<failure[\s\S]*?<\/failure>/, '')
          .replace('failures="1"', 'failures="0"')
          .replace('failures="1"', 'failures="0"'),
      );
      await diagnosticsWhere(
        () => ourProblems('test/pricing.test.ts').length === 0 && ourProblems(FILE).length === 0,
        'the problems to go once the report passes',
      );
      fs.rmSync(uri(REPORT).fsPath);
      writeWorkspaceFile(REPORT, original);
      await diagnosticsWhere(
        () => ourProblems('test/pricing.test.ts').length > 0,
        'the problems to come back with the failing report',
      );
      fs.rmSync(uri(REPORT).fsPath);
      await diagnosticsWhere(
        () => ourProblems('test/pricing.test.ts').length === 0,
        'the problems to go once the report is deleted',
      );
    } finally {
      writeWorkspaceFile(REPORT, original);
      await diagnosticsWhere(
        () => ourProblems('test/pricing.test.ts').length > 0,
        'the failing report to be read again',
      );
    }
  });

  test('typing 200 characters into a large file runs no engine pass beyond the debounced one, and lenses move with the code', async () => {
    const config = vscode.workspace.getConfiguration('proactiveContext');
    const files = vscode.workspace.getConfiguration('files');
    // A debounce far above the time between two keystrokes, so one pass after the typing is the right
    // count; and no auto save (on by default in a browser), whose saves are changes on disk, not typing.
    await config.update('debounceMs', 4000, vscode.ConfigurationTarget.Workspace);
    await files.update('autoSave', 'off', vscode.ConfigurationTarget.Workspace);
    const functions = Array.from({ length: 400 }, (_, i) =>
      [
        i % 50 === 0 ? '// ADR-3: every discount goes through the capped path.' : `// helper ${i}`,
        `export function helper${i}(x: number): number {`,
        `  return x * ${i} + ${i % 7};`,
        '}',
        '',
      ].join('\n'),
    );
    writeWorkspaceFile('src/large.ts', functions.join('\n'));
    try {
      const editor = await openAt('src/large.ts', 3, 1);
      const lenses = await waitFor(
        async () => {
          const found = await lensesAt('src/large.ts');
          return found.length === 8 ? found : undefined;
        },
        60_000,
        'eight lenses in src/large.ts (the file indexed)',
      );
      assert.deepEqual(
        lenses.map((l) => l.line),
        [2, 252, 502, 752, 1002, 1252, 1502, 1752],
      );
      await waitForPanel(
        api,
        (s) => s.file === 'src/large.ts' && s.phase !== 'loading',
        30_000,
        'the panel on src/large.ts',
      );
      await settle(api);
      const before = { passes: api.enginePasses(), runs: api.suggestionRuns(), ...api.editorHintCounts() };
      editor.selection = new vscode.Selection(2, 0, 2, 0);
      for (let i = 0; i < 200; i++) await vscode.commands.executeCommand('type', { text: i % 40 === 39 ? '\n' : 'x' });
      await waitFor(
        async () => (api.suggestionRuns() > before.runs ? true : undefined),
        30_000,
        'the debounced pass after typing',
      );
      await settle(api);
      const after = { passes: api.enginePasses(), runs: api.suggestionRuns(), ...api.editorHintCounts() };
      assert.equal(after.runs - before.runs, 1, `typing ran ${after.runs - before.runs} panel passes`);
      assert.equal(after.passes - before.passes, 1, `typing ran ${after.passes - before.passes} engine passes`);
      const moved = await waitFor(
        async () => {
          const found = await lensesAt('src/large.ts');
          return found[1]?.line === 257 ? found : undefined;
        },
        30_000,
        'the lenses below the typing to move down five lines',
      );
      assert.deepEqual(
        moved.map((l) => l.line),
        [2, 257, 507, 757, 1007, 1257, 1507, 1757],
      );
      const counts = api.editorHintCounts();
      assert.ok(counts.lensRequests > before.lensRequests, 'the editor never asked for lenses while typing');
      assert.equal(counts.anchorLookups, before.anchorLookups, 'typing looked anchors up again instead of moving them');
    } finally {
      await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
      await config.update('debounceMs', undefined, vscode.ConfigurationTarget.Workspace);
      await files.update('autoSave', undefined, vscode.ConfigurationTarget.Workspace);
      fs.rmSync(uri('src/large.ts').fsPath, { force: true });
    }
  });
});
