import * as vscode from 'vscode';
import { renderLedgerFooter } from '../../../core/api/messages';
import type { ChatContext } from '../../../core/api/types';
import { promptHistory } from '../chatText';
import { historyTurns, NoModelError, streamFromModel, type Turn } from '../turn';

const FALLBACK_INPUT_TOKENS = 8192;
const MAX_REFERENCES = 12;

/** A question: the prompt is rebuilt from scratch, the user's message last, within the model's budget. */
export async function ask(t: Turn): Promise<void> {
  const { request, service, stream, signal, meta } = t;
  const model = request.model;
  if (!model) throw new NoModelError();
  if (!request.prompt.trim()) {
    stream.markdown(
      'Ask a question, or use a command: `/subscribe`, `/list`, `/suggest`, `/why`, `/decide`, `/ledger`.',
    );
    return;
  }
  stream.progress('Gathering subscribed context, suggestions and memory…');
  const prompt = await service.chat.context({
    conversationId: meta.conversationId,
    question: request.prompt,
    history: promptHistory(historyTurns(t.chatContext)),
    place: t.deps.tracker.currentPlace(t.folder)?.place,
    maxInputTokens: model.maxInputTokens > 0 ? model.maxInputTokens : FALLBACK_INPUT_TOKENS,
    countTokens: (text) => Promise.resolve(model.countTokens(text, t.token)),
    signal,
  });
  reference(t, prompt);

  const messages = prompt.messages.map((m) =>
    m.role === 'assistant'
      ? vscode.LanguageModelChatMessage.Assistant(m.content)
      : vscode.LanguageModelChatMessage.User(m.content),
  );
  let answer = '';
  await streamFromModel(model, messages, t.token, (fragment) => {
    answer += fragment;
    stream.markdown(fragment);
  });

  const footer = `\n\n---\n*${renderLedgerFooter(prompt.ledger)} · \`/ledger\` for details*`;
  stream.markdown(footer);
  meta.footer = footer;
  meta.ledger = prompt.ledger;
  meta.ledgerAt = Date.now();
  if (prompt.suggestion) {
    meta.suggestionId = prompt.suggestion.id;
    meta.suggestionEntities = prompt.suggestion.items.map((i) => i.entityId);
  }
  try {
    service.memory.saveEpisode({ conversationId: meta.conversationId, prompt: request.prompt, answer });
  } catch (err) {
    t.deps.log.warn(`Could not save the chat turn to memory: ${(err as Error).message}`);
  }
}

/** Each source that made it into the prompt, as a reference the user can open. */
function reference(t: Turn, prompt: ChatContext): void {
  const seen = new Set<string>();
  const add = (path: string | undefined, start?: number, end?: number) => {
    if (!path || seen.size >= MAX_REFERENCES) return;
    const uri = vscode.Uri.joinPath(t.folder.uri, ...path.split('/'));
    const key = `${uri.toString()}#${start ?? ''}-${end ?? ''}`;
    if (seen.has(key)) return;
    seen.add(key);
    if (start)
      t.stream.reference(
        new vscode.Location(uri, new vscode.Range(start - 1, 0, Math.max(start, end ?? start) - 1, 0)),
      );
    else t.stream.reference(uri);
  };
  for (const r of prompt.subscriptions)
    if (!r.note) add(r.location?.path ?? r.subscription.path, r.location?.startLine, r.location?.endLine);
  for (const i of prompt.suggestion?.items ?? [])
    add(i.location.path || undefined, i.location.line, i.location.endLine);
  for (const m of prompt.memory) if (m.kind === 'decision') add(m.path);
}
