import * as vscode from 'vscode';
import { ActivityTracker, relativePath } from './vscode/activityTracker';
import { ChatModelAvailability } from './vscode/chat/chatModels';
import { registerChatParticipant } from './vscode/chat/participant';
import { registerAgentInstructionsCommand } from './vscode/commands/agentInstructionsCommand';
import { registerChatPromptCommands } from './vscode/commands/chatPromptCommands';
import { registerSubscriptionCommands, subscribeToItem } from './vscode/commands/subscriptionCommands';
import { registerWatchCommands } from './vscode/commands/watchCommands';
import { registerWorkspaceCommands } from './vscode/commands/workspaceCommands';
import { affectsConfig, readConfig, readRevealOnStartup, readWatchNotifications } from './vscode/config';
import { registerEditorHints, type EditorHintCounts } from './vscode/editor/editorHints';
import { ids } from './vscode/ids';
import { registerTeamIndex } from './vscode/teamIndex';
import { WorkspaceServices } from './vscode/workspaceServices';
import { languageServerSource } from './vscode/languageServer';
import { asLogger, createLog } from './vscode/log';
import { registerHookEndpoint } from './vscode/hookEndpoint';
import { registerMcpProvider } from './vscode/mcpProvider';
import { registerGitContentProvider } from './vscode/openItem';
import { SuggestionsStatusBar } from './vscode/statusBar';
import { SuggestionsController } from './vscode/suggestionsController';
import { registerTools } from './vscode/tools/tools';
import { SuggestionsViewProvider } from './vscode/views/suggestionsView';
import { WatchPanel } from './vscode/watches/watchPanel';
import { PerfProbe, type PerfSnapshot } from './vscode/perfProbe';
import type { PanelState } from './shared/protocol';

let services: WorkspaceServices | undefined;

/** What the extension exports to other extensions (and to its own integration tests). */
export interface ProactiveContextApi {
  onDidChangeActivity(
    listener: (a: { kind: 'file' | 'none'; path?: string; line?: number; reason?: string; symbol?: string }) => void,
  ): vscode.Disposable;
  panelState(): PanelState;
  onDidUpdatePanel(listener: (state: PanelState) => void): vscode.Disposable;
  statusBarText(): string;
  suggestionRuns(): number;
  /** The state directory of a workspace folder (shared with the MCP server and the CLI). */
  stateDir(folder: vscode.WorkspaceFolder): string;
  /** Suggestion passes the engine ran for every surface (panel, hovers, chat, tools), over all folders. */
  enginePasses(): number;
  /** How often the CodeLens and hover providers were asked, and how often they looked anchors up. */
  editorHintCounts(): EditorHintCounts;
  /** Whether the Suggestions view is showing. */
  panelVisible(): boolean;
  /** The extension host's measures for the editor benchmark (only when started with PC_PERF=1). */
  perfSnapshot(nextSegment?: string): PerfSnapshot | undefined;
}

/** The benchmark's probe (only with PC_PERF=1), told which background phases run in any folder. */
function perfProbeOf(host: WorkspaceServices): PerfProbe | undefined {
  return PerfProbe.fromEnv(() =>
    (vscode.workspace.workspaceFolders ?? []).flatMap((f) => {
      const p = host.peek(f)?.workspace.indexingProgress;
      return !p ? [] : p.commits ? ['mining', ...(p.done < p.total ? ['indexing'] : [])] : ['indexing'];
    }),
  );
}

