import * as vscode from 'vscode';
import type { ContextService } from '../../core/api/contextService';
import { describeWatch } from '../../core/api/messages';
import { formatAge } from '../../shared/text';
import type { Disposable, FiredWatch, SuggestionItem } from '../../core/api/types';
import type { PageCommand, PanelWatch } from '../../shared/protocol';
import { openSuggestionItem } from '../openItem';
import type { SuggestionsViewProvider } from '../views/suggestionsView';

/** Watches made in the editor; the Watching section shows every watch, but only these notify. */
export const EDITOR_SCOPE = 'editor';

export interface WatchPanelSettings {
  notifications: boolean;
  /** The user's cooldown (cooldownMinutes): at most one notification per watch in this time. */
  cooldownMs: number;
}

interface Attached {
  folder: vscode.WorkspaceFolder;
  service: ContextService;
  disposables: Disposable[];
}

/**
 * The panel's Watching section and what a firing does in the editor: the section lists every watch
 * with its latest firing, the view's badge counts firings the user has not seen, and a firing of a
 * watch made in the editor, while the user looks elsewhere, brings one quiet notification.
 */
export class WatchPanel implements vscode.Disposable {
  private readonly attached = new Map<string, Attached>();
  private readonly seenSeq = new Map<string, number>();
  private readonly notifiedAt = new Map<string, number>();
  private readonly disposables: vscode.Disposable[] = [];

  constructor(
    private readonly view: SuggestionsViewProvider,
    private readonly settings: () => WatchPanelSettings,
    private readonly log: vscode.LogOutputChannel,
  ) {
    this.disposables.push(
      view.onDidReceiveCommand((c) => void this.onCommand(c)),
      view.onDidChangeVisibility((visible) => {
        if (visible) this.markSeen();
      }),
    );
  }

  /** Starts showing a folder's watches and hearing its firings (from any process on the folder). */
  attach(folder: vscode.WorkspaceFolder, service: ContextService): void {
    const key = folder.uri.toString();
    if (this.attached.has(key)) return;
    service.watches.start();
    const entry: Attached = { folder, service, disposables: [] };
    entry.disposables.push(
      service.watches.onDidFire((f) => this.onFire(entry, f)),
      service.watches.onDidChange(() => this.refresh()),
    );
    this.attached.set(key, entry);
    // What fired before this window opened counts as seen.
    for (const w of service.watches.list()) this.seenSeq.set(w.id, service.watches.latestFiring(w.id)?.seq ?? 0);
    this.refresh();
  }

  detach(folder: vscode.WorkspaceFolder): void {
    const entry = this.attached.get(folder.uri.toString());
    if (!entry) return;
    for (const d of entry.disposables) d.dispose();
    this.attached.delete(folder.uri.toString());
    this.refresh();
  }

  /** Rebuilds the Watching section from the store. */
  refresh(): void {
    const now = Date.now();
    const out: PanelWatch[] = [];
    const many = this.attached.size > 1;
    for (const { folder, service } of this.attached.values()) {
      for (const w of service.watches.list()) {
        const latest = service.watches.latestFiring(w.id);
        const label = `${many ? `${folder.name}: ` : ''}${describeWatch(w)}${w.scope === EDITOR_SCOPE ? '' : ' (agent)'}`;
        const entry: PanelWatch = { id: w.id, label };
        if (latest) {
          const s = latest.suggestion;
          entry.last = {
            age: formatAge(latest.firedAt, now),
            trigger: `${s.trigger.type.replace('_', ' ')} ${s.trigger.source}`,
            summary: s.items[0]?.title ?? 'nothing above the watch’s relevance threshold',
            items: s.items.length,
            unseen: latest.seq > (this.seenSeq.get(w.id) ?? 0),
          };
        }
        out.push(entry);
      }
    }
    this.view.setWatches(out);
  }

  dispose(): void {
    for (const a of this.attached.values()) for (const d of a.disposables) d.dispose();
    this.attached.clear();
    for (const d of this.disposables) d.dispose();
  }

  private onFire(entry: Attached, f: FiredWatch): void {
    if (this.view.visible && vscode.window.state.focused) this.seenSeq.set(f.watchId, f.seq);
    this.refresh();
    this.log.debug(
      `Watch ${f.watchId} fired: ${f.suggestion.trigger.type} ${f.suggestion.trigger.source}, ${f.suggestion.items.length} item(s)`,
    );
    if (f.watch.scope !== EDITOR_SCOPE || !this.elsewhere(entry, f)) return;
    const { notifications, cooldownMs } = this.settings();
    const last = this.notifiedAt.get(f.watchId);
    if (!notifications || (last !== undefined && f.firedAt - last < cooldownMs)) return;
    this.notifiedAt.set(f.watchId, f.firedAt);
    const top = f.suggestion.items[0]?.title;
    const message = `Proactive Context: ${describeWatch(f.watch)} — ${f.suggestion.trigger.source}${top ? `: ${top}` : ''}`;
    void vscode.window.showInformationMessage(message, 'Show').then((pick) => {
      if (pick === 'Show') void this.show(entry, f.watchId);
    });
  }

  /** The user is not looking at what fired: another file, the panel hidden, or another window. */
  private elsewhere(entry: Attached, f: FiredWatch): boolean {
    if (!this.view.visible || !vscode.window.state.focused) return true;
    const uri = vscode.window.activeTextEditor?.document.uri;
    const source = f.suggestion.query.currentFile;
    return !uri || !source || uri.toString() !== vscode.Uri.joinPath(entry.folder.uri, ...source.split('/')).toString();
  }

  private markSeen(): void {
    let changed = false;
    for (const { service } of this.attached.values()) {
      for (const w of service.watches.list()) {
        const seq = service.watches.latestFiring(w.id)?.seq ?? 0;
        if (seq > (this.seenSeq.get(w.id) ?? 0)) {
          this.seenSeq.set(w.id, seq);
          changed = true;
        }
      }
    }
    if (changed) this.refresh();
  }

  private find(watchId: string): Attached | undefined {
    return [...this.attached.values()].find((a) => a.service.watches.list().some((w) => w.id === watchId));
  }

  private async onCommand(command: PageCommand): Promise<void> {
    if (command.type !== 'showWatch' && command.type !== 'unwatch') return;
    const entry = this.find(command.watchId);
    if (!entry) {
      this.refresh();
      return;
    }
    try {
      if (command.type === 'unwatch') {
        entry.service.watches.remove(command.watchId);
        this.refresh();
      } else await this.show(entry, command.watchId);
    } catch (err) {
      void vscode.window.showErrorMessage(`Proactive Context: ${(err as Error).message}`);
    }
  }

  /** What a watch last pushed, to pick from and open. */
  async show(entry: Attached, watchId: string): Promise<void> {
    const latest = entry.service.watches.latestFiring(watchId);
    this.seenSeq.set(watchId, latest?.seq ?? 0);
    this.refresh();
    if (!latest) {
      void vscode.window.showInformationMessage('This watch has not fired yet.');
      return;
    }
    const s = latest.suggestion;
    const picked = await vscode.window.showQuickPick(
      s.items.map((item: SuggestionItem) => ({ label: item.title, description: item.type, detail: item.reason, item })),
      {
        title: `${describeWatch(latest.watch)} — ${s.trigger.type.replace('_', ' ')} ${s.trigger.source} (${formatAge(latest.firedAt, Date.now())})`,
        placeHolder: s.items.length ? 'Open one' : 'Nothing above the watch’s relevance threshold',
      },
    );
    if (picked) await openSuggestionItem(entry.folder, picked.item);
  }
}
