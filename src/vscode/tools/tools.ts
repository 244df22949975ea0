import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { Engine } from '../../core/engine';
import { renderSuggestionLine } from '../../core/prompt/promptAssembler';
import { SubscriptionError, type SubscribeRequest, type Subscription } from '../../core/subscriptions/registry';
import { normalizeWorkspacePath, WorkspacePathError } from '../../core/subscriptions/workspacePaths';
import type { ActivityTracker } from '../activityTracker';
import { relativePath } from '../activityTracker';
import { describeSubscription, formatDuration } from '../chat/chatText';
import type { EngineHost } from '../engines';
import { noInput, subscribeFileRequest, subscribeMemoryRequest, suggestInput, ToolInputError, unsubscribeId } from './toolInput';

export interface ToolDeps {
  host: EngineHost;
  tracker: ActivityTracker;
  log: vscode.LogOutputChannel;
}

/** Tool names, as declared in package.json `languageModelTools`. */
export const toolNames = {
  subscribeFile: 'subscribe_file',
  subscribeMemory: 'subscribe_memory',
  unsubscribe: 'unsubscribe',
  unsubscribeAll: 'unsubscribe_all',
  listSubscriptions: 'list_subscriptions',
  contextSuggest: 'context_suggest',
} as const;

const SUGGEST_TIMEOUT_MS = 5000;

type Input = Record<string, unknown>;

/** Registers the six language-model tools for agent mode; state-changing ones ask for confirmation first. */
export function registerTools(context: vscode.ExtensionContext, deps: ToolDeps): void {
  const tools = new ContextTools(deps);
  const reg = (name: string, tool: vscode.LanguageModelTool<Input>) => context.subscriptions.push(vscode.lm.registerTool(name, tool));

  reg(toolNames.subscribeFile, {
    prepareInvocation: (o) => {
      const req = tryParse(() => subscribeFileRequest(o.input));
      const what = req ? requestLabel(req) : String((o.input as Input)?.path ?? 'a file');
      return {
        invocationMessage: `Subscribing the chat to ${what}`,
        confirmationMessages: { title: 'Subscribe the chat to a file?', message: new vscode.MarkdownString(`Every following \`@context\` turn will include the current content of **${escape(what)}**.`) },
      };
    },
    invoke: (o, token) => tools.run(token, (engine, signal) => tools.subscribe(engine, subscribeFileRequest(o.input), signal)),
  });

  reg(toolNames.subscribeMemory, {
    prepareInvocation: (o) => {
      const query = String((o.input as Input)?.query ?? '').trim();
      return {
        invocationMessage: `Subscribing the chat to the memory search “${query}”`,
        confirmationMessages: { title: 'Subscribe the chat to a memory search?', message: new vscode.MarkdownString(`Every following \`@context\` turn will include the top decisions and past chats matching **${escape(query)}**.`) },
      };
    },
    invoke: (o, token) => tools.run(token, (engine, signal) => tools.subscribe(engine, subscribeMemoryRequest(o.input), signal)),
  });

  reg(toolNames.unsubscribe, {
    prepareInvocation: async (o) => {
      const id = String((o.input as Input)?.id ?? '').trim();
      const sub = await tools.peek(id);
      const what = sub ? `${describeSubscription(sub)} (id ${sub.id})` : `subscription ${id}`;
      return {
        invocationMessage: `Removing ${what}`,
        confirmationMessages: { title: 'Remove a context subscription?', message: new vscode.MarkdownString(`\`@context\` will stop including **${escape(what)}**.`) },
      };
    },
    invoke: (o, token) =>
      tools.run(token, (engine) => {
        const removed = removeOne(engine, unsubscribeId(o.input));
        return `Removed subscription ${removed.id} (${describeSubscription(removed)}). ${remaining(engine)}`;
      }),
  });

  reg(toolNames.unsubscribeAll, {
    prepareInvocation: async () => {
      const n = (await tools.listAll())?.length ?? 0;
      return {
        invocationMessage: 'Removing all context subscriptions',
        confirmationMessages: { title: 'Remove all context subscriptions?', message: new vscode.MarkdownString(`\`@context\` will stop including all ${n} subscribed file${n === 1 ? '' : 's'} and searches of this workspace.`) },
      };
    },
    invoke: (o, token) =>
      tools.run(token, (engine) => {
        noInput(o.input, toolNames.unsubscribeAll);
        const n = engine.subscriptions.unsubscribeAll();
        return n ? `Removed all ${n} subscription${n === 1 ? '' : 's'}.` : 'There were no active subscriptions; nothing changed.';
      }),
  });

  reg(toolNames.listSubscriptions, {
    prepareInvocation: () => ({ invocationMessage: 'Listing context subscriptions' }),
    invoke: (o, token) =>
      tools.run(token, (engine) => {
        noInput(o.input, toolNames.listSubscriptions);
        return listText(engine);
      }),
  });

  reg(toolNames.contextSuggest, {
    prepareInvocation: (o) => {
      const path = (o.input as Input)?.path;
      return { invocationMessage: `Gathering proactive context for ${typeof path === 'string' && path ? path : 'the active editor'}` };
    },
    invoke: (o, token) => tools.run(token, (engine, signal, folder) => tools.suggest(engine, folder, o.input, signal)),
  });
}

