import type { EngineParts } from '../../engine';
import type { ChatContext, ChatContextRequest } from '../types';
import { buildChatContext } from './chatContext';
import type { SuggestionUseCases } from './suggestions';

/** The `@context` chat participant's use cases. `service.chat`. */
export class ChatUseCases {
  readonly #parts: EngineParts;
  readonly #suggestions: SuggestionUseCases;

  constructor(parts: EngineParts, suggestions: SuggestionUseCases) {
    this.#parts = parts;
    this.#suggestions = suggestions;
  }

  /** One `@context` turn's prompt and what it holds, by id. */
  context(request: ChatContextRequest): Promise<ChatContext> {
    return buildChatContext(this.#parts, request, (place, signal) =>
      this.#suggestions.suggestAt(place, { signal, trigger: 'manual' }),
    );
  }
}
