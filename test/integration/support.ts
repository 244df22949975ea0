// Shared steps for the tracker, panel and command tests: the extension's exported API (what the
// panel and status bar currently show), editors at a given line, and the CLI on the same state.
import * as assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { invokeTool, sleep, waitFor, workspaceRoot } from './chatSupport';

export interface ActivitySnapshot {
  kind: 'file' | 'none';
  path?: string;
  line?: number;
  reason?: string;
  symbol?: string;
}

export interface PanelSnapshot {
  phase: string;
  file?: string;
  symbol?: string;
  items: {
    type: string;
    title: string;
    entityId: string;
    reason: string;
    location: { path: string; line?: number; commit?: string };
  }[];
  notes: string[];
  message?: string;
  watches?: {
    id: string;
    label: string;
    last?: { age: string; trigger: string; summary: string; items: number; unseen: boolean };
  }[];
}

/** What `activate()` returns: read-only views of the tracker, the panel, the status bar and the controller. */
export interface TestApi {
  onDidChangeActivity(listener: (a: ActivitySnapshot) => void): { dispose(): void };
  panelState(): PanelSnapshot;
  onDidUpdatePanel(listener: (state: PanelSnapshot) => void): { dispose(): void };
  statusBarText(): string;
  suggestionRuns(): number;
  stateDir(folder: vscode.WorkspaceFolder): string;
  enginePasses(): number;
  panelVisible(): boolean;
  editorHintCounts(): { lensRequests: number; hoverRequests: number; anchorLookups: number };
}

const EXTENSION_ID = 'proactive-context.proactive-context';

export async function testApi(): Promise<TestApi> {
  const extension = vscode.extensions.getExtension(EXTENSION_ID);
  assert.ok(extension, `extension ${EXTENSION_ID} is not installed in this VS Code`);
  await extension.activate();
  const api = extension.exports as TestApi | undefined;
  assert.ok(
    api && typeof api.panelState === 'function',
    'activate() returns no API with panelState(): the tests cannot see the panel',
  );
  return api;
}

/** Resolves with the panel state once `accept` holds for it (checking the current one first). */
export async function waitForPanel(
  api: TestApi,
  accept: (s: PanelSnapshot) => boolean,
  timeoutMs: number,
  what: string,
): Promise<PanelSnapshot> {
  try {
    return await waitFor(async () => (accept(api.panelState()) ? api.panelState() : undefined), timeoutMs, what);
  } catch (err) {
    const s = api.panelState();
    throw new Error(
      `${(err as Error).message}; the panel shows phase ${s.phase}${s.file ? ` for ${s.file}` : ''}${s.symbol ? ` (${s.symbol})` : ''}, ${s.items.length} items${s.message ? `, message "${s.message}"` : ''}`,
    );
  }
}

/** Waits until the number of suggestion runs has not changed for `quietMs`. */
export async function settle(api: TestApi, quietMs = 600, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let runs = api.suggestionRuns();
  let since = Date.now();
  while (Date.now() < deadline) {
    await sleep(50);
    const now = api.suggestionRuns();
    if (now !== runs) {
      runs = now;
      since = Date.now();
    } else if (Date.now() - since >= quietMs) {
      return;
    }
  }
  throw new Error(`suggestions kept running for ${timeoutMs / 1000} s`);
}

/** Opens a workspace file with the cursor on a 1-based line. */
export async function openAt(rel: string, line: number, character = 2): Promise<vscode.TextEditor> {
  const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(path.join(workspaceRoot(), ...rel.split('/'))));
  return vscode.window.showTextDocument(doc, {
    preview: false,
    selection: new vscode.Range(line - 1, character, line - 1, character),
  });
}

/**
 * Selects in the editor and waits until the selection has made the round trip through the window,
 * so that a confirmation of an earlier selection cannot arrive later and replace it.
 */
export async function select(editor: vscode.TextEditor, selection: vscode.Selection): Promise<void> {
  const confirmed = new Promise<void>((resolve) => {
    const sub = vscode.window.onDidChangeTextEditorSelection((e) => {
      if (e.textEditor === editor && e.selections[0]?.isEqual(selection)) {
        sub.dispose();
        resolve();
      }
    });
  });
  editor.selection = selection;
  await Promise.race([confirmed, sleep(2000)]);
  await sleep(50);
  assert.ok(editor.selection.isEqual(selection), 'the editor did not keep the selection');
}

/** 1-based line of the first line of `rel` that contains `needle`. */
export async function lineOf(rel: string, needle: string): Promise<number> {
  const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(path.join(workspaceRoot(), ...rel.split('/'))));
  const i = doc
    .getText()
    .split('\n')
    .findIndex((l) => l.includes(needle));
  assert.ok(i >= 0, `${rel} has no line with "${needle}"`);
  return i + 1;
}

/** Waits until the editor's language support answers for `uri`, so the cursor's symbol comes from it. */
export async function languageReady(uri: vscode.Uri): Promise<void> {
  await waitFor(
    async () => {
      const symbols = await vscode.commands.executeCommand<unknown[]>('vscode.executeDocumentSymbolProvider', uri);
      return symbols?.length ? true : undefined;
    },
    30_000,
    `document symbols for ${vscode.workspace.asRelativePath(uri)}`,
  );
}

export async function closeAllEditors(): Promise<void> {
  await vscode.commands.executeCommand('workbench.action.closeAllEditors');
}

/** Runs the CLI built next to the extension (dist/cli.js) on the test workspace, as another process would. */
export function cli(...args: string[]): Promise<string> {
  const entry = path.join(path.resolve(__dirname, '..', '..', '..'), 'dist', 'cli.js');
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [entry, ...args, '--root', workspaceRoot()],
      { env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' }, timeout: 30_000 },
      (err, stdout, stderr) => {
        if (err) reject(new Error(`proactive-context ${args.join(' ')} failed: ${stderr || err.message}`));
        else resolve(stdout);
      },
    );
  });
}

export interface CliSubscription {
  id: string;
  kind: string;
  target: string;
  path?: string;
  symbol?: string;
  pattern?: string;
  lines?: { start: number; end: number };
}

export async function subscriptions(): Promise<CliSubscription[]> {
  return JSON.parse(await cli('subscriptions', '--json')) as CliSubscription[];
}

/** Removes every subscription through the extension itself (its language-model tool). */
export async function removeAllSubscriptions(): Promise<void> {
  await invokeTool('unsubscribe_all', {});
}
