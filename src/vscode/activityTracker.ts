import * as vscode from 'vscode';
import { isIndexedEditorLanguage, type Place, type SymbolSpan } from '../core/api/types';
import { withTimeoutOr } from '../shared/timeout';
import { Debouncer, realTimers, type ScheduleOptions, type Scheduler } from './debouncer';

/** What the user is looking at, after the cursor has stopped for the debounce time. */
export type Activity =
  | {
      kind: 'file';
      uri: vscode.Uri;
      folder: vscode.WorkspaceFolder;
      /** Root-relative, forward slashes. */
      path: string;
      line: number; // 1-based
      column: number; // 1-based
      selection?: { startLine: number; endLine: number };
      /** The definition around the cursor (code index, else the editor's document symbols). */
      symbol?: SymbolSpan;
      recentFiles: string[];
      languageId: string;
    }
  | {
      kind: 'none';
      /** `other-editor`: a tab that is not a text editor is in front (a walkthrough, the settings, a preview). */
      reason: 'no-workspace' | 'no-editor' | 'other-editor' | 'unsupported-document' | 'outside-workspace';
      detail?: string;
    };

export interface ActivityEvent {
  activity: Activity;
  /** Aborted as soon as a newer activity arrives: work for this one is stale. */
  signal: AbortSignal;
  /**
   * A listener's pass for this activity: the tracker counts the pass as running until it settles,
   * so a held key never stacks passes behind it.
   */
  waitUntil(work: Promise<unknown>): void;
  /** The pass's answer is on screen: its remaining work (enrichment) may give way to a newer place. */
  shown(): void;
}

// The code index knows the symbol too; never hold the panel back long for the language server.
const SYMBOL_TIMEOUT_MS = 150;
const MAX_RECENT = 10;
/** While the cursor keeps moving (a held arrow key), a catch-up pass starts this long after the one before (start to start). */
const CATCH_UP_MS = 100;

/**
 * Owns "where the user is": turns editor events into debounced Activity events, and answers
 * `currentPlace()` for everyone else (chat, tools, commands). Untitled, output, virtual and
 * out-of-workspace documents become an honest 'none' activity, never an error; a new event
 * cancels the work still running for the previous one.
 */
export class ActivityTracker implements vscode.Disposable {
  private readonly emitter = new vscode.EventEmitter<ActivityEvent>();
  readonly onDidChangeActivity = this.emitter.event;
  private readonly disposables: vscode.Disposable[] = [];
  private readonly debouncer: Debouncer;
  private readonly recent: string[] = [];
  private last: Activity | undefined;
  private edited = false;

  constructor(
    private readonly debounceMs: () => number,
    /** The definition at a line from the code index, when it is ready (instant, no language server). */
    private readonly indexSymbol: (
      folder: vscode.WorkspaceFolder,
      path: string,
      line: number,
    ) => SymbolSpan | undefined = () => undefined,
    timers: Scheduler = realTimers,
  ) {
    this.debouncer = new Debouncer(timers);
    this.disposables.push(
      vscode.window.onDidChangeActiveTextEditor(() => this.schedule(0)),
      vscode.workspace.onDidChangeTextDocument((e) => {
        if (e.document === vscode.window.activeTextEditor?.document && e.contentChanges.length) this.edited = true;
      }),
      vscode.window.onDidChangeTextEditorSelection((e) => {
        if (e.textEditor !== vscode.window.activeTextEditor) return;
        // A move that follows an edit is typing: one pass once it stops. A move without one is
        // navigation: a lone jump runs at once and a held key is followed.
        const typing = this.edited;
        this.edited = false;
        this.schedule(this.debounceMs(), typing ? {} : { leading: true, catchUpMs: CATCH_UP_MS });
      }),
      vscode.workspace.onDidChangeWorkspaceFolders(() => this.schedule(0)),
      this.emitter,
    );
  }

  get lastActivity(): Activity | undefined {
    return this.last;
  }

  /**
   * Where the user is in the active editor, for a folder (default: the active editor's): the last
   * debounced activity when it is still that editor, else the editor's cursor with the index's symbol.
   * Undefined when no file of that folder is active.
   */
  currentPlace(folder?: vscode.WorkspaceFolder): { folder: vscode.WorkspaceFolder; place: Place } | undefined {
    const editor = vscode.window.activeTextEditor;
    const editorFolder =
      editor && editor.document.uri.scheme === 'file'
        ? vscode.workspace.getWorkspaceFolder(editor.document.uri)
        : undefined;
    const same = (f?: vscode.WorkspaceFolder) => !!f && (!folder || f.uri.toString() === folder.uri.toString());
    const a = this.last;
    const editorPath = editor && editorFolder ? relativePath(editorFolder, editor.document.uri) : undefined;
    // The last activity counts only while its file is still the active editor.
    if (a?.kind === 'file' && same(a.folder) && editorPath === a.path) {
      return {
        folder: a.folder,
        place: {
          file: a.path,
          line: a.line,
          column: a.column,
          selection: a.selection,
          symbol: a.symbol,
          recentFiles: a.recentFiles,
        },
      };
    }
    if (!editor || !editorFolder || !editorPath || !same(editorFolder)) return undefined;
    const pos = editor.selection.active;
    const symbol = this.indexSymbol(editorFolder, editorPath, pos.line + 1);
    return {
      folder: editorFolder,
      place: {
        file: editorPath,
        line: pos.line + 1,
        column: pos.character + 1,
        symbol,
        recentFiles: this.recent.filter((p) => p !== editorPath),
      },
    };
  }

