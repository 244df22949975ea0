import { resolve } from 'node:path';
import { DEFAULT_HTTP_PORT } from '../../mcp/httpPort';
import { UsageError, type ParsedArgs } from '../args';
import { noPositionals, wholeNumber, type CliCommand } from './command';
import { MAX_WATCHES_FLAG, watcherOptionsOf } from './watchCommands';
import type { HttpFlags } from './mcpRun';

export const mcp: CliCommand = {
  name: 'mcp',
  summary: 'serve the engine over MCP on stdio, or over HTTP on 127.0.0.1',
  usage: 'mcp --root R [--state-dir DIR] [--debounce MS] [--max-watches N] [--http [--port P] [--token-file F]]',
  description:
    'Runs an MCP server (tools, resources and live resource subscriptions) for any MCP client: on stdin/stdout, or with --http ' +
    `over Streamable HTTP at http://127.0.0.1:P/mcp (default port ${DEFAULT_HTTP_PORT}; server-sent events carry notifications). ` +
    "Every HTTP request must send 'Authorization: Bearer <token>'; the token is created in <state dir>/mcp-token (mode 0600) on first " +
    'use and shown once. The URL is printed on stderr (with --json, as {"url","tokenFile"} on stdout). Ctrl-C (SIGINT) or SIGTERM stops it. Logs go to stderr.',
  flags: {
    debounce: {
      type: 'number',
      value: 'MS',
      description: 'wait this long after a change before notifying subscribers (default 100)',
    },
    http: { type: 'boolean', description: 'serve over Streamable HTTP on 127.0.0.1 instead of stdio' },
    port: {
      type: 'number',
      value: 'P',
      description: `with --http: the port (default ${DEFAULT_HTTP_PORT}; 0 = any free port)`,
    },
    'token-file': {
      type: 'string',
      value: 'F',
      description: 'with --http: where the bearer token is kept (default <state dir>/mcp-token)',
    },
    'max-watches': MAX_WATCHES_FLAG,
  },
  async run(args) {
    noPositionals(args);
    const http = httpOptionsOf(args);
    const watcher = watcherOptionsOf(args);
    // The server, the SDK and its schema libraries are a bundle of their own, loaded only here:
    // every other command starts without them.
    const { runMcp } = await import('./mcpRun.js');
    return runMcp(args, http, watcher);
  },
};

/** The checked --http, --port and --token-file flags; undefined for stdio. */
function httpOptionsOf(args: ParsedArgs): HttpFlags | undefined {
  const port = wholeNumber(args, 'port', 0);
  if (port !== undefined && port > 65535) throw new UsageError('--port must be at most 65535');
  const tokenFile = args.flags['token-file'] as string | undefined;
  if (!args.flags.http) {
    if (port !== undefined || tokenFile !== undefined)
      throw new UsageError(`--${port !== undefined ? 'port' : 'token-file'} needs --http`);
    return undefined;
  }
  return { port: port ?? DEFAULT_HTTP_PORT, tokenFile: tokenFile === undefined ? undefined : resolve(tokenFile) };
}
