import type { CoreConfig } from '../config';
import { openEngine, type EngineParts } from '../engine';
import type { StoreNotice } from '../store/store';
import { ChatUseCases } from './service/chat';
import { DecisionUseCases } from './service/decisions';
import { MemoryUseCases } from './service/memory';
import { SubscriptionUseCases } from './service/subscriptions';
import { SuggestionUseCases } from './service/suggestions';
import { UnknownSubscriptionError } from './service/subscribing';
import { WatchUseCases } from './service/watches';
import { Watching } from './service/watching';
import { WorkspaceUseCases } from './service/workspace';
import type { OpenOptions } from './types';

export { UnknownSubscriptionError };

/**
 * The core's front door: the product's use cases for one workspace root, grouped by concern
 * (`service.suggestions.suggestAt`, `service.watches.add`, …). The extension, the MCP server and the
 * CLI reach the engine only through this class, so each use case is written once.
 */
export class ContextService {
  /** Knowing the workspace: indexing, history, its files and paths. */
  readonly workspace: WorkspaceUseCases;
  /** What matters at a place: suggestions, enrichment, explanations, feedback. */
  readonly suggestions: SuggestionUseCases;
  /** The decision records: listed, written, anchored to code, proposed. */
  readonly decisions: DecisionUseCases;
  /** What is kept in every chat turn. */
  readonly subscriptions: SubscriptionUseCases;
  /** Patterns that fire when matching files change or the user gets there. */
  readonly watches: WatchUseCases;
  /** Past conversations. */
  readonly memory: MemoryUseCases;
  /** The `@context` chat participant. */
  readonly chat: ChatUseCases;

  // Private by the language, so that the service's own properties are exactly its concerns.
  readonly #parts: EngineParts;
  readonly #watching: Watching;
  readonly #disposables: (() => void)[] = [];
  #disposed = false;

  private constructor(parts: EngineParts) {
    this.#parts = parts;
    this.#watching = new Watching(parts);
    const lifetime = {
      disposed: () => this.#disposed,
      onDispose: (fn: () => void) => this.onDispose(fn),
    };
    this.workspace = new WorkspaceUseCases(parts, this.#watching);
    this.suggestions = new SuggestionUseCases(parts);
    this.decisions = new DecisionUseCases(parts);
    this.subscriptions = new SubscriptionUseCases(parts);
    this.watches = new WatchUseCases(parts, this.#watching, lifetime);
    this.memory = new MemoryUseCases(parts);
    this.chat = new ChatUseCases(parts, this.suggestions);
  }

  /** Opens the workspace's state and wires the engine; heavy work starts only when asked. */
  static async open(options: OpenOptions): Promise<ContextService> {
    return new ContextService(await openEngine(options));
  }

  get root(): string {
    return this.#parts.root;
  }

  get stateDir(): string {
    return this.#parts.stateDir;
  }

  get config(): CoreConfig {
    return this.#parts.config();
  }

  setConfig(partial: Partial<CoreConfig>): void {
    this.#parts.setConfig(partial);
  }

  /** Whether git may run for this root (false for a folder opened with `noGit`, until `allowGit`). */
  get gitAllowed(): boolean {
    return this.#parts.gitAccess.allowed;
  }

  /**
   * Lets git run from now on (the user trusted the folder): history is mined, and recent changes,
   * co-change, line history and watches switch on without opening the service again.
   */
  allowGit(): void {
    this.#parts.gitAccess.allow();
  }

  /** Things the store had to do on opening (a damaged file moved aside, data restored) that the user should hear of once. */
  get notices(): readonly StoreNotice[] {
    return this.#parts.store.notices;
  }

  onDispose(fn: () => void): void {
    this.#disposables.push(fn);
  }

  /** Stops background work and writes what is pending; safe to call twice. */
  dispose(): void {
    if (this.#disposed) return;
    this.#disposed = true;
    this.#watching.dispose();
    for (const d of this.#disposables.splice(0).reverse()) {
      try {
        d();
      } catch (err) {
        this.#parts.logger.warn(`Error while shutting down: ${(err as Error).message}`);
      }
    }
    this.#parts.dispose();
  }
}
