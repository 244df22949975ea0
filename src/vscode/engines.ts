import * as vscode from 'vscode';
import { Engine } from '../core/engine';
import type { Logger } from '../core/logger';
import { resolveStateDir } from '../core/paths';
import { readConfig, readStateDirSetting } from './config';

/** One engine per workspace folder, opened on first use and disposed with the folder. */
export class EngineHost implements vscode.Disposable {
  private readonly engines = new Map<string, Promise<Engine>>();
  private readonly ready = new Map<string, Engine>();
  private readonly created = new vscode.EventEmitter<{ folder: vscode.WorkspaceFolder; engine: Engine }>();
  readonly onDidOpenEngine = this.created.event;
  private readonly disposables: vscode.Disposable[] = [this.created];

  constructor(private readonly logger: Logger) {
    this.disposables.push(
      vscode.workspace.onDidChangeWorkspaceFolders((e) => {
        for (const f of e.removed) void this.close(f);
      }),
    );
  }

  stateDirFor(folder: vscode.WorkspaceFolder): string {
    return resolveStateDir(folder.uri.fsPath, readStateDirSetting() && vscode.workspace.workspaceFolders?.length === 1 ? readStateDirSetting() : undefined);
  }

  get(folder: vscode.WorkspaceFolder): Promise<Engine> {
    const key = folder.uri.toString();
    let p = this.engines.get(key);
    if (!p) {
      p = Engine.open({ root: folder.uri.fsPath, stateDir: this.stateDirFor(folder), config: readConfig(folder.uri), logger: this.logger });
      p.then(
        (engine) => {
          this.ready.set(key, engine);
          this.created.fire({ folder, engine });
        },
        () => this.engines.delete(key),
      );
      this.engines.set(key, p);
    }
    return p;
  }

  /** The folder's engine if it is already open, without waiting. */
  peek(folder: vscode.WorkspaceFolder): Engine | undefined {
    return this.ready.get(folder.uri.toString());
  }

  /** Engines already opened (for config pushes and file events). */
  async opened(): Promise<{ folder: vscode.WorkspaceFolder; engine: Engine }[]> {
    const out: { folder: vscode.WorkspaceFolder; engine: Engine }[] = [];
    for (const folder of vscode.workspace.workspaceFolders ?? []) {
      const p = this.engines.get(folder.uri.toString());
      if (!p) continue;
      try {
        out.push({ folder, engine: await p });
      } catch {
        // Failed to open: reported where it was opened.
      }
    }
    return out;
  }

  /** The folder of the active editor, else the first folder. */
  activeFolder(): vscode.WorkspaceFolder | undefined {
    const uri = vscode.window.activeTextEditor?.document.uri;
    return (uri && vscode.workspace.getWorkspaceFolder(uri)) ?? vscode.workspace.workspaceFolders?.[0];
  }

  private async close(folder: vscode.WorkspaceFolder): Promise<void> {
    const key = folder.uri.toString();
    const p = this.engines.get(key);
    this.engines.delete(key);
    this.ready.delete(key);
    try {
      (await p)?.dispose();
    } catch {
      // Never opened.
    }
  }

  /** Flushes and closes every engine; awaited by deactivate() so nothing pending is lost. */
  async disposeAll(): Promise<void> {
    const all = [...this.engines.values()];
    this.engines.clear();
    this.ready.clear();
    await Promise.all(all.map((p) => p.then((e) => e.dispose(), () => undefined)));
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
    void this.disposeAll();
  }
}
