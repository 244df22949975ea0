// Smoke test inside a real extension host: the extension loads, activates, registers everything its
// manifest promises, and its panel opens. Ids come from package.json so this never drifts from it.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';

interface Manifest {
  name: string;
  publisher: string;
  contributes?: {
    commands?: Array<{ command: string; title: string }>;
    viewsContainers?: { activitybar?: Array<{ id: string; title: string }> };
    views?: Record<string, Array<{ id: string; type?: string; name: string }>>;
  };
}

// Compiled to out/<dir>/integration/ (by tsc or the harness), three levels below the repo root.
const manifest = JSON.parse(
  fs.readFileSync(path.resolve(__dirname, '..', '..', '..', 'package.json'), 'utf8'),
) as Manifest;
const extensionId = `${manifest.publisher}.${manifest.name}`;

async function activeExtension(): Promise<vscode.Extension<unknown>> {
  const extension = vscode.extensions.getExtension(extensionId);
  assert.ok(extension, `extension ${extensionId} is not installed in this VS Code`);
  await extension.activate();
  return extension;
}

suite('activation', () => {
  test('the extension is present and activates', async () => {
    assert.equal(extensionId, 'proactive-context.proactive-context');
    const extension = await activeExtension();
    assert.equal(extension.isActive, true);
  });

  test('every command in contributes.commands is registered', async () => {
    await activeExtension();
    const declared = (manifest.contributes?.commands ?? []).map((c) => c.command);
    assert.ok(declared.length > 0, 'package.json contributes no commands');
    const registered = new Set(await vscode.commands.getCommands(true));
    const missing = declared.filter((id) => !registered.has(id));
    assert.deepEqual(missing, [], `commands declared in package.json but not registered: ${missing.join(', ')}`);
  });

  test('the suggestions webview view can be revealed', async () => {
    await activeExtension();
    const containers = manifest.contributes?.viewsContainers?.activitybar ?? [];
    const container = containers.find((c) => c.title === 'Proactive Context');
    assert.ok(container, 'no activity-bar container titled "Proactive Context"');
    const view = (manifest.contributes?.views?.[container.id] ?? []).find((v) => v.type === 'webview');
    assert.ok(view, `no webview view in container ${container.id}`);
    assert.equal(view.id, 'proactiveContext.suggestions');
    await vscode.commands.executeCommand(`workbench.view.extension.${container.id}`);
    await vscode.commands.executeCommand(`${view.id}.focus`);
  });
});
