import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import type { ContextSuggestion } from '../../core/api/types';

/** The token file `mcp --http` keeps in the workspace's state directory. */
const TOKEN_FILE = 'mcp-token';
const MAX_REPLY_BYTES = 4 * 1024 * 1024;

/** The bearer token of a server on this workspace, or undefined when none was ever started. */
export function serverToken(stateDir: string): string | undefined {
  try {
    const token = readFileSync(join(stateDir, TOKEN_FILE), 'utf8').trim();
    return token || undefined;
  } catch {
    return undefined;
  }
}

/**
 * A short MCP session with the running `proactive-context mcp --http` of this workspace on
 * 127.0.0.1: initialize, call context_suggest for each file, end the session. The token is this
 * workspace's, so a server of another workspace refuses it and the caller answers by itself.
 */
export class McpLoopbackClient {
  private sessionId: string | undefined;
  private nextId = 1;

  constructor(
    private readonly port: number,
    private readonly token: string,
    private readonly signal: AbortSignal,
  ) {}

  async open(): Promise<void> {
    await this.call('initialize', {
      protocolVersion: '2025-03-26',
      capabilities: {},
      clientInfo: { name: 'proactive-context-hook', version: '1' },
    });
    await this.post({ jsonrpc: '2.0', method: 'notifications/initialized' });
  }

  async suggest(file: string): Promise<ContextSuggestion> {
    const result = (await this.call('tools/call', { name: 'context_suggest', arguments: { file } })) as {
      isError?: boolean;
      structuredContent?: ContextSuggestion;
      content?: { text?: string }[];
    };
    if (result.isError || !result.structuredContent)
      throw new Error(`context_suggest failed: ${result.content?.[0]?.text ?? 'no structured answer'}`);
    return result.structuredContent;
  }

  /** Ends the session; failures are ignored (the server drops idle sessions itself). */
  async close(): Promise<void> {
    if (!this.sessionId) return;
    await this.send('DELETE', undefined).catch(() => undefined);
  }

  private async call(method: string, params: unknown): Promise<unknown> {
    const id = this.nextId++;
    const reply = await this.post({ jsonrpc: '2.0', id, method, params });
    const message = findReply(reply, id);
    if (!message) throw new Error(`no answer to ${method}`);
    if (message.error) throw new Error(`${method}: ${message.error.message ?? 'error'}`);
    return message.result;
  }

  private post(body: unknown): Promise<string> {
    return this.send('POST', JSON.stringify(body));
  }

  private send(method: 'POST' | 'DELETE', body: string | undefined): Promise<string> {
    return new Promise((resolve, reject) => {
      const headers: Record<string, string> = {
        Authorization: `Bearer ${this.token}`,
        Accept: 'application/json, text/event-stream',
      };
      if (body !== undefined) headers['Content-Type'] = 'application/json';
      if (this.sessionId) headers['Mcp-Session-Id'] = this.sessionId;
      const req = request(
        { host: '127.0.0.1', port: this.port, path: '/mcp', method, headers, signal: this.signal },
        (res) => {
          const session = res.headers['mcp-session-id'];
          if (typeof session === 'string') this.sessionId = session;
          let size = 0;
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => {
            size += c.length;
            if (size > MAX_REPLY_BYTES) req.destroy(new Error('reply too large'));
            else chunks.push(c);
          });
          res.on('end', () => {
            const text = Buffer.concat(chunks).toString('utf8');
            if ((res.statusCode ?? 0) >= 400) reject(new Error(`HTTP ${res.statusCode}: ${text.slice(0, 200)}`));
            else resolve(text);
          });
          res.on('error', reject);
        },
      );
      req.on('error', reject);
      req.end(body);
    });
  }
}

interface JsonRpcReply {
  id?: number;
  result?: unknown;
  error?: { message?: string };
}

/** The JSON-RPC answer with this id, from a JSON body or from the `data:` lines of a server-sent event stream. */
function findReply(body: string, id: number): JsonRpcReply | undefined {
  const candidates: string[] =
    body.trimStart().startsWith('{') || body.trimStart().startsWith('[')
      ? [body]
      : body
          .split('\n')
          .filter((l) => l.startsWith('data:'))
          .map((l) => l.slice(5));
  for (const c of candidates) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(c);
    } catch {
      continue;
    }
    for (const m of Array.isArray(parsed) ? parsed : [parsed])
      if ((m as JsonRpcReply)?.id === id) return m as JsonRpcReply;
  }
  return undefined;
}
