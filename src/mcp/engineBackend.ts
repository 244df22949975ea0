import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Engine } from '../core/engine';
import { SubscriptionError, type Subscription } from '../core/subscriptions/registry';
import { checkWorkspaceFile } from '../core/subscriptions/workspacePaths';
import type { ContextSuggestion } from '../core/types';
import type { DecisionRecord, Disposable, FeedbackAction, McpBackend, MaterializedSubscription, SubscribeInput, SubscriptionInfo, SuggestQuery, WatchInput } from './backend';

const MAX_READ_BYTES = 4 * 1024 * 1024;
/** How often another process's subscription changes (the extension, the CLI) are looked for. */
const SHARED_STATE_POLL_MS = 1000;

function info(s: Subscription): SubscriptionInfo {
  return {
    id: s.id,
    kind: s.kind,
    target: s.target,
    path: s.path,
    createdAt: s.createdAt,
    renewedAt: s.renewedAt,
    expiresAt: s.expiresAt,
    lines: s.lines,
    pattern: s.pattern,
    flags: s.flags || undefined,
    symbol: s.symbol,
  };
}

/** The MCP server's view of the real engine: the same store, registry and provider as the extension. */
export class EngineBackend implements McpBackend {
  constructor(private readonly engine: Engine) {}

  get root(): string {
    return this.engine.root;
  }

  async suggest(q: SuggestQuery): Promise<ContextSuggestion> {
    let file: string | undefined;
    let missing = false;
    if (q.file !== undefined) {
      file = checkWorkspaceFile(this.engine.root, q.file);
      const st = statSync(join(this.engine.root, file), { throwIfNoEntry: false });
      if (st?.isDirectory()) throw new Error(`${file} is a folder; ask for a file inside it.`);
      // Suggestions for a file about to be created are a fair thing to watch: they fill in once it exists.
      missing = st === undefined;
    }
    await this.refreshDecisions();
    const suggestion = await this.engine.suggest(
      { currentFile: file, cursorPosition: q.line ? { line: q.line, column: 1 } : undefined, currentSymbol: q.symbol },
      { trigger: 'manual', record: q.record ?? true },
    );
    if (!missing) return suggestion;
    return { ...suggestion, notes: [`${file} does not exist yet; suggestions follow once it is created.`, ...(suggestion.notes ?? [])] };
  }

  async watch(input: WatchInput): Promise<{ id: string }> {
    return { id: this.engine.provider.addWatch(input).id };
  }

  async subscribe(input: SubscribeInput): Promise<SubscriptionInfo> {
    if (input.kind === 'file' || input.kind === 'lines' || input.kind === 'pattern') {
      // The registry accepts files that do not exist yet (a chat turn then says so); an agent
      // naming a missing file has most likely mistyped it, so say that now.
      const rel = checkWorkspaceFile(this.engine.root, input.target);
      const st = statSync(join(this.engine.root, rel), { throwIfNoEntry: false });
      if (!st) throw new Error(`${rel} does not exist in the workspace; check the path, or subscribe once the file is created.`);
      if (!st.isFile()) throw new Error(`${rel} is not a file; subscribe to a file inside it.`);
    }
    const symbol = input.kind === 'symbol' ? input.target.split('::').pop() : undefined;
    return info(this.engine.subscriptions.subscribe({ kind: input.kind, target: input.target, lines: input.lines, pattern: input.pattern, symbol }).subscription);
  }

  async unsubscribe(id: string): Promise<void> {
    try {
      this.engine.subscriptions.unsubscribe(id);
    } catch (err) {
      if (err instanceof SubscriptionError && err.reason === 'not_found') throw new Error(`No subscription with id ${id}; list_subscriptions shows the ids in use.`);
      throw err;
    }
  }

  async unsubscribeAll(): Promise<number> {
    return this.engine.subscriptions.unsubscribeAll();
  }

  async listSubscriptions(): Promise<SubscriptionInfo[]> {
    return this.engine.subscriptions.list().map(info);
  }

  async materialize(id: string): Promise<MaterializedSubscription> {
    const sub = this.engine.subscriptions.get(id);
    if (!sub) throw new Error(`No subscription with id ${id}; list_subscriptions shows the ids in use.`);
    // Reading a resource must not renew it or change "changed since last turn" for chat.
    const r = await this.engine.materializer.materializeOne(sub);
    return { text: r.text, hash: r.hash, truncated: r.truncated, note: r.note };
  }

  async decisions(): Promise<DecisionRecord[]> {
    await this.refreshDecisions();
    return this.engine.decisions.list().map((d) => ({ number: d.number, title: d.title, status: d.status, path: d.path, body: d.body }));
  }

  async feedback(suggestionId: string, itemIndex: number, action: FeedbackAction): Promise<void> {
    if (action === 'used') this.engine.provider.markUsed(suggestionId, itemIndex);
    else this.engine.provider.dismiss(suggestionId, itemIndex);
  }

  async readFile(rel: string): Promise<string> {
    const path = checkWorkspaceFile(this.engine.root, rel);
    const abs = join(this.engine.root, path);
    const st = statSync(abs, { throwIfNoEntry: false });
    if (!st?.isFile()) throw new Error(`${path} does not exist in the workspace`);
    if (st.size > MAX_READ_BYTES) throw new Error(`${path} is larger than ${MAX_READ_BYTES} bytes`);
    return readFileSync(abs, 'utf8');
  }

  onDidChangeSubscriptions(listener: () => void): Disposable {
    // Changes made by this process arrive as events; another process's (the extension's) are
    // noticed by polling the shared store cheaply.
    const own = this.engine.subscriptions.onDidChange(() => listener());
    let last = this.fingerprint();
    const timer = setInterval(() => {
      const now = this.fingerprint();
      if (now !== last) {
        last = now;
        listener();
      }
    }, SHARED_STATE_POLL_MS);
    timer.unref?.();
    return { dispose: () => (own.dispose(), clearInterval(timer)) };
  }

  onDidChangeFiles(listener: (relPaths: string[]) => void): Disposable {
    return this.engine.onDidChangeWorkspaceData(listener);
  }

  /** Re-indexes what the server's watcher saw change; decision records are re-read on demand anyway. */
  filesChanged(relPaths: string[]): void {
    for (const p of relPaths) {
      if (!p) continue;
      const st = statSync(join(this.engine.root, p), { throwIfNoEntry: false });
      if (st?.isDirectory()) continue;
      this.engine.fileChanged(p, st === undefined);
    }
  }

  /**
   * Decision records are read at refresh; re-reading them before answering keeps decisions and
   * suggestions current without waiting for a watcher. Only files whose size or mtime changed are parsed.
   */
  private async refreshDecisions(): Promise<void> {
    try {
      await this.engine.decisions.refresh();
    } catch (err) {
      this.engine.logger.warn(`Could not re-read decision records: ${(err as Error).message}`);
    }
  }

  private fingerprint(): string {
    try {
      return this.engine.subscriptions
        .list()
        .map((s) => s.id)
        .sort()
        .join(',');
    } catch {
      return '';
    }
  }
}
