import { resolve } from 'node:path';
import { UsageError, type ParsedArgs } from '../args';
import { answerHook, unknownHost } from '../hooks/hookAnswer';
import { HOOK_FLAGS } from '../hooks/hookFlags';
import { hostAdapter, HOST_IDS } from '../hooks/hosts';
import { runHook } from '../hooks/hookRunner';
import { installHooks, uninstallHooks } from '../hooks/hookInstall';
import type { CliCommand } from './command';

export const hook: CliCommand = {
  name: 'hook',
  summary: 'context for a coding agent at the moment it edits a file (run by the agent host)',
  usage:
    'hook --host H [--root R] [--max-chars N] [--timeout MS] | hook install|uninstall --host H [--scope project|user]',
  description:
    `Reads the host's hook input on stdin and prints, in the host's format, the decisions that govern the files the agent is about to edit ` +
    `or names in its prompt (with superseded-decision warnings, failing tests, deprecated APIs and files that usually change with them), ` +
    `or the active subscriptions when a session starts. Each item is said once per session, fenced as repository content. ` +
    `It never blocks the agent: on any error or after --timeout it exits 0 with the host's no-op and logs the cause to <state dir>/hook.log. ` +
    `Asks the running 'mcp --http' of the workspace first, in one request (it publishes its port in the state directory; its token is <state dir>/mcp-token), else answers by itself. ` +
    `'proactive-context-hook' (dist/hook.js) does the same without loading the CLI unless no server answers. ` +
    `Hosts: ${HOST_IDS.join(', ')}. 'hook install' adds our entries to the host's settings (keeping every other entry); 'hook uninstall' removes only ours.`,
  flags: HOOK_FLAGS,
  async run(args) {
    const action = args.positionals[0];
    if (action === 'install' || action === 'uninstall') return manage(args, action);
    if (action !== undefined)
      throw new UsageError(`unknown hook action '${action}' (install, uninstall, or none to answer a hook)`);
    return answerHook(args, async () => runHook);
  },
};

async function manage(args: ParsedArgs, action: 'install' | 'uninstall'): Promise<number> {
  if (args.positionals.length > 1)
    throw new UsageError(`unexpected argument '${args.positionals[1]}' for 'hook ${action}'`);
  const hostName = String(args.flags.host ?? '');
  if (!hostName) throw new UsageError(`hook ${action} needs --host (${HOST_IDS.join(', ')})`);
  if (!hostAdapter(hostName)) throw new UsageError(unknownHost(hostName));
  const scope = String(args.flags.scope ?? 'project');
  if (scope !== 'project' && scope !== 'user') throw new UsageError(`--scope must be project or user, not '${scope}'`);
  const root = resolve(String(args.flags.root ?? process.cwd()));
  const options = { host: hostName, scope, root, command: String(args.flags.command ?? 'proactive-context') } as const;
  const report = action === 'install' ? installHooks(options) : uninstallHooks(options);
  if (args.flags.json) process.stdout.write(JSON.stringify(report, null, 2) + '\n');
  else process.stdout.write(report.lines.join('\n') + '\n');
  return 0;
}
