// Shared steps for the chat and tool tests: the extension under test, the fake model's recordings,
// and files in the test workspace. Needs the fake-lm test extension (test/extensions/fake-lm) loaded.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';

export interface RecordedMessage {
  role: 'user' | 'assistant';
  text: string;
}
export interface RecordedRequest {
  at: number;
  model: string;
  messages: RecordedMessage[];
}

const EXTENSION_ID = 'proactive-context.proactive-context';

export async function activateExtension(): Promise<void> {
  const extension = vscode.extensions.getExtension(EXTENSION_ID);
  assert.ok(extension, `extension ${EXTENSION_ID} is not installed in this VS Code`);
  await extension.activate();
}

/** Whether the fake model extension is loaded (the harness adds it as a second development path). */
export async function fakeModelAvailable(): Promise<boolean> {
  const commands = await vscode.commands.getCommands(true);
  return commands.includes('fakeLm.requests');
}

export async function requireFakeModel(): Promise<void> {
  for (let i = 0; i < 50 && !(await fakeModelAvailable()); i++) await sleep(100);
  assert.ok(
    await fakeModelAvailable(),
    'the fake language model (test/extensions/fake-lm) is not loaded: the harness must pass it as a second extensionDevelopmentPath',
  );
  const models = await waitFor(
    async () => {
      const found = await vscode.lm.selectChatModels({ vendor: 'fake-lm' });
      return found.length ? found : undefined;
    },
    15_000,
    'the fake-lm chat model to be registered',
  );
  assert.equal(models[0].vendor, 'fake-lm');
}

export function workspaceRoot(): string {
  const folder = vscode.workspace.workspaceFolders?.[0];
  assert.ok(folder, 'the integration run has no workspace folder');
  return folder.uri.fsPath;
}

/** Writes a file in the test workspace (creating folders) and returns its URI. */
export function writeWorkspaceFile(rel: string, content: string): vscode.Uri {
  const abs = path.join(workspaceRoot(), ...rel.split('/'));
  fs.mkdirSync(path.dirname(abs), { recursive: true });
  fs.writeFileSync(abs, content);
  return vscode.Uri.file(abs);
}

export async function requests(): Promise<RecordedRequest[]> {
  return (await vscode.commands.executeCommand<RecordedRequest[]>('fakeLm.requests')) ?? [];
}

/**
 * Sends a message in the chat view, as a user typing it, and resolves with the request the fake
 * model received for it.
 */
export async function ask(query: string, modelId = 'fake-lm-1'): Promise<RecordedRequest> {
  const before = (await requests()).length;
  await openChat(query, modelId);
  return waitFor(
    async () => {
      const all = await requests();
      return all.length > before ? all[all.length - 1] : undefined;
    },
    30_000,
    `the model to receive "${query}"`,
  );
}

/** Sends a chat command that does not reach the model, then waits until `done` holds. */
export async function sendCommand(query: string, done: () => Promise<boolean>, what: string): Promise<void> {
  await openChat(query);
  await waitFor(async () => ((await done()) ? true : undefined), 30_000, what);
}

/** The chat view picks no model by itself offline: select the fake one for the request. */
async function openChat(query: string, modelId = 'fake-lm-1'): Promise<void> {
  await vscode.commands.executeCommand('workbench.action.chat.open', {
    query,
    modelSelector: { vendor: 'fake-lm', id: modelId },
  });
}

export async function newChat(): Promise<void> {
  await vscode.commands.executeCommand('workbench.action.chat.newChat');
}

/** Invokes one of the extension's language-model tools and returns its text. */
export async function invokeTool(name: string, input: object): Promise<string> {
  const result = await vscode.lm.invokeTool(name, { input, toolInvocationToken: undefined });
  return result.content.map((p) => (p instanceof vscode.LanguageModelTextPart ? p.value : '')).join('');
}

export async function waitFor<T>(probe: () => Promise<T | undefined>, timeoutMs: number, what: string): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  while (Date.now() < deadline) {
    try {
      const v = await probe();
      if (v !== undefined) return v;
    } catch (err) {
      last = err;
    }
    await sleep(100);
  }
  throw new Error(
    `timed out after ${timeoutMs / 1000} s waiting for ${what}${last ? ` (last error: ${(last as Error).message})` : ''}`,
  );
}

export function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

/** Index of the first message whose text contains `needle`, or -1. */
export function indexOfText(req: RecordedRequest, needle: string): number {
  return req.messages.findIndex((m) => m.text.includes(needle));
}

export function allText(req: RecordedRequest): string {
  return req.messages.map((m) => m.text).join('\n');
}
