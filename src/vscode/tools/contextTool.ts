import * as vscode from 'vscode';
import type { ContextService } from '../../core/api/contextService';
import { userMessageOf } from '../../core/api/errors';
import type { ActivityTracker } from '../activityTracker';
import type { WorkspaceServices } from '../workspaceServices';
import { ToolInputError } from './toolInput';

export interface ToolDeps {
  services: WorkspaceServices;
  tracker: ActivityTracker;
  log: vscode.LogOutputChannel;
}

/** What a tool's body gets: the active folder's service, a cancellation signal and the folder. */
export interface ToolRun {
  service: ContextService;
  signal: AbortSignal;
  folder: vscode.WorkspaceFolder;
}

/**
 * The base of every Proactive Context tool: runs the body on the active folder's service and turns
 * errors into messages the model can act on (bugs are logged with their stack).
 */
export abstract class ContextTool<T> implements vscode.LanguageModelTool<T> {
  constructor(protected readonly deps: ToolDeps) {}

  abstract prepareInvocation(
    options: vscode.LanguageModelToolInvocationPrepareOptions<T>,
  ): vscode.ProviderResult<vscode.PreparedToolInvocation>;

  protected abstract run(input: T, r: ToolRun): string | Promise<string>;

  async invoke(
    options: vscode.LanguageModelToolInvocationOptions<T>,
    token: vscode.CancellationToken,
  ): Promise<vscode.LanguageModelToolResult> {
    const folder = this.deps.services.activeFolder();
    if (!folder) throw new Error('No workspace folder is open; Proactive Context works on a folder.');
    const controller = new AbortController();
    const sub = token.onCancellationRequested(() => controller.abort());
    try {
      const service = await this.deps.services.get(folder);
      const text = await this.run(options.input, { service, signal: controller.signal, folder });
      return new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(text)]);
    } catch (err) {
      const message = err instanceof ToolInputError ? err.message : userMessageOf(err);
      if (message) throw new Error(message);
      this.deps.log.error(`A language-model tool failed: ${(err as Error)?.stack ?? String(err)}`);
      throw new Error(`Proactive Context failed: ${(err as Error)?.message ?? String(err)}`);
    } finally {
      sub.dispose();
    }
  }

  /** The active folder's service for confirmation texts, when it is open; never throws. */
  protected async peekService(): Promise<ContextService | undefined> {
    const folder = this.deps.services.activeFolder();
    if (!folder) return undefined;
    try {
      return await this.deps.services.get(folder);
    } catch {
      return undefined;
    }
  }
}
