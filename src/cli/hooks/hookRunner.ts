import {
  fileHookItems,
  filesNamedIn,
  renderHookContext,
  subscriptionHookItems,
  workspacePath,
  type HookItem,
} from '../../core/api/messages';
import { ContextService } from '../../core/api/contextService';
import type { ContextSuggestion, Logger } from '../../core/api/types';
import type { HookEvent } from './hosts';
import { planHook, type HookPlanInput, type HookRunResult } from './hookPlan';
import { SessionLedger } from './sessionLedger';

const HOOK_KINDS = { decision: true, warning: true, cochange: true, change: false, doc: false, related_code: false };

export interface HookRunOptions extends HookPlanInput {
  maxChars: number;
  /** For the whole answer; past it the host gets its no-op. */
  timeoutMs: number;
  /** The engine of a long-lived process (the hook endpoint); else one is opened for this call. */
  service?: ContextService;
  /** The process the host ran the hook from: a session's key when the host names none. */
  parentPid?: number;
  logger: Logger;
  now?: () => number;
}

/**
 * Answers one hook call: what governs the files an agent is about to edit or names in a prompt, or
 * the active subscriptions at a session's start, said once per session. Never throws: any failure
 * or a timeout gives the host's no-op, with the cause in `note`.
 */
export async function runHook(o: HookRunOptions): Promise<HookRunResult> {
  const plan = planHook(o);
  if (plan.kind === 'noop') return plan.result;
  const { event, root, stateDir } = plan;
  const via: HookRunResult['via'] = o.service ? 'server' : 'in-process';
  const noop = (note: string, answered: HookRunResult['via'] = 'none'): HookRunResult => ({
    stdout: o.host.output(event, undefined),
    event: event.event,
    via: answered,
    note,
    stateDir,
  });
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
    if (answer === 'timeout') return noop(`no answer within ${o.timeoutMs} ms`);
    // Per host: VS Code also runs Copilot CLI's hook files for the same session, and what one host
    // was told must not silence the other.
    const sessionId = `${o.host.id}:${event.sessionId || `parent-process-${o.parentPid ?? process.ppid}`}`;
    const ledger = SessionLedger.open(stateDir);
    const rendered = renderHookContext(ledger.unseen(sessionId, answer), o.maxChars);
    if (!rendered) return noop(answer.length ? 'already said in this session' : 'nothing specific applies', via);
    ledger.record(sessionId, rendered.kept, (o.now ?? Date.now)());
    return { stdout: o.host.output(event, rendered.text), event: event.event, via, stateDir };
  } catch (err) {
    return noop(`failed: ${(err as Error).message}`);
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
): Promise<HookItem[]> {
  if (event.kind === 'sessionStart')
    return subscriptionHookItems(
      await withService(o, root, stateDir, (s) => s.subscriptions.materializeAll({ record: false, signal })),
    );
  // Never look outside the workspace: paths outside the root are dropped before anything reads them.
  const files =
    event.kind === 'edit'
      ? event.files.flatMap((f) => workspacePath(root, f) ?? [])
      : filesNamedIn(event.prompt ?? '', root);
  if (!files.length) return [];
  const suggestions = await withService(o, root, stateDir, async (s) => {
    const out: ContextSuggestion[] = [];
    for (const file of files) out.push(await s.suggestions.suggestForInput({ file }, { signal, record: false }));
    return out;
  });
  return itemsOf(suggestions, files);
}

async function withService<T>(
  o: HookRunOptions,
  root: string,
  stateDir: string,
  fn: (s: ContextService) => Promise<T>,
): Promise<T> {
  if (o.service) return fn(o.service);
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
