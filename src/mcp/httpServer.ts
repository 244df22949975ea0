import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  WebStandardStreamableHTTPServerTransport,
  createMcpHandler,
  isInitializeRequest,
  isLegacyRequest,
  type McpHttpHandler,
} from '@modelcontextprotocol/server';
import type { Logger } from '../core/api/types';
import { BearerCheck, readBody, rejectForeignRequest, sendJsonRpcError } from './httpGuards';
import { ListenInterest, isListenRequest } from './listen';
import {
  McpClientState,
  buildMcpServer,
  createMcpServer,
  type ConnectedMcpServer,
  type McpServerOptions,
} from './server';
import type { McpService } from './service';
import { sendWebResponse, toWebRequest } from './webBridge';

const MCP_HTTP_PATH = '/mcp';
/** Each session has its own resource watchers; beyond this many, idle ones make room or new clients wait. */
const MAX_HTTP_SESSIONS = 16;
/** Each 2026-07-28 listen stream holds a connection open; past this many the SDK refuses new ones in-band. */
const MAX_LISTEN_STREAMS = 64;
const MAX_HTTP_BODY_BYTES = 4 * 1024 * 1024;

// JSON-RPC error codes: the standard ones, and the SDK's for transport-level refusals.
const INVALID_REQUEST = -32600;
const PARSE_ERROR = -32700;
const INTERNAL_ERROR = -32603;
const SERVER_ERROR = -32000;
const SESSION_NOT_FOUND = -32001;

/** A JSON endpoint served beside MCP behind the same guards (the hook endpoint); answers a parsed POST body. */
export type JsonRoute = (body: unknown) => Promise<{ status: number; body: unknown }>;

export interface McpHttpOptions extends McpServerOptions {
  /** 0 picks any free port. */
  port: number;
  token: string;
  /** Named in the 401 answer so a person knows where the token is. */
  tokenFile?: string;
  maxSessions?: number;
  maxBodyBytes?: number;
  /** Further POST endpoints by path, with the same token, Host/Origin checks and body limit. */
  routes?: Record<string, JsonRoute>;
}

class PortInUseError extends Error {
  constructor(readonly port: number) {
    super(
      `Port ${port} on 127.0.0.1 is already in use (another 'proactive-context mcp --http'?); pass --port N to use another, or --port 0 for any free port.`,
    );
    this.name = 'PortInUseError';
  }
}

interface Session {
  id?: string;
  transport: WebStandardStreamableHTTPServerTransport;
  server: ConnectedMcpServer;
  /** Requests and streams (the notification stream included) still open. */
  open: number;
  /** When it was last used, on the server's own counter (ordering is all that matters). */
  lastActive: number;
}

/**
 * MCP over Streamable HTTP on 127.0.0.1, for both protocol eras on one endpoint. 2025-era clients get
 * a session each (`Mcp-Session-Id`) with its own resource subscriptions and notification stream.
 * 2026-07-28 clients send self-contained requests, answered by the SDK's handler from the same server
 * definition; their `subscriptions/listen` streams share one set of watched resources. Every request
 * must carry the bearer token and come from a loopback Host/Origin.
 */
export class McpHttpServer {
  private readonly sessions = new Map<string, Session>();
  /** Sessions whose initialize request is still being answered. */
  private starting = 0;
  private readonly bearer: BearerCheck;
  private readonly maxSessions: number;
  private readonly maxBodyBytes: number;
  private closing: Promise<void> | undefined;
  private ticks = 0;

  private readonly http: Server;
  private listeningPort = 0;
  /** What every 2026-07-28 request instance shares: the listen streams' watched resources, the poll snapshot. */
  private readonly modernState: McpClientState;
  private readonly listenInterest: ListenInterest;
  private readonly modern: McpHttpHandler;
  private listenStreams = 0;

  private constructor(
    private readonly service: McpService,
    private readonly logger: Logger,
    private readonly options: McpHttpOptions,
  ) {
    this.bearer = new BearerCheck(options.token);
    this.maxSessions = options.maxSessions ?? MAX_HTTP_SESSIONS;
    this.maxBodyBytes = options.maxBodyBytes ?? MAX_HTTP_BODY_BYTES;
    this.modernState = new McpClientState(service, logger, options);
    this.listenInterest = new ListenInterest(this.modernState.live, logger);
    this.modern = createMcpHandler(({ era }) => buildMcpServer(this.modernState, era), {
      legacy: 'reject',
      maxSubscriptions: MAX_LISTEN_STREAMS,
      onerror: (err) => logger.debug(`mcp http: ${err.message}`),
    });
    const notify = this.modern.notify;
    this.modernState.notifyThrough({
      updated: (uri) => Promise.resolve(notify.resourceUpdated(uri)),
      listChanged: () => Promise.resolve(notify.resourcesChanged()),
    });
    this.http = createServer((req, res) => {
      this.handle(req, res).catch((err: Error) => {
        logger.warn(`mcp http: ${req.method ?? ''} ${req.url ?? ''} failed: ${err.message}`);
        sendJsonRpcError(res, 500, INTERNAL_ERROR, 'Internal error');
      });
    });
  }

