import * as vscode from 'vscode';
import { randomBytes } from 'node:crypto';
import {
  indexingMessage,
  isPageMessage,
  isPanelState,
  stateMessage,
  type HostMessage,
  type IndexingProgress,
  type PageCommand,
  type PanelState,
  type PanelWatch,
} from '../../shared/protocol';
import { buildPanelState, normaliseProgress } from './panelModel';
import { panelHtml } from './panelHtml';

/**
 * The Suggestions view in the Proactive Context container. The host owns the state: the page is
 * rebuilt whenever the view is shown again (no retainContextWhenHidden), asks for the state with
 * `ready`, and sends the user's actions back as commands for the extension to carry out.
 */
export class SuggestionsViewProvider implements vscode.WebviewViewProvider, vscode.Disposable {
  static readonly viewType = 'proactiveContext.suggestions';

  private view: vscode.WebviewView | undefined;
  private viewDisposables: vscode.Disposable[] = [];
  private state: PanelState = buildPanelState({ phase: 'loading' });
  private watches: PanelWatch[] = [];
  private readonly commandEmitter = new vscode.EventEmitter<PageCommand>();
  private readonly visibilityEmitter = new vscode.EventEmitter<boolean>();
  private readonly stateEmitter = new vscode.EventEmitter<PanelState>();
  /** Fires with every state accepted by setState. */
  readonly onDidSetState: vscode.Event<PanelState> = this.stateEmitter.event;

  /** open / useful / dismiss / pin / copy (with the item's entityId), refresh, showLog, openSettings, recordDecision, openDecisionSettings. */
  readonly onDidReceiveCommand: vscode.Event<PageCommand> = this.commandEmitter.event;
  /** Fires true when the view is resolved or shown again, false when it is hidden or closed. */
  readonly onDidChangeVisibility: vscode.Event<boolean> = this.visibilityEmitter.event;

