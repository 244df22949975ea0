import * as vscode from 'vscode';
import type { ContextService } from '../../core/api/contextService';
import { SubscriptionLimitError } from '../../core/api/errors';
import {
  describeSubscription as describe,
  NO_FOLDER,
  noSubscriptions,
  subscribed,
  subscriptionLimit,
} from '../../core/api/messages';
import {
  compileUserPattern,
  type SubscribeRequest,
  type Subscription,
  type SuggestionItem,
} from '../../core/api/types';
import type { ActivityTracker } from '../activityTracker';
import { relativePath } from '../activityTracker';
import { ids } from '../ids';
import type { WorkspaceServices } from '../workspaceServices';

/** Whether a chat model can answer `@context` now (the notification says when the subscription reaches chat). */
export type ChatModelCheck = () => Promise<boolean>;

/** Subscribes, asking to replace the oldest when the limit is reached; returns undefined when the user declines. */
export async function subscribeWithLimit(
  service: ContextService,
  request: SubscribeRequest,
  chatModel: ChatModelCheck,
): Promise<Subscription | undefined> {
  let outcome;
  try {
    outcome = await service.subscriptions.subscribe(request);
  } catch (err) {
    if (!(err instanceof SubscriptionLimitError)) throw err;
    const replace = 'Replace Oldest';
    const pick = await vscode.window.showWarningMessage(subscriptionLimit(err, 'palette'), replace);
    if (pick !== replace) return undefined;
    outcome = await service.subscriptions.subscribe(request, { replaceOldest: true });
  }
  const hasModel = await chatModel();
  void vscode.window.showInformationMessage(
    subscribed(outcome, Date.now(), { maxChars: service.config.subscriptions.maxChars, chatModel: hasModel }).join(' '),
  );
  return outcome.subscription;
}

/** Pin-to-chat from the panel: subscribe to what the item points at. */
export async function subscribeToItem(
  service: ContextService,
  item: SuggestionItem,
  chatModel: ChatModelCheck,
): Promise<void> {
  const loc = item.location;
  const request: SubscribeRequest =
    loc.line && loc.endLine && loc.endLine > loc.line && item.type !== 'decision'
      ? { kind: 'lines', target: loc.path, lines: { start: loc.line, end: loc.endLine } }
      : { kind: 'file', target: loc.path };
  await subscribeWithLimit(service, request, chatModel);
}

/** Runs a palette command on the active folder's service; failures become one error message. */
export async function withService(
  services: WorkspaceServices,
  fn: (service: ContextService, folder: vscode.WorkspaceFolder) => Promise<unknown>,
): Promise<void> {
  const folder = services.activeFolder();
  if (!folder) {
    void vscode.window.showWarningMessage(NO_FOLDER);
    return;
  }
  try {
    await fn(await services.get(folder), folder);
  } catch (err) {
    void vscode.window.showErrorMessage(`Proactive Context: ${(err as Error).message}`);
  }
}

async function pickWorkspaceFile(folder: vscode.WorkspaceFolder, title: string): Promise<string | undefined> {
  const files = await vscode.workspace.findFiles(
    new vscode.RelativePattern(folder, '**/*'),
    '**/{node_modules,.git}/**',
    5000,
  );
  const picked = await vscode.window.showQuickPick(
    files
      .map((f) => relativePath(folder, f))
      .sort()
      .map((p) => ({ label: p })),
    { title, placeHolder: 'Type to search workspace files', matchOnDescription: true },
  );
  return picked?.label;
}

