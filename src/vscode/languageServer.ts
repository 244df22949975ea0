import * as vscode from 'vscode';
import { type QueryContext, type SuggestionItem, type SuggestionSource } from '../core/api/types';
import { withTimeoutOr } from '../shared/timeout';
import { relativePath } from './activityTracker';
import { deprecatedName } from './deprecatedMessage';

const CALL_HIERARCHY_TIMEOUT_MS = 700;

/**
 * Enriches the engine through its ports with what the editor's language servers know: callers from
 * the call hierarchy (when a provider exists, bounded by a timeout) and usages tagged deprecated
 * in the diagnostics.
 */
export function languageServerSource(folder: vscode.WorkspaceFolder): Omit<SuggestionSource, 'slow'> {
  return {
    name: 'Language server',
    kinds: ['related_code', 'warning'],
    async collect(ctx: QueryContext): Promise<SuggestionItem[]> {
      const file = ctx.query.currentFile;
      if (!file) return [];
      const uri = vscode.Uri.joinPath(folder.uri, ...file.split('/'));
      const callers = ctx.config.enabledKinds.related_code ? await incomingCalls(folder, uri, ctx) : [];
      const deprecated = ctx.config.enabledKinds.warning ? deprecatedDiagnostics(uri, file, ctx.symbolRange) : [];
      return [...callers, ...deprecated];
    },
  };
}

// eslint-disable-next-line complexity -- one case per shape of the language server's answer
async function incomingCalls(
  folder: vscode.WorkspaceFolder,
  uri: vscode.Uri,
  ctx: QueryContext,
): Promise<SuggestionItem[]> {
  const line = ctx.symbolRange?.startLine ?? ctx.query.cursorPosition?.line;
  if (line === undefined) return [];
  const doc = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
  if (!doc) return [];
  // Put the position on the symbol's name: call hierarchy needs an identifier.
  let position = new vscode.Position(
    Math.max(0, (ctx.query.cursorPosition?.line ?? line) - 1),
    Math.max(0, (ctx.query.cursorPosition?.column ?? 1) - 1),
  );
  const name = ctx.symbolRange?.name ?? ctx.query.currentSymbol;
  if (ctx.symbolRange && name) {
    for (let l = ctx.symbolRange.startLine - 1; l < Math.min(doc.lineCount, ctx.symbolRange.startLine + 2); l++) {
      const col = doc.lineAt(l).text.indexOf(name);
      if (col >= 0) {
        position = new vscode.Position(l, col);
        break;
      }
    }
  }
  const started = Date.now();
  const items = await withTimeoutOr(
    vscode.commands.executeCommand<vscode.CallHierarchyItem[]>('vscode.prepareCallHierarchy', uri, position),
    CALL_HIERARCHY_TIMEOUT_MS,
    undefined,
    ctx.signal,
  );
  if (!items?.length || ctx.signal.aborted) return [];
  const remaining = Math.max(100, CALL_HIERARCHY_TIMEOUT_MS - (Date.now() - started));
  const calls = await withTimeoutOr(
    vscode.commands.executeCommand<vscode.CallHierarchyIncomingCall[]>('vscode.provideIncomingCalls', items[0]),
    remaining,
    undefined,
    ctx.signal,
  );
  if (!calls) return [];
  const out: SuggestionItem[] = [];
  for (const call of calls.slice(0, 30)) {
    const f = vscode.workspace.getWorkspaceFolder(call.from.uri);
    if (!f || f.uri.toString() !== folder.uri.toString()) continue;
    const path = relativePath(folder, call.from.uri);
    const at = call.fromRanges[0]?.start.line ?? call.from.selectionRange.start.line;
    out.push({
      type: 'related_code',
      title: `${call.from.name} — ${path}:${at + 1}`,
      summary: `${call.from.name} calls ${items[0].name}${call.fromRanges.length > 1 ? ` (${call.fromRanges.length} times)` : ''}.`,
      relevanceScore: 0.85,
      reason: 'confirmed by the language server',
      location: { path, line: at + 1 },
      // The code index keys a caller by its function's name, or by the line for anonymous code.
      entityId: `caller:${path}:${/^[A-Za-z_$][\w$]*$/.test(call.from.name) ? call.from.name : at + 1}:${items[0].name}`,
      meta: { source: 'language-server', enclosing: call.from.name },
    });
  }
  return out;
}

/** Import lines name a deprecated API without using it; the call sites are what matter. */
const IMPORT_LINE = /^\s*(import\b|export\s.*\bfrom\b|from\s+\S+\s+import\b|using\s|use\s)/;

/** Deprecated uses inside the definition at the cursor when there is one, like the code index's warnings. */
function deprecatedDiagnostics(uri: vscode.Uri, file: string, range: QueryContext['symbolRange']): SuggestionItem[] {
  const doc = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
  return vscode.languages
    .getDiagnostics(uri)
    .filter((d) => d.tags?.includes(vscode.DiagnosticTag.Deprecated))
    .filter((d) => !range || (d.range.start.line + 1 >= range.startLine && d.range.start.line + 1 <= range.endLine))
    .filter(
      (d) => !doc || d.range.start.line >= doc.lineCount || !IMPORT_LINE.test(doc.lineAt(d.range.start.line).text),
    )
    .slice(0, 20)
    .map((d): SuggestionItem => {
      const line = d.range.start.line + 1;
      const message = d.message.split('\n')[0];
      const name = deprecatedName(message);
      return {
        type: 'warning' as const,
        title: name ? `Deprecated: ${name} used at line ${line}` : `Deprecated API used at line ${line}`,
        summary: message,
        relevanceScore: 0.8,
        reason: `the language server marks this usage deprecated: ${message}`,
        location: { path: file, line },
        // Same id as the code index's warning for this line, so the two merge into one item.
        entityId: `deprecated:${file}:${line}`,
        meta: name ? { source: 'diagnostics', deprecated: name } : { source: 'diagnostics' },
      };
    });
}
