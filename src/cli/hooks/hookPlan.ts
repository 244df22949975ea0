import { existsSync, statSync } from 'node:fs';
import { resolveStateDir } from '../../core/api/hookLauncher';
import type { HookEvent, HostAdapter } from './hosts';

export interface HookRunResult {
  /** What to print; undefined prints nothing. */
  stdout?: string;
  event?: string;
  via: 'server' | 'in-process' | 'none';
  /** Why nothing was said (no file in the workspace, timed out, an error...), for the log. */
  note?: string;
  stateDir?: string;
}

export interface HookPlanInput {
  host: HostAdapter;
  /** The host's stdin, as read. */
  input: string;
  /** --event, for hosts whose input does not name the event. */
  event?: string;
  /** --root; else the folder the host names, else the current directory. */
  root?: string;
  stateDir?: string;
}

/** A hook call that asks the engine something, or the host's no-op with the reason. */
export type HookPlan =
  { kind: 'ask'; event: HookEvent; root: string; stateDir: string } | { kind: 'noop'; result: HookRunResult };

/**
 * What a hook call is about, decided from its input alone (no engine, no server): the thin launcher
 * answers events that ask nothing without loading the engine, and knows which workspace to ask for.
 */
export function planHook(o: HookPlanInput): HookPlan {
  let event: HookEvent;
  try {
    const parsed: unknown = JSON.parse(o.input || '{}');
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed))
      throw new Error('the input is not a JSON object');
    event = o.host.parse(parsed as Record<string, unknown>, o.event);
  } catch (err) {
    const none: HookEvent = { kind: 'none', event: o.event ?? '', files: [] };
    return {
      kind: 'noop',
      result: {
        stdout: o.host.output(none, undefined),
        via: 'none',
        note: `unreadable hook input: ${(err as Error).message}`,
      },
    };
  }
  const noop = (note: string): HookPlan => ({
    kind: 'noop',
    result: { stdout: o.host.output(event, undefined), event: event.event, via: 'none', note },
  });
  if (event.kind === 'none') return noop(`nothing to add for ${event.event || 'this event'}`);
  const root = o.root ?? event.cwd ?? process.cwd();
  if (!existsSync(root) || !statSync(root).isDirectory()) return noop(`the workspace ${root} is not a folder`);
  return { kind: 'ask', event, root, stateDir: resolveStateDir(root, o.stateDir) };
}
