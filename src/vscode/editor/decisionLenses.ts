import * as vscode from 'vscode';
import { lensesOf } from './hintText';
import { ids } from '../ids';
import type { AnchorCache } from './anchorCache';

/** A CodeLens over each definition a decision record governs; a click opens the record. */
export class DecisionLensProvider implements vscode.CodeLensProvider, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeCodeLenses = this.changed.event;
  private readonly disposables: vscode.Disposable[] = [this.changed];
  private requestCount = 0;

  constructor(
    private readonly anchors: AnchorCache,
    private readonly enabled: () => boolean,
  ) {
    this.disposables.push(anchors.onDidChange(() => this.changed.fire()));
  }

  /** How many times the editor asked for lenses. */
  get requests(): number {
    return this.requestCount;
  }

  /** Asks the editor to draw the lenses again (a setting changed). */
  refresh(): void {
    this.changed.fire();
  }

  provideCodeLenses(document: vscode.TextDocument): vscode.CodeLens[] {
    this.requestCount++;
    if (!this.enabled()) return [];
    const lines = this.anchors.get(document);
    if (!lines) return [];
    const folder = vscode.workspace.getWorkspaceFolder(document.uri);
    if (!folder) return [];
    return lensesOf(lines.anchors)
      .filter((l) => l.line <= document.lineCount)
      .map((l) => {
        const range = new vscode.Range(l.line - 1, 0, l.line - 1, 0);
        return new vscode.CodeLens(range, {
          title: l.title,
          tooltip: l.tooltip,
          command: ids.command.openDecisionRecord,
          arguments: [vscode.Uri.joinPath(folder.uri, ...l.path.split('/')), l.recordLine],
        });
      });
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
  }
}
