import { existsSync, readFileSync, statSync } from 'node:fs';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP } from 'node:net';
import { resolve } from 'node:path';
import { mb, SnapshotError } from './format';

export interface ReadOptions {
  /** A bearer token for the server; sent only to the origin of the URL it was given for. */
  token?: string;
  /** The whole download's bound (headers and body). */
  timeoutMs: number;
  maxBytes: number;
  signal?: AbortSignal;
  /** Bytes received, of the total when the server said it. */
  onProgress?: (received: number, total: number | undefined) => void;
}

/** The bytes of a snapshot and the hash published beside it (FILE.sha256 or URL.sha256), if any. */
export interface SourceBytes {
  data: Buffer;
  published?: string;
}

const MAX_REDIRECTS = 5;
const SHA256 = /\b([0-9a-fA-F]{64})\b/;

export function isUrl(location: string): boolean {
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(location);
}

/** Reads a snapshot from a path or an http(s) URL, within the size limit and the timeout. */
export async function readSource(location: string, o: ReadOptions): Promise<SourceBytes> {
  if (!isUrl(location)) return readLocal(resolve(location), o.maxBytes);
  const url = checkedUrl(location);
  const data = await download(url, o, o.maxBytes);
  // The published hash is optional: a server without one answers 404 and the header hashes still apply.
  const sidecar = new URL(url);
  sidecar.pathname += '.sha256';
  let published: string | undefined;
  try {
    published = parseHash((await download(sidecar, { ...o, onProgress: undefined }, 4096)).toString('utf8'));
  } catch (err) {
    if (!(err instanceof SnapshotError && err.reason === 'not-found')) throw err;
  }
  return { data, published };
}

function readLocal(path: string, maxBytes: number): SourceBytes {
  let size: number;
  try {
    const st = statSync(path);
    if (!st.isFile()) throw new Error('not a file');
    size = st.size;
  } catch (err) {
    throw new SnapshotError('unreadable', `cannot read the snapshot ${path} (${(err as Error).message})`);
  }
  if (size > maxBytes)
    throw new SnapshotError(
      'oversized',
      `the snapshot ${path} is too large (${mb(size)}; the limit is ${mb(maxBytes)})`,
    );
  const data = readFileSync(path);
  const sidecar = `${path}.sha256`;
  return { data, published: existsSync(sidecar) ? parseHash(readFileSync(sidecar, 'utf8')) : undefined };
}

/** The hash in a `sha256sum` line (or a bare hash); a file without one is refused, not ignored. */
export function parseHash(text: string): string {
  const m = SHA256.exec(text.slice(0, 4096));
  if (!m) throw new SnapshotError('hash-mismatch', 'the published hash file holds no SHA-256 hash');
  return m[1].toLowerCase();
}

/** https anywhere; plain http only to this machine, where nothing on the network can read or change it. */
function checkedUrl(location: string): URL {
  let url: URL;
  try {
    url = new URL(location);
  } catch {
    throw new SnapshotError('unreadable', `the snapshot URL ${location} is not a valid URL`);
  }
  if (url.protocol === 'https:') return url;
  if (url.protocol === 'http:' && isLoopback(url.hostname)) return url;
  throw new SnapshotError(
    'insecure-url',
    url.protocol === 'http:'
      ? `the snapshot URL ${url.origin} uses plain http: use https (http is accepted only for localhost)`
      : `the snapshot URL scheme ${url.protocol} is not supported: use https`,
  );
}

function isLoopback(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '');
  if (h === 'localhost' || h === '::1') return true;
  return isIP(h) === 4 && h.startsWith('127.');
}

