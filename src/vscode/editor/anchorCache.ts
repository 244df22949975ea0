import * as vscode from 'vscode';
import { AnchorLines } from './hintText';
import { relativePath } from '../activityTracker';
import type { WorkspaceServices } from '../workspaceServices';

/** Changes to these files can change which definitions a decision governs everywhere. */
const DECISION_FILE = /\.(md|mdx|markdown|rst)$|(^|\/)\.adr-dir$/i;

/**
 * The governed definitions of each open document, looked up once and then kept on their lines
 * through every edit: typing moves them, it never asks the engine again. A lookup happens when a
 * document is first asked about and again after its file, or a decision record, changes on disk.
 */
export class AnchorCache implements vscode.Disposable {
  private readonly docs = new Map<string, { lines: AnchorLines; folder: string; path: string }>();
  private readonly changed = new vscode.EventEmitter<void>();
  /** Fires when anchors were dropped and must be looked up again (lenses should be asked for anew). */
  readonly onDidChange = this.changed.event;
  private readonly disposables: vscode.Disposable[] = [this.changed];
  private lookupCount = 0;

  constructor(private readonly services: WorkspaceServices) {
    this.disposables.push(
      vscode.workspace.onDidChangeTextDocument((e) => this.follow(e)),
      vscode.workspace.onDidCloseTextDocument((d) => this.docs.delete(d.uri.toString())),
      services.onDidOpen(({ folder, service }) => {
        service.workspace.onDidChangeWorkspaceData((paths) => this.invalidate(folder, paths));
        this.changed.fire();
      }),
    );
  }

  /** How many times anchors were looked up in the engine (not counting reuse). */
  get lookups(): number {
    return this.lookupCount;
  }

  /** The document's anchors on its current lines; undefined when the file is not in an open workspace folder. */
  get(document: vscode.TextDocument): AnchorLines | undefined {
    const key = document.uri.toString();
    const cached = this.docs.get(key);
    if (cached) return cached.lines;
    if (document.uri.scheme !== 'file') return undefined;
    const folder = vscode.workspace.getWorkspaceFolder(document.uri);
    const service = folder && this.services.peek(folder);
    if (!folder || !service) return undefined;
    const path = relativePath(folder, document.uri);
    this.lookupCount++;
    const lines = new AnchorLines(service.decisions.anchors(path), document.version);
    this.docs.set(key, { lines, folder: folder.uri.toString(), path });
    return lines;
  }

  private follow(e: vscode.TextDocumentChangeEvent): void {
    const entry = this.docs.get(e.document.uri.toString());
    if (!entry || e.contentChanges.length === 0) return;
    // Later edits first, so each one's line numbers are still those of the text before the event.
    const changes = [...e.contentChanges].sort((a, b) => b.range.start.compareTo(a.range.start));
    for (const c of changes) {
      const r = c.range;
      entry.lines.edit(
        r.start.line + 1,
        r.end.line + 1,
        lineBreaks(c.text),
        r.end.character === 0 && (r.start.character === 0 || r.end.line > r.start.line),
      );
    }
    entry.lines.version = e.document.version;
  }

  private invalidate(folder: vscode.WorkspaceFolder, paths: readonly string[]): void {
    const root = folder.uri.toString();
    const everything = paths.length === 0 || paths.some((p) => DECISION_FILE.test(p));
    const touched = new Set(paths);
    let dropped = false;
    for (const [key, entry] of this.docs) {
      if (entry.folder === root && (everything || touched.has(entry.path))) {
        this.docs.delete(key);
        dropped = true;
      }
    }
    if (dropped || everything) this.changed.fire();
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
  }
}

function lineBreaks(text: string): number {
  let n = 0;
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) n++;
  return n;
}
