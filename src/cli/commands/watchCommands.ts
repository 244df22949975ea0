import type { ContextService } from '../../core/api/contextService';
import { StoreWriteError, userMessageOf } from '../../core/api/errors';
import { describeWatch, noSuchWatch } from '../../core/api/messages';
import type { Logger, WatchPattern } from '../../core/api/types';
import { UsageError, type FlagSpec, type ParsedArgs } from '../args';
import { WorkspaceWatcher, type WorkspaceWatcherOptions } from '../../mcp/workspaceWatcher';
import { idOrAll, loggerOf, noPositionals, print, wholeNumber, withService, type CliCommand } from './command';

/** The --max-watches flag, shared by the commands that watch the workspace. */
export const MAX_WATCHES_FLAG: FlagSpec = {
  type: 'number',
  value: 'N',
  description:
    'watch at most N folders (default: a quarter of the system limit, at most 8192); further folders are polled',
};

export const watch: CliCommand = {
  name: 'watch',
  summary: 'watch files, a symbol or a topic; print each firing as a JSON line',
  usage: 'watch --root R (--file GLOB | --symbol S | --topic T) [--cooldown MS] [--min-score X] [--max N] [--json]',
  description:
    'Creates a watch and prints each firing (the ContextSuggestion pushed for it) as one JSON line until interrupted; the watch ends with the command. ' +
    'It fires on changes on disk, on where the user is in VS Code (through the shared state directory), and on new commits, decision records and test reports that match.',
  flags: {
    file: { type: 'string', value: 'GLOB', description: 'a glob over workspace paths, e.g. src/auth/**' },
    symbol: { type: 'string', value: 'S', description: 'a symbol name, or path::name' },
    topic: { type: 'string', value: 'T', description: 'words (all must appear) or a "quoted phrase"' },
    cooldown: { type: 'number', value: 'MS', description: 'quiet time after a firing (default 5000)' },
    'min-score': { type: 'number', value: 'X', description: 'keep items scoring at least this (0..1, default 0.3)' },
    max: { type: 'number', value: 'N', description: 'at most this many items per firing (default 5)' },
    'max-watches': MAX_WATCHES_FLAG,
  },
  async run(args) {
    noPositionals(args);
    const patterns: WatchPattern[] = [];
    for (const type of ['file', 'symbol', 'topic'] as const)
      if (typeof args.flags[type] === 'string') patterns.push({ type, pattern: args.flags[type] });
    if (!patterns.length) throw new UsageError('watch needs --file GLOB, --symbol S or --topic T');
    const logger = loggerOf(args);
    const watcherOptions = watcherOptionsOf(args);
    return withService(args, async (service) => {
      let created;
      try {
        created = service.watches.add({
          patterns,
          cooldownMs: args.flags.cooldown as number | undefined,
          minRelevanceScore: args.flags['min-score'] as number | undefined,
          maxSuggestionsPerTrigger: args.flags.max as number | undefined,
        });
      } catch (err) {
        const message = err instanceof StoreWriteError ? undefined : userMessageOf(err);
        if (message) throw new UsageError(message);
        throw err;
      }
      const { watch: w } = created;
      service.workspace
        .startBackgroundWork()
        .catch((err: Error) => logger.warn(`background indexing failed: ${err.message}`));
      service.watches.start();
      service.onDispose(watchWorkspace(service, logger, watcherOptions));
      process.stderr.write(`watching ${describeWatch(w)} (id ${w.id}); Ctrl-C to stop\n`);
      const done = new Promise<void>((resolve) => {
        process.once('SIGINT', resolve);
        process.once('SIGTERM', resolve);
      });
      const sub = service.watches.onDidFire((f) => {
        if (f.watchId !== w.id) return;
        process.stdout.write(JSON.stringify({ seq: f.seq, watchId: f.watchId, ...f.suggestion }) + '\n');
      });
      await done;
      sub.dispose();
      if (!created.renewed) service.watches.remove(w.id);
      return 0;
    });
  },
};

export const watches: CliCommand = {
  name: 'watches',
  summary: 'list active watches',
  usage: 'watches --root R [--json]',
  description:
    'Lists the active watches (made with the CLI, the palette or an MCP client) with their ids, patterns and last firing.',
  flags: {},
  async run(args) {
    noPositionals(args);
    return withService(args, async (service) => {
      const list = service.watches.list();
      const text = list.length
        ? list
            .map(
              (w) =>
                `${w.id}  ${describeWatch(w)}  cooldown ${w.cooldownMs} ms${w.lastTriggeredAt ? `  last fired ${new Date(w.lastTriggeredAt).toISOString()}` : ''}  (expires ${new Date(w.expiresAt).toISOString()})`,
            )
            .join('\n')
        : 'no active watches';
      print(args, list, text);
      return 0;
    });
  },
};

export const unwatch: CliCommand = {
  name: 'unwatch',
  summary: 'stop a watch by id, or all of them',
  usage: 'unwatch --root R (--id ID | --all)',
  description: 'Ends one watch (by the id shown by `watches`) or every watch of the workspace.',
  flags: {
    id: { type: 'string', value: 'ID', description: 'watch id' },
    all: { type: 'boolean', description: 'stop every watch' },
  },
  async run(args) {
    const which = idOrAll(args);
    return withService(args, async (service) => {
      if ('all' in which) {
        const n = service.watches.removeAll();
        print(args, { removed: n }, n ? `stopped ${n} watch${n === 1 ? '' : 'es'}` : 'there were no active watches');
        return 0;
      }
      const known = service.watches.list().find((w) => w.id === which.id);
      if (!known) throw new Error(noSuchWatch(which.id, 'cli'));
      service.watches.remove(known.id);
      print(args, { removed: 1, watch: known }, `stopped ${known.id} ${describeWatch(known)}`);
      return 0;
    });
  },
};

/** Feeds file changes under the root to the engine (and so to watches) while the command runs. */
export function watchWorkspace(
  service: ContextService,
  logger: Logger,
  options: WorkspaceWatcherOptions = {},
): () => void {
  const watcher = new WorkspaceWatcher(
    service.root,
    (path, deleted) => service.workspace.fileChanged(path, deleted),
    logger,
    service.workspace,
    options,
  );
  watcher
    .start()
    .catch((err: Error) =>
      logger.warn(
        `Cannot watch ${service.root} for changes (${err.message}); changes made elsewhere still arrive through other processes.`,
      ),
    );
  return () => watcher.dispose();
}

export function watcherOptionsOf(args: ParsedArgs): WorkspaceWatcherOptions {
  return { maxHandles: wholeNumber(args, 'max-watches') };
}
