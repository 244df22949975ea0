import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Engine } from '../core/engine';
import type { Subscription } from '../core/subscriptions/registry';
import { checkWorkspaceFile } from '../core/subscriptions/workspacePaths';
import type { ContextSuggestion } from '../core/types';
import type { DecisionRecord, Disposable, FeedbackAction, McpBackend, MaterializedSubscription, SubscribeInput, SubscriptionInfo, SuggestQuery, WatchInput } from './backend';

const MAX_READ_BYTES = 4 * 1024 * 1024;

function info(s: Subscription): SubscriptionInfo {
  return { id: s.id, kind: s.kind, target: s.target, path: s.path, createdAt: s.createdAt, renewedAt: s.renewedAt, expiresAt: s.expiresAt, lines: s.lines, pattern: s.pattern };
}

/** The MCP server's view of the real engine: the same store, registry and provider as the extension. */
export class EngineBackend implements McpBackend {
  constructor(private readonly engine: Engine) {}

  get root(): string {
    return this.engine.root;
  }

  async suggest(q: SuggestQuery): Promise<ContextSuggestion> {
    let file: string | undefined;
    if (q.file !== undefined) {
      file = checkWorkspaceFile(this.engine.root, q.file);
      if (!statSync(join(this.engine.root, file), { throwIfNoEntry: false })?.isFile()) throw new Error(`${file} is not a file of the workspace`);
    }
    return this.engine.suggest({ currentFile: file, cursorPosition: q.line ? { line: q.line, column: 1 } : undefined, currentSymbol: q.symbol }, { trigger: 'manual' });
  }

  async watch(input: WatchInput): Promise<{ id: string }> {
    return { id: this.engine.provider.addWatch(input).id };
  }

  async subscribe(input: SubscribeInput): Promise<SubscriptionInfo> {
    return info(this.engine.subscriptions.subscribe({ kind: input.kind, target: input.target, lines: input.lines, pattern: input.pattern, symbol: input.kind === 'symbol' ? input.target.split('::').pop() : undefined }).subscription);
  }

  async unsubscribe(id: string): Promise<void> {
    this.engine.subscriptions.unsubscribe(id);
  }

  async unsubscribeAll(): Promise<number> {
    return this.engine.subscriptions.unsubscribeAll();
  }

  async listSubscriptions(): Promise<SubscriptionInfo[]> {
    return this.engine.subscriptions.list().map(info);
  }

  async materialize(id: string): Promise<MaterializedSubscription> {
    const sub = this.engine.subscriptions.get(id);
    if (!sub) throw new Error(`No subscription with id '${id}'. List them with list_subscriptions.`);
    // Reading a resource must not renew it or change "changed since last turn" for chat.
    const r = await this.engine.materializer.materializeOne(sub);
    return { text: r.text, hash: r.hash, truncated: r.truncated, note: r.note };
  }

  async decisions(): Promise<DecisionRecord[]> {
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
    }, 1000);
    timer.unref?.();
    return { dispose: () => (own.dispose(), clearInterval(timer)) };
  }

  onDidChangeFiles(listener: (relPaths: string[]) => void): Disposable {
    return this.engine.onDidChangeWorkspaceData(listener);
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
