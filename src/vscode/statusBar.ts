import * as vscode from 'vscode';
import { ids } from './ids';

/** Count of suggestions and warnings for the current file; a click focuses the panel. */
export class SuggestionsStatusBar implements vscode.Disposable {
  private readonly item: vscode.StatusBarItem;

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

  showIdle(text = 'Proactive Context'): void {
    this.item.text = '$(lightbulb) —';
    this.item.tooltip = text;
    this.item.backgroundColor = undefined;
    this.item.accessibilityInformation = { label: text };
  }

  showBusy(label: string): void {
    this.item.text = '$(sync~spin) Context';
    this.item.tooltip = label;
    this.item.accessibilityInformation = { label };
  }

  showCounts(file: string, suggestions: number, warnings: number): void {
    this.item.text = warnings > 0 ? `$(lightbulb) ${suggestions} $(warning) ${warnings}` : `$(lightbulb) ${suggestions}`;
    const label = `Proactive Context: ${suggestions} suggestion${suggestions === 1 ? '' : 's'}${warnings ? `, ${warnings} warning${warnings === 1 ? '' : 's'}` : ''} for ${file}. Click to show them.`;
    this.item.tooltip = label;
    this.item.accessibilityInformation = { label };
    this.item.backgroundColor = warnings > 0 ? new vscode.ThemeColor('statusBarItem.warningBackground') : undefined;
  }

  showError(message: string): void {
    this.item.text = '$(error) Context';
    this.item.tooltip = `Proactive Context: ${message}`;
    this.item.backgroundColor = new vscode.ThemeColor('statusBarItem.errorBackground');
  }

  dispose(): void {
    this.item.dispose();
  }
}
