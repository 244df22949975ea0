import { resolve } from 'node:path';
import type { ContextService } from '../../core/api/contextService';
import type { Logger } from '../../core/api/types';
import { DEFAULT_HTTP_PORT, McpHttpServer } from '../../mcp/httpServer';
import { defaultTokenFile, loadOrCreateToken } from '../../mcp/httpToken';
import { runStdioServer } from '../../mcp/server';
import { UsageError, type ParsedArgs } from '../args';
import { loggerOf, noPositionals, wholeNumber, withService, type CliCommand } from './command';
import { watchWorkspace } from './watchCommands';

export const mcp: CliCommand = {
  name: 'mcp',
  summary: 'serve the engine over MCP on stdio, or over HTTP on 127.0.0.1',
  usage: 'mcp --root R [--state-dir DIR] [--debounce MS] [--http [--port P] [--token-file F]]',
  description:
    'Runs an MCP server (tools, resources and live resource subscriptions) for any MCP client: on stdin/stdout, or with --http ' +
    `over Streamable HTTP at http://127.0.0.1:P/mcp (default port ${DEFAULT_HTTP_PORT}; server-sent events carry notifications). ` +
    'Every HTTP request must send \'Authorization: Bearer <token>\'; the token is created in <state dir>/mcp-token (mode 0600) on first ' +
    'use and shown once. The URL is printed on stderr (with --json, as {"url","tokenFile"} on stdout). Ctrl-C stops it. Logs go to stderr.',
  flags: {
    debounce: { type: 'number', value: 'MS', description: 'wait this long after a change before notifying subscribers (default 100)' },
    http: { type: 'boolean', description: 'serve over Streamable HTTP on 127.0.0.1 instead of stdio' },
    port: { type: 'number', value: 'P', description: `with --http: the port (default ${DEFAULT_HTTP_PORT}; 0 = any free port)` },
    'token-file': { type: 'string', value: 'F', description: 'with --http: where the bearer token is kept (default <state dir>/mcp-token)' },
  },
  async run(args) {
    noPositionals(args);
    const http = httpOptionsOf(args);
    return withService(args, async (service) => {
      const logger = loggerOf(args);
      const debounceMs = args.flags.debounce as number | undefined;
      if (http) return serveHttp(args, service, logger, { ...http, debounceMs });
      startServing(service, logger);
      const server = await runStdioServer(service, logger, { debounceMs });
      await server.closed;
      logger.info('mcp: client closed the connection');
      return 0;
    });
  },
};

interface HttpFlags {
  port: number;
  tokenFile: string | undefined;
}

function httpOptionsOf(args: ParsedArgs): HttpFlags | undefined {
  const port = wholeNumber(args, 'port', 0);
  if (port !== undefined && port > 65535) throw new UsageError('--port must be at most 65535');
  const tokenFile = args.flags['token-file'] as string | undefined;
  if (!args.flags.http) {
    if (port !== undefined || tokenFile !== undefined) throw new UsageError(`--${port !== undefined ? 'port' : 'token-file'} needs --http`);
    return undefined;
  }
  return { port: port ?? DEFAULT_HTTP_PORT, tokenFile: tokenFile === undefined ? undefined : resolve(tokenFile) };
}

async function serveHttp(args: ParsedArgs, service: ContextService, logger: Logger, options: HttpFlags & { debounceMs?: number }): Promise<number> {
  const bearer = loadOrCreateToken(options.tokenFile ?? defaultTokenFile(service.stateDir));
  const server = await McpHttpServer.listen(service, logger, { port: options.port, token: bearer.token, tokenFile: bearer.file, debounceMs: options.debounceMs });
  // Listen for the stop signals before announcing the URL: whoever reads it may stop us at once.
  const stopped = nextStopSignal();
  startServing(service, logger);
  if (bearer.created) process.stderr.write(`proactive-context mcp: created a bearer token in ${bearer.file}: ${bearer.token}\n`);
  process.stderr.write(`proactive-context mcp: serving ${service.root} at ${server.url} (bearer token in ${bearer.file})\n`);
  if (args.flags.json) process.stdout.write(JSON.stringify({ url: server.url, tokenFile: bearer.file }) + '\n');
  const signal = await stopped;
  logger.info(`mcp: ${signal}: closing ${server.sessionCount()} session(s)`);
  await server.close();
  return 0;
}

/** Serve at once; indexing and history mining continue in the background, and changes on disk reach the index. */
function startServing(service: ContextService, logger: Logger): void {
  // Background work cut short by the shutdown (aborted, or reaching the closed store) is not a failure.
  let stopping = false;
  service.onDispose(() => (stopping = true));
  service.startBackgroundWork().catch((err: Error) => stopping || logger.warn(`background indexing failed: ${err.message}`));
  service.onDispose(watchWorkspace(service, logger));
}

function nextStopSignal(): Promise<NodeJS.Signals> {
  return new Promise((resolveSignal) => {
    const stop = (signal: NodeJS.Signals): void => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolveSignal(signal);
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
}