  /**
   * `step` is told when the view resolves, the page says it is ready and the first items go out:
   * the editor benchmark's stamps of the cold open.
   */
  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly logger: vscode.LogOutputChannel,
    private readonly step: (name: string) => void = () => undefined,
  ) {}

  /** Registers the provider and puts it, and its registration, in `context.subscriptions`. */
  register(context: vscode.ExtensionContext): vscode.Disposable {
    const registration = vscode.window.registerWebviewViewProvider(SuggestionsViewProvider.viewType, this);
    context.subscriptions.push(registration, this);
    return registration;
  }

  get visible(): boolean {
    return this.view?.visible ?? false;
  }

  /** The last state given to `setState`. */
  get currentState(): PanelState {
    return this.state;
  }

  /**
   * Replaces the whole view model and sends it to the page if the view is showing; otherwise it is
   * sent when the view is shown. Build it with `buildPanelState`; a state that does not pass the
   * protocol guard is logged and dropped.
   */
  setState(input: PanelState): void {
    const state: PanelState = this.watches.length
      ? { ...input, watches: this.watches }
      : { ...input, watches: undefined };
    if (state.watches === undefined) delete state.watches;
    if (!isPanelState(state)) {
      this.logger.error(
        `Suggestions view: dropped an invalid state (phase ${describe((state as { phase?: unknown })?.phase)})`,
      );
      return;
    }
    this.state = state;
    if (state.items.length) this.step('state.items');
    this.updateChrome();
    this.post(stateMessage(state));
    this.stateEmitter.fire(state);
  }

  /** The Watching section: shown with every state from now on. */
  setWatches(watches: PanelWatch[]): void {
    this.watches = watches.slice(0, 20);
    this.setState(this.state);
  }

  /** Updates the indexing progress bar without re-rendering the items; `null` hides it. */
  setIndexing(progress: IndexingProgress | null): void {
    const next = { ...this.state };
    if (progress) next.indexing = normaliseProgress(progress);
    else delete next.indexing;
    if (!isPanelState(next)) {
      this.logger.warn(`Suggestions view: ignored invalid indexing progress ${describe(progress)}`);
      return;
    }
    this.state = next;
    this.post(indexingMessage(next.indexing ?? null));
  }

  /** Brings the view forward, resolving it first if it was never opened. */
  async show(preserveFocus = true): Promise<void> {
    if (this.view) this.view.show(preserveFocus);
    else await vscode.commands.executeCommand(`${SuggestionsViewProvider.viewType}.focus`, { preserveFocus });
  }

  resolveWebviewView(
    webviewView: vscode.WebviewView,
    _context: vscode.WebviewViewResolveContext,
    _token: vscode.CancellationToken,
  ): void {
    this.step('view.resolve');
    this.disposeView();
    this.view = webviewView;
    const webview = webviewView.webview;
    webview.options = {
      enableScripts: true,
      enableCommandUris: false,
      localResourceRoots: [
        vscode.Uri.joinPath(this.extensionUri, 'dist'),
        vscode.Uri.joinPath(this.extensionUri, 'media'),
      ],
    };
    webview.html = this.html(webview);
    this.viewDisposables.push(
      webview.onDidReceiveMessage((message: unknown) => this.receive(message)),
      webviewView.onDidChangeVisibility(() => {
        if (webviewView.visible) this.post(stateMessage(this.state));
        this.visibilityEmitter.fire(webviewView.visible);
      }),
      webviewView.onDidDispose(() => {
        if (this.view === webviewView) {
          this.disposeView();
          this.visibilityEmitter.fire(false);
        }
      }),
    );
    this.updateChrome();
    this.visibilityEmitter.fire(webviewView.visible);
  }

  dispose(): void {
    this.disposeView();
    this.commandEmitter.dispose();
    this.visibilityEmitter.dispose();
    this.stateEmitter.dispose();
  }

  private receive(message: unknown): void {
    if (!isPageMessage(message)) {
      this.logger.warn(`Suggestions view: ignored a malformed message from the page: ${describe(message)}`);
      return;
    }
    if (message.type === 'ready') {
      this.step('view.ready');
      this.post(stateMessage(this.state));
      return;
    }
    this.logger.trace(`Suggestions view: ${message.type}${'entityId' in message ? ` ${message.entityId}` : ''}`);
    this.commandEmitter.fire(message);
  }

  private post(message: HostMessage): void {
    const view = this.view;
    if (!view?.visible) return;
    view.webview.postMessage(message).then(
      (delivered) => {
        if (!delivered)
          this.logger.debug(`Suggestions view: ${message.type} not delivered; the page will ask again when ready`);
      },
      (err: unknown) => this.logger.warn(`Suggestions view: could not send ${message.type}: ${describe(err)}`),
    );
  }

  /**
   * The warning count on the activity-bar icon. No description next to the title: the page's header
   * names the file, and in a narrow side bar the description cut the view's own title short.
   */
  private updateChrome(): void {
    const view = this.view;
    if (!view) return;
    const unseen = this.watches.filter((w) => w.last?.unseen).length;
    const warnings = this.state.counts.warning;
    // New context from a watch comes first: it is what changed while the user looked elsewhere.
    if (unseen > 0)
      view.badge = {
        value: unseen,
        tooltip: unseen === 1 ? '1 watch pushed new context' : `${unseen} watches pushed new context`,
      };
    else
      view.badge =
        warnings > 0
          ? {
              value: warnings,
              tooltip: warnings === 1 ? '1 warning for this code' : `${warnings} warnings for this code`,
            }
          : undefined;
  }

  private html(webview: vscode.Webview): string {
    const uri = (...segments: string[]) =>
      webview.asWebviewUri(vscode.Uri.joinPath(this.extensionUri, ...segments)).toString();
    return panelHtml({
      cspSource: webview.cspSource,
      nonce: randomBytes(18).toString('base64url'),
      scriptUri: uri('dist', 'webview.js'),
      stylesheetUris: [uri('dist', 'media', 'codicon.css'), uri('media', 'panel.css')],
      // The page draws what the host knows now at once; `ready` still brings anything newer.
      initialState: { state: this.state, load: randomBytes(9).toString('base64url') },
    });
  }

  private disposeView(): void {
    for (const d of this.viewDisposables) d.dispose();
    this.viewDisposables = [];
    this.view = undefined;
  }
}

/**
 * Creates the provider, registers it, and returns it for the extension to feed and listen to.
 * @public (the panel's browser tests load it from the bundle)
 */
export function registerSuggestionsView(
  context: vscode.ExtensionContext,
  logger: vscode.LogOutputChannel,
): SuggestionsViewProvider {
  const provider = new SuggestionsViewProvider(context.extensionUri, logger);
  provider.register(context);
  return provider;
}

function describe(value: unknown): string {
  let text: string;
  try {
    text = value instanceof Error ? value.message : (JSON.stringify(value) ?? String(value));
  } catch {
    text = String(value);
  }
  return text.length > 200 ? text.slice(0, 200) + '…' : text;
}
