import { existsSync, watch } from 'node:fs';
import { join, sep } from 'node:path';
import type { ContextService } from '../../core/api/contextService';
import type { Logger } from '../../core/api/types';
import { runStdioServer } from '../../mcp/server';
import { loggerOf, noPositionals, withService, type CliCommand } from './command';

export const mcp: CliCommand = {
  name: 'mcp',
  summary: 'serve the engine over MCP on stdio',
  usage: 'mcp --root R [--state-dir DIR] [--debounce MS]',
  description: 'Runs an MCP server (tools, resources and live resource subscriptions) on stdin/stdout for any MCP client. Logs go to stderr.',
  flags: { debounce: { type: 'number', value: 'MS', description: 'wait this long after a change before notifying subscribers (default 100)' } },
  async run(args) {
    noPositionals(args);
    return withService(args, async (service) => {
      const logger = loggerOf(args);
      // Serve at once; indexing and history mining continue in the background.
      service.startBackgroundWork().catch((err: Error) => logger.warn(`background indexing failed: ${err.message}`));
      service.onDispose(watchWorkspace(service, logger));
      const server = await runStdioServer(service, logger, { debounceMs: args.flags.debounce as number | undefined });
      await server.closed;
      logger.info('mcp: client closed the connection');
      return 0;
    });
  },
};

/** Feeds file changes under the root to the engine so its index stays current while serving. */
function watchWorkspace(service: ContextService, logger: Logger): () => void {
  try {
    const watcher = watch(service.root, { recursive: true }, (_event, name) => {
      if (!name) return;
      const rel = name.toString().split(sep).join('/');
      if (/(^|\/)node_modules(\/|$)/.test(rel) || (rel.startsWith('.git/') && !/^\.git\/(HEAD|refs\/|packed-refs)/.test(rel))) return;
      service.fileChanged(rel, !existsSync(join(service.root, rel)));
    });
    watcher.on('error', (err) => logger.warn(`File watching stopped: ${err.message}`));
    return () => watcher.close();
  } catch (err) {
    logger.warn(`Cannot watch ${service.root} for changes (${(err as Error).message}); the index is refreshed when a client reads.`);
    return () => undefined;
  }
}
