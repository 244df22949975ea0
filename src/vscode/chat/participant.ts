import * as vscode from 'vscode';
import { SubscriptionLimitError } from '../../core/api/errors';
import { describeSubscription, subscriptionLimit } from '../../core/api/messages';
import type { SubscribeRequest } from '../../core/api/types';
import { NO_FOLDER } from '../../core/api/messages';
import { ids } from '../ids';
import { ask } from './commands/ask';
import { suggest, why } from './commands/context';
import { DecisionDrafts } from './commands/decide';
import { ledger } from './commands/ledger';
import { list, subscribe, unsubscribe } from './commands/subscriptions';
import {
  chatCommands,
  conversationIdOf,
  linkForFolder,
  turnMetadata,
  userMessageFor,
  type ChatDeps,
  type Turn,
  type TurnMetadata,
} from './turn';

export { chatCommands };

/** Registers `@context`: every question gets a prompt built afresh from subscriptions, suggestions and memory. */
export function registerChatParticipant(context: vscode.ExtensionContext, deps: ChatDeps): vscode.ChatParticipant {
  const drafts = new DecisionDrafts(deps);
  const handlers: Record<string, (t: Turn) => void | Promise<void>> = {
    subscribe,
    unsubscribe,
    list,
    suggest,
    why,
    decide: (t) => drafts.decide(t),
    ledger,
  };
  const participant = vscode.chat.createChatParticipant(ids.participant, (request, chatContext, stream, token) =>
    handle(deps, handlers, request, chatContext, stream, token),
  );
  participant.iconPath = new vscode.ThemeIcon('lightbulb');
  participant.followupProvider = { provideFollowups: (result) => followupsFor(result) };
  context.subscriptions.push(
    participant,
    participant.onDidReceiveFeedback((feedback) => void applyFeedback(deps, feedback)),
    vscode.commands.registerCommand(chatCommands.confirmDecision, (draftId?: string) => drafts.confirm(draftId)),
    vscode.commands.registerCommand(chatCommands.replaceOldest, (folder: string, request: SubscribeRequest) =>
      replaceOldest(deps, folder, request),
    ),
  );
  return participant;
}

/** Runs the slash command (or the question) on the active folder's service; errors the user can act on become chat text. */
async function handle(
  deps: ChatDeps,
  handlers: Record<string, (t: Turn) => void | Promise<void>>,
  request: vscode.ChatRequest,
  chatContext: vscode.ChatContext,
  stream: vscode.ChatResponseStream,
  token: vscode.CancellationToken,
): Promise<vscode.ChatResult> {
  const meta: TurnMetadata = { conversationId: conversationIdOf(chatContext), command: request.command };
  const folder = deps.services.activeFolder();
  if (!folder) {
    stream.markdown(NO_FOLDER);
    return { metadata: meta };
  }
  meta.folder = folder.uri.toString();
  const controller = new AbortController();
  const sub = token.onCancellationRequested(() => controller.abort());
  try {
    const service = await deps.services.get(folder);
    const turn: Turn = {
      request,
      chatContext,
      stream,
      token,
      signal: controller.signal,
      service,
      folder,
      meta,
      linkFor: linkForFolder(folder),
      deps,
    };
    await (handlers[request.command ?? ''] ?? ask)(turn);
    return { metadata: meta };
  } catch (err) {
    if (token.isCancellationRequested) return { metadata: meta };
    const message = userMessageFor(err);
    if (message) {
      stream.markdown(message);
      return { metadata: meta };
    }
    deps.log.error(`@context failed: ${(err as Error)?.stack ?? String(err)}`);
    return {
      metadata: meta,
      errorDetails: { message: `Proactive Context could not answer: ${(err as Error)?.message ?? String(err)}` },
    };
  } finally {
    sub.dispose();
  }
}

async function replaceOldest(deps: ChatDeps, folderUri: string, request: SubscribeRequest): Promise<void> {
  const folder = vscode.workspace.workspaceFolders?.find((f) => f.uri.toString() === folderUri);
  if (!folder) return;
  try {
    const r = await (await deps.services.get(folder)).subscriptions.subscribe(request, { replaceOldest: true });
    void vscode.window.showInformationMessage(
      `Subscribed to ${describeSubscription(r.subscription)}${r.replaced ? `; removed the oldest, ${describeSubscription(r.replaced)}` : ''}.`,
    );
  } catch (err) {
    const message = err instanceof SubscriptionLimitError ? subscriptionLimit(err, 'palette') : (err as Error).message;
    void vscode.window.showErrorMessage(`Could not subscribe: ${message}`);
  }
}

/** Thumbs up marks the turn's suggestion items as used; thumbs down dismisses them for that place. */
async function applyFeedback(deps: ChatDeps, feedback: vscode.ChatResultFeedback): Promise<void> {
  const m = turnMetadata(feedback.result);
  if (!m?.suggestionId || !m.suggestionEntities?.length || !m.folder) return;
  const folder = vscode.workspace.workspaceFolders?.find((f) => f.uri.toString() === m.folder);
  if (!folder) return;
  try {
    const service = await deps.services.get(folder);
    const helpful = feedback.kind === vscode.ChatResultFeedbackKind.Helpful;
    for (const entity of m.suggestionEntities)
      service.suggestions.feedback(m.suggestionId, entity, helpful ? 'used' : 'dismissed');
    deps.log.debug(
      `Chat feedback (${helpful ? 'helpful' : 'unhelpful'}) applied to ${m.suggestionEntities.length} suggestion item(s)`,
    );
  } catch (err) {
    deps.log.warn(`Could not record chat feedback: ${(err as Error).message}`);
  }
}

function followupsFor(result: vscode.ChatResult): vscode.ChatFollowup[] {
  const m = turnMetadata(result);
  if (result.errorDetails || !m) return [];
  switch (m.command) {
    case undefined:
      return m.ledger
        ? [
            { prompt: '', command: 'ledger', label: 'What went into this answer?' },
            { prompt: '', command: 'suggest', label: 'Show the context for the active editor' },
          ]
        : [];
    case 'subscribe':
    case 'unsubscribe':
      return [{ prompt: '', command: 'list', label: 'List subscriptions' }];
    case 'suggest':
    case 'why':
      return [
        {
          prompt: 'What should I keep in mind before changing this code?',
          label: 'What should I keep in mind before changing this code?',
        },
      ];
    default:
      return [];
  }
}
