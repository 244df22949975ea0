import * as vscode from 'vscode';
import type { ContextService } from '../../core/api/contextService';
import { describeWatch } from '../../core/api/messages';
import { WATCH_LIMITS, type WatchPattern } from '../../core/api/types';
import type { ActivityTracker } from '../activityTracker';
import { relativePath } from '../activityTracker';
import { ids } from '../ids';
import { EDITOR_SCOPE, type WatchPanel } from '../watches/watchPanel';
import type { WorkspaceServices } from '../workspaceServices';
import { withService } from './subscriptionCommands';

/** Creates a watch from the editor and says what it follows; a firing then shows in the Watching section. */
async function addWatch(service: ContextService, panel: WatchPanel, patterns: WatchPattern[]): Promise<void> {
  const { watch, renewed } = service.watches.add({ patterns, scope: EDITOR_SCOPE });
  panel.refresh();
  void vscode.window.showInformationMessage(
    `${renewed ? 'Still watching' : 'Watching'} ${describeWatch(watch)}. When it changes or comes into focus, its context shows in the panel’s Watching section.`,
  );
}

/** Watch palette commands: the current file, its folder, the symbol at the cursor, a topic; and stop watching. */
// eslint-disable-next-line max-lines-per-function -- one registration per command
export function registerWatchCommands(
  context: vscode.ExtensionContext,
  services: WorkspaceServices,
  tracker: ActivityTracker,
  panel: WatchPanel,
): void {
  const reg = (id: string, fn: () => Promise<void>) =>
    context.subscriptions.push(vscode.commands.registerCommand(id, fn));
  const here = (folder: vscode.WorkspaceFolder) => tracker.currentPlace(folder)?.place;

  reg(ids.command.watchFile, () =>
    withService(services, async (service, folder) => {
      const place = here(folder);
      if (!place) {
        void vscode.window.showInformationMessage('Open a file of this workspace to watch it.');
        return;
      }
      await addWatch(service, panel, [{ type: 'file', pattern: place.file }]);
    }),
  );

  reg(ids.command.watchFolder, () =>
    withService(services, async (service, folder) => {
      const file = here(folder)?.file;
      let dir = file && file.includes('/') ? file.slice(0, file.lastIndexOf('/')) : undefined;
      if (!dir) {
        const picked = await vscode.window.showOpenDialog({
          canSelectFolders: true,
          canSelectFiles: false,
          defaultUri: folder.uri,
          openLabel: 'Watch',
          title: 'Watch a folder',
        });
        const uri = picked?.[0];
        if (!uri) return;
        if (vscode.workspace.getWorkspaceFolder(uri)?.uri.toString() !== folder.uri.toString()) {
          void vscode.window.showWarningMessage('Pick a folder inside the workspace folder.');
          return;
        }
        dir = relativePath(folder, uri);
      }
      await addWatch(service, panel, [{ type: 'file', pattern: dir ? `${dir}/**` : '**' }]);
    }),
  );

  reg(ids.command.watchSymbol, () =>
    withService(services, async (service, folder) => {
      const place = here(folder);
      const name = place?.symbol?.name;
      if (!place || !name) {
        void vscode.window.showInformationMessage('Put the cursor in a function, class or method to watch it.');
        return;
      }
      await addWatch(service, panel, [{ type: 'symbol', pattern: `${place.file}::${name}` }]);
    }),
  );

  reg(ids.command.watchTopic, () =>
    withService(services, async (service) => {
      const topic = await vscode.window.showInputBox({
        title: 'Watch a topic',
        prompt: 'Words that new commits, decision records or failing tests must all contain (or a "quoted phrase")',
        placeHolder: 'session expiry',
        validateInput: (v) =>
          !v.trim()
            ? 'Enter a word or two'
            : v.length > WATCH_LIMITS.topicChars
              ? `Keep it under ${WATCH_LIMITS.topicChars} characters`
              : undefined,
      });
      if (topic?.trim()) await addWatch(service, panel, [{ type: 'topic', pattern: topic.trim() }]);
    }),
  );

  reg(ids.command.unwatch, () =>
    withService(services, async (service) => {
      const watches = service.watches.list();
      if (!watches.length) {
        void vscode.window.showInformationMessage('Nothing is being watched.');
        return;
      }
      const picked = await vscode.window.showQuickPick(
        watches.map((w) => ({
          label: describeWatch(w),
          description: w.scope === EDITOR_SCOPE ? w.id : `${w.id} · made by an agent`,
          w,
        })),
        { title: 'Stop watching', placeHolder: 'Choose the watches to stop', canPickMany: true },
      );
      if (!picked?.length) return;
      for (const p of picked) service.watches.remove(p.w.id);
      panel.refresh();
      void vscode.window.showInformationMessage(`Stopped ${picked.length} watch${picked.length === 1 ? '' : 'es'}.`);
    }),
  );
}