class ContextTools {
  constructor(private readonly deps: ToolDeps) {}

  /** Runs a tool body on the active folder's engine; errors become messages the model can act on. */
  async run(token: vscode.CancellationToken, body: (engine: Engine, signal: AbortSignal, folder: vscode.WorkspaceFolder) => string | Promise<string>): Promise<vscode.LanguageModelToolResult> {
    const folder = this.deps.host.activeFolder();
    if (!folder) throw new Error('No workspace folder is open; Proactive Context works on a folder.');
    const controller = new AbortController();
    const sub = token.onCancellationRequested(() => controller.abort());
    try {
      const engine = await this.deps.host.get(folder);
      const text = await body(engine, controller.signal, folder);
      return new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(text)]);
    } catch (err) {
      if (err instanceof ToolInputError || err instanceof SubscriptionError || err instanceof WorkspacePathError) throw new Error(err.message);
      this.deps.log.error(`A language-model tool failed: ${(err as Error)?.stack ?? String(err)}`);
      throw new Error(`Proactive Context failed: ${(err as Error)?.message ?? String(err)}`);
    } finally {
      sub.dispose();
    }
  }

  async subscribe(engine: Engine, request: SubscribeRequest, signal: AbortSignal): Promise<string> {
    let result;
    try {
      result = engine.subscriptions.subscribe(request);
    } catch (err) {
      if (err instanceof SubscriptionError && err.reason === 'limit') {
        throw new ToolInputError(`${err.message.replace(/ by subscribing again with replaceOldest\.?$/, '.')} To make room, call unsubscribe with an id from list_subscriptions; nothing was changed.`);
      }
      throw err;
    }
    const sub = result.subscription;
    const preview = await engine.materializer.materializeOne(sub, { signal });
    const lines = [`${result.renewed ? 'Renewed' : 'Subscribed to'} ${describeSubscription(sub)} (id ${sub.id}). Every following @context turn includes its current content; it expires ${formatDuration(sub.expiresAt - Date.now())} after its last use.`];
    if (preview.note) lines.push(`Note: ${preview.note}. The subscription is kept and each turn says so until it can be read.`);
    else if (preview.truncated) lines.push(`It holds ${preview.chars.toLocaleString('en-US')} characters; each turn includes only the first ${engine.config.subscriptions.maxChars.toLocaleString('en-US')}, with a truncation notice. Subscribe to a line range (startLine/endLine) or a pattern for another part.`);
    lines.push(remaining(engine));
    return lines.join('\n');
  }

  async suggest(engine: Engine, folder: vscode.WorkspaceFolder, input: unknown, signal: AbortSignal): Promise<string> {
    const args = suggestInput(input);
    let path: string;
    let line = args.line;
    let symbol = args.symbol;
    let symbolRange: { name: string; startLine: number; endLine: number } | undefined;
    if (args.path) {
      path = normalizeWorkspacePath(engine.root, args.path);
      const abs = join(engine.root, path);
      if (!existsSync(abs)) throw new ToolInputError(`context_suggest: ${path} does not exist in the workspace.`);
      if (statSync(abs).isDirectory()) throw new ToolInputError(`context_suggest: ${path} is a folder; give a file inside it.`);
    } else {
      const editor = vscode.window.activeTextEditor;
      const a = this.deps.tracker.lastActivity;
      if (editor && editor.document.uri.scheme === 'file' && vscode.workspace.getWorkspaceFolder(editor.document.uri)?.uri.toString() === folder.uri.toString()) {
        path = relativePath(folder, editor.document.uri);
        line ??= editor.selection.active.line + 1;
        if (a?.kind === 'file' && a.path === path && !args.line && (!symbol || symbol === a.symbol?.name)) {
          symbol ??= a.symbol?.name;
          symbolRange = a.symbol;
        }
      } else if (a?.kind === 'file' && a.folder.uri.toString() === folder.uri.toString()) {
        path = a.path;
        line ??= a.line;
        symbol ??= a.symbol?.name;
      } else {
        throw new ToolInputError('context_suggest: no file is open in the editor; pass "path" (workspace-relative).');
      }
    }
    const suggestion = await engine.suggest(
      { currentFile: path, cursorPosition: line ? { line, column: 1 } : undefined, currentSymbol: symbol },
      { signal: AbortSignal.any([signal, AbortSignal.timeout(SUGGEST_TIMEOUT_MS)]), trigger: 'manual', symbolRange },
    );
    const where = `${path}${line ? `:${line}` : ''}${symbol ? ` (${symbol})` : ''}`;
    const out = [suggestion.items.length ? `Context for ${where}, most relevant first (type, title — why · where):` : `No context found for ${where}.`];
    for (const item of suggestion.items) out.push(renderSuggestionLine(item));
    if (suggestion.notes?.length) out.push('', `Notes: ${suggestion.notes.join('; ')}`);
    return out.join('\n');
  }

  /** A subscription by id for the confirmation text; undefined when unknown (invoke then explains). */
  async peek(id: string): Promise<Subscription | undefined> {
    const folder = this.deps.host.activeFolder();
    if (!folder || !id) return undefined;
    try {
      return (await this.deps.host.get(folder)).subscriptions.get(id);
    } catch {
      return undefined;
    }
  }

  async listAll(): Promise<Subscription[] | undefined> {
    const folder = this.deps.host.activeFolder();
    if (!folder) return undefined;
    try {
      return (await this.deps.host.get(folder)).subscriptions.list();
    } catch {
      return undefined;
    }
  }
}

