// Every command of the palette, run as a user runs it: in the editor context it expects, with its
// quick picks answered and its input boxes cancelled (an extension cannot type into an input box),
// and its effect checked in what another process (the CLI) or the editor sees.
import * as assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import * as vscode from 'vscode';
import { ask, newChat, requests, requireFakeModel, sleep, waitFor, workspaceRoot } from './chatSupport';
import {
  cli,
  closeAllEditors,
  lineOf,
  openAt,
  select,
  removeAllSubscriptions,
  settle,
  subscriptions,
  testApi,
  waitForPanel,
  type TestApi,
} from './support';

const manifest = JSON.parse(fs.readFileSync(path.resolve(__dirname, '..', '..', '..', 'package.json'), 'utf8')) as {
  contributes: { commands: { command: string }[] };
};
const FILE = 'src/pricing.ts';
const covered = new Set<string>();

function run(id: string, ...args: unknown[]): Thenable<unknown> {
  covered.add(id);
  return vscode.commands.executeCommand(id, ...args);
}

/** Tracks whether a command's promise has settled, and how. */
function track(p: Thenable<unknown>): { settled: () => boolean; done: Promise<unknown> } {
  let settled = false;
  const done = Promise.resolve(p).finally(() => {
    settled = true;
  });
  done.catch(() => undefined);
  return { settled: () => settled, done };
}

/** Presses a quick-input command until the command under test settles (the input may show late). */
async function pressUntilSettled(t: ReturnType<typeof track>, command: string, what: string): Promise<unknown> {
  await waitFor(
    async () => {
      if (t.settled()) return true;
      await vscode.commands.executeCommand(command);
      await sleep(300);
      return t.settled() ? true : undefined;
    },
    15_000,
    what,
  );
  return t.done;
}

/** The command waits on an input box: accepting it empty is refused by its validation, Escape cancels it. */
async function expectInputBoxCancelled(id: string): Promise<void> {
  const t = track(run(id));
  await sleep(1000);
  assert.equal(t.settled(), false, `${id} finished without asking for input`);
  await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
  await sleep(500);
  assert.equal(t.settled(), false, `${id} accepted an empty input`);
  assert.equal(
    await pressUntilSettled(t, 'workbench.action.closeQuickOpen', `${id} to end when its input box is cancelled`),
    undefined,
  );
}

function adrFiles(): string[] {
  return fs.readdirSync(path.join(workspaceRoot(), 'docs', 'adr')).sort();
}

