import type { Readable, Writable } from 'node:stream';
import { JSONRPCMessageSchema } from '@modelcontextprotocol/core';
import { ProtocolErrorCode as ErrorCode, type JSONRPCMessage, type Transport } from '@modelcontextprotocol/server';
import { nullLogger, type Logger } from '../core/api/types';

/** Largest message the server reads; below the SDK's own 10 MB read buffer, which drops the connection without a reply. */
export const MAX_MESSAGE_BYTES = 4 * 1024 * 1024;
/** How much of the start and end of an oversize message is kept to find its id. */
const ID_WINDOW = 2048;

type RequestId = string | number | null;

export interface FramedStdioOptions {
  stdin?: Readable;
  stdout?: Writable;
  maxMessageBytes?: number;
  logger?: Logger;
}

/**
 * Newline-delimited JSON-RPC over stdin/stdout, in front of the SDK's server. Unlike the SDK's
 * transport it answers what it cannot accept instead of dropping the connection or staying silent:
 * a line that is not JSON gets -32700, a JSON value that is not a JSON-RPC message gets -32600, and a
 * message over the size limit is skipped without being buffered and refused with -32600 naming the
 * limit (with the request's id when it can be found in the message's first or last bytes). Writes
 * wait for 'drain' through one shared listener, however many are queued.
 */
export class FramedStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  private readonly stdin: Readable;
  private readonly stdout: Writable;
  private readonly max: number;
  private readonly logger: Logger;
  private parts: Buffer[] = [];
  private size = 0;
  /** Set while skipping the rest of an oversize line. */
  private oversize: { bytes: number; head: Buffer; tail: Buffer } | undefined;
  private drainWaiters: (() => void)[] = [];
  private started = false;
  private closed = false;

  constructor(options: FramedStdioOptions = {}) {
    this.stdin = options.stdin ?? process.stdin;
    this.stdout = options.stdout ?? process.stdout;
    this.max = options.maxMessageBytes ?? MAX_MESSAGE_BYTES;
    this.logger = options.logger ?? nullLogger;
  }

  async start(): Promise<void> {
    if (this.started) throw new Error('The stdio transport is already started.');
    this.started = true;
    this.stdin.on('data', this.onData);
    this.stdin.on('error', this.onStreamError);
    this.stdout.on('drain', this.onDrain);
  }

  async send(message: JSONRPCMessage): Promise<void> {
    if (this.closed) return;
    const ok = this.stdout.write(JSON.stringify(message) + '\n');
    if (!ok) await new Promise<void>((resolve) => this.drainWaiters.push(resolve));
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.stdin.off('data', this.onData);
    this.stdin.off('error', this.onStreamError);
    this.stdout.off('drain', this.onDrain);
    if (this.stdin.listenerCount('data') === 0) this.stdin.pause();
    this.parts = [];
    this.oversize = undefined;
    this.onDrain();
    this.onclose?.();
  }

  private readonly onStreamError = (err: Error): void => {
    this.onerror?.(err);
  };

  private readonly onDrain = (): void => {
    const waiters = this.drainWaiters;
    this.drainWaiters = [];
    for (const w of waiters) w();
  };

  private readonly onData = (chunk: Buffer | string): void => {
    const buf = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
    let at = 0;
    while (at < buf.length && !this.closed) {
      const nl = buf.indexOf(10, at);
      const end = nl < 0 ? buf.length : nl;
      const piece = buf.subarray(at, end);
      if (this.oversize) this.skip(piece);
      else if (this.size + piece.length > this.max) this.startSkipping(piece);
      else {
        this.parts.push(piece);
        this.size += piece.length;
      }
      if (nl < 0) return;
      at = nl + 1;
      if (this.oversize) this.refuseOversize();
      else this.takeLine();
    }
  };

  private startSkipping(piece: Buffer): void {
    const head = Buffer.concat([...this.parts, piece.subarray(0, ID_WINDOW)]).subarray(0, ID_WINDOW);
    this.oversize = { bytes: this.size, head, tail: Buffer.alloc(0) };
    this.parts = [];
    this.size = 0;
    this.skip(piece);
  }

  private skip(piece: Buffer): void {
    const o = this.oversize!;
    o.bytes += piece.length;
    o.tail = Buffer.concat([o.tail, piece.subarray(Math.max(0, piece.length - ID_WINDOW))]);
    if (o.tail.length > ID_WINDOW) o.tail = o.tail.subarray(o.tail.length - ID_WINDOW);
  }

  private refuseOversize(): void {
    const o = this.oversize!;
    this.oversize = undefined;
    const id = idAtEdges(o.head.toString('utf8'), o.tail.toString('utf8'));
    const mb = (n: number) => (n / (1024 * 1024)).toFixed(1);
    const message = `Message of ${mb(o.bytes)} MB refused: the limit is ${mb(this.max)} MB per message. Send less at once.`;
    this.logger.warn(`mcp: ${message}`);
    this.reply(id, ErrorCode.InvalidRequest, message);
  }

  private takeLine(): void {
    const text = Buffer.concat(this.parts, this.size).toString('utf8').replace(/\r$/, '');
    this.parts = [];
    this.size = 0;
    if (!text.trim()) return;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (err) {
      this.reply(null, ErrorCode.ParseError, `Parse error: the line is not valid JSON (${(err as Error).message}).`);
      return;
    }
    const parsed = JSONRPCMessageSchema.safeParse(value);
    if (!parsed.success) {
      const id = requestIdOf(value);
      const method = isObject(value) && typeof value.method === 'string' ? ` (${value.method})` : '';
      // A malformed notification has no id to answer; say it once on stderr.
      if (id === undefined && isObject(value) && 'method' in value)
        this.logger.warn(`mcp: ignored a malformed notification${method}.`);
      else
        this.reply(
          id ?? null,
          ErrorCode.InvalidRequest,
          `Invalid request${method}: not a JSON-RPC 2.0 request, notification or response.`,
        );
      return;
    }
    try {
      this.onmessage?.(parsed.data);
    } catch (err) {
      this.onerror?.(err as Error);
    }
  }

  private reply(id: RequestId, code: number, message: string): void {
    void this.send({ jsonrpc: '2.0', id, error: { code, message } } as unknown as JSONRPCMessage);
  }
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function requestIdOf(value: unknown): RequestId | undefined {
  if (!isObject(value)) return undefined;
  const id = value.id;
  return typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id)) ? id : undefined;
}

/**
 * The id of an oversize request, read from its edges only: clients write it first
 * (`{"jsonrpc":"2.0","id":7,…`) or last (`…,"jsonrpc":"2.0","id":7}`).
 */
export function idAtEdges(head: string, tail: string): RequestId {
  const first = /^\s*\{\s*(?:"jsonrpc"\s*:\s*"2\.0"\s*,\s*)?"id"\s*:\s*(-?\d{1,15}|"[^"\\]{0,256}")/.exec(head);
  const last = /"id"\s*:\s*(-?\d{1,15}|"[^"\\]{0,256}")\s*\}\s*$/.exec(tail.slice(-300));
  const raw = first?.[1] ?? last?.[1];
  if (raw === undefined) return null;
  return raw.startsWith('"') ? raw.slice(1, -1) : Number(raw);
}
