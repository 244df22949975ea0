import * as vscode from 'vscode';
import { serveHooks } from '../cli/hooks/hookServer';
import type { ContextService } from '../core/api/contextService';
import type { Logger } from '../core/api/types';
import type { WorkspaceServices } from './workspaceServices';

/**
 * Lets the agent hooks of an open folder (`proactive-context-hook`, run by Claude Code, VS Code's
 * agent hooks, Cline…) be answered by this window's engine, which holds the folder's index and
 * decision records already: a loopback endpoint with the workspace's bearer token, published in
 * its state directory. Only once git may run (a trusted workspace), and for local folders.
 */
export function registerHookEndpoint(
  context: vscode.ExtensionContext,
  services: WorkspaceServices,
  logger: Logger,
): void {
  const start = (service: ContextService): void => {
    if (!service.gitAllowed) {
      const granted = services.onDidAllowGit(() => {
        granted.dispose();
        start(service);
      });
      context.subscriptions.push(granted);
      return;
    }
    let closed = false;
    let stop: (() => Promise<void>) | undefined;
    service.onDispose(() => {
      closed = true;
      void stop?.();
    });
    serveHooks(service, logger).then(
      (s) => {
        if (closed) void s();
        else stop = s;
      },
      (err: Error) => logger.warn(`Agent hooks will be answered without this window: ${err.message}`),
    );
  };
  context.subscriptions.push(
    services.onDidOpen(({ folder, service }) => {
      if (folder.uri.scheme === 'file') start(service);
    }),
  );
}
