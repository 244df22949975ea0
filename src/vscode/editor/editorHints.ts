import * as vscode from 'vscode';
import { ids } from '../ids';
import { readEditorHintSettings, type EditorHintSettings } from '../config';
import type { SuggestionsController } from '../suggestionsController';
import type { WorkspaceServices } from '../workspaceServices';
import { AnchorCache } from './anchorCache';
import { DecisionLensProvider } from './decisionLenses';
import { TestDiagnostics } from './testDiagnostics';
import { WhyHoverProvider } from './whyHover';

/** How often the editor hints did work, for the extension's test API and the typing-path check. */
export interface EditorHintCounts {
  lensRequests: number;
  hoverRequests: number;
  /** Anchors looked up in the engine; typing moves the anchors instead of looking them up again. */
  anchorLookups: number;
}

/**
 * Context where the eyes are, each behind its own setting: a CodeLens over code a decision governs,
 * the why-card hover on its declaration line, and failing tests in the Problems view.
 */
export function registerEditorHints(
  context: vscode.ExtensionContext,
  services: WorkspaceServices,
  controller: SuggestionsController,
  log: vscode.LogOutputChannel,
): () => EditorHintCounts {
  let settings: EditorHintSettings = readEditorHintSettings();
  const anchors = new AnchorCache(services);
  const lenses = new DecisionLensProvider(anchors, () => settings.codeLens);
  const hover = new WhyHoverProvider(anchors, services, controller, () => settings.hover, log);
  const diagnostics = new TestDiagnostics(services, () => settings.testDiagnostics);
  const files: vscode.DocumentSelector = { scheme: 'file' };
  context.subscriptions.push(
    anchors,
    lenses,
    diagnostics,
    vscode.languages.registerCodeLensProvider(files, lenses),
    vscode.languages.registerHoverProvider(files, hover),
    vscode.commands.registerCommand(ids.command.openDecisionRecord, async (uri: unknown, line?: unknown) => {
      if (!(uri instanceof vscode.Uri)) return;
      // An entry of a decision log opens at its heading.
      const at =
        typeof line === 'number' && Number.isInteger(line) && line >= 1 ? new vscode.Position(line - 1, 0) : undefined;
      await vscode.window.showTextDocument(uri, {
        preview: true,
        ...(at ? { selection: new vscode.Range(at, at) } : {}),
      });
    }),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (!e.affectsConfiguration(`${ids.configSection}.editor`)) return;
      settings = readEditorHintSettings();
      lenses.refresh();
      void diagnostics.refreshAll();
    }),
  );
  return () => ({ lensRequests: lenses.requests, hoverRequests: hover.requests, anchorLookups: anchors.lookups });
}
