import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { ContextService } from '../../core/api/contextService';
import { StderrLogger } from '../../core/api/types';
import { UsageError, type FlagSpec, type ParsedArgs } from '../args';
import { snapshotSourceOf } from './snapshotFlags';

export interface CliCommand {
  name: string;
  summary: string;
  usage: string;
  description: string;
  flags: Record<string, FlagSpec>;
  run(args: ParsedArgs): Promise<number>;
}

/** The folder --root names (default: the current directory); a usage error when it is not one. */
export function rootOf(args: ParsedArgs): string {
  const root = resolve(String(args.flags.root ?? process.cwd()));
  if (!existsSync(root) || !statSync(root).isDirectory()) throw new UsageError(`--root ${root} is not a folder`);
  return root;
}

export function loggerOf(args: ParsedArgs): StderrLogger {
  return new StderrLogger(Boolean(args.flags.verbose));
}

/** Opens the workspace for --root, runs `fn` and always closes it. */
export async function withService<T>(args: ParsedArgs, fn: (service: ContextService) => Promise<T>): Promise<T> {
  const snapshot = snapshotSourceOf(args);
  const service = await ContextService.open({
    root: rootOf(args),
    stateDir: args.flags['state-dir'] as string | undefined,
    logger: loggerOf(args),
    ...(snapshot ? { snapshot } : {}),
  });
  try {
    return await fn(service);
  } finally {
    service.dispose();
  }
}

export function print(args: ParsedArgs, json: unknown, text: string): void {
  process.stdout.write(
    args.flags.json ? JSON.stringify(json, null, 2) + '\n' : text.endsWith('\n') ? text : text + '\n',
  );
}

export function noPositionals(args: ParsedArgs): void {
  if (args.positionals.length)
    throw new UsageError(`unexpected argument '${args.positionals[0]}' for '${args.command}'`);
}

/** A flag that must be a whole number of at least `min`. */
export function wholeNumber(args: ParsedArgs, flag: string, min = 1): number | undefined {
  const v = args.flags[flag];
  if (v === undefined) return undefined;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < min)
    throw new UsageError(`--${flag} must be a whole number of at least ${min}`);
  return v;
}

/** The `--id ID | --all` choice of the commands that remove things; exactly one must be given. */
export function idOrAll(args: ParsedArgs): { id: string } | { all: true } {
  noPositionals(args);
  const id = args.flags.id;
  if ((id === undefined) === !args.flags.all)
    throw new UsageError(`${args.command} needs exactly one of --id ID or --all`);
  return id === undefined ? { all: true } : { id: String(id) };
}