  /** Listens on 127.0.0.1 only; rejects with PortInUseError when the port is taken. */
  static async listen(service: McpService, logger: Logger, options: McpHttpOptions): Promise<McpHttpServer> {
    const server = new McpHttpServer(service, logger, options);
    await new Promise<void>((resolve, reject) => {
      server.http.once('error', (err: NodeJS.ErrnoException) =>
        reject(err.code === 'EADDRINUSE' ? new PortInUseError(options.port) : err),
      );
      server.http.listen(options.port, '127.0.0.1', () => resolve());
    });
    server.http.on('error', (err) => logger.warn(`mcp http: ${err.message}`));
    server.listeningPort = (server.http.address() as AddressInfo).port;
    server.modernState.start();
    return server;
  }

  get port(): number {
    return this.listeningPort;
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}${MCP_HTTP_PATH}`;
  }

  sessionCount(): number {
    return this.sessions.size;
  }

  /** Open 2026-07-28 listen streams, and the resources kept fresh for them. */
  listening(): { streams: number; uris: string[] } {
    return { streams: this.listenInterest.openStreams(), uris: this.modernState.live.subscribedUris() };
  }

  /** Stops accepting connections, closes every session (ending their streams) and resolves once the socket is closed. */
  close(): Promise<void> {
    this.closing ??= (async () => {
      const stopped = new Promise<void>((resolve) => this.http.close(() => resolve()));
      await Promise.allSettled([...this.sessions.values()].map((s) => s.server.close()));
      this.sessions.clear();
      await this.modern.close();
      this.modernState.dispose();
      this.http.closeAllConnections();
      await stopped;
    })();
    return this.closing;
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const foreign = rejectForeignRequest(req, this.port);
    if (foreign) return sendJsonRpcError(res, 403, SERVER_ERROR, foreign);
    if (!this.bearer.accepts(req)) {
      const where = this.options.tokenFile ? ` (the token is in ${this.options.tokenFile})` : '';
      return sendJsonRpcError(res, 401, SERVER_ERROR, `Unauthorized: send 'Authorization: Bearer <token>'${where}`, {
        'WWW-Authenticate': req.headers.authorization ? 'Bearer error="invalid_token"' : 'Bearer',
      });
    }
    const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
    const route = this.routeOf(path);
    if (path !== MCP_HTTP_PATH && !route)
      return sendJsonRpcError(res, 404, SERVER_ERROR, `Not found: the MCP endpoint is ${MCP_HTTP_PATH}`);
    if (this.closing)
      return sendJsonRpcError(res, 503, SERVER_ERROR, 'The server is shutting down', { Connection: 'close' });
    if (route) return this.serveRoute(route, req, res);
    if (req.method !== 'POST' && req.method !== 'GET' && req.method !== 'DELETE') {
      return sendJsonRpcError(res, 405, SERVER_ERROR, 'Method not allowed', { Allow: 'GET, POST, DELETE' });
    }

    let body: unknown;
    let text: string | undefined;
    if (req.method === 'POST') {
      const read = await readBody(req, this.maxBodyBytes);
      if (read.kind === 'tooLarge')
        return sendJsonRpcError(
          res,
          413,
          INVALID_REQUEST,
          `Request body too large: at most ${this.maxBodyBytes} bytes`,
        );
      text = read.text;
      try {
        body = JSON.parse(text);
      } catch {
        return sendJsonRpcError(res, 400, PARSE_ERROR, 'Parse error: the body is not JSON');
      }
    }

    // Aborted when the client goes, which ends any stream it opened.
    const gone = new AbortController();
    res.once('close', () => gone.abort());
    const request = toWebRequest(req, this.url, text, gone.signal);
    if (req.method === 'POST' && !(await isLegacyRequest(request, body))) return this.serveModern(request, res, body);

    const sessionId = req.headers['mcp-session-id'];
    if (typeof sessionId === 'string') {
      const session = this.sessions.get(sessionId);
      if (!session)
        return sendJsonRpcError(
          res,
          404,
          SESSION_NOT_FOUND,
          'Session not found: start a new one with an initialize request',
        );
      return this.forward(session, request, res, body);
    }
    if (
      req.method === 'POST' &&
      (Array.isArray(body) ? body.some((m) => isInitializeRequest(m)) : isInitializeRequest(body))
    ) {
      return this.startSession(request, res, body);
    }
    return sendJsonRpcError(
      res,
      400,
      SERVER_ERROR,
      'Bad Request: no Mcp-Session-Id header; a session starts with an initialize request',
    );
  }

  private routeOf(path: string): JsonRoute | undefined {
    const routes = this.options.routes;
    return routes && Object.hasOwn(routes, path) ? routes[path] : undefined;
  }

  /** One JSON request, one JSON answer: no session, no stream. */
  private async serveRoute(route: JsonRoute, req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (req.method !== 'POST') return sendJsonRpcError(res, 405, SERVER_ERROR, 'Method not allowed', { Allow: 'POST' });
    const read = await readBody(req, this.maxBodyBytes);
    if (read.kind === 'tooLarge')
      return sendJsonRpcError(res, 413, INVALID_REQUEST, `Request body too large: at most ${this.maxBodyBytes} bytes`);
    let body: unknown;
    try {
      body = JSON.parse(read.text);
    } catch {
      return sendJsonRpcError(res, 400, PARSE_ERROR, 'Parse error: the body is not JSON');
    }
    const answer = await route(body);
    const text = JSON.stringify(answer.body);
    res.writeHead(answer.status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text) });
    res.end(text);
  }

  /** A 2026-07-28 request; a listen stream's resources are watched for as long as it stays open. */
  private async serveModern(request: Request, res: ServerResponse, body: unknown): Promise<void> {
    let stream: string | undefined;
    if (isListenRequest(body)) {
      stream = `http:${++this.listenStreams}`;
      body = await this.listenInterest.open(stream, body);
    }
    try {
      await sendWebResponse(res, await this.modern.fetch(request, { parsedBody: body }));
    } finally {
      if (stream) await this.listenInterest.close(stream);
    }
  }

  private async startSession(req: Request, res: ServerResponse, body: unknown): Promise<void> {
    if (this.sessions.size + this.starting >= this.maxSessions && !(await this.closeIdlestSession())) {
      return sendJsonRpcError(
        res,
        503,
        SERVER_ERROR,
        `Too many sessions (at most ${this.maxSessions} at once, all in use); end one with DELETE first`,
      );
    }
    this.starting++;
    const server = createMcpServer(this.service, this.logger, this.options);
    const session: Session = {
      server,
      open: 0,
      lastActive: ++this.ticks,
      transport: new WebStandardStreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (id) => {
          session.id = id;
          this.sessions.set(id, session);
          this.logger.info(`mcp http: session ${id} started (${this.sessions.size} open)`);
        },
      }),
    };
    void server.closed.then(() => {
      if (session.id && this.sessions.get(session.id) === session) {
        this.sessions.delete(session.id);
        this.logger.info(`mcp http: session ${session.id} closed (${this.sessions.size} open)`);
      }
    });
    try {
      await server.connect(session.transport);
      await this.forward(session, req, res, body);
    } finally {
      this.starting--;
      // Initialization was refused (a bad request): nothing will ever use this server.
      if (!session.id) await server.close();
    }
  }

  private async forward(session: Session, req: Request, res: ServerResponse, body: unknown): Promise<void> {
    session.open++;
    session.lastActive = ++this.ticks;
    res.once('close', () => {
      session.open--;
      session.lastActive = ++this.ticks;
    });
    await sendWebResponse(res, await session.transport.handleRequest(req, { parsedBody: body }));
  }

  /** Makes room by closing the session that has been idle longest (no request or stream open); false when every session is in use. */
  private async closeIdlestSession(): Promise<boolean> {
    let idlest: Session | undefined;
    for (const s of this.sessions.values())
      if (s.open === 0 && (!idlest || s.lastActive < idlest.lastActive)) idlest = s;
    if (!idlest) return false;
    this.logger.info(`mcp http: closing idle session ${idlest.id ?? ''} to make room`);
    if (idlest.id) this.sessions.delete(idlest.id);
    await idlest.server.close();
    return true;
  }
}
