import { appendFileSync, mkdirSync, renameSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { DEFAULT_HOOK_MAX_CHARS, nullLogger, StderrLogger, type Logger } from '../../core/api/hookLauncher';
import { DEFAULT_HTTP_PORT } from '../../mcp/httpPort';
import type { ParsedArgs } from '../args';
import { askServer, findServer } from './hookClient';
import { DEFAULT_HOOK_TIMEOUT_MS } from './hookFlags';
import { planHook, type HookRunResult } from './hookPlan';
import { hostAdapter, HOST_IDS, UNDOCUMENTED_HOSTS, type HostAdapter } from './hosts';

const MAX_STDIN_BYTES = 1024 * 1024;
const LOG_FILE = 'hook.log';
const MAX_LOG_BYTES = 256 * 1024;

/** What answering in this process takes: the engine's hook runner, loaded only when no server answered. */
export type OneShot = (o: {
  host: HostAdapter;
  input: string;
  event?: string;
  root: string;
  stateDir?: string;
  maxChars: number;
  timeoutMs: number;
  logger: Logger;
}) => Promise<HookRunResult>;

/**
 * Answers one hook call, as `proactive-context hook` and the thin launcher do: the running server of
 * the workspace in one request when there is one, else `oneShot` in this process. Always exits 0
 * (an unknown host, a timeout or an error give the host's no-op), the cause in <state dir>/hook.log.
 */
export async function answerHook(args: ParsedArgs, oneShot: () => Promise<OneShot>): Promise<number> {
  const started = performance.now();
  const hostName = String(args.flags.host ?? '');
  const host = hostAdapter(hostName);
  if (!host) {
    // A misconfigured hook must not stop the agent: say why on stderr and exit 0.
    process.stderr.write(`proactive-context hook: ${unknownHost(hostName)}\n`);
    return 0;
  }
  const verbose = Boolean(args.flags.verbose);
  const timeoutMs = positive(args.flags.timeout) ?? DEFAULT_HOOK_TIMEOUT_MS;
  const deadline = setTimeout(() => {
    // Whatever is still running (a slow store, a stuck socket) must not hold the agent.
    if (verbose) process.stderr.write(`proactive-context hook: no answer within ${timeoutMs} ms\n`);
    process.exit(0);
  }, timeoutMs + 250);
  deadline.unref();
  let result: HookRunResult;
  try {
    result = await respond(args, host, timeoutMs, started, oneShot);
  } catch (err) {
    result = { via: 'none', note: `failed: ${(err as Error).message}` };
  }
  if (result.stdout) process.stdout.write(result.stdout + '\n');
  const ms = Math.round(performance.now() - started);
  writeLog(
    result.stateDir,
    `${hostName} ${result.event ?? '?'} via ${result.via} in ${ms} ms: ${result.note ?? `${result.stdout?.length ?? 0} characters`}`,
  );
  if (verbose && result.note) process.stderr.write(`proactive-context hook: ${result.note}\n`);
  return 0;
}

async function respond(
  args: ParsedArgs,
  host: HostAdapter,
  timeoutMs: number,
  started: number,
  oneShot: () => Promise<OneShot>,
): Promise<HookRunResult> {
  const input = await readStdin(timeoutMs);
  const event = args.flags.event as string | undefined;
  const stateFlag = args.flags['state-dir'] as string | undefined;
  const plan = planHook({ host, input, event, root: rootFlag(args, host.id), stateDir: stateFlag });
  if (plan.kind === 'noop') return plan.result;
  const { root, stateDir } = plan;
  const maxChars = positive(args.flags['max-chars']) ?? DEFAULT_HOOK_MAX_CHARS;
  const logger = args.flags.verbose ? new StderrLogger(true) : nullLogger;
  const left = (): number => Math.max(1, Math.round(timeoutMs - (performance.now() - started)));
  const server = args.flags['no-server']
    ? undefined
    : findServer(stateDir, positive(args.flags.port), DEFAULT_HTTP_PORT);
  if (server) {
    const signal = AbortSignal.timeout(left());
    try {
      const reply = await askServer(
        server,
        { host: host.id, input, event, root, maxChars, timeoutMs: left(), parentPid: process.ppid },
        signal,
      );
      if (reply.kind === 'answer') return { ...reply.result, stateDir };
      logger.debug(`hook: the server on port ${server.port} did not answer (${reply.why}); answering in-process`);
    } catch {
      return {
        stdout: host.output(plan.event, undefined),
        event: plan.event.event,
        via: 'none',
        note: `no answer within ${timeoutMs} ms`,
        stateDir,
      };
    }
  }
  const run = await oneShot();
  return run({ host, input, event, root, stateDir: stateFlag, maxChars, timeoutMs: left(), logger });
}

/** --root; for Claude Code its project folder (the hook's cwd may be a subfolder); else the host's cwd decides. */
function rootFlag(args: ParsedArgs, host: string): string | undefined {
  if (args.flags.root !== undefined) return resolve(String(args.flags.root));
  const project = host === 'claude-code' ? process.env.CLAUDE_PROJECT_DIR : undefined;
  return project ? resolve(project) : undefined;
}

export function unknownHost(name: string): string {
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
