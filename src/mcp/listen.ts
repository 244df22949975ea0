import {
  PROTOCOL_VERSION_META_KEY,
  isJSONRPCNotification,
  isJSONRPCRequest,
  type JSONRPCMessage,
  type JSONRPCRequest,
  type MessageExtraInfo,
  type Transport,
  type TransportSendOptions,
} from '@modelcontextprotocol/server';
import type { Logger } from '../core/api/types';
import type { LiveResources } from './liveResources';

/**
 * The resources that open `subscriptions/listen` streams asked for (protocol 2026-07-28), kept fresh
 * while any stream wants them. The SDK answers the listen request, acknowledges the honoured subset
 * and tags every notification with the stream's subscription id; this decides the subset: only URIs
 * this server can serve (it narrows the request before the SDK sees it), so the acknowledgement says
 * truthfully what the client will hear about.
 */
export class ListenInterest {
  private readonly streams = new Map<string, string[]>();
  private readonly counts = new Map<string, number>();

  constructor(
    private readonly live: LiveResources,
    private readonly logger: Logger,
  ) {}

  /** Starts keeping the servable resources of a listen request fresh; returns the request narrowed to them. */
  async open(key: string, request: JSONRPCRequest): Promise<JSONRPCRequest> {
    const filter = filterOf(request);
    const asked = filter?.resourceSubscriptions;
    // Malformed: passed on untouched, for the SDK to refuse with -32602.
    if (!filter || !Array.isArray(asked) || !asked.every((u) => typeof u === 'string')) return request;
    await this.close(key);
    const kept: string[] = [];
    for (const uri of new Set(asked)) {
      const n = this.counts.get(uri) ?? 0;
      if (n === 0) {
        try {
          await this.live.subscribe(uri);
        } catch (err) {
          this.logger.debug(`mcp: listen: not honouring ${uri}: ${(err as Error).message}`);
          continue;
        }
      }
      this.counts.set(uri, n + 1);
      kept.push(uri);
    }
    this.streams.set(key, kept);
    return { ...request, params: { ...request.params, notifications: { ...filter, resourceSubscriptions: kept } } };
  }

  /** The stream ended (cancelled, closed, or its connection gone): stop watching what only it wanted. */
  async close(key: string): Promise<void> {
    const uris = this.streams.get(key);
    if (!uris) return;
    this.streams.delete(key);
    for (const uri of uris) {
      const n = (this.counts.get(uri) ?? 1) - 1;
      if (n > 0) {
        this.counts.set(uri, n);
        continue;
      }
      this.counts.delete(uri);
      await this.live.unsubscribe(uri).catch(() => undefined);
    }
  }

  openStreams(): number {
    return this.streams.size;
  }
}

/** A 2026-07-28 `subscriptions/listen` request (it carries the per-request envelope). */
export function isListenRequest(message: unknown): message is JSONRPCRequest {
  if (!isJSONRPCRequest(message) || message.method !== 'subscriptions/listen') return false;
  const meta = (message.params as { _meta?: Record<string, unknown> } | undefined)?._meta;
  return typeof meta?.[PROTOCOL_VERSION_META_KEY] === 'string';
}

function filterOf(request: JSONRPCRequest): Record<string, unknown> | undefined {
  const n = (request.params as { notifications?: unknown } | undefined)?.notifications;
  return typeof n === 'object' && n !== null && !Array.isArray(n) ? (n as Record<string, unknown>) : undefined;
}

/** Listen ids are JSON-RPC ids: 1 and "1" are different streams. */
function streamKey(id: unknown): string {
  return JSON.stringify(id);
}

/**
 * The stdio wire as the SDK's stdio entry sees it, with listen streams noticed on the way in: a
 * listen request is narrowed and its resources watched before the SDK acknowledges it, and a
 * `notifications/cancelled` for it stops the watching. Messages keep their order.
 */
export class ListenTap implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T, extra?: MessageExtraInfo) => void;
  private chain: Promise<void> = Promise.resolve();
  private readonly endListeners: (() => void)[] = [];

  constructor(
    private readonly inner: Transport,
    private readonly interest: ListenInterest,
  ) {}

  /** Called once the wire is closed, whoever closed it. */
  onEnd(listener: () => void): void {
    this.endListeners.push(listener);
  }

  async start(): Promise<void> {
    this.inner.onmessage = (message, extra) => this.inbound(message, extra);
    this.inner.onerror = (err) => this.onerror?.(err);
    this.inner.onclose = () => {
      this.onclose?.();
      for (const l of this.endListeners) l();
    };
    await this.inner.start();
  }

  send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    return this.inner.send(message, options);
  }

  close(): Promise<void> {
    return this.inner.close();
  }

  private inbound(message: JSONRPCMessage, extra?: MessageExtraInfo): void {
    this.chain = this.chain
      .then(async () => {
        let out = message;
        if (isListenRequest(message)) out = await this.interest.open(streamKey(message.id), message);
        else if (isJSONRPCNotification(message) && message.method === 'notifications/cancelled')
          await this.interest.close(streamKey((message.params as { requestId?: unknown } | undefined)?.requestId));
        this.onmessage?.(out, extra);
      })
      .catch((err: Error) => this.onerror?.(err));
  }
}