  /** Recomputes now (refresh command, view opened). */
  refresh(): void {
    this.schedule(0);
  }

  /**
   * Recomputes once things are quiet, like a cursor move: for data that changed under the user
   * (a save, a new commit), so that saves while typing (auto save) never add passes of their own.
   */
  refreshSoon(): void {
    this.schedule();
  }

  private schedule(delay = this.debounceMs(), options: ScheduleOptions = {}): void {
    this.debouncer.schedule(delay, (signal, shown) => this.fire(signal, shown), options);
  }

  private async fire(signal: AbortSignal, shown: () => void): Promise<void> {
    const activity = await this.compute(signal);
    if (signal.aborted) return;
    this.last = activity;
    const passes: Promise<unknown>[] = [];
    this.emitter.fire({ activity, signal, waitUntil: (work) => passes.push(work), shown });
    await Promise.allSettled(passes);
  }

  private async compute(signal: AbortSignal): Promise<Activity> {
    if (!vscode.workspace.workspaceFolders?.length) return { kind: 'none', reason: 'no-workspace' };
    const editor = vscode.window.activeTextEditor;
    if (!editor)
      return { kind: 'none', reason: vscode.window.tabGroups.activeTabGroup.activeTab ? 'other-editor' : 'no-editor' };
    const doc = editor.document;
    if (doc.uri.scheme !== 'file') {
      return {
        kind: 'none',
        reason: 'unsupported-document',
        detail: doc.isUntitled ? 'an unsaved (untitled) editor' : `a ${doc.uri.scheme}: document`,
      };
    }
    const folder = vscode.workspace.getWorkspaceFolder(doc.uri);
    if (!folder) return { kind: 'none', reason: 'outside-workspace', detail: vscode.workspace.asRelativePath(doc.uri) };
    const path = relativePath(folder, doc.uri);
    this.remember(path);
    const pos = editor.selection.active;
    const sel = editor.selection;
    // The code index knows the definitions of these languages; asking the language server as well
    // would only delay the panel.
    const symbol =
      (isIndexedEditorLanguage(doc.languageId) ? this.indexSymbol(folder, path, pos.line + 1) : undefined) ??
      (await symbolAt(doc.uri, pos, signal));
    return {
      kind: 'file',
      uri: doc.uri,
      folder,
      path,
      line: pos.line + 1,
      column: pos.character + 1,
      selection: sel.isEmpty ? undefined : { startLine: sel.start.line + 1, endLine: sel.end.line + 1 },
      symbol,
      recentFiles: this.recent.filter((p) => p !== path),
      languageId: doc.languageId,
    };
  }

  private remember(path: string): void {
    const i = this.recent.indexOf(path);
    if (i >= 0) this.recent.splice(i, 1);
    this.recent.unshift(path);
    if (this.recent.length > MAX_RECENT) this.recent.length = MAX_RECENT;
  }

  dispose(): void {
    this.debouncer.dispose();
    for (const d of this.disposables) d.dispose();
  }
}

export function relativePath(folder: vscode.WorkspaceFolder, uri: vscode.Uri): string {
  const root = folder.uri.path.endsWith('/') ? folder.uri.path : folder.uri.path + '/';
  return uri.path.startsWith(root) ? uri.path.slice(root.length) : vscode.workspace.asRelativePath(uri, false);
}

const SYMBOL_KINDS = new Set([
  vscode.SymbolKind.Function,
  vscode.SymbolKind.Method,
  vscode.SymbolKind.Constructor,
  vscode.SymbolKind.Class,
  vscode.SymbolKind.Interface,
  vscode.SymbolKind.Enum,
  vscode.SymbolKind.Struct,
  vscode.SymbolKind.Module,
  vscode.SymbolKind.Namespace,
  vscode.SymbolKind.TypeParameter,
]);

/** The innermost function/class around the cursor from the editor's document symbols, bounded by a timeout. */
async function symbolAt(uri: vscode.Uri, pos: vscode.Position, signal: AbortSignal): Promise<SymbolSpan | undefined> {
  let symbols: (vscode.DocumentSymbol | vscode.SymbolInformation)[] | undefined;
  try {
    symbols = await withTimeoutOr(
      vscode.commands.executeCommand<(vscode.DocumentSymbol | vscode.SymbolInformation)[]>(
        'vscode.executeDocumentSymbolProvider',
        uri,
      ),
      SYMBOL_TIMEOUT_MS,
      undefined,
      signal,
    );
  } catch {
    return undefined;
  }
  if (!symbols || signal.aborted) return undefined;
  let best: SymbolSpan | undefined;
  const visit = (list: (vscode.DocumentSymbol | vscode.SymbolInformation)[]) => {
    for (const s of list) {
      const range = 'range' in s ? s.range : s.location.range;
      if (!range.contains(pos)) continue;
      if (SYMBOL_KINDS.has(s.kind))
        best = { name: s.name, startLine: range.start.line + 1, endLine: range.end.line + 1 };
      if ('children' in s && s.children?.length) visit(s.children);
    }
  };
  visit(symbols);
  return best;
}
