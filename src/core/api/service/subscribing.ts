import { statSync } from 'node:fs';
import { join } from 'node:path';
import type { EngineParts } from '../../engine';
import type { MaterializedSubscription } from '../../subscriptions/materializer';
import { SubscriptionError, type SubscribeRequest, type Subscription } from '../../subscriptions/registry';
import { checkWorkspaceFile } from '../../subscriptions/workspacePaths';
import { ContextError, SubscriptionLimitError } from '../errors';
import { fileIsFolder, fileMissing, noSuchSubscription } from '../messages';
import type { Disposable, SubscribeOutcome } from '../types';

/** How often another process's subscription changes (the extension, the CLI, an MCP server) are looked for. */
const SHARED_STATE_POLL_MS = 1000;

/** Thrown for a subscription id nobody has. */
export class UnknownSubscriptionError extends ContextError {
  constructor(readonly id: string) {
    super('not_found', noSuchSubscription(id, 'mcp'));
    this.name = 'UnknownSubscriptionError';
  }
}

/** The subscription use cases behind ContextService. */
export class Subscribing {
  constructor(private readonly parts: EngineParts) {}

  /**
   * Subscribes (or renews) and previews what the next chat turn gets. Throws
   * SubscriptionLimitError when the limit is reached and `replaceOldest` is not set.
   * `requireFile`: refuse a file that does not exist (agents most likely mistyped it).
   */
  async subscribe(
    request: SubscribeRequest,
    options: { replaceOldest?: boolean; requireFile?: boolean; signal?: AbortSignal } = {},
  ): Promise<SubscribeOutcome> {
    const req: SubscribeRequest = { ...request, replaceOldest: options.replaceOldest ?? request.replaceOldest };
    if (req.kind === 'file' || req.kind === 'lines' || req.kind === 'pattern') {
      const rel = checkWorkspaceFile(this.parts.root, req.target);
      const st = statSync(join(this.parts.root, rel), { throwIfNoEntry: false });
      if (st?.isDirectory()) throw new ContextError('invalid', fileIsFolder(rel));
      if (!st && options.requireFile) throw new ContextError('not_found', fileMissing(rel));
      req.target = rel;
    }
    if (req.kind === 'symbol' && !req.symbol) req.symbol = req.target.split('::').pop();
    const max = this.parts.config().subscriptions.maxActive;
    let result;
    try {
      result = this.parts.subscriptions.subscribe(req);
    } catch (err) {
      if (err instanceof SubscriptionError && err.reason === 'limit')
        throw new SubscriptionLimitError(max, this.parts.subscriptions.list()[0]);
      throw err;
    }
    const preview = await this.parts.materializer.materializeOne(result.subscription, { signal: options.signal });
    return { ...result, preview, limit: { active: this.parts.subscriptions.list().length, max } };
  }

  /** Removes one subscription; an unknown id throws UnknownSubscriptionError and changes nothing. */
  unsubscribe(id: string): Subscription {
    try {
      return this.parts.subscriptions.unsubscribe(id);
    } catch (err) {
      if (err instanceof SubscriptionError && err.reason === 'not_found') throw new UnknownSubscriptionError(id);
      throw err;
    }
  }

  /** One subscription's current content, without renewing it or changing "changed since last turn". */
  async read(id: string, options: { signal?: AbortSignal } = {}): Promise<MaterializedSubscription> {
    const sub = this.parts.subscriptions.get(id);
    if (!sub) throw new UnknownSubscriptionError(id);
    return this.parts.materializer.materializeOne(sub, options);
  }

  /**
   * Fires when subscriptions are added, removed or replaced, by this process or another one on the
   * same workspace (noticed by a cheap look at the shared store every second).
   */
  onDidChange(listener: () => void): Disposable {
    const own = this.parts.subscriptions.onDidChange(() => listener());
    let last = this.fingerprint();
    const timer = setInterval(() => {
      const now = this.fingerprint();
      if (now !== last) {
        last = now;
        listener();
      }
    }, SHARED_STATE_POLL_MS);
    timer.unref?.();
    return { dispose: () => (own.dispose(), clearInterval(timer)) };
  }

  private fingerprint(): string {
    try {
      return this.parts.subscriptions
        .list()
        .map((s) => s.id)
        .sort()
        .join(',');
    } catch {
      return '';
    }
  }
}
