import type { EngineParts } from '../../engine';
import type { MaterializedSubscription } from '../../subscriptions/materializer';
import type { SubscribeRequest, Subscription } from '../../subscriptions/registry';
import type { Disposable, SubscribeOutcome } from '../types';
import { Subscribing } from './subscribing';

/** What the user or an agent subscribed to, kept in every chat turn. `service.subscriptions`. */
export class SubscriptionUseCases {
  readonly #parts: EngineParts;
  readonly #subscribing: Subscribing;

  constructor(parts: EngineParts) {
    this.#parts = parts;
    this.#subscribing = new Subscribing(parts);
  }

  subscribe(
    request: SubscribeRequest,
    options: { replaceOldest?: boolean; requireFile?: boolean; signal?: AbortSignal } = {},
  ): Promise<SubscribeOutcome> {
    return this.#subscribing.subscribe(request, options);
  }

  unsubscribe(id: string): Subscription {
    return this.#subscribing.unsubscribe(id);
  }

  unsubscribeAll(): number {
    return this.#parts.subscriptions.unsubscribeAll();
  }

  list(): { list: Subscription[]; max: number } {
    return { list: this.#parts.subscriptions.list(), max: this.#parts.config().subscriptions.maxActive };
  }

  get(id: string): Subscription | undefined {
    return this.#parts.subscriptions.get(id);
  }

  read(id: string, options: { signal?: AbortSignal } = {}): Promise<MaterializedSubscription> {
    return this.#subscribing.read(id, options);
  }

  materializeAll(
    options: { record?: boolean; conversationId?: string; signal?: AbortSignal } = {},
  ): Promise<MaterializedSubscription[]> {
    return this.#parts.materializer.materialize(options);
  }

  onDidChange(listener: () => void): Disposable {
    return this.#subscribing.onDidChange(listener);
  }
}
