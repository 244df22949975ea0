import type { ContextService } from '../../core/api/contextService';
import type { Logger } from '../../core/api/types';
import { McpHttpServer } from '../../mcp/httpServer';
import { defaultTokenFile, loadOrCreateToken } from '../../mcp/httpToken';
import { runStdioServer } from '../../mcp/server';
import type { WorkspaceWatcherOptions } from '../../mcp/workspaceWatcher';
import type { ParsedArgs } from '../args';
import { HOOK_PATH, publishEndpoint } from '../hooks/hookClient';
import { hookRoute } from '../hooks/hookEndpoint';
import { loggerOf, withService } from './command';
import { watchWorkspace } from './watchCommands';

export interface HttpFlags {
  port: number;
  tokenFile: string | undefined;
}

/** Longest a stop signal waits for an orderly close before the process exits anyway (ms). */
const STOP_GRACE_MS = 3000;

/** Serves the workspace over MCP until the client goes (stdio) or a stop signal (either); the exit code. */
export function runMcp(
  args: ParsedArgs,
  http: HttpFlags | undefined,
  watcher: WorkspaceWatcherOptions = {},
): Promise<number> {
  return withService(args, async (service) => {
    const logger = loggerOf(args);
    const debounceMs = args.flags.debounce as number | undefined;
    if (http) return serveHttp(args, service, logger, { ...http, debounceMs }, watcher);
    const stopped = nextStopSignal();
    startServing(service, logger, watcher);
    const server = await runStdioServer(service, logger, { debounceMs });
    const signal = await Promise.race([server.closed.then(() => undefined), stopped]);
    if (signal) {
      logger.info(`mcp: ${signal}: closing`);
      await server.close();
    } else {
      logger.info('mcp: client closed the connection');
    }
    return 0;
  });
}

async function serveHttp(
  args: ParsedArgs,
  service: ContextService,
  logger: Logger,
  options: HttpFlags & { debounceMs?: number },
  watcher: WorkspaceWatcherOptions,
): Promise<number> {
  const bearer = loadOrCreateToken(options.tokenFile ?? defaultTokenFile(service.stateDir));
  const server = await McpHttpServer.listen(service, logger, {
    port: options.port,
    token: bearer.token,
    tokenFile: bearer.file,
    debounceMs: options.debounceMs,
    routes: { [HOOK_PATH]: hookRoute(service, logger) },
  });
  // Hooks of this workspace find the server here, whatever port it got.
  let unpublish = (): void => undefined;
  try {
    unpublish = publishEndpoint(service.stateDir, {
      port: server.port,
      pid: process.pid,
      root: service.root,
      tokenFile: bearer.file,
    });
  } catch (err) {
    logger.warn(`mcp: hooks will not find this server by themselves (${(err as Error).message}); pass them --port`);
  }
  // Listen for the stop signals before announcing the URL: whoever reads it may stop us at once.
  const stopped = nextStopSignal();
  startServing(service, logger, watcher);
  if (bearer.created)
    process.stderr.write(`proactive-context mcp: created a bearer token in ${bearer.file}: ${bearer.token}\n`);
  process.stderr.write(
    `proactive-context mcp: serving ${service.root} at ${server.url} (bearer token in ${bearer.file})\n`,
  );
  if (args.flags.json) process.stdout.write(JSON.stringify({ url: server.url, tokenFile: bearer.file }) + '\n');
  const signal = await stopped;
  logger.info(`mcp: ${signal}: closing ${server.sessionCount()} session(s)`);
  unpublish();
  await server.close();
  return 0;
}

/** Serve at once; indexing and history mining continue in the background, and changes on disk reach the index. */
function startServing(service: ContextService, logger: Logger, watcher: WorkspaceWatcherOptions): void {
  // Background work cut short by the shutdown (aborted, or reaching the closed store) is not a failure.
  let stopping = false;
  service.onDispose(() => (stopping = true));
  service.workspace
    .startBackgroundWork()
    .catch((err: Error) => stopping || logger.warn(`background indexing failed: ${err.message}`));
  service.onDispose(watchWorkspace(service, logger, watcher));
}

/** Settles on the first SIGINT or SIGTERM; a second one ends the process at once (the default action is back). */
function nextStopSignal(): Promise<NodeJS.Signals> {
  return new Promise((resolveSignal) => {
    const stop = (signal: NodeJS.Signals): void => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      // Closing writes what is pending; whatever might still hold the process after that must not keep it alive.
      setTimeout(() => process.exit(0), STOP_GRACE_MS).unref();
      resolveSignal(signal);
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
}
