import * as vscode from 'vscode';
import type { Engine } from '../../core/engine';
import { SubscriptionError, type SubscribeRequest, type Subscription } from '../../core/subscriptions/registry';
import type { SuggestionItem } from '../../core/types';
import type { ActivityTracker } from '../activityTracker';
import { relativePath } from '../activityTracker';
import type { EngineHost } from '../engines';
import { describeSubscription as describe } from '../chat/chatText';
import { ids } from '../ids';

/** Subscribes, asking to replace the oldest when the limit is reached; returns undefined when the user declines. */
export async function subscribeWithLimit(engine: Engine, request: SubscribeRequest): Promise<Subscription | undefined> {
  try {
    const r = engine.subscriptions.subscribe(request);
    void vscode.window.showInformationMessage(`${r.renewed ? 'Renewed' : 'Subscribed'}: ${describe(r.subscription)} (id ${r.subscription.id}). @context will include it in every turn.`);
    return r.subscription;
  } catch (err) {
    if (err instanceof SubscriptionError && err.reason === 'limit') {
      const replace = 'Replace Oldest';
      const pick = await vscode.window.showWarningMessage(err.message, replace);
      if (pick !== replace) return undefined;
      const r = engine.subscriptions.subscribe({ ...request, replaceOldest: true });
      void vscode.window.showInformationMessage(`Subscribed: ${describe(r.subscription)}${r.replaced ? `; removed the oldest, ${describe(r.replaced)}` : ''}.`);
      return r.subscription;
    }
    throw err;
  }
}

/** Pin-to-chat from the panel: subscribe to what the item points at. */
export async function subscribeToItem(engine: Engine, item: SuggestionItem): Promise<void> {
  const loc = item.location;
  const request: SubscribeRequest =
    loc.line && loc.endLine && loc.endLine > loc.line && item.type !== 'decision'
      ? { kind: 'lines', target: loc.path, lines: { start: loc.line, end: loc.endLine } }
      : { kind: 'file', target: loc.path };
  await subscribeWithLimit(engine, request);
}

async function withEngine(host: EngineHost, fn: (engine: Engine, folder: vscode.WorkspaceFolder) => Promise<unknown>): Promise<void> {
  const folder = host.activeFolder();
  if (!folder) {
    void vscode.window.showWarningMessage('Proactive Context works on a workspace folder: open a folder first.');
    return;
  }
  try {
    await fn(await host.get(folder), folder);
  } catch (err) {
    void vscode.window.showErrorMessage(`Proactive Context: ${(err as Error).message}`);
  }
}

function activeFile(): { editor: vscode.TextEditor; folder: vscode.WorkspaceFolder; path: string } | undefined {
  const editor = vscode.window.activeTextEditor;
  if (!editor || editor.document.uri.scheme !== 'file') return undefined;
  const folder = vscode.workspace.getWorkspaceFolder(editor.document.uri);
  if (!folder) return undefined;
  return { editor, folder, path: relativePath(folder, editor.document.uri) };
}

async function pickWorkspaceFile(folder: vscode.WorkspaceFolder, title: string): Promise<string | undefined> {
  const files = await vscode.workspace.findFiles(new vscode.RelativePattern(folder, '**/*'), '**/{node_modules,.git}/**', 5000);
  const picked = await vscode.window.showQuickPick(
    files.map((f) => relativePath(folder, f)).sort().map((p) => ({ label: p })),
    { title, placeHolder: 'Type to search workspace files', matchOnDescription: true },
  );
  return picked?.label;
}

