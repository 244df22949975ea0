import * as vscode from 'vscode';
import type { ContextService } from '../core/api/contextService';
import { ContextError } from '../core/api/errors';
import type { SuggestionItem } from '../core/api/types';

export const GIT_SCHEME = 'proactive-context-git';

interface GitDocQuery {
  root: string;
  ref: string;
  path: string;
}

/** Serves file contents at a revision for the diff editor (read-only, never touches the work tree). */
export function registerGitContentProvider(
  context: vscode.ExtensionContext,
  serviceForRoot: (root: string) => Promise<ContextService | undefined>,
): void {
  const provider: vscode.TextDocumentContentProvider = {
    async provideTextDocumentContent(uri) {
      let q: GitDocQuery;
      try {
        q = JSON.parse(uri.query) as GitDocQuery;
      } catch {
        return '';
      }
      const service = await serviceForRoot(q.root);
      if (!service) return '';
      try {
        return await service.workspace.fileAtRevision(q.ref, q.path);
      } catch (err) {
        // A ref that is not a commit id or HEAD is refused before git runs; say why in the tab.
        if (err instanceof ContextError) return `Proactive Context: ${err.message}`;
        throw err;
      }
    },
  };
  context.subscriptions.push(vscode.workspace.registerTextDocumentContentProvider(GIT_SCHEME, provider));
}

function gitUri(root: string, ref: string, path: string): vscode.Uri {
  const q: GitDocQuery = { root, ref, path };
  return vscode.Uri.from({ scheme: GIT_SCHEME, path: '/' + path, query: JSON.stringify(q) });
}

/** Opens what an item is about: the file at its range, the ADR, the commit's diff, the test report entry. */
export async function openSuggestionItem(folder: vscode.WorkspaceFolder, item: SuggestionItem): Promise<void> {
  const root = folder.uri.fsPath;
  const loc = item.location;
  const fileUri = vscode.Uri.joinPath(folder.uri, ...loc.path.split('/'));
  if (item.type === 'change' && (loc.commit || item.meta?.uncommitted)) {
    const line = Math.max(0, (loc.line ?? 1) - 1);
    const options: vscode.TextDocumentShowOptions = { preview: true, selection: new vscode.Range(line, 0, line, 0) };
    if (loc.commit) {
      const short = loc.commit.slice(0, 7);
      await vscode.commands.executeCommand(
        'vscode.diff',
        gitUri(root, `${loc.commit}^`, loc.path),
        gitUri(root, loc.commit, loc.path),
        `${loc.path} (${short}) — ${item.title}`,
        options,
      );
    } else {
      await vscode.commands.executeCommand(
        'vscode.diff',
        gitUri(root, 'HEAD', loc.path),
        fileUri,
        `${loc.path} (uncommitted changes)`,
        options,
      );
    }
    return;
  }
  const doc = await vscode.workspace.openTextDocument(fileUri);
  const start = Math.max(0, Math.min(doc.lineCount - 1, (loc.line ?? 1) - 1));
  const end = Math.max(start, Math.min(doc.lineCount - 1, (loc.endLine ?? loc.line ?? 1) - 1));
  const range = new vscode.Range(start, 0, end, doc.lineAt(end).text.length);
  const editor = await vscode.window.showTextDocument(doc, {
    preview: true,
    selection: new vscode.Range(start, 0, start, 0),
  });
  editor.revealRange(range, vscode.TextEditorRevealType.InCenterIfOutsideViewport);
}
