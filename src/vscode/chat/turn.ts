import { createHash, randomUUID } from 'node:crypto';
import * as vscode from 'vscode';
import type { ContextService } from '../../core/api/contextService';
import { userMessageOf } from '../../core/api/errors';
import { noChatModel } from '../../core/api/messages';
import type { PromptLedger } from '../../core/api/types';
import type { ActivityTracker } from '../activityTracker';
import type { WorkspaceServices } from '../workspaceServices';
import type { HistoryTurn, LinkFor } from './chatText';
import { SlashArgsError } from './slashArgs';

export interface ChatDeps {
  services: WorkspaceServices;
  tracker: ActivityTracker;
  log: vscode.LogOutputChannel;
}

/** Internal commands behind the chat's buttons (not in the palette). */
export const chatCommands = {
  confirmDecision: 'proactiveContext.chat.confirmDecision',
  replaceOldest: 'proactiveContext.chat.subscribeReplacingOldest',
} as const;

/** Kept in each turn's ChatResult: how later turns, feedback and `/ledger` find what this turn did. */
export interface TurnMetadata {
  conversationId: string;
  command?: string;
  /** The workspace folder's URI the turn worked on. */
  folder?: string;
  suggestionId?: string;
  /** Entity ids of the suggestion items that went into the prompt. */
  suggestionEntities?: string[];
  ledger?: PromptLedger;
  ledgerAt?: number;
  /** The footer markdown appended to the answer; stripped when the answer is read back as history. */
  footer?: string;
}

/** One chat request as every slash command sees it. */
export interface Turn {
  request: vscode.ChatRequest;
  chatContext: vscode.ChatContext;
  stream: vscode.ChatResponseStream;
  token: vscode.CancellationToken;
  signal: AbortSignal;
  service: ContextService;
  folder: vscode.WorkspaceFolder;
  meta: TurnMetadata;
  linkFor: LinkFor;
  deps: ChatDeps;
}

/** Reads a turn's metadata back from chat history, checking its shape instead of trusting a cast. */
export function turnMetadata(result: vscode.ChatResult | undefined): TurnMetadata | undefined {
  const m: unknown = result?.metadata;
  if (typeof m !== 'object' || m === null) return undefined;
  const r = m as Record<string, unknown>;
  if (typeof r.conversationId !== 'string') return undefined;
  const str = (v: unknown) => (typeof v === 'string' ? v : undefined);
  return {
    conversationId: r.conversationId,
    command: str(r.command),
    folder: str(r.folder),
    suggestionId: str(r.suggestionId),
    suggestionEntities: Array.isArray(r.suggestionEntities)
      ? r.suggestionEntities.filter((e): e is string => typeof e === 'string')
      : undefined,
    ledger: isLedger(r.ledger) ? r.ledger : undefined,
    ledgerAt: typeof r.ledgerAt === 'number' ? r.ledgerAt : undefined,
    footer: str(r.footer),
  };
}

function isLedger(v: unknown): v is PromptLedger {
  if (typeof v !== 'object' || v === null) return false;
  const l = v as Record<string, unknown>;
  return (
    Array.isArray(l.entries) &&
    Array.isArray(l.cut) &&
    typeof l.totalTokens === 'number' &&
    typeof l.budget === 'number'
  );
}

export class NoModelError extends Error {
  constructor() {
    super(noChatModel('answer @context'));
  }
}

class ModelFailure extends Error {}

/** Sends the prompt and hands each text fragment to `onText`; failures of the model (not ours) become ModelFailure. */
export async function streamFromModel(
  model: vscode.LanguageModelChat,
  messages: vscode.LanguageModelChatMessage[],
  token: vscode.CancellationToken,
  onText: (fragment: string) => void,
): Promise<void> {
  let ours: unknown;
  try {
    const response = await model.sendRequest(
      messages,
      {
        justification:
          'Proactive Context answers @context questions with your subscribed files and current suggestions.',
      },
      token,
    );
    for await (const fragment of response.text) {
      try {
        onText(fragment);
      } catch (err) {
        ours = err;
        throw err;
      }
    }
  } catch (err) {
    if (err === ours || err instanceof vscode.LanguageModelError || token.isCancellationRequested) throw err;
    throw new ModelFailure((err as Error)?.message ?? String(err));
  }
}

/** The message for errors the user can act on; undefined for bugs (logged and reported briefly). */
export function userMessageFor(err: unknown): string | undefined {
  if (err instanceof vscode.LanguageModelError) {
    const code = err.code;
    if (code === vscode.LanguageModelError.NoPermissions().code)
      return '⚠️ Proactive Context is not allowed to use this chat model. Allow it when asked, or pick another model in the chat view.';
    if (code === vscode.LanguageModelError.Blocked().code)
      return '⚠️ The chat model refused the request (rate limit or content filter). Wait a moment and try again, or pick another model.';
    if (code === vscode.LanguageModelError.NotFound().code)
      return '⚠️ The chat model you picked is not available any more. Pick another model in the chat view.';
    return `⚠️ The chat model reported an error: ${err.message}`;
  }
  if (err instanceof NoModelError) return `⚠️ ${err.message}`;
  if (err instanceof ModelFailure) return `⚠️ The chat model could not answer: ${err.message}`;
  if (err instanceof SlashArgsError) return `⚠️ ${err.message}`;
  const core = userMessageOf(err);
  return core ? `⚠️ ${core}` : undefined;
}

export function linkForFolder(folder: vscode.WorkspaceFolder): LinkFor {
  return (path, line) =>
    vscode.Uri.joinPath(folder.uri, ...path.split('/'))
      .with({ fragment: line ? `L${line}` : '' })
      .toString();
}

/**
 * One id per chat conversation: carried in every answer's metadata; the first turn makes a new one.
 * History from before (another participant's turns only) falls back to a hash of the first request.
 */
export function conversationIdOf(chatContext: vscode.ChatContext): string {
  for (const turn of chatContext.history) {
    if (turn instanceof vscode.ChatResponseTurn) {
      const id = turnMetadata(turn.result)?.conversationId;
      if (id) return id;
    }
  }
  const first = chatContext.history.find((t): t is vscode.ChatRequestTurn => t instanceof vscode.ChatRequestTurn);
  if (first) return `chat_${createHash('sha256').update(first.prompt).digest('hex').slice(0, 16)}`;
  return `chat_${randomUUID()}`;
}

/** The conversation so far as plain turns; the ledger footer is not part of an answer. */
export function historyTurns(chatContext: vscode.ChatContext): HistoryTurn[] {
  const out: HistoryTurn[] = [];
  for (const turn of chatContext.history) {
    if (turn instanceof vscode.ChatRequestTurn) out.push({ role: 'user', content: turn.prompt, command: turn.command });
    else if (turn instanceof vscode.ChatResponseTurn) {
      const m = turnMetadata(turn.result);
      let text = turn.response.map((p) => (p instanceof vscode.ChatResponseMarkdownPart ? p.value.value : '')).join('');
      if (m?.footer && text.endsWith(m.footer)) text = text.slice(0, -m.footer.length);
      out.push({ role: 'assistant', content: text, command: turn.command ?? m?.command });
    }
  }
  return out;
}
