import { randomUUID } from 'node:crypto';
import * as vscode from 'vscode';
import { CHAT_MODEL_NEEDED } from '../../core/api/messages';
import type { ActivityTracker } from '../activityTracker';
import type { ChatModelAvailability } from '../chat/chatModels';
import { PREVIEW_QUESTION, renderPromptPreview } from '../chat/promptPreview';
import { ids } from '../ids';
import type { WorkspaceServices } from '../workspaceServices';
import { withService } from './subscriptionCommands';

/** The budget a preview is cut to when no model says its own: about what chat models take in. */
const PREVIEW_INPUT_TOKENS = 64_000;
const SHOW_PROMPT = 'Show What @context Would Send';

/** What needs no chat model (the prompt preview), and the walkthrough's "Ask @context", which checks for one first. */
export function registerChatPromptCommands(context: vscode.ExtensionContext, services: WorkspaceServices, tracker: ActivityTracker, models: ChatModelAvailability): void {
  context.subscriptions.push(
    vscode.commands.registerCommand(ids.command.showChatPrompt, () => showChatPrompt(services, tracker, models)),
    vscode.commands.registerCommand(ids.command.askContext, async () => {
      if (await models.available()) {
        // A real query: an empty `@context` turn only asks the user what they meant.
        await vscode.commands.executeCommand('workbench.action.chat.open', { query: '@context /list' });
        return;
      }
      const pick = await vscode.window.showWarningMessage(CHAT_MODEL_NEEDED, SHOW_PROMPT);
      if (pick === SHOW_PROMPT) await vscode.commands.executeCommand(ids.command.showChatPrompt);
    }),
  );
}

/** Builds the prompt a `@context` question would get now, without renewing anything, and opens it as markdown. */
function showChatPrompt(services: WorkspaceServices, tracker: ActivityTracker, models: ChatModelAvailability): Promise<void> {
  return withService(services, async (service, folder) => {
    const chatModel = await models.available();
    const prompt = await vscode.window.withProgress({ location: vscode.ProgressLocation.Window, title: 'Building the @context prompt' }, () =>
      service.chatContext({
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
    const doc = await vscode.workspace.openTextDocument({ language: 'markdown', content });
    await vscode.window.showTextDocument(doc, { preview: false });
  });
}
