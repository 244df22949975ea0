import type { CliCommand } from './commands/command';
import { hook } from './commands/hookCommand';
import { indexCommand } from './commands/indexCommand';
import { mcp } from './commands/mcpCommand';
import { bench, evalCommand } from './commands/measureCommands';
import { materialize, subscribe, subscriptions, unsubscribe } from './commands/subscriptionCommands';
import { suggest } from './commands/suggest';
import { unwatch, watch, watches } from './commands/watchCommands';
import { SNAPSHOT_FLAGS } from './commands/snapshotFlags';

export type { CliCommand };

/** Every command, in the order `--help` lists them. */
export const commands: Record<string, CliCommand> = {
  index: opensIndex(indexCommand),
  suggest: opensIndex(suggest),
  subscribe: opensIndex(subscribe),
  unsubscribe: opensIndex(unsubscribe),
  subscriptions: opensIndex(subscriptions),
  materialize: opensIndex(materialize),
  watch: opensIndex(watch),
  watches: opensIndex(watches),
  unwatch: opensIndex(unwatch),
  eval: evalCommand,
  bench,
  mcp: opensIndex(mcp),
  hook,
};

/** A command that opens the index takes --snapshot (read where it opens the workspace). */
function opensIndex(command: CliCommand): CliCommand {
  return { ...command, flags: { ...command.flags, ...SNAPSHOT_FLAGS } };
}
