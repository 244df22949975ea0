import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { Engine } from '../core/engine';
import { StderrLogger } from '../core/logger';
import { UsageError, type FlagSpec, type ParsedArgs } from './args';

export interface CliCommand {
  name: string;
  summary: string;
  usage: string;
  description: string;
  flags: Record<string, FlagSpec>;
  run(args: ParsedArgs): Promise<number>;
}

/** Opens the engine for --root (default: the current directory). */
export async function openEngine(args: ParsedArgs): Promise<Engine> {
  const root = resolve(String(args.flags.root ?? process.cwd()));
  if (!existsSync(root) || !statSync(root).isDirectory()) throw new UsageError(`--root ${root} is not a folder`);
  return Engine.open({
    root,
    stateDir: args.flags['state-dir'] as string | undefined,
    logger: new StderrLogger(Boolean(args.flags.verbose)),
  });
}

export function print(args: ParsedArgs, json: unknown, text: string): void {
  process.stdout.write(args.flags.json ? JSON.stringify(json, null, 2) + '\n' : text.endsWith('\n') ? text : text + '\n');
}

export function noPositionals(args: ParsedArgs): void {
  if (args.positionals.length) throw new UsageError(`unexpected argument '${args.positionals[0]}' for '${args.command}'`);
}

const index: CliCommand = {
  name: 'index',
  summary: 'build or refresh the index; prints its stats',
  usage: 'index --root R [--json]',
  description: 'Builds or refreshes the workspace index and prints the store statistics.',
  flags: {},
  async run(args) {
    noPositionals(args);
    const engine = await openEngine(args);
    try {
      const stats = { root: engine.root, ...engine.store.stats() };
      print(args, stats, `root       ${stats.root}\nstate dir  ${stats.stateDir}\nschema     durable v${stats.schema.durable}, index v${stats.schema.index}\ndurable    ${stats.durableBytes} bytes\nindex      ${stats.indexBytes} bytes`);
      return 0;
    } finally {
      engine.dispose();
    }
  },
};

export const commands: Record<string, CliCommand> = { index };