export function registerSubscriptionCommands(context: vscode.ExtensionContext, host: EngineHost, tracker: ActivityTracker): void {
  const reg = (id: string, fn: () => Promise<void>) => context.subscriptions.push(vscode.commands.registerCommand(id, fn));

  reg(ids.command.subscribeFile, () =>
    withEngine(host, async (engine, folder) => {
      const path = activeFile()?.path ?? (await pickWorkspaceFile(folder, 'Subscribe chat to a file'));
      if (path) await subscribeWithLimit(engine, { kind: 'file', target: path });
    }),
  );

  reg(ids.command.subscribeSelection, () =>
    withEngine(host, async (engine) => {
      const f = activeFile();
      if (!f || f.editor.selection.isEmpty) {
        void vscode.window.showInformationMessage('Select the lines to keep in the chat context first.');
        return;
      }
      const sel = f.editor.selection;
      const end = sel.end.character === 0 && sel.end.line > sel.start.line ? sel.end.line : sel.end.line + 1;
      await subscribeWithLimit(engine, { kind: 'lines', target: f.path, lines: { start: sel.start.line + 1, end } });
    }),
  );

  reg(ids.command.subscribeSymbol, () =>
    withEngine(host, async (engine) => {
      const f = activeFile();
      const last = tracker.lastActivity;
      let name = last?.kind === 'file' && f && last.path === f.path ? last.symbol?.name : undefined;
      if (!name && f) name = engine.symbolAt(f.path, f.editor.selection.active.line + 1)?.name;
      name ??= await vscode.window.showInputBox({
        title: 'Subscribe chat to a symbol',
        prompt: 'Name of the function, class or method to follow through edits',
        validateInput: (v) => (/^[A-Za-z_$][\w$.]*$/.test(v.trim()) ? undefined : 'Enter an identifier such as applyDiscount or Cart.total'),
      });
      if (!name) return;
      await subscribeWithLimit(engine, { kind: 'symbol', target: f ? `${f.path}::${name.trim()}` : `::${name.trim()}`, symbol: name.trim() });
    }),
  );

  reg(ids.command.subscribePattern, () =>
    withEngine(host, async (engine, folder) => {
      const path = activeFile()?.path ?? (await pickWorkspaceFile(folder, 'Subscribe chat to matching lines of a file'));
      if (!path) return;
      const pattern = await vscode.window.showInputBox({
        title: `Lines of ${path} matching…`,
        prompt: 'A regular expression; only matching lines (with their numbers) go into the chat context',
        placeHolder: 'TODO|FIXME',
        validateInput: (v) => {
          if (!v) return 'Enter a regular expression';
          try {
            new RegExp(v);
            return undefined;
          } catch (err) {
            return `Not a valid regular expression: ${(err as Error).message}`;
          }
        },
      });
      if (pattern) await subscribeWithLimit(engine, { kind: 'pattern', target: path, pattern });
    }),
  );

  reg(ids.command.subscribeMemory, () =>
    withEngine(host, async (engine) => {
      const query = await vscode.window.showInputBox({
        title: 'Subscribe chat to a memory search',
        prompt: 'Search text over decisions, notes and past @context conversations',
        validateInput: (v) => (v.trim().length < 2 ? 'Enter at least two characters' : v.length > 500 ? 'Keep it under 500 characters' : undefined),
      });
      if (query) await subscribeWithLimit(engine, { kind: 'memory', target: query.trim() });
    }),
  );

  reg(ids.command.unsubscribe, () =>
    withEngine(host, async (engine) => {
      const subs = engine.subscriptions.list();
      if (subs.length === 0) {
        void vscode.window.showInformationMessage('There are no active subscriptions.');
        return;
      }
      const picked = await vscode.window.showQuickPick(
        subs.map((s) => ({ label: describe(s), description: `${s.kind} · ${s.id}`, detail: `expires ${new Date(s.expiresAt).toLocaleString()}`, s })),
        { title: 'Unsubscribe', placeHolder: 'Choose subscriptions to remove', canPickMany: true },
      );
      if (!picked?.length) return;
      for (const p of picked) engine.subscriptions.unsubscribe(p.s.id);
      void vscode.window.showInformationMessage(`Removed ${picked.length} subscription${picked.length === 1 ? '' : 's'}.`);
    }),
  );

  reg(ids.command.unsubscribeAll, () =>
    withEngine(host, async (engine) => {
      const n = engine.subscriptions.list().length;
      if (n === 0) {
        void vscode.window.showInformationMessage('There are no active subscriptions.');
        return;
      }
      const ok = await vscode.window.showWarningMessage(`Remove all ${n} subscriptions?`, { modal: true }, 'Remove All');
      if (ok !== 'Remove All') return;
      const removed = engine.subscriptions.unsubscribeAll();
      void vscode.window.showInformationMessage(`Removed ${removed} subscription${removed === 1 ? '' : 's'}.`);
    }),
  );

  reg(ids.command.listSubscriptions, () =>
    withEngine(host, async (engine, folder) => {
      const subs = engine.subscriptions.list();
      if (subs.length === 0) {
        void vscode.window.showInformationMessage('No active subscriptions. Use “Subscribe Chat to Current File” or @context /subscribe.');
        return;
      }
      const picked = await vscode.window.showQuickPick(
        subs.map((s) => ({ label: describe(s), description: `${s.kind} · ${s.id}`, detail: `renewed ${new Date(s.renewedAt).toLocaleString()} · expires ${new Date(s.expiresAt).toLocaleString()}`, s })),
        { title: `Active subscriptions (${subs.length}/${engine.config.subscriptions.maxActive})`, placeHolder: 'Select one to open it' },
      );
      if (picked?.s.path) {
        const doc = await vscode.workspace.openTextDocument(vscode.Uri.joinPath(folder.uri, ...picked.s.path.split('/')));
        const line = Math.max(0, (picked.s.lines?.start ?? 1) - 1);
        await vscode.window.showTextDocument(doc, { selection: new vscode.Range(line, 0, line, 0) });
      }
    }),
  );
}