suite('palette commands', () => {
  let api: TestApi;
  let pricingLine: number;

  suiteSetup(async () => {
    api = await testApi();
    await removeAllSubscriptions();
    pricingLine = await lineOf(FILE, 'const capped');
  });

  teardown(async () => {
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
    await removeAllSubscriptions();
  });

  suiteTeardown(async () => {
    await closeAllEditors();
  });

  test('Subscribe Chat to Current File subscribes the active file', async () => {
    await openAt(FILE, pricingLine);
    await run('proactiveContext.subscribeFile');
    const subs = await subscriptions();
    assert.deepEqual(
      subs.map((s) => [s.kind, s.target]),
      [['file', FILE]],
    );
  });

  test('Subscribe Chat to Current File without an editor asks for a file and subscribes the one picked', async () => {
    await closeAllEditors();
    const folder = vscode.workspace.workspaceFolders![0];
    const files = await vscode.workspace.findFiles(
      new vscode.RelativePattern(folder, '**/*'),
      '**/{node_modules,.git}/**',
      5000,
    );
    const first = files.map((f) => vscode.workspace.asRelativePath(f, false)).sort()[0];
    const t = track(run('proactiveContext.subscribeFile'));
    await pressUntilSettled(t, 'workbench.action.acceptSelectedQuickOpenItem', 'the file pick to be accepted');
    const subs = await subscriptions();
    assert.deepEqual(
      subs.map((s) => [s.kind, s.target]),
      [['file', first]],
    );
  });

  test('Subscribe Chat to Selected Lines subscribes the selected lines, and only with a selection', async () => {
    const editor = await openAt(FILE, pricingLine);
    await run('proactiveContext.subscribeSelection');
    assert.deepEqual(await subscriptions(), [], 'an empty selection was subscribed');
    const start = await lineOf(FILE, 'export function applyDiscount');
    await select(editor, new vscode.Selection(start - 1, 0, start + 4, 1));
    await run('proactiveContext.subscribeSelection');
    const subs = await subscriptions();
    assert.equal(subs.length, 1);
    assert.equal(subs[0].kind, 'lines');
    assert.deepEqual(subs[0].lines, { start, end: start + 5 });
  });

  test('Subscribe Chat to Symbol at Cursor follows the function around the cursor', async () => {
    await openAt(FILE, pricingLine);
    await waitForPanel(
      api,
      (s) => s.file === FILE && s.symbol === 'applyDiscount',
      30_000,
      'the panel to show applyDiscount',
    );
    await run('proactiveContext.subscribeSymbol');
    const subs = await subscriptions();
    assert.deepEqual(
      subs.map((s) => [s.kind, s.symbol, s.path, s.target]),
      [['symbol', 'applyDiscount', FILE, `${FILE}::applyDiscount`]],
    );
    const content = await cli('materialize', '--dry-run');
    assert.match(
      content,
      /const capped = Math\.min\(requested, MAX_DISCOUNT_PERCENT\)/,
      `the subscribed function's code is not what the chat would get:\n${content}`,
    );
  });

  test('Subscribe Chat to Symbol at Cursor without an editor asks for a name; cancelling subscribes nothing', async () => {
    await closeAllEditors();
    await expectInputBoxCancelled('proactiveContext.subscribeSymbol');
    assert.deepEqual(await subscriptions(), []);
  });

  test('Subscribe Chat to Lines Matching a Pattern… asks for a pattern; an empty one is refused and cancelling subscribes nothing', async () => {
    await openAt(FILE, pricingLine);
    await expectInputBoxCancelled('proactiveContext.subscribePattern');
    assert.deepEqual(await subscriptions(), []);
  });

  test('Subscribe Chat to a Memory Search… asks for a query; cancelling subscribes nothing', async () => {
    await expectInputBoxCancelled('proactiveContext.subscribeMemory');
    assert.deepEqual(await subscriptions(), []);
  });

  test('Unsubscribe… removes the subscription picked and keeps the others', async () => {
    await run('proactiveContext.unsubscribe'); // nothing to remove: a message, no pick
    await openAt(FILE, pricingLine);
    await run('proactiveContext.subscribeFile');
    await openAt('src/money.ts', 1);
    await run('proactiveContext.subscribeFile');
    assert.equal((await subscriptions()).length, 2);
    const t = track(run('proactiveContext.unsubscribe'));
    await sleep(1000);
    await vscode.commands.executeCommand('workbench.action.quickOpenSelectNext');
    await vscode.commands.executeCommand('workbench.action.quickPickManyToggle');
    await pressUntilSettled(t, 'workbench.action.acceptSelectedQuickOpenItem', 'the unsubscribe pick to be accepted');
    const left = await subscriptions();
    assert.equal(left.length, 1, `expected one subscription left, got ${JSON.stringify(left)}`);
  });

  // With subscriptions it asks in a modal dialog, which an extension cannot answer: the removal
  // itself goes through the CLI, and the command must then see that nothing is left.
  test('Unsubscribe All sees subscriptions removed by another process and ends without a dialog', async () => {
    await openAt(FILE, pricingLine);
    await run('proactiveContext.subscribeFile');
    assert.equal((await subscriptions()).length, 1);
    await cli('unsubscribe', '--all');
    assert.deepEqual(await subscriptions(), []);
    const t = track(run('proactiveContext.unsubscribeAll'));
    await waitFor(async () => (t.settled() ? true : undefined), 5000, 'Unsubscribe All to end without a dialog');
    await t.done;
  });

  test('List Subscriptions opens the subscription picked at its first line', async () => {
    await run('proactiveContext.listSubscriptions'); // nothing subscribed: a message, no pick
    const editor = await openAt(FILE, 1);
    const start = await lineOf(FILE, 'export function applyDiscount');
    await select(editor, new vscode.Selection(start - 1, 0, start + 2, 3));
    await run('proactiveContext.subscribeSelection');
    await closeAllEditors();
    const t = track(run('proactiveContext.listSubscriptions'));
    await pressUntilSettled(t, 'workbench.action.acceptSelectedQuickOpenItem', 'the subscription pick to be accepted');
    const active = vscode.window.activeTextEditor;
    assert.ok(active, 'no editor opened for the subscription');
    assert.equal(vscode.workspace.asRelativePath(active.document.uri, false), FILE);
    assert.equal(active.selection.active.line, start - 1);
    assert.equal((await subscriptions()).length, 1, 'listing changed the subscriptions');
  });

  test('Refresh Suggestions recomputes the suggestions for the cursor', async () => {
    await openAt(FILE, pricingLine);
    await waitForPanel(api, (s) => s.file === FILE && s.phase === 'ready', 60_000, 'suggestions for src/pricing.ts');
    await settle(api);
    const before = api.suggestionRuns();
    await run('proactiveContext.refresh');
    await waitFor(
      async () => (api.suggestionRuns() > before ? true : undefined),
      10_000,
      'Refresh to compute suggestions again',
    );
    await settle(api);
    assert.equal(api.panelState().file, FILE);
    assert.equal(api.panelState().phase, 'ready');
  });

  test('Rebuild Index finishes and the panel still shows the related code', async () => {
    await openAt(FILE, pricingLine);
    await settle(api);
    const before = api.suggestionRuns();
    await run('proactiveContext.reindex');
    await waitFor(
      async () => (api.suggestionRuns() > before ? true : undefined),
      10_000,
      'suggestions to be recomputed after the rebuild',
    );
    const s = await waitForPanel(
      api,
      (p) => p.phase === 'ready' && p.file === FILE && p.items.some((i) => i.type === 'related_code'),
      30_000,
      'related code after the rebuild',
    );
    assert.ok(
      s.items.some((i) => i.type === 'decision'),
      'the decision records are gone after the rebuild',
    );
  });

  test('Show Suggestions Panel brings the panel forward', async () => {
    await vscode.commands.executeCommand('workbench.action.closeSidebar');
    await waitFor(
      async () => (api.panelVisible() ? undefined : true),
      10_000,
      'the Suggestions view to be hidden with the side bar',
    );
    await run('proactiveContext.showPanel');
    await waitFor(async () => (api.panelVisible() ? true : undefined), 10_000, 'the Suggestions view to be visible');
  });

  test('Show Metrics opens a markdown document with the metrics', async () => {
    await run('proactiveContext.showMetrics');
    const editor = vscode.window.activeTextEditor;
    assert.ok(editor, 'no metrics document opened');
    assert.equal(editor.document.languageId, 'markdown');
    assert.match(editor.document.getText(), /^# Proactive Context metrics/);
    assert.match(editor.document.getText(), /\| Suggestions generated \| \d+ \|/);
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  });

  test('Show What @context Would Send opens the prompt with the subscribed file, read-only, as markdown', async () => {
    await requireFakeModel();
    await openAt('src/money.ts', 1);
    await run('proactiveContext.subscribeFile');
    await openAt(FILE, pricingLine);
    await run('proactiveContext.showChatPrompt');
    const editor = vscode.window.activeTextEditor;
    assert.ok(editor, 'no prompt document opened');
    assert.equal(editor.document.uri.scheme, 'proactive-context-prompt');
    assert.equal(editor.document.languageId, 'markdown');
    assert.equal(editor.document.isDirty, false, 'closing the preview would ask to save it');
    const text = editor.document.getText();
    assert.match(text, /^# What @context would send/);
    // The test model is registered: the preview does not claim that none is.
    assert.match(text, /The prompt a `@context` question would get right now/);
    assert.ok(
      text.includes(fs.readFileSync(path.join(workspaceRoot(), 'src', 'money.ts'), 'utf8').split('\n')[0]),
      'the subscribed file is not in the prompt',
    );
    assert.match(text, /\| subscription \S+ src\/money\.ts \|/);
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  });

  test('Ask @context, with a chat model, opens chat on a real query', async () => {
    await requireFakeModel();
    // The choice itself is unit-tested; here the command runs in a real host with a model and ends.
    assert.equal(await run('proactiveContext.askContext'), undefined);
  });

  test('Show Log shows the extension log', async () => {
    await run('proactiveContext.showLog');
    await waitFor(
      async () =>
        vscode.workspace.textDocuments.some((d) => d.uri.scheme === 'output' && /Proactive Context/i.test(d.uri.path))
          ? true
          : undefined,
      5000,
      'the Proactive Context log to be shown',
    );
  });

  test('Record a Decision… asks for a title; an empty one is refused and cancelling writes no ADR', async () => {
    const before = adrFiles();
    await expectInputBoxCancelled('proactiveContext.recordDecision');
    assert.deepEqual(adrFiles(), before);
  });

  suite('with chat memory', () => {
    suiteSetup(async () => {
      await requireFakeModel();
      await newChat();
      await ask('@context should checkout publish an OrderPlaced event instead of calling billing?');
      // The chat answers one request at a time: when the next one reaches the model, the first
      // conversation turn is complete and in memory.
      await ask('@context and what about refunds?');
    });

    teardown(async () => {
      await vscode.commands.executeCommand('fakeLm.setReply', null);
    });

    test('Propose Decisions from Chat Memory… records the proposal the user picks as an ADR', async () => {
      const before = adrFiles();
      await vscode.commands.executeCommand(
        'fakeLm.setReply',
        JSON.stringify([
          {
            title: 'Publish order events from checkout',
            context: 'Checkout calls billing directly.',
            decision: 'Checkout publishes OrderPlaced.',
            consequences: 'Billing subscribes to it.',
          },
        ]),
      );
      const asked = (await requests()).length;
      const t = track(run('proactiveContext.consolidateMemory'));
      await waitFor(
        async () => ((await requests()).length > asked || t.settled() ? true : undefined),
        20_000,
        'the model to be asked for decisions',
      );
      await sleep(1000);
      if (t.settled()) {
        await t.done;
        assert.fail(
          `the command ended without offering the proposal (the model was ${(await requests()).length > asked ? '' : 'not '}asked)`,
        );
      }
      await vscode.commands.executeCommand('workbench.action.quickOpenSelectNext');
      await vscode.commands.executeCommand('workbench.action.quickPickManyToggle');
      await pressUntilSettled(t, 'workbench.action.acceptSelectedQuickOpenItem', 'the proposal pick to be accepted');
      const added = adrFiles().filter((f) => !before.includes(f));
      try {
        assert.equal(added.length, 1, `expected one new ADR, got ${added.join(', ')}`);
        assert.match(added[0], /^\d{4}-publish-order-events-from-checkout\.md$/);
        const text = fs.readFileSync(path.join(workspaceRoot(), 'docs', 'adr', added[0]), 'utf8');
        assert.match(text, /Checkout publishes OrderPlaced\./);
      } finally {
        for (const f of added) fs.rmSync(path.join(workspaceRoot(), 'docs', 'adr', f), { force: true });
      }
    });

    test('Propose Decisions from Chat Memory… with a reply that holds no decisions ends without an error and writes nothing', async () => {
      const before = adrFiles();
      await vscode.commands.executeCommand('fakeLm.setReply', 'I could not find any decisions in these conversations.');
      const t = track(run('proactiveContext.consolidateMemory'));
      await waitFor(async () => (t.settled() ? true : undefined), 20_000, 'the command to end');
      await t.done; // rejects if the command failed
      assert.deepEqual(adrFiles(), before);
    });
  });
});

/** Appends to a workspace file from another process, as another tool or a terminal would. */
function appendFromAnotherProcess(rel: string, text: string): Promise<void> {
  const file = path.join(workspaceRoot(), ...rel.split('/'));
  return new Promise((resolve, reject) =>
    execFile(
      process.execPath,
      ['-e', 'require("fs").appendFileSync(process.argv[1], process.argv[2])', file, text],
      { env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' } },
      (err) => (err ? reject(new Error(err.message, { cause: err })) : resolve()),
    ),
  );
}

suite('watches', () => {
  let api: TestApi;

  suiteSetup(async () => {
    api = await testApi();
    await cli('unwatch', '--all');
  });

  teardown(async () => {
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
    await cli('unwatch', '--all');
  });

  test('Watch Current File fires on a change another process makes, and the Watching section shows it', async () => {
    await openAt('src/money.ts', 1);
    // The editor has told where the user is before the watch exists: that is not a firing.
    await waitForPanel(api, (s) => s.file === 'src/money.ts', 20_000, 'the panel on src/money.ts');
    await run('proactiveContext.watchFile');
    const listed = await waitForPanel(
      api,
      (s) => !!s.watches?.some((w) => w.label === 'file src/money.ts'),
      10_000,
      'the watch in the Watching section',
    );
    assert.equal(listed.watches?.length, 1);
    assert.equal(listed.watches?.[0].last, undefined, 'it has not fired yet');
    await appendFromAnotherProcess('src/money.ts', '\n// changed by another process\n');
    const fired = await waitForPanel(api, (s) => !!s.watches?.[0]?.last, 20_000, 'the watch to fire');
    assert.match(fired.watches?.[0].last?.trigger ?? '', /^file change src\/money\.ts$/);
    assert.ok((fired.watches?.[0].last?.items ?? 0) >= 1, JSON.stringify(fired.watches));
    const listedByCli = JSON.parse(await cli('watches', '--json')) as { id: string; scope: string }[];
    assert.deepEqual(
      listedByCli.map((w) => w.scope),
      ['editor'],
    );
  });

  test('Watch Folder, Watch Symbol at Cursor and Watch a Topic… add what they say; Stop Watching… removes the one picked', async () => {
    await run('proactiveContext.unwatch'); // nothing watched: a message, no pick
    const applyDiscount = await lineOf(FILE, 'export function applyDiscount');
    await openAt(FILE, applyDiscount + 1);
    await waitForPanel(api, (s) => s.symbol === 'applyDiscount', 20_000, 'the cursor in applyDiscount');
    await run('proactiveContext.watchFolder');
    await run('proactiveContext.watchSymbol');
    await expectInputBoxCancelled('proactiveContext.watchTopic');
    const labels = (await waitForPanel(api, (s) => (s.watches?.length ?? 0) === 2, 10_000, 'two watches')).watches?.map(
      (w) => w.label,
    );
    assert.deepEqual(labels, ['file src/**', 'symbol src/pricing.ts::applyDiscount']);
    const t = track(run('proactiveContext.unwatch'));
    await sleep(1000);
    await vscode.commands.executeCommand('workbench.action.quickOpenSelectNext');
    await vscode.commands.executeCommand('workbench.action.quickPickManyToggle');
    await pressUntilSettled(t, 'workbench.action.acceptSelectedQuickOpenItem', 'the stop-watching pick to be accepted');
    const left = JSON.parse(await cli('watches', '--json')) as unknown[];
    assert.equal(left.length, 1, `expected one watch left, got ${JSON.stringify(left)}`);
  });

  test('moving the cursor into a watched symbol fires the watch an MCP client made in another process, and that client is told', async () => {
    const folder = vscode.workspace.workspaceFolders![0];
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [
        path.resolve(__dirname, '..', '..', '..', 'dist', 'cli.js'),
        'mcp',
        '--root',
        workspaceRoot(),
        '--state-dir',
        api.stateDir(folder),
      ],
      env: { ...(process.env as Record<string, string>), ELECTRON_RUN_AS_NODE: '1' },
      stderr: 'pipe',
    });
    const client = new Client({ name: 'agent-in-a-terminal', version: '1.0.0' });
    const updated: string[] = [];
    client.setNotificationHandler('notifications/resources/updated', (n) => void updated.push(n.params.uri));
    await client.connect(transport);
    try {
      await openAt('src/money.ts', 1);
      const made = await client.callTool({
        name: 'context_subscribe',
        arguments: { patterns: [{ type: 'symbol', pattern: 'applyDiscount' }], minRelevanceScore: 0, cooldownMs: 0 },
      });
      assert.ok(!made.isError, JSON.stringify(made.content));
      const { id, uri } = made.structuredContent as { id: string; uri: string };
      await client.subscribeResource({ uri });
      // The extension hears of the agent's watch through the shared state directory.
      await waitForPanel(
        api,
        (s) => !!s.watches?.some((w) => w.id === id && w.label === 'symbol applyDiscount (agent)'),
        10_000,
        'the agent’s watch in the Watching section',
      );
      const applyDiscount = await lineOf(FILE, 'export function applyDiscount');
      await openAt(FILE, applyDiscount + 1);
      await waitFor(
        async () => (updated.includes(uri) ? true : undefined),
        20_000,
        'the MCP client to be told of the firing',
      );
      const body = JSON.parse(((await client.readResource({ uri })).contents[0] as { text: string }).text) as {
        trigger: { type: string; source: string };
        items: unknown[];
      };
      assert.deepEqual(body.trigger, { type: 'symbol_focus', source: `${FILE}#applyDiscount` });
      assert.ok(body.items.length >= 1);
    } finally {
      await client.close();
    }
  });
});

suite('palette commands: team index and agent instructions', () => {
  teardown(() => vscode.commands.executeCommand('workbench.action.closeQuickOpen'));

  test('Set Team Index Token with nothing typed removes the saved token and ends', async () => {
    const t = track(run('proactiveContext.setTeamIndexToken'));
    assert.equal(
      await pressUntilSettled(t, 'workbench.action.acceptSelectedQuickOpenItem', 'the empty token to be accepted'),
      undefined,
    );
  });

  test('Add Agent Instructions leaves a file that is already there as it is', async () => {
    const dir = path.join(workspaceRoot(), '.github', 'instructions');
    const file = path.join(dir, 'proactive-context.instructions.md');
    const made = !fs.existsSync(dir);
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(file, '# our own rules\n');
    try {
      assert.equal(await run('proactiveContext.addAgentInstructions', { confirmed: true }), 'exists');
      assert.equal(fs.readFileSync(file, 'utf8'), '# our own rules\n');
    } finally {
      fs.rmSync(file, { force: true });
      if (made) fs.rmSync(path.join(workspaceRoot(), '.github'), { recursive: true, force: true });
    }
  });
});

suite('palette commands: coverage', () => {
  test('every command in contributes.commands is exercised by the palette command tests', () => {
    const declared = manifest.contributes.commands.map((c) => c.command);
    assert.deepEqual(
      declared.filter((id) => !covered.has(id)),
      [],
    );
  });
});