// eslint-disable-next-line max-lines-per-function -- one registration per command
export function registerSubscriptionCommands(
  context: vscode.ExtensionContext,
  services: WorkspaceServices,
  tracker: ActivityTracker,
  chatModel: ChatModelCheck,
): void {
  const reg = (id: string, fn: () => Promise<void>) =>
    context.subscriptions.push(vscode.commands.registerCommand(id, fn));
  const here = (folder: vscode.WorkspaceFolder) => tracker.currentPlace(folder)?.place;

  reg(ids.command.subscribeFile, () =>
    withService(services, async (service, folder) => {
      const path = here(folder)?.file ?? (await pickWorkspaceFile(folder, 'Subscribe chat to a file'));
      if (path) await subscribeWithLimit(service, { kind: 'file', target: path }, chatModel);
    }),
  );

  reg(ids.command.subscribeSelection, () =>
    withService(services, async (service, folder) => {
      const editor = vscode.window.activeTextEditor;
      const place = here(folder);
      if (!editor || !place || editor.selection.isEmpty) {
        void vscode.window.showInformationMessage('Select the lines to keep in the chat context first.');
        return;
      }
      const sel = editor.selection;
      const end = sel.end.character === 0 && sel.end.line > sel.start.line ? sel.end.line : sel.end.line + 1;
      await subscribeWithLimit(
        service,
        { kind: 'lines', target: place.file, lines: { start: sel.start.line + 1, end } },
        chatModel,
      );
    }),
  );

  reg(ids.command.subscribeSymbol, () =>
    withService(services, async (service, folder) => {
      const place = here(folder);
      let name = place?.symbol?.name;
      name ??= await vscode.window.showInputBox({
        title: 'Subscribe chat to a symbol',
        prompt: 'Name of the function, class or method to follow through edits',
        validateInput: (v) =>
          /^[A-Za-z_$][\w$.]*$/.test(v.trim()) ? undefined : 'Enter an identifier such as applyDiscount or Cart.total',
      });
      if (!name) return;
      await subscribeWithLimit(
        service,
        { kind: 'symbol', target: place ? `${place.file}::${name.trim()}` : `::${name.trim()}`, symbol: name.trim() },
        chatModel,
      );
    }),
  );

  reg(ids.command.subscribePattern, () =>
    withService(services, async (service, folder) => {
      const path =
        here(folder)?.file ?? (await pickWorkspaceFile(folder, 'Subscribe chat to matching lines of a file'));
      if (!path) return;
      const pattern = await vscode.window.showInputBox({
        title: `Lines of ${path} matching…`,
        prompt: 'A regular expression; only matching lines (with their numbers) go into the chat context',
        placeHolder: 'TODO|FIXME',
        validateInput: (v) => {
          if (!v) return 'Enter a regular expression';
          try {
            compileUserPattern(v);
            return undefined;
          } catch (err) {
            return (err as Error).message;
          }
        },
      });
      if (pattern) await subscribeWithLimit(service, { kind: 'pattern', target: path, pattern }, chatModel);
    }),
  );

  reg(ids.command.subscribeMemory, () =>
    withService(services, async (service) => {
      const query = await vscode.window.showInputBox({
        title: 'Subscribe chat to a memory search',
        prompt: 'Search text over decisions, notes and past @context conversations',
        validateInput: (v) =>
          v.trim().length < 2
            ? 'Enter at least two characters'
            : v.length > 500
              ? 'Keep it under 500 characters'
              : undefined,
      });
      if (query) await subscribeWithLimit(service, { kind: 'memory', target: query.trim() }, chatModel);
    }),
  );

  reg(ids.command.unsubscribe, () =>
    withService(services, async (service) => {
      const subs = service.subscriptions.list().list;
      if (subs.length === 0) {
        void vscode.window.showInformationMessage('There are no active subscriptions.');
        return;
      }
      const picked = await vscode.window.showQuickPick(
        subs.map((s) => ({
          label: describe(s),
          description: `${s.kind} · ${s.id}`,
          detail: `expires ${new Date(s.expiresAt).toLocaleString()}`,
          s,
        })),
        { title: 'Unsubscribe', placeHolder: 'Choose subscriptions to remove', canPickMany: true },
      );
      if (!picked?.length) return;
      for (const p of picked) service.subscriptions.unsubscribe(p.s.id);
      void vscode.window.showInformationMessage(
        `Removed ${picked.length} subscription${picked.length === 1 ? '' : 's'}.`,
      );
    }),
  );

  reg(ids.command.unsubscribeAll, () =>
    withService(services, async (service) => {
      const n = service.subscriptions.list().list.length;
      if (n === 0) {
        void vscode.window.showInformationMessage('There are no active subscriptions.');
        return;
      }
      const ok = await vscode.window.showWarningMessage(
        `Remove all ${n} subscriptions?`,
        { modal: true },
        'Remove All',
      );
      if (ok !== 'Remove All') return;
      const removed = service.subscriptions.unsubscribeAll();
      void vscode.window.showInformationMessage(`Removed ${removed} subscription${removed === 1 ? '' : 's'}.`);
    }),
  );

  reg(ids.command.listSubscriptions, () =>
    withService(services, async (service, folder) => {
      const { list: subs, max } = service.subscriptions.list();
      if (subs.length === 0) {
        void vscode.window.showInformationMessage(noSubscriptions(max, 'palette'));
        return;
      }
      const picked = await vscode.window.showQuickPick(
        subs.map((s) => ({
          label: describe(s),
          description: `${s.kind} · ${s.id}`,
          detail: `renewed ${new Date(s.renewedAt).toLocaleString()} · expires ${new Date(s.expiresAt).toLocaleString()}`,
          s,
        })),
        { title: `Active subscriptions (${subs.length}/${max})`, placeHolder: 'Select one to open it' },
      );
      if (picked?.s.path) {
        const doc = await vscode.workspace.openTextDocument(
          vscode.Uri.joinPath(folder.uri, ...picked.s.path.split('/')),
        );
        const line = Math.max(0, (picked.s.lines?.start ?? 1) - 1);
        await vscode.window.showTextDocument(doc, { selection: new vscode.Range(line, 0, line, 0) });
      }
    }),
  );
}
