import * as vscode from 'vscode';
import { ids } from './ids';

/**
 * Offers the Proactive Context MCP server (the bundled CLI's `mcp` command) to agent mode, one
 * server per workspace folder, sharing the extension's state directory so subscriptions made by an
 * agent show up in the panel and the other way round. None in Restricted Mode: the server would run
 * git; the definitions appear when the user trusts the workspace.
 */
export function registerMcpProvider(
  context: vscode.ExtensionContext,
  stateDirFor: (folder: vscode.WorkspaceFolder) => string,
): void {
  if (!vscode.lm?.registerMcpServerDefinitionProvider) return;
  const changed = new vscode.EventEmitter<void>();
  const cli = vscode.Uri.joinPath(context.extensionUri, 'dist', 'cli.js').fsPath;
  const version = String((context.extension.packageJSON as { version?: string }).version ?? '0');
  context.subscriptions.push(
    changed,
    vscode.workspace.onDidChangeWorkspaceFolders(() => changed.fire()),
    vscode.workspace.onDidGrantWorkspaceTrust(() => changed.fire()),
    vscode.lm.registerMcpServerDefinitionProvider(ids.mcpProvider, {
      onDidChangeMcpServerDefinitions: changed.event,
      provideMcpServerDefinitions: () =>
        (vscode.workspace.isTrusted ? (vscode.workspace.workspaceFolders ?? []) : [])
          .filter((f) => f.uri.scheme === 'file')
          .map((folder) => {
            const label =
              (vscode.workspace.workspaceFolders?.length ?? 0) > 1
                ? `Proactive Context (${folder.name})`
                : 'Proactive Context';
            const def = new vscode.McpStdioServerDefinition(
              label,
              process.execPath,
              [cli, 'mcp', '--root', folder.uri.fsPath, '--state-dir', stateDirFor(folder)],
              { ELECTRON_RUN_AS_NODE: '1' },
              version,
            );
            def.cwd = folder.uri;
            return def;
          }),
    }),
  );
}
