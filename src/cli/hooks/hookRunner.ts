import { existsSync, statSync } from 'node:fs';
import {
  fileHookItems,
  filesNamedIn,
  renderHookContext,
  subscriptionHookItems,
  workspacePath,
  type HookItem,
} from '../../core/api/messages';
import { ContextService } from '../../core/api/contextService';
import { resolveStateDir, type ContextSuggestion, type Logger } from '../../core/api/types';
import type { HookEvent, HostAdapter } from './hosts';
import { McpLoopbackClient, serverToken } from './serverClient';
import { SessionLedger } from './sessionLedger';

const HOOK_KINDS = { decision: true, warning: true, cochange: true, change: false, doc: false, related_code: false };

export interface HookRunOptions {
  host: HostAdapter;
  /** The host's stdin, as read. */
  input: string;
  /** --event, for hosts whose input does not name the event. */
  event?: string;
  /** --root; else the folder the host names, else the current directory. */
  root?: string;
  stateDir?: string;
  maxChars: number;
  /** For the whole answer; past it the host gets its no-op. */
  timeoutMs: number;
  /** Where `mcp --http` listens. */
  port: number;
  /** Never ask a running server (measurements of the one-shot path). */
  noServer?: boolean;
  logger: Logger;
  now?: () => number;
}

export interface HookRunResult {
  /** What to print; undefined prints nothing. */
  stdout?: string;
  event?: string;
  via: 'server' | 'in-process' | 'none';
  /** Why nothing was said (no file in the workspace, timed out, an error...), for the log. */
  note?: string;
  stateDir?: string;
}

/**
 * Answers one hook call: what governs the files an agent is about to edit or names in a prompt, or
 * the active subscriptions at a session's start, said once per session. Never throws: any failure
 * or a timeout gives the host's no-op, with the cause in `note`.
 */
export async function runHook(o: HookRunOptions): Promise<HookRunResult> {
  let event: HookEvent;
  try {
    const parsed: unknown = JSON.parse(o.input || '{}');
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed))
      throw new Error('the input is not a JSON object');
    event = o.host.parse(parsed as Record<string, unknown>, o.event);
  } catch (err) {
    return {
      stdout: o.host.output(noEvent(o.event), undefined),
      via: 'none',
      note: `unreadable hook input: ${(err as Error).message}`,
    };
  }
  const noop = (note: string, via: HookRunResult['via'] = 'none', stateDir?: string): HookRunResult => ({
    stdout: o.host.output(event, undefined),
    event: event.event,
    via,
    note,
    stateDir,
  });
  if (event.kind === 'none') return noop(`nothing to add for ${event.event || 'this event'}`);
  const root = o.root ?? event.cwd ?? process.cwd();
  if (!existsSync(root) || !statSync(root).isDirectory()) return noop(`the workspace ${root} is not a folder`);
  const stateDir = resolveStateDir(root, o.stateDir);
  const abort = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => {
      abort.abort();
      resolve('timeout');
    }, o.timeoutMs);
  });
  try {
    const answer = await Promise.race([gather(o, event, root, stateDir, abort.signal), timedOut]);
    if (answer === 'timeout') return noop(`no answer within ${o.timeoutMs} ms`, 'none', stateDir);
    // Per host: VS Code also runs Copilot CLI's hook files for the same session, and what one host
    // was told must not silence the other.
    const sessionId = `${o.host.id}:${event.sessionId || `parent-process-${process.ppid}`}`;
    const ledger = SessionLedger.open(stateDir);
    const rendered = renderHookContext(ledger.unseen(sessionId, answer.items), o.maxChars);
    if (!rendered)
      return noop(
        answer.items.length ? 'already said in this session' : 'nothing specific applies',
        answer.via,
        stateDir,
      );
    ledger.record(sessionId, rendered.kept, (o.now ?? Date.now)());
    return { stdout: o.host.output(event, rendered.text), event: event.event, via: answer.via, stateDir };
  } catch (err) {
    return noop(`failed: ${(err as Error).message}`, 'none', stateDir);
  } finally {
    clearTimeout(timer);
  }
}

async function gather(
  o: HookRunOptions,
  event: HookEvent,
  root: string,
  stateDir: string,
  signal: AbortSignal,
): Promise<{ items: HookItem[]; via: HookRunResult['via'] }> {
  if (event.kind === 'sessionStart')
    return {
      items: subscriptionHookItems(
        await withService(o, root, stateDir, (s) => s.subscriptions.materializeAll({ record: false, signal })),
      ),
      via: 'in-process',
    };
  // Never look outside the workspace: paths outside the root are dropped before anything reads them.
  const files =
    event.kind === 'edit'
      ? event.files.flatMap((f) => workspacePath(root, f) ?? [])
      : filesNamedIn(event.prompt ?? '', root);
  if (!files.length) return { items: [], via: 'none' };
  const token = o.noServer ? undefined : serverToken(stateDir);
  if (token) {
    try {
      return { items: itemsOf(await fromServer(o.port, token, files, signal), files), via: 'server' };
    } catch (err) {
      if (signal.aborted) throw err;
      o.logger.debug(
        `hook: the server on port ${o.port} did not answer (${(err as Error).message}); answering in-process`,
      );
    }
  }
  const suggestions = await withService(o, root, stateDir, async (s) => {
    const out: ContextSuggestion[] = [];
    for (const file of files) out.push(await s.suggestions.suggestForInput({ file }, { signal, record: false }));
    return out;
  });
  return { items: itemsOf(suggestions, files), via: 'in-process' };
}

async function fromServer(
  port: number,
  token: string,
  files: string[],
  signal: AbortSignal,
): Promise<ContextSuggestion[]> {
  const client = new McpLoopbackClient(port, token, signal);
  try {
    await client.open();
    const out: ContextSuggestion[] = [];
    for (const file of files) out.push(await client.suggest(file));
    return out;
  } finally {
    await client.close();
  }
}

async function withService<T>(
  o: HookRunOptions,
  root: string,
  stateDir: string,
  fn: (s: ContextService) => Promise<T>,
): Promise<T> {
  // Only the kinds a hook says anything about: recent commits, docs and callers are not asked for.
  const service = await ContextService.open({ root, stateDir, logger: o.logger, config: { enabledKinds: HOOK_KINDS } });
  try {
    return await fn(service);
  } finally {
    service.dispose();
  }
}

/** Each file's items, an item named twice (a decision over two files) said once. */
function itemsOf(suggestions: readonly ContextSuggestion[], files: readonly string[]): HookItem[] {
  const seen = new Set<string>();
  return suggestions.flatMap((s, i) =>
    fileHookItems(s, files[i]).filter((it) => !seen.has(it.key) && seen.add(it.key)),
  );
}

function noEvent(event: string | undefined): HookEvent {
  return { kind: 'none', event: event ?? '', files: [] };
}
