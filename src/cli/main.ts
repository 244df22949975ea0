import { globalFlags, parseArgs, UsageError, type FlagSpec } from './args';
import { commands, type CliCommand } from './commandList';

// The thin hook launcher (hookMain.ts) loads this bundle for a one-shot answer and calls this.
export { runHook } from './hooks/hookRunner';

const HELP_HEADER = `proactive-context — decisions, recent changes, co-change, callers, docs and warnings for your code

Usage: proactive-context <command> [options]

Commands:`;

function formatFlags(flags: Record<string, FlagSpec>): string {
  return Object.entries(flags)
    .map(([name, spec]) => `  --${name}${spec.value ? ' ' + spec.value : ''}`.padEnd(26) + spec.description)
    .join('\n');
}

export function helpText(command?: CliCommand): string {
  if (command) {
    return `Usage: proactive-context ${command.usage}\n\n${command.description}\n\nOptions:\n${formatFlags(command.flags)}\n${formatFlags(globalFlags)}\n`;
  }
  const list = Object.values(commands)
    .map((c) => `  ${c.name.padEnd(15)}${c.summary}`)
    .join('\n');
  return `${HELP_HEADER}\n${list}\n\nGlobal options:\n${formatFlags(globalFlags)}\n\nExit codes: 0 success, 1 failure, 2 bad usage.\nRun 'proactive-context <command> --help' for a command's options.\n`;
}

export async function main(argv: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs(argv, (name) => (name && commands[name] ? commands[name].flags : undefined));
  } catch (err) {
    if (err instanceof UsageError) {
      process.stderr.write(`proactive-context: ${err.message}\n`);
      return 2;
    }
    throw err;
  }
  const command = parsed.command ? commands[parsed.command] : undefined;
  if (parsed.command && !command) {
    process.stderr.write(`proactive-context: unknown command '${parsed.command}' (see --help)\n`);
    return 2;
  }
  if (parsed.flags.help) {
    process.stdout.write(helpText(command));
    return 0;
  }
  if (!command) {
    process.stderr.write(helpText());
    return 2;
  }
  try {
    return await command.run(parsed);
  } catch (err) {
    if (err instanceof UsageError) {
      process.stderr.write(`proactive-context: ${err.message}\n`);
      return 2;
    }
    const message = err instanceof Error ? err.message : String(err);
    if (parsed.flags.json) process.stdout.write(JSON.stringify({ error: message }) + '\n');
    process.stderr.write(`proactive-context ${command.name}: ${message}\n`);
    return 1;
  }
}

if (require.main === module) {
  main(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
    },
    (err) => {
      process.stderr.write(`proactive-context: ${err instanceof Error ? err.stack : String(err)}\n`);
      process.exitCode = 1;
    },
  );
}
