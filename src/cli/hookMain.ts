import * as nodeModule from 'node:module';
import { parseArgs, UsageError } from './args';
import { answerHook, type OneShot } from './hooks/hookAnswer';
import { HOOK_FLAGS } from './hooks/hookFlags';

/**
 * The thin launcher of `hook` (dist/hook.js): reads the host's input, asks the workspace's running
 * server in one request and prints its answer, without loading the CLI. Only when no server answers
 * (or for install, uninstall and help) is the CLI loaded, for a one-shot answer in this process.
 */
async function launch(argv: string[]): Promise<number> {
  const cli = async (): Promise<typeof import('./main')> => {
    // Node 22.1+ keeps the compiled CLI bundle between runs: a third less CPU to load it (measured on
    // Node 24; the launcher itself is too small to gain). Older Node has no such call.
    (nodeModule as { enableCompileCache?: () => unknown }).enableCompileCache?.();
    // The CLI bundle, loaded synchronously and only when needed.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    return require('./main') as typeof import('./main');
  };
  let args;
  try {
    args = parseArgs(['hook', ...argv], () => HOOK_FLAGS);
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    // The CLI says what is wrong, as `proactive-context hook` would.
    return (await cli()).main(['hook', ...argv]);
  }
  if (args.positionals.length || args.flags.help) return (await cli()).main(['hook', ...argv]);
  return answerHook(args, async (): Promise<OneShot> => (await cli()).runHook);
}

launch(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err) => {
    // Never block the agent: whatever failed, the host gets no output and exit 0.
    process.stderr.write(`proactive-context hook: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exitCode = 0;
  },
);