function removeOne(engine: Engine, id: string): Subscription {
  try {
    return engine.subscriptions.unsubscribe(id);
  } catch (err) {
    if (err instanceof SubscriptionError && err.reason === 'not_found') throw new ToolInputError(`No subscription has the id "${id}"; call list_subscriptions to see the ids in use. Nothing was changed.`);
    throw err;
  }
}

function listText(engine: Engine): string {
  const subs = engine.subscriptions.list();
  const max = engine.config.subscriptions.maxActive;
  if (!subs.length) return `No active subscriptions (limit ${max}). Use subscribe_file or subscribe_memory to add one.`;
  const now = Date.now();
  return [`${subs.length} of ${max} active subscriptions (id · kind · what · expires in):`, ...subs.map((s) => `- ${s.id} · ${s.kind} · ${describeSubscription(s)} · ${formatDuration(s.expiresAt - now)}`)].join('\n');
}

function remaining(engine: Engine): string {
  const n = engine.subscriptions.list().length;
  return `${n} of ${engine.config.subscriptions.maxActive} subscriptions are active.`;
}

function requestLabel(r: SubscribeRequest): string {
  if (r.kind === 'lines' && r.lines) return `${r.target} lines ${r.lines.start}–${r.lines.end}`;
  if (r.kind === 'pattern') return `${r.target} lines matching ${r.pattern}`;
  return r.target;
}

function tryParse<T>(fn: () => T): T | undefined {
  try {
    return fn();
  } catch {
    return undefined;
  }
}

function escape(text: string): string {
  return text.replace(/[\\`*_{}[\]()#+!|<>]/g, (c) => `\\${c}`);
}