export function activate(context: vscode.ExtensionContext): ProactiveContextApi {
  const started = performance.now();
  const log = createLog();
  context.subscriptions.push(log);
  const logger = asLogger(log);
  const host = new WorkspaceServices(logger, registerTeamIndex(context, log));
  services = host;
  const perf = perfProbeOf(host);
  if (perf) context.subscriptions.push(perf);
  const tracker = new ActivityTracker(
    () => readConfig().debounceMs,
    (folder, path, line) => host.peek(folder)?.workspace.symbolAt(path, line),
  );
  const view = new SuggestionsViewProvider(context.extensionUri, log, perf && ((step) => perf.mark(step)));
  view.register(context);
  const status = new SuggestionsStatusBar();
  const models = new ChatModelAvailability(log);
  const chatModel = () => models.available();
  const controller = new SuggestionsController(
    host,
    tracker,
    view,
    status,
    log,
    (service, item) => subscribeToItem(service, item, chatModel),
    perf,
  );
  const watchPanel = new WatchPanel(
    view,
    () => ({ notifications: readWatchNotifications(), cooldownMs: readConfig().cooldownMs }),
    log,
  );
  context.subscriptions.push(host, tracker, status, controller, watchPanel, models);

  registerWorkspaceCommands(context, host, tracker, controller, log);
  const hintCounts = registerEditorHints(context, host, controller, log);
  context.subscriptions.push(vscode.commands.registerCommand(ids.command.showPanel, () => view.show(false)));
  registerSubscriptionCommands(context, host, tracker, chatModel);
  registerChatPromptCommands(context, host, tracker, models);
  registerWatchCommands(context, host, tracker, watchPanel);
  registerChatParticipant(context, { services: host, tracker, log });
  registerTools(context, { services: host, tracker, log });
  registerAgentInstructionsCommand(context, host);
  registerMcpProvider(context, (folder) => host.stateDirFor(folder));
  registerHookEndpoint(context, host, logger);
  registerGitContentProvider(context, async (root) => {
    const folder = host.folderOf(root);
    return folder ? host.get(folder) : undefined;
  });
  wireServices(context, host, tracker, view, controller, status, watchPanel, log);

  // Everything heavy (opening the store, indexing, mining history) starts after activation returns.
  setTimeout(() => {
    tracker.refresh();
    if (readRevealOnStartup() && vscode.workspace.workspaceFolders?.length) void revealPanel(view);
  }, 0);
  perf?.activated(performance.now() - started);
  log.info(
    `Proactive Context ${(context.extension.packageJSON as { version: string }).version} activated in ${(performance.now() - started).toFixed(1)} ms`,
  );

  return {
    onDidChangeActivity: (listener) =>
      tracker.onDidChangeActivity(({ activity: a }) =>
        listener(
          a.kind === 'file'
            ? { kind: 'file', path: a.path, line: a.line, symbol: a.symbol?.name }
            : { kind: 'none', reason: a.reason },
        ),
      ),
    panelState: () => view.currentState,
    onDidUpdatePanel: (listener) => view.onDidSetState(listener),
    statusBarText: () => status.text,
    suggestionRuns: () => controller.runs,
    stateDir: (folder) => host.stateDirFor(folder),
    enginePasses: () =>
      (vscode.workspace.workspaceFolders ?? []).reduce((n, f) => n + (host.peek(f)?.suggestions.passes ?? 0), 0),
    editorHintCounts: hintCounts,
    panelVisible: () => view.visible,
    perfSnapshot: (next) => perf?.snapshot(next),
  };
}

/** Brings the Suggestions view forward and gives the keyboard back to the editor the user was in. */
async function revealPanel(view: SuggestionsViewProvider): Promise<void> {
  const hadEditor = !!vscode.window.activeTextEditor;
  await view.show(true);
  if (hadEditor) await vscode.commands.executeCommand('workbench.action.focusActiveEditorGroup');
}

function wireServices(
  context: vscode.ExtensionContext,
  services: WorkspaceServices,
  tracker: ActivityTracker,
  view: SuggestionsViewProvider,
  controller: SuggestionsController,
  status: SuggestionsStatusBar,
  watchPanel: WatchPanel,
  log: vscode.LogOutputChannel,
): void {
  context.subscriptions.push(
    // Where the user is reaches every watch on the workspace, an agent's in another process too.
    tracker.onDidChangeActivity(({ activity: a }) => {
      if (a.kind !== 'file') return;
      services.peek(a.folder)?.workspace.activity({ file: a.path, line: a.line, symbol: a.symbol });
    }),
    vscode.workspace.onDidChangeWorkspaceFolders((e) => {
      for (const f of e.removed) watchPanel.detach(f);
    }),
    services.onDidOpen(({ folder, service }) => {
      service.suggestions.addEnrichmentSource(languageServerSource(folder));
      watchPanel.attach(folder, service);
      for (const n of service.notices)
        void vscode.window.showWarningMessage(n.message, 'Show Log').then((a) => a && log.show());
      service.workspace.onDidChangeIndexing((progress) => {
        view.setIndexing(progress ?? null);
        status.setIndexing(progress);
        if (!progress) controller.render();
      });
      service.workspace.onDidChangeWorkspaceData(() => tracker.refreshSoon());
      service.workspace
        .startBackgroundWork()
        .catch((err: Error) => log.error(`Background indexing of ${folder.name} failed: ${err.message}`));
    }),
    // History switches on after trust: the panel asks again so its Restricted Mode note goes.
    services.onDidAllowGit(() => tracker.refresh()),
    vscode.workspace.onDidChangeConfiguration(async (e) => {
      if (!affectsConfig(e)) return;
      for (const { folder, service } of await services.opened()) service.setConfig(readConfig(folder.uri));
      tracker.refresh();
    }),
  );
  const watcher = vscode.workspace.createFileSystemWatcher('**/*');
  const onFile = (deleted: boolean) => async (uri: vscode.Uri) => {
    const folder = vscode.workspace.getWorkspaceFolder(uri);
    if (!folder || uri.scheme !== 'file') return;
    const path = relativePath(folder, uri);
    // Of git's own files only the ones that say HEAD moved (a commit, a checkout, a pull) matter.
    if (path.startsWith('.git/') && !isHeadFile(path)) return;
    if (path.includes('/node_modules/') || path.startsWith('node_modules/')) return;
    for (const o of await services.opened()) if (o.folder === folder) o.service.workspace.fileChanged(path, deleted);
  };
  context.subscriptions.push(
    watcher,
    watcher.onDidChange(onFile(false)),
    watcher.onDidCreate(onFile(false)),
    watcher.onDidDelete(onFile(true)),
  );
}

export async function deactivate(): Promise<void> {
  await services?.disposeAll();
  services = undefined;
}

function isHeadFile(path: string): boolean {
  return path === '.git/HEAD' || path === '.git/packed-refs' || path.startsWith('.git/refs/heads/');
}
