import { runStdioServer } from '../../mcp/server';
import { loggerOf, noPositionals, withService, type CliCommand } from './command';
import { watchWorkspace } from './watchCommands';

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
