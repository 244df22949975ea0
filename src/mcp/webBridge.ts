import type { IncomingMessage, ServerResponse } from 'node:http';

/** Hop-by-hop and framing headers belong to the node connection, not to the request passed on. */
const DROPPED_HEADERS = new Set(['connection', 'keep-alive', 'transfer-encoding', 'content-length', 'upgrade']);

/**
 * The web-standard `Request` the SDK's HTTP entries take, for a node request whose body was already
 * read (and checked) here. `signal` aborts when the client goes, which ends any stream it opened.
 */
export function toWebRequest(
  req: IncomingMessage,
  url: string,
  body: string | undefined,
  signal: AbortSignal,
): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined || DROPPED_HEADERS.has(name)) continue;
    if (Array.isArray(value)) for (const v of value) headers.append(name, v);
    else headers.set(name, value);
  }
  const method = req.method ?? 'GET';
  return new Request(url, {
    method,
    headers,
    signal,
    ...(body !== undefined && method !== 'GET' && method !== 'HEAD' ? { body } : {}),
  });
}

/**
 * Writes a web `Response` to the node response, streaming its body (SSE included) with backpressure.
 * Resolves when the body ended or the client went away; a client that goes cancels the body.
 */
export async function sendWebResponse(res: ServerResponse, response: Response): Promise<void> {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => (headers[name] = value));
  res.writeHead(response.status, headers);
  if (!response.body) {
    res.end();
    return;
  }
  // An event stream may stay quiet for a long time: the client needs the headers now.
  if ((response.headers.get('content-type') ?? '').startsWith('text/event-stream')) res.flushHeaders();
  const reader: ReadableStreamDefaultReader<Uint8Array> = response.body.getReader();
  let gone = false;
  const onClose = (): void => {
    gone = true;
    reader.cancel().catch(() => undefined);
  };
  res.once('close', onClose);
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done || gone) break;
      if (!res.write(value)) await drained(res);
    }
  } catch {
    // The body failed or was cancelled because the client left: nothing more to send.
  } finally {
    res.off('close', onClose);
    if (!gone) res.end();
  }
}

function drained(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.once('drain', done);
    res.once('close', done);
  });
}
