import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

const LOOPBACK_NAMES = ['127.0.0.1', 'localhost', '[::1]'];

/**
 * DNS-rebinding protection: a page on another site that got its name pointed at 127.0.0.1 still
 * sends its own name as Host and its own Origin. Only our loopback names on our port pass; an
 * Origin, when a browser sends one, must be a loopback page (any port: local tools such as an MCP
 * inspector run on their own).
 */
export function rejectForeignRequest(req: IncomingMessage, port: number): string | undefined {
  const host = (req.headers.host ?? '').toLowerCase();
  if (!LOOPBACK_NAMES.some((name) => host === `${name}:${port}`))
    return `Forbidden: Host header '${req.headers.host ?? ''}' is not this server (127.0.0.1:${port})`;
  const origin = req.headers.origin;
  if (origin !== undefined && !isLoopbackOrigin(origin))
    return `Forbidden: Origin '${origin}' is not a localhost origin`;
  return undefined;
}

function isLoopbackOrigin(origin: string): boolean {
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false;
  }
  return (url.protocol === 'http:' || url.protocol === 'https:') && LOOPBACK_NAMES.includes(url.hostname.toLowerCase());
}

/** Checks `Authorization: Bearer <token>` in constant time (hashing first hides the length as well). */
export class BearerCheck {
  private readonly expected: Buffer;

  constructor(token: string) {
    this.expected = digest(token);
  }

  accepts(req: IncomingMessage): boolean {
    const header = req.headers.authorization ?? '';
    const match = /^Bearer[ \t]+(\S{1,1024})[ \t]*$/i.exec(header);
    // Compare something either way, so a missing header costs what a wrong one does.
    return timingSafeEqual(digest(match?.[1] ?? ''), this.expected) && match !== null;
  }
}

function digest(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}

/** A JSON-RPC error with no request id, as the MCP SDK answers transport-level failures. */
export function sendJsonRpcError(
  res: ServerResponse,
  status: number,
  code: number,
  message: string,
  headers: Record<string, string> = {},
): void {
  if (res.headersSent) {
    res.end();
    return;
  }
  const body = JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null });
  res.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body), ...headers });
  res.end(body);
}

export type BodyResult = { kind: 'ok'; text: string } | { kind: 'tooLarge' };

/**
 * Reads a request body of at most `maxBytes`. An oversized body is read to its end and thrown away
 * (so the client gets an answer instead of a reset connection), up to `drainLimit` bytes, past which
 * the connection is cut.
 */
export function readBody(req: IncomingMessage, maxBytes: number, drainLimit = maxBytes * 16): Promise<BodyResult> {
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers['content-length']);
    let tooLarge = Number.isFinite(declared) && declared > maxBytes;
    let received = 0;
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => {
      received += chunk.length;
      if (received > maxBytes) tooLarge = true;
      if (tooLarge) {
        chunks.length = 0;
        if (received > drainLimit) req.socket.destroy();
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () =>
      resolve(tooLarge ? { kind: 'tooLarge' } : { kind: 'ok', text: Buffer.concat(chunks).toString('utf8') }),
    );
    req.on('error', reject);
    req.on('close', () => {
      if (!req.complete) reject(new Error('the client closed the connection before sending the whole request'));
    });
  });
}
