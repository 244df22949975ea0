import { appendFileSync, mkdirSync, renameSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { DEFAULT_HOOK_MAX_CHARS } from '../../core/api/messages';
import { nullLogger, StderrLogger } from '../../core/api/types';
import { DEFAULT_HTTP_PORT } from '../../mcp/httpPort';
import { UsageError, type ParsedArgs } from '../args';
import { hostAdapter, HOST_IDS, UNDOCUMENTED_HOSTS } from '../hooks/hosts';
import { runHook, type HookRunResult } from '../hooks/hookRunner';
import { installHooks, uninstallHooks } from '../hooks/hookInstall';
import type { CliCommand } from './command';

const DEFAULT_TIMEOUT_MS = 1000;
const MAX_STDIN_BYTES = 1024 * 1024;
const LOG_FILE = 'hook.log';
const MAX_LOG_BYTES = 256 * 1024;

export const hook: CliCommand = {
  name: 'hook',
  summary: 'context for a coding agent at the moment it edits a file (run by the agent host)',
  usage:
    'hook --host H [--root R] [--max-chars N] [--timeout MS] | hook install|uninstall --host H [--scope project|user]',
  description:
    `Reads the host's hook input on stdin and prints, in the host's format, the decisions that govern the files the agent is about to edit ` +
    `or names in its prompt (with superseded-decision warnings, failing tests, deprecated APIs and files that usually change with them), ` +
    `or the active subscriptions when a session starts. Each item is said once per session, fenced as repository content. ` +
    `It never blocks the agent: on any error or after --timeout it exits 0 with the host's no-op and logs the cause to <state dir>/${LOG_FILE}. ` +
    `Asks a running 'mcp --http' of the workspace first (its token in <state dir>/mcp-token), else answers by itself. ` +
    `Hosts: ${HOST_IDS.join(', ')}. 'hook install' adds our entries to the host's settings (keeping every other entry); 'hook uninstall' removes only ours.`,
  flags: {
    host: { type: 'string', value: 'H', description: `the agent host: ${HOST_IDS.join(', ')}` },
    event: {
      type: 'string',
      value: 'E',
      description: 'the hook event, for hosts whose input does not name it (copilot-cli)',
    },
    'max-chars': {
      type: 'number',
      value: 'N',
      description: `at most this many characters of context (default ${DEFAULT_HOOK_MAX_CHARS})`,
    },
    timeout: {
      type: 'number',
      value: 'MS',
      description: `answer within this long or not at all (default ${DEFAULT_TIMEOUT_MS})`,
    },
    port: {
      type: 'number',
      value: 'P',
      description: `the port of a running 'mcp --http' (default ${DEFAULT_HTTP_PORT})`,
    },
    'no-server': { type: 'boolean', description: 'always answer in-process, never from a running server' },
    scope: { type: 'string', value: 'S', description: 'install/uninstall: project (default) or user settings' },
    command: {
      type: 'string',
      value: 'CMD',
      description: "install: how the host starts us (default 'proactive-context')",
    },
  },
  async run(args) {
    const action = args.positionals[0];
    if (action === 'install' || action === 'uninstall') return manage(args, action);
    if (action !== undefined)
      throw new UsageError(`unknown hook action '${action}' (install, uninstall, or none to answer a hook)`);
    return answer(args);
  },
};

async function answer(args: ParsedArgs): Promise<number> {
  const started = performance.now();
  const hostName = String(args.flags.host ?? '');
  const host = hostAdapter(hostName);
  if (!host) {
    // A misconfigured hook must not stop the agent: say why on stderr and exit 0.
    process.stderr.write(`proactive-context hook: ${unknownHost(hostName)}\n`);
    return 0;
  }
  const timeoutMs = positive(args.flags.timeout) ?? DEFAULT_TIMEOUT_MS;
  const deadline = setTimeout(() => {
    // Whatever is still running (a slow store, a stuck socket) must not hold the agent.
    if (args.flags.verbose) process.stderr.write(`proactive-context hook: no answer within ${timeoutMs} ms\n`);
    process.exit(0);
  }, timeoutMs + 250);
  deadline.unref();
  let result: HookRunResult;
  try {
    const input = await readStdin(timeoutMs);
    result = await runHook({
      host,
      input,
      event: args.flags.event as string | undefined,
      root: rootFlag(args, host.id),
      stateDir: args.flags['state-dir'] as string | undefined,
      maxChars: positive(args.flags['max-chars']) ?? DEFAULT_HOOK_MAX_CHARS,
      timeoutMs,
      port: positive(args.flags.port) ?? DEFAULT_HTTP_PORT,
      noServer: Boolean(args.flags['no-server']),
      logger: args.flags.verbose ? new StderrLogger(true) : nullLogger,
    });
  } catch (err) {
    result = { via: 'none', note: `failed: ${(err as Error).message}` };
  }
  if (result.stdout) process.stdout.write(result.stdout + '\n');
  const ms = Math.round(performance.now() - started);
  writeLog(
    result.stateDir,
    `${hostName} ${result.event ?? '?'} via ${result.via} in ${ms} ms: ${result.note ?? `${result.stdout?.length ?? 0} characters`}`,
  );
  if (args.flags.verbose && result.note) process.stderr.write(`proactive-context hook: ${result.note}\n`);
  return 0;
}

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

/** --root; for Claude Code its project folder (the hook's cwd may be a subfolder); else the host's cwd decides. */
function rootFlag(args: ParsedArgs, host: string): string | undefined {
  if (args.flags.root !== undefined) return resolve(String(args.flags.root));
  const project = host === 'claude-code' ? process.env.CLAUDE_PROJECT_DIR : undefined;
  return project ? resolve(project) : undefined;
}

function unknownHost(name: string): string {
  const why = UNDOCUMENTED_HOSTS[name];
  if (why) return `--host ${name} is not supported: ${why}`;
  return name
    ? `unknown --host '${name}' (one of ${HOST_IDS.join(', ')})`
    : `--host is required (one of ${HOST_IDS.join(', ')})`;
}

function positive(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isFinite(v) && v > 0 ? Math.floor(v) : undefined;
}

/** The host's input: all of stdin up to 1 MiB, or what came before the time ran out. */
function readStdin(timeoutMs: number): Promise<string> {
  if (process.stdin.isTTY) return Promise.resolve('');
  return new Promise((resolveInput) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const done = (): void => {
      clearTimeout(timer);
      process.stdin.removeAllListeners('data');
      process.stdin.pause();
      resolveInput(Buffer.concat(chunks).toString('utf8'));
    };
    const timer = setTimeout(done, timeoutMs);
    process.stdin.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_STDIN_BYTES) return done();
      chunks.push(c);
    });
    process.stdin.once('end', done);
    process.stdin.once('error', done);
  });
}

/** One line in <state dir>/hook.log (kept small: one old file beside it); logging never fails the hook. */
function writeLog(stateDir: string | undefined, line: string): void {
  if (!stateDir) return;
  try {
    mkdirSync(stateDir, { recursive: true, mode: 0o700 });
    const file = join(stateDir, LOG_FILE);
    const size = statSync(file, { throwIfNoEntry: false })?.size ?? 0;
    if (size > MAX_LOG_BYTES) renameSync(file, `${file}.1`);
    appendFileSync(file, `${new Date().toISOString()} ${line}\n`, { mode: 0o600 });
  } catch {
    // The hook's answer matters more than its log.
  }
}
