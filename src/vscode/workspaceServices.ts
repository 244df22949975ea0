import * as vscode from 'vscode';
import { ContextService } from '../core/api/contextService';
import { resolveStateDir, type Logger } from '../core/api/types';
import { readConfig, readStateDirSetting } from './config';

/** One ContextService per workspace folder, opened on first use and closed with the folder. */
export class WorkspaceServices implements vscode.Disposable {
  private readonly services = new Map<string, Promise<ContextService>>();
  private readonly ready = new Map<string, ContextService>();
  private readonly created = new vscode.EventEmitter<{ folder: vscode.WorkspaceFolder; service: ContextService }>();
  readonly onDidOpen = this.created.event;
  private readonly disposables: vscode.Disposable[] = [this.created];

  constructor(private readonly logger: Logger) {
    this.disposables.push(
      vscode.workspace.onDidChangeWorkspaceFolders((e) => {
        for (const f of e.removed) void this.close(f);
      }),
    );
  }

  stateDirFor(folder: vscode.WorkspaceFolder): string {
    const setting = readStateDirSetting();
    return resolveStateDir(folder.uri.fsPath, setting && vscode.workspace.workspaceFolders?.length === 1 ? setting : undefined);
  }

  get(folder: vscode.WorkspaceFolder): Promise<ContextService> {
    const key = folder.uri.toString();
    let p = this.services.get(key);
    if (!p) {
      p = ContextService.open({ root: folder.uri.fsPath, stateDir: this.stateDirFor(folder), config: readConfig(folder.uri), logger: this.logger });
      p.then(
        (service) => {
          this.ready.set(key, service);
          this.created.fire({ folder, service });
        },
        () => this.services.delete(key),
      );
      this.services.set(key, p);
    }
    return p;
  }

  /** The folder's service if it is already open, without waiting. */
  peek(folder: vscode.WorkspaceFolder): ContextService | undefined {
    return this.ready.get(folder.uri.toString());
  }

  /** Services already opened (for config pushes and file events). */
  async opened(): Promise<{ folder: vscode.WorkspaceFolder; service: ContextService }[]> {
    const out: { folder: vscode.WorkspaceFolder; service: ContextService }[] = [];
    for (const folder of vscode.workspace.workspaceFolders ?? []) {
      const p = this.services.get(folder.uri.toString());
      if (!p) continue;
      try {
        out.push({ folder, service: await p });
      } catch {
        // Failed to open: reported where it was opened.
      }
    }
    return out;
  }

  /** The folder whose root is `fsPath`, if open. */
  folderOf(fsPath: string): vscode.WorkspaceFolder | undefined {
    return vscode.workspace.workspaceFolders?.find((f) => f.uri.fsPath === fsPath);
  }

  /** The folder of the active editor, else the first folder. */
  activeFolder(): vscode.WorkspaceFolder | undefined {
    const uri = vscode.window.activeTextEditor?.document.uri;
    return (uri && vscode.workspace.getWorkspaceFolder(uri)) ?? vscode.workspace.workspaceFolders?.[0];
  }

  private async close(folder: vscode.WorkspaceFolder): Promise<void> {
    const key = folder.uri.toString();
    const p = this.services.get(key);
    this.services.delete(key);
    this.ready.delete(key);
    try {
      (await p)?.dispose();
    } catch {
      // Never opened.
    }
  }

  /** Flushes and closes every service; awaited by deactivate() so nothing pending is lost. */
  async disposeAll(): Promise<void> {
    const all = [...this.services.values()];
    this.services.clear();
    this.ready.clear();
    await Promise.all(all.map((p) => p.then((s) => s.dispose(), () => undefined)));
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
    void this.disposeAll();
  }
}
