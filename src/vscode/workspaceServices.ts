import * as vscode from 'vscode';
import { ContextService } from '../core/api/contextService';
import type { SnapshotSource } from '../core/api/types';
import { resolveStateDir, type Logger } from '../core/api/types';
import { readConfig, readStateDirSetting } from './config';

/** Said where history would be, while the folder is not trusted. */
const RESTRICTED_MODE_NOTE = 'Restricted Mode: history and co-change are off until you trust this folder.';

/** One ContextService per workspace folder, opened on first use and closed with the folder. */
export class WorkspaceServices implements vscode.Disposable {
  private readonly services = new Map<string, Promise<ContextService>>();
  private readonly ready = new Map<string, ContextService>();
  private readonly created = new vscode.EventEmitter<{ folder: vscode.WorkspaceFolder; service: ContextService }>();
  readonly onDidOpen = this.created.event;
  private readonly gitAllowed = new vscode.EventEmitter<void>();
  /** The user trusted the workspace and every open service may run git now. */
  readonly onDidAllowGit = this.gitAllowed.event;
  private readonly disposables: vscode.Disposable[] = [this.created, this.gitAllowed];

  constructor(
    private readonly logger: Logger,
    /** The team index snapshot a folder starts from; downloaded in the background, never before it opens. */
    private readonly teamIndex: () => SnapshotSource | undefined = () => undefined,
  ) {
    this.disposables.push(
      vscode.workspace.onDidChangeWorkspaceFolders((e) => {
        for (const f of e.removed) void this.close(f);
      }),
      vscode.workspace.onDidGrantWorkspaceTrust(() => void this.allowGit()),
    );
  }

  /** Trust was granted: services opened (or opening) with git off switch it on in place, no reload. */
  private async allowGit(): Promise<void> {
    this.logger.info('The workspace is trusted now: reading git history.');
    await Promise.all(
      [...this.services.values()].map((p) =>
        p.then(
          (s) => s.allowGit(),
          () => undefined,
        ),
      ),
    );
    this.gitAllowed.fire();
  }

  stateDirFor(folder: vscode.WorkspaceFolder): string {
    const setting = readStateDirSetting();
    return resolveStateDir(
      folder.uri.fsPath,
      setting && vscode.workspace.workspaceFolders?.length === 1 ? setting : undefined,
    );
  }

  get(folder: vscode.WorkspaceFolder): Promise<ContextService> {
    const key = folder.uri.toString();
    let p = this.services.get(key);
    if (!p) {
      // Restricted Mode: a repository's config can make git run programs, so git stays off until trust.
      const noGit = vscode.workspace.isTrusted ? undefined : { reason: RESTRICTED_MODE_NOTE };
      const snapshot = this.teamIndex();
      p = ContextService.open({
        root: folder.uri.fsPath,
        stateDir: this.stateDirFor(folder),
        config: readConfig(folder.uri),
        logger: this.logger,
        noGit,
        ...(snapshot ? { snapshot } : {}),
      });
      p.then(
        (service) => {
          // Trust granted while it was opening: the grant's pass may have missed it.
          if (vscode.workspace.isTrusted) service.allowGit();
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
    await Promise.all(
      all.map((p) =>
        p.then(
          (s) => s.dispose(),
          () => undefined,
        ),
      ),
    );
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
    void this.disposeAll();
  }
}
