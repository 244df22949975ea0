import { randomUUID } from 'node:crypto';
import * as vscode from 'vscode';
import type { ActivityTracker } from '../activityTracker';
import type { ChatModelAvailability } from '../chat/chatModels';
import { askContextAction, PREVIEW_QUESTION, renderPromptPreview } from '../chat/promptPreview';
import { ids } from '../ids';
import type { WorkspaceServices } from '../workspaceServices';
import { withService } from './subscriptionCommands';

/** The budget a preview is cut to when no model says its own: about what chat models take in. */
const PREVIEW_INPUT_TOKENS = 64_000;
const SHOW_PROMPT = 'Show What @context Would Send';
/** Read-only documents for the preview: closing one never asks to save it, and showing it again updates it. */
const PREVIEW_SCHEME = 'proactive-context-prompt';

class PromptPreviews implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly texts = new Map<string, string>();
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.texts.get(uri.toString()) ?? '';
  }

  /** One document per folder, its text replaced by the latest preview. */
  set(folder: vscode.WorkspaceFolder, text: string): vscode.Uri {
    const uri = vscode.Uri.from({ scheme: PREVIEW_SCHEME, path: `/What @context would send (${folder.name}).md` });
    this.texts.set(uri.toString(), text);
    this.changed.fire(uri);
    return uri;
  }

  dispose(): void {
    this.changed.dispose();
  }
}

/** What needs no chat model (the prompt preview), and the walkthrough's "Ask @context", which checks for one first. */
export function registerChatPromptCommands(
  context: vscode.ExtensionContext,
  services: WorkspaceServices,
  tracker: ActivityTracker,
  models: ChatModelAvailability,
): void {
  const previews = new PromptPreviews();
  context.subscriptions.push(
    previews,
    vscode.workspace.registerTextDocumentContentProvider(PREVIEW_SCHEME, previews),
    vscode.commands.registerCommand(ids.command.showChatPrompt, () =>
      showChatPrompt(services, tracker, models, previews),
    ),
    vscode.commands.registerCommand(ids.command.askContext, async () => {
      const action = askContextAction(await models.available());
      if (action.kind === 'chat') {
        await vscode.commands.executeCommand('workbench.action.chat.open', { query: action.query });
        return;
      }
      const pick = await vscode.window.showWarningMessage(action.message, SHOW_PROMPT);
      if (pick === SHOW_PROMPT) await vscode.commands.executeCommand(ids.command.showChatPrompt);
    }),
  );
}

/** Builds the prompt a `@context` question would get now, without renewing anything, and opens it as markdown. */
function showChatPrompt(
  services: WorkspaceServices,
  tracker: ActivityTracker,
  models: ChatModelAvailability,
  previews: PromptPreviews,
): Promise<void> {
  return withService(services, async (service, folder) => {
    const chatModel = await models.available();
    const prompt = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Window, title: 'Building the @context prompt' },
      () =>
        service.chat.context({
          conversationId: `preview_${randomUUID()}`,
          question: PREVIEW_QUESTION,
          history: [],
          place: tracker.currentPlace(folder)?.place,
          maxInputTokens: PREVIEW_INPUT_TOKENS,
          // The assembler's own estimate; a model, when there is one, counts a little differently.
          countTokens: (text) => Promise.resolve(Math.ceil(text.length / 4)),
          preview: true,
        }),
    );
    const content = renderPromptPreview(prompt, { folder: folder.name, chatModel, now: Date.now() });
    const doc = await vscode.workspace.openTextDocument(previews.set(folder, content));
    await vscode.window.showTextDocument(
      doc.languageId === 'markdown' ? doc : await vscode.languages.setTextDocumentLanguage(doc, 'markdown'),
      { preview: false },
    );
  });
}
