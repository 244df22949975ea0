import * as vscode from 'vscode';
import { indexingText } from '../core/api/messages';
import type { IndexingProgress } from '../core/api/types';
import { ids } from './ids';

/**
 * Count of suggestions and warnings for the current file; while the workspace is being indexed, the
 * files and commits done of all with a spinner instead. A click focuses the panel.
 */
/** What the item says when there is nothing to count: what it is. */
export const IDLE_TEXT = '$(lightbulb) Context';

export class SuggestionsStatusBar implements vscode.Disposable {
  private readonly item: vscode.StatusBarItem;
  private indexing: IndexingProgress | undefined;
  private shown: { text: string; tooltip: string; background?: vscode.ThemeColor } = {
    text: IDLE_TEXT,
    tooltip: 'Proactive Context',
  };

  constructor() {
    this.item = vscode.window.createStatusBarItem('proactiveContext.status', vscode.StatusBarAlignment.Right, 100);
    this.item.name = 'Proactive Context';
    this.item.command = { command: `${ids.view}.focus`, title: 'Show Proactive Context suggestions' };
    this.showIdle();
    this.item.show();
  }

  get text(): string {
    return this.item.text;
  }

  showIdle(text = 'Proactive Context: no suggestions for the active editor. Click to show the panel.'): void {
    this.show(IDLE_TEXT, text);
  }

  showBusy(label: string): void {
    this.show('$(sync~spin) Context', label);
  }

  showCounts(file: string, suggestions: number, warnings: number): void {
    // Words next to the numbers: a bare "16 3" says nothing to someone who has not read the tooltip.
    const text =
      warnings > 0
        ? `$(lightbulb) Context ${suggestions} $(warning) ${warnings}`
        : `$(lightbulb) Context ${suggestions}`;
    const label = `Proactive Context: ${suggestions} suggestion${suggestions === 1 ? '' : 's'}${warnings ? `, ${warnings} warning${warnings === 1 ? '' : 's'}` : ''} for ${file}. Click to show them.`;
    this.show(text, label, warnings > 0 ? new vscode.ThemeColor('statusBarItem.warningBackground') : undefined);
  }

  showError(message: string): void {
    this.show(
      '$(error) Context',
      `Proactive Context: ${message}`,
      new vscode.ThemeColor('statusBarItem.errorBackground'),
    );
  }

  /** Files, then commits, done of all while the workspace is indexed; undefined when it is done. */
  setIndexing(progress: IndexingProgress | undefined): void {
    this.indexing = progress && (progress.total > 0 || progress.commits || progress.snapshot) ? progress : undefined;
    this.update();
  }

  private show(text: string, tooltip: string, background?: vscode.ThemeColor): void {
    this.shown = { text, tooltip, background };
    this.update();
  }

  private update(): void {
    const p = this.indexing;
    if (p) {
      const what = indexingText(p);
      this.item.text = p.snapshot
        ? p.snapshot.received
          ? `$(cloud-download) ${(p.snapshot.received / (1024 * 1024)).toFixed(1)} MB`
          : '$(sync~spin) team index'
        : `$(sync~spin) ${p.commits ? `${p.commits.done.toLocaleString('en-US')}/${p.commits.total ? p.commits.total.toLocaleString('en-US') : '…'} commits` : `${p.done.toLocaleString('en-US')}/${p.total.toLocaleString('en-US')} files`}`;
      this.item.tooltip = `Proactive Context: ${what}. ${this.shown.tooltip}`;
      this.item.accessibilityInformation = { label: `Proactive Context: ${what}` };
      this.item.backgroundColor = undefined;
      return;
    }
    this.item.text = this.shown.text;
    this.item.tooltip = this.shown.tooltip;
    this.item.accessibilityInformation = { label: this.shown.tooltip };
    this.item.backgroundColor = this.shown.background;
  }

  dispose(): void {
    this.item.dispose();
  }
}
