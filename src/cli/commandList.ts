import type { CliCommand } from './commands/command';
import { hook } from './commands/hookCommand';
import { indexCommand } from './commands/indexCommand';
import { mcp } from './commands/mcpCommand';
import { bench, evalCommand } from './commands/measureCommands';
import { materialize, subscribe, subscriptions, unsubscribe } from './commands/subscriptionCommands';
import { suggest } from './commands/suggest';
import { unwatch, watch, watches } from './commands/watchCommands';

export type { CliCommand };

/** Every command, in the order `--help` lists them. */
export const commands: Record<string, CliCommand> = {
  index: indexCommand,
  suggest,
  subscribe,
  unsubscribe,
  subscriptions,
  materialize,
  watch,
  watches,
  unwatch,
  eval: evalCommand,
  bench,
  mcp,
  hook,
};
