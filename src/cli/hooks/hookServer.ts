import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ContextService } from '../../core/api/contextService';
import type { Logger } from '../../core/api/types';
import { BearerCheck, readBody, rejectForeignRequest, sendJsonRpcError } from '../../mcp/httpGuards';
import { defaultTokenFile, loadOrCreateToken } from '../../mcp/httpToken';
import { HOOK_PATH, publishEndpoint } from './hookClient';
import { hookRoute } from './hookEndpoint';

const MAX_BODY_BYTES = 4 * 1024 * 1024;
const SERVER_ERROR = -32000;

/**
 * The hook endpoint alone, for a long-lived process that serves no MCP over HTTP (the editor's
 * engine): 127.0.0.1 on a free port, the workspace's bearer token (the one `mcp --http` uses),
 * the same Host/Origin checks, published in the state directory for hooks to find. Resolves with
 * the function that stops it.
 */
export async function serveHooks(service: ContextService, logger: Logger): Promise<() => Promise<void>> {
  const bearer = loadOrCreateToken(defaultTokenFile(service.stateDir));
  const check = new BearerCheck(bearer.token);
  const route = hookRoute(service, logger);
  let port = 0;
  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const foreign = rejectForeignRequest(req, port);
    if (foreign) return sendJsonRpcError(res, 403, SERVER_ERROR, foreign);
    if (!check.accepts(req))
      return sendJsonRpcError(res, 401, SERVER_ERROR, `Unauthorized: send 'Authorization: Bearer <token>'`, {
        'WWW-Authenticate': 'Bearer',
      });
    if (new URL(req.url ?? '/', 'http://127.0.0.1').pathname !== HOOK_PATH)
      return sendJsonRpcError(res, 404, SERVER_ERROR, `Not found: the hook endpoint is ${HOOK_PATH}`);
    if (req.method !== 'POST') return sendJsonRpcError(res, 405, SERVER_ERROR, 'Method not allowed', { Allow: 'POST' });
    const read = await readBody(req, MAX_BODY_BYTES);
    if (read.kind === 'tooLarge') return sendJsonRpcError(res, 413, SERVER_ERROR, 'Request body too large');
    let body: unknown;
    try {
      body = JSON.parse(read.text);
    } catch {
      return sendJsonRpcError(res, 400, SERVER_ERROR, 'Parse error: the body is not JSON');
    }
    const answer = await route(body);
    const text = JSON.stringify(answer.body);
    res.writeHead(answer.status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text) });
    res.end(text);
  };
  const http: Server = createServer((req, res) => {
    handle(req, res).catch((err: Error) => {
      logger.warn(`hook endpoint: ${err.message}`);
      sendJsonRpcError(res, 500, SERVER_ERROR, 'Internal error');
    });
  });
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(0, '127.0.0.1', () => resolve());
  });
  port = (http.address() as AddressInfo).port;
  const unpublish = publishEndpoint(service.stateDir, {
    port,
    pid: process.pid,
    root: service.root,
    tokenFile: bearer.file,
  });
  logger.info(`Answering agent hooks for ${service.root} on 127.0.0.1:${port}`);
  return async () => {
    unpublish();
    await new Promise<void>((resolve) => {
      http.close(() => resolve());
      http.closeAllConnections();
    });
  };
}
