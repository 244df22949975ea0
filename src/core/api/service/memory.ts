import type { EngineParts } from '../../engine';
import type { Episode, MemoryHit } from '../../memory/memoryStore';

/** Past conversations, kept and searched. `service.memory`. */
export class MemoryUseCases {
  readonly #parts: EngineParts;

  constructor(parts: EngineParts) {
    this.#parts = parts;
  }

  search(
    query: string,
    options: { excludeConversationId?: string; limit?: number; signal?: AbortSignal } = {},
  ): Promise<MemoryHit[]> {
    return this.#parts.memory.search(query, options);
  }

  saveEpisode(episode: { conversationId: string; prompt: string; answer: string }): void {
    this.#parts.memory.saveEpisode(episode);
  }

  recentEpisodes(limit = 50): Episode[] {
    return this.#parts.memory.recentEpisodes({ limit });
  }
}
