import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import type { HookRunResult } from './hookPlan';

/** The endpoint a long-lived process answers hooks on, beside its MCP endpoint, with the same guards. */
export const HOOK_PATH = '/hook';
/** Where, in the workspace's state directory, a running server says on which port it answers. */
const ENDPOINT_FILE = 'hook-endpoint.json';
/** The token file `mcp --http` keeps in the workspace's state directory. */
const TOKEN_FILE = 'mcp-token';
const MAX_REPLY_BYTES = 1024 * 1024;

/** What the hook sends: the host's input as read, and how to answer it. */
export interface HookRequest {
  host: string;
  input: string;
  event?: string;
  root: string;
  maxChars: number;
  timeoutMs: number;
  /** The process the host ran the hook from (a session key for hosts that name none). */
  parentPid: number;
}

interface PublishedEndpoint {
  port: number;
  pid: number;
  root: string;
  tokenFile?: string;
}

export interface ServerEndpoint {
  port: number;
  token: string;
}

/**
 * Says where this process answers hooks, in a private file of the state directory (written whole,
 * then renamed into place); the returned function removes it if it is still ours.
 */
export function publishEndpoint(stateDir: string, endpoint: PublishedEndpoint): () => void {
  const file = join(stateDir, ENDPOINT_FILE);
  const tmp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  mkdirSync(stateDir, { recursive: true, mode: 0o700 });
  writeFileSync(tmp, JSON.stringify(endpoint) + '\n', { mode: 0o600 });
  renameSync(tmp, file);
  return () => {
    try {
      if (readEndpoint(stateDir)?.pid === endpoint.pid) unlinkSync(file);
    } catch {
      // Already gone: nothing to undo.
    }
  };
}

function readEndpoint(stateDir: string): PublishedEndpoint | undefined {
  try {
    const e = JSON.parse(readFileSync(join(stateDir, ENDPOINT_FILE), 'utf8')) as Partial<PublishedEndpoint>;
    if (!Number.isInteger(e.port) || !Number.isInteger(e.pid)) return undefined;
    return e as PublishedEndpoint;
  } catch {
    return undefined;
  }
}

/** False when no process has this id any more (a server killed without cleaning up). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function readTokenFile(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8').trim() || undefined;
  } catch {
    return undefined;
  }
}

/**
 * The running server of this workspace: the one its state directory names (when that process still
 * lives), else one on `fallbackPort` with the workspace's token. `port` (--port) overrides the port.
 * Undefined when there is no token, so no server was ever started here.
 */
export function findServer(
  stateDir: string,
  port: number | undefined,
  fallbackPort: number,
): ServerEndpoint | undefined {
  const published = readEndpoint(stateDir);
  const live = published && alive(published.pid) ? published : undefined;
  const token = readTokenFile(live?.tokenFile ?? join(stateDir, TOKEN_FILE));
  if (!token) return undefined;
  if (port !== undefined) return { port, token };
  if (live) return { port: live.port, token };
  // A dead server's file names a port nobody answers on; one started without publishing may be on the default.
  return published ? undefined : { port: fallbackPort, token };
}

/** The server's answer, or why it gave none (not running, another workspace's, too old): the caller answers by itself then. */
export type ServerReply = { kind: 'answer'; result: HookRunResult } | { kind: 'unavailable'; why: string };

/**
 * One request to the running server: the hook's whole input, answered whole. Rejects only when
 * `signal` aborts (the hook's time is up); every other failure is 'unavailable'.
 */
export function askServer(server: ServerEndpoint, body: HookRequest, signal: AbortSignal): Promise<ServerReply> {
  const payload = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const unavailable = (why: string): void => resolve({ kind: 'unavailable', why });
    const req = request(
      {
        host: '127.0.0.1',
        port: server.port,
        path: HOOK_PATH,
        method: 'POST',
        // A new connection, closed after the answer: nothing holds the hook's process open.
        agent: false,
        headers: {
          Authorization: `Bearer ${server.token}`,
          'Content-Type': 'application/json',
          'Content-Length': Buffer.byteLength(payload),
          Connection: 'close',
        },
        signal,
      },
      (res) => {
        let size = 0;
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => {
          size += c.length;
          if (size > MAX_REPLY_BYTES) req.destroy(new Error('reply too large'));
          else chunks.push(c);
        });
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          if (res.statusCode !== 200) return unavailable(`HTTP ${res.statusCode ?? '?'}: ${text.slice(0, 200)}`);
          try {
            resolve({ kind: 'answer', result: replyOf(JSON.parse(text)) });
          } catch (err) {
            unavailable(`unreadable answer: ${(err as Error).message}`);
          }
        });
        res.on('error', (err) => (signal.aborted ? reject(err) : unavailable(err.message)));
      },
    );
    req.on('error', (err) => (signal.aborted ? reject(err) : unavailable(err.message)));
    req.end(payload);
  });
}

/** The server's answer, checked field by field: what is printed must be a string or nothing. */
function replyOf(v: unknown): HookRunResult {
  if (!v || typeof v !== 'object') throw new Error('not an object');
  const r = v as Record<string, unknown>;
  const text = (k: string): string | undefined => (typeof r[k] === 'string' ? r[k] : undefined);
  return { stdout: text('stdout'), event: text('event'), note: text('note'), via: 'server' };
}