function download(start: URL, o: ReadOptions, maxBytes: number): Promise<Buffer> {
  return new Promise<Buffer>((resolvePromise, reject) => {
    let settled = false;
    let current: { destroy(): void } | undefined;
    const finish = (err: Error | undefined, data?: Buffer) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      o.signal?.removeEventListener('abort', onAbort);
      current?.destroy();
      if (err) reject(err);
      else resolvePromise(data!);
    };
    const timer = setTimeout(
      () =>
        finish(
          new SnapshotError('timeout', `the snapshot download from ${start.origin} timed out after ${o.timeoutMs} ms`),
        ),
      o.timeoutMs,
    );
    timer.unref?.();
    const onAbort = () => finish(new SnapshotError('download-failed', 'the snapshot download was cancelled'));
    if (o.signal?.aborted) return onAbort();
    o.signal?.addEventListener('abort', onAbort, { once: true });

    const get = (url: URL, redirects: number) => {
      const headers: Record<string, string> = {
        accept: 'application/octet-stream',
        'user-agent': 'proactive-context',
      };
      // A redirect to another origin (a CDN holding release assets) must not receive the token.
      if (o.token && url.origin === start.origin) headers.authorization = `Bearer ${o.token}`;
      const req = (url.protocol === 'https:' ? httpsRequest : httpRequest)(url, { headers }, (res) => {
        if (settled) return res.destroy();
        const status = res.statusCode ?? 0;
        if (status >= 300 && status < 400 && res.headers.location) {
          res.resume();
          if (redirects >= MAX_REDIRECTS)
            return finish(
              new SnapshotError('download-failed', `the snapshot URL redirects more than ${MAX_REDIRECTS} times`),
            );
          let next: URL;
          try {
            next = checkedUrl(new URL(res.headers.location, url).toString());
          } catch (err) {
            return finish(err as Error);
          }
          return get(next, redirects + 1);
        }
        if (status !== 200) {
          res.resume();
          return finish(statusError(url, status, headers.authorization !== undefined));
        }
        receive(res, maxBytes, o, finish);
      });
      current = req;
      req.on('error', (err) =>
        finish(
          new SnapshotError('download-failed', `cannot download the snapshot from ${url.origin} (${err.message})`),
        ),
      );
      req.end();
    };
    get(start, 0);
  });
}

function receive(
  res: IncomingMessage,
  maxBytes: number,
  o: ReadOptions,
  finish: (err: Error | undefined, data?: Buffer) => void,
): void {
  const declared = res.headers['content-length'] ? Number(res.headers['content-length']) : undefined;
  if (declared !== undefined && declared > maxBytes)
    return finish(
      new SnapshotError('oversized', `the snapshot is too large (${mb(declared)}; the limit is ${mb(maxBytes)})`),
    );
  const chunks: Buffer[] = [];
  let received = 0;
  res.on('data', (chunk: Buffer) => {
    received += chunk.length;
    if (received > maxBytes)
      return finish(new SnapshotError('oversized', `the snapshot is larger than the limit of ${mb(maxBytes)}`));
    chunks.push(chunk);
    o.onProgress?.(received, declared);
  });
  const cut = () =>
    finish(
      new SnapshotError(
        'truncated',
        `the snapshot download ended early (${received}${declared !== undefined ? ` of ${declared}` : ''} bytes)`,
      ),
    );
  res.on('aborted', cut);
  res.on('error', cut);
  res.on('end', () => {
    if (!res.complete || (declared !== undefined && received !== declared)) return cut();
    finish(undefined, Buffer.concat(chunks));
  });
}

function statusError(url: URL, status: number, withToken: boolean): SnapshotError {
  if (status === 401 || status === 403)
    return new SnapshotError(
      'unauthorized',
      `${url.origin} refused the snapshot download (HTTP ${status}): ${withToken ? 'the token was not accepted' : 'it needs a token'}. Set PROACTIVE_CONTEXT_SNAPSHOT_TOKEN, or the team index token in the editor`,
    );
  if (status === 404) return new SnapshotError('not-found', `${url.origin}${url.pathname} was not found (HTTP 404)`);
  return new SnapshotError('download-failed', `${url.origin} answered HTTP ${status} to the snapshot download`);
}
