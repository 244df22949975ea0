// "Show What @context Would Send": the prompt of a turn, as a markdown document. Plain functions
// over core types (no `vscode` import), so the layout is unit-tested in Node.
import { CHAT_MODEL_NEEDED, renderLedger } from '../../core/api/messages';
import type { ChatContext } from '../../core/api/types';

/** Stands in for the user's message, which the preview does not have. */
export const PREVIEW_QUESTION = '(your question goes here)';

/** A fence longer than any backtick run in the text, so repository text cannot close it early. */
function fenced(text: string): string {
  const longest = Math.max(0, ...Array.from(text.matchAll(/`+/g), (m) => m[0].length));
  const fence = '`'.repeat(Math.max(3, longest + 1));
  return `${fence}text\n${text}\n${fence}`;
}

/** The ledger, then each message as the model would get it, in order, the user's message last. */
export function renderPromptPreview(
  prompt: ChatContext,
  options: { folder: string; chatModel: boolean; now: number },
): string {
  const lines = [
    `# What @context would send (${options.folder})`,
    '',
    options.chatModel
      ? 'The prompt a `@context` question would get right now, built as a turn builds it; your question takes the last message.'
      : 'No chat model is available, so `@context` cannot answer yet; this is the prompt a question would get right now. Subscriptions shown here were not renewed.',
    '',
    '## What it holds',
    '',
    renderLedger(prompt.ledger, options.now),
  ];
  prompt.messages.forEach((m, i) =>
    lines.push('', `## Message ${i + 1} of ${prompt.messages.length} (${m.role})`, '', fenced(m.content)),
  );
  return lines.join('\n') + '\n';
}

/**
 * What "Ask @context" does: with a chat model, a real query (an empty `@context` turn only asks the
 * user what they meant); without one, no turn at all (VS Code would reject it) but the reason.
 */
export function askContextAction(
  chatModel: boolean,
): { kind: 'chat'; query: string } | { kind: 'explain'; message: string } {
  return chatModel ? { kind: 'chat', query: '@context /list' } : { kind: 'explain', message: CHAT_MODEL_NEEDED };
}
