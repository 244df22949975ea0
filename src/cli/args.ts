/** A small, strict argument parser: unknown flags and missing values are usage errors (exit 2). */

export class UsageError extends Error {}

export type FlagType = 'string' | 'number' | 'boolean';
export interface FlagSpec {
  type: FlagType;
  description: string;
  value?: string;
}

export interface ParsedArgs {
  command: string | undefined;
  positionals: string[];
  flags: Record<string, string | number | boolean>;
}

export const globalFlags: Record<string, FlagSpec> = {
  root: { type: 'string', value: 'DIR', description: 'workspace root (default: current directory)' },
  json: { type: 'boolean', description: 'print machine-readable JSON on stdout' },
  'state-dir': {
    type: 'string',
    value: 'DIR',
    description: 'state directory (default: per-workspace folder under $XDG_STATE_HOME)',
  },
  verbose: { type: 'boolean', description: 'log progress to stderr' },
  help: { type: 'boolean', description: 'show help' },
};

export function parseArgs(
  argv: string[],
  commandFlags: (command: string | undefined) => Record<string, FlagSpec> | undefined,
): ParsedArgs {
  const out: ParsedArgs = { command: undefined, positionals: [], flags: {} };
  let specs: Record<string, FlagSpec> = { ...globalFlags };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--') {
      out.positionals.push(...argv.slice(i + 1));
      break;
    }
    if (arg.startsWith('--')) {
      const eq = arg.indexOf('=');
      const name = eq >= 0 ? arg.slice(2, eq) : arg.slice(2);
      const spec = specs[name];
      if (!spec)
        throw new UsageError(`unknown option --${name}${out.command ? ` for '${out.command}'` : ''} (see --help)`);
      if (spec.type === 'boolean') {
        if (eq >= 0) throw new UsageError(`option --${name} takes no value`);
        out.flags[name] = true;
        continue;
      }
      let value: string | undefined = eq >= 0 ? arg.slice(eq + 1) : argv[++i];
      if (value === undefined || (eq < 0 && value.startsWith('--')))
        throw new UsageError(`option --${name} needs a value${spec.value ? ` (${spec.value})` : ''}`);
      if (spec.type === 'number') {
        const n = Number(value);
        if (value.trim() === '' || !Number.isFinite(n))
          throw new UsageError(`option --${name} needs a number, got '${value}'`);
        out.flags[name] = n;
      } else {
        out.flags[name] = value;
      }
      value = undefined;
      continue;
    }
    if (arg.startsWith('-') && arg.length > 1) {
      if (arg === '-h') {
        out.flags.help = true;
        continue;
      }
      throw new UsageError(`unknown option ${arg} (options start with --; see --help)`);
    }
    if (out.command === undefined) {
      out.command = arg;
      const extra = commandFlags(arg);
      if (extra) specs = { ...globalFlags, ...extra };
    } else {
      out.positionals.push(arg);
    }
  }
  return out;
}
