import { createHash, randomUUID } from 'node:crypto';
import * as vscode from 'vscode';
import type { Engine } from '../../core/engine';
import { GitService } from '../../core/git/gitService';
import { MemoryError, type MemoryHit, parseProposals } from '../../core/memory/memoryStore';
import { DEFAULT_CHAT_INSTRUCTIONS, PromptAssembler, renderLedger, renderLedgerFooter, type ChatTurn, type PromptLedger } from '../../core/prompt/promptAssembler';
import type { NewDecision } from '../../core/sources/decisions/adrWriter';
import type { MaterializedSubscription } from '../../core/subscriptions/materializer';
import { SubscriptionError, type SubscribeRequest, type Subscription } from '../../core/subscriptions/registry';
import { WorkspacePathError } from '../../core/subscriptions/workspacePaths';
import type { ContextSuggestion, ProactiveQuery, SuggestionItem } from '../../core/types';
import { asLogger } from '../log';
import { ids } from '../ids';
import type { ActivityTracker } from '../activityTracker';
import { relativePath } from '../activityTracker';
import type { EngineHost } from '../engines';
import {
  buildDecisionPrompt,
  describeSubscription,
  formatDuration,
  NO_LEDGER,
  promptHistory,
  renderDecisionDraft,
  renderLedgerReport,
  renderSubscriptionList,
  renderSuggestions,
  renderWhy,
  transcriptOf,
  type HistoryTurn,
  type LinkFor,
} from './chatText';
import { parseDecisionTitle, parseSubscribeArgs, parseUnsubscribeArgs, SlashArgsError, SUBSCRIBE_USAGE } from './slashArgs';

export interface ChatDeps {
  host: EngineHost;
  tracker: ActivityTracker;
  log: vscode.LogOutputChannel;
}

/** Internal commands behind the chat's buttons (not in the palette). */
export const chatCommands = {
  confirmDecision: 'proactiveContext.chat.confirmDecision',
  replaceOldest: 'proactiveContext.chat.subscribeReplacingOldest',
} as const;

/** Kept in each turn's ChatResult: how later turns, feedback and `/ledger` find what this turn did. */
export interface TurnMetadata {
  conversationId: string;
  command?: string;
  /** The workspace folder's URI the turn worked on. */
  folder?: string;
  suggestionId?: string;
  /** Entity ids of the suggestion items that went into the prompt. */
  suggestionEntities?: string[];
  ledger?: PromptLedger;
  ledgerAt?: number;
  /** The footer markdown appended to the answer; stripped when the answer is read back as history. */
  footer?: string;
}

const MEMORY_LIMIT = 5;
const SUGGESTION_TIMEOUT_MS = 4000;
const MAX_REFERENCES = 12;
const MAX_DRAFTS = 20;
const FALLBACK_INPUT_TOKENS = 8192;
const WHY_GIT_TIMEOUT_MS = 5000;

interface Draft {
  folder: string;
  decision: NewDecision;
}

/** Registers `@context`: every question gets a prompt built afresh from subscriptions, suggestions and memory. */
export function registerChatParticipant(context: vscode.ExtensionContext, deps: ChatDeps): vscode.ChatParticipant {
  const drafts = new Map<string, Draft>();
  const chat = new ContextChat(deps, drafts);
  const participant = vscode.chat.createChatParticipant(ids.participant, (request, chatContext, stream, token) => chat.handle(request, chatContext, stream, token));
  participant.iconPath = new vscode.ThemeIcon('lightbulb');
  participant.followupProvider = { provideFollowups: (result) => followupsFor(result) };
  context.subscriptions.push(
    participant,
    participant.onDidReceiveFeedback((feedback) => void chat.feedback(feedback)),
    vscode.commands.registerCommand(chatCommands.confirmDecision, (draftId?: string) => chat.confirmDecision(draftId)),
    vscode.commands.registerCommand(chatCommands.replaceOldest, (folder: string, request: SubscribeRequest) => chat.replaceOldest(folder, request)),
  );
  return participant;
}

class ContextChat {
  private readonly assembler: PromptAssembler;

  constructor(
    private readonly deps: ChatDeps,
    private readonly drafts: Map<string, Draft>,
  ) {
    this.assembler = new PromptAssembler({ logger: asLogger(deps.log) });
  }

  async handle(request: vscode.ChatRequest, chatContext: vscode.ChatContext, stream: vscode.ChatResponseStream, token: vscode.CancellationToken): Promise<vscode.ChatResult> {
    const meta: TurnMetadata = { conversationId: conversationIdOf(chatContext), command: request.command };
    const folder = this.deps.host.activeFolder();
    if (!folder) {
      stream.markdown('`@context` works on a workspace folder: open a folder first.');
      return { metadata: meta };
    }
    meta.folder = folder.uri.toString();
    const controller = new AbortController();
    const sub = token.onCancellationRequested(() => controller.abort());
    try {
      const engine = await this.deps.host.get(folder);
      const turn: Turn = { request, chatContext, stream, token, signal: controller.signal, engine, folder, meta, linkFor: linkForFolder(folder) };
      switch (request.command) {
        case 'subscribe':
          await this.subscribe(turn);
          break;
        case 'unsubscribe':
          this.unsubscribe(turn);
          break;
        case 'list':
          stream.markdown(renderSubscriptionList(engine.subscriptions.list(), engine.config.subscriptions.maxActive, Date.now(), turn.linkFor));
          break;
        case 'suggest':
          await this.suggest(turn);
          break;
        case 'why':
          await this.why(turn);
          break;
        case 'decide':
          await this.decide(turn);
          break;
        case 'ledger':
          this.ledger(turn);
          break;
        default:
          await this.answer(turn);
      }
      return { metadata: meta };
    } catch (err) {
      if (token.isCancellationRequested) return { metadata: meta };
      const message = userMessageFor(err);
      if (message) {
        stream.markdown(message);
        return { metadata: meta };
      }
      this.deps.log.error(`@context failed: ${(err as Error)?.stack ?? String(err)}`);
      return { metadata: meta, errorDetails: { message: `Proactive Context could not answer: ${(err as Error)?.message ?? String(err)}` } };
    } finally {
      sub.dispose();
    }
  }

  /** A question: the prompt is rebuilt from scratch, the user's message last, within the model's budget. */
  private async answer(t: Turn): Promise<void> {
    const { request, engine, stream, signal, meta } = t;
    const model = request.model;
    if (!model) throw new NoModelError();
    if (!request.prompt.trim()) {
      stream.markdown('Ask a question, or use a command: `/subscribe`, `/list`, `/suggest`, `/why`, `/decide`, `/ledger`.');
      return;
    }
    stream.progress('Gathering subscribed context, suggestions and memory…');
    const started = performance.now();
    const history = historyTurns(t.chatContext);

    const [materialized, suggestion, memory] = await Promise.all([
      engine.materializer.materialize({ conversationId: meta.conversationId, signal }),
      this.currentSuggestion(t).catch((err) => {
        this.deps.log.warn(`Suggestions for the chat turn failed: ${(err as Error).message}`);
        return undefined;
      }),
      engine.memory.search(request.prompt, { excludeConversationId: meta.conversationId, limit: MEMORY_LIMIT, signal }).catch((err: unknown): MemoryHit[] => {
        if (signal.aborted) throw err;
        this.deps.log.warn(`Memory search for the chat turn failed: ${(err as Error).message}`);
        return [];
      }),
    ]);

    const assembled = await this.assembler.assemble({
      instructions: DEFAULT_CHAT_INSTRUCTIONS,
      history: promptHistory(history) as ChatTurn[],
      subscriptions: materialized,
      suggestions: suggestion?.items ?? [],
      memory,
      userMessage: request.prompt,
      maxInputTokens: model.maxInputTokens > 0 ? model.maxInputTokens : FALLBACK_INPUT_TOKENS,
      countTokens: (text) => Promise.resolve(model.countTokens(text, t.token)),
      signal,
    });
    const { ledger } = assembled;
    this.deps.log.info(
      `@context prompt built in ${Math.round(performance.now() - started)} ms: ${ledger.totalTokens.toLocaleString('en-US')} of ${ledger.budget.toLocaleString('en-US')} tokens, ` +
        `${materialized.length} subscription(s), ${suggestion?.items.length ?? 0} suggestion(s), ${memory.length} memory hit(s), ${ledger.cut.length} part(s) cut`,
    );

    const keptSuggestions = keptTop(suggestion?.items ?? [], ledger, 'suggestions', (a, b) => b.relevanceScore - a.relevanceScore);
    const keptMemory = keptTop(memory, ledger, 'memory');
    this.reference(t, materialized, ledger, keptSuggestions, keptMemory);

    const messages = assembled.messages.map((m) => (m.role === 'assistant' ? vscode.LanguageModelChatMessage.Assistant(m.content) : vscode.LanguageModelChatMessage.User(m.content)));
    let answer = '';
    await streamFromModel(model, messages, t.token, (fragment) => {
      answer += fragment;
      stream.markdown(fragment);
    });

    const footer = `\n\n---\n*${renderLedgerFooter(ledger)} · \`/ledger\` for details*`;
    stream.markdown(footer);
    meta.footer = footer;
    meta.ledger = ledger;
    meta.ledgerAt = Date.now();
    if (suggestion && keptSuggestions.length) {
      meta.suggestionId = suggestion.id;
      meta.suggestionEntities = keptSuggestions.map((i) => i.entityId);
    }
    try {
      engine.memory.saveEpisode({ conversationId: meta.conversationId, prompt: request.prompt, answer });
    } catch (err) {
      this.deps.log.warn(`Could not save the chat turn to memory: ${(err as Error).message}`);
    }
  }

  /** Each source that made it into the prompt, as a reference the user can open. */
  private reference(t: Turn, materialized: readonly MaterializedSubscription[], ledger: PromptLedger, suggestions: readonly SuggestionItem[], memory: readonly MemoryHit[]): void {
    const seen = new Set<string>();
    let count = 0;
    const add = (path: string | undefined, start?: number, end?: number) => {
      if (!path || count >= MAX_REFERENCES) return;
      const uri = vscode.Uri.joinPath(t.folder.uri, ...path.split('/'));
      const key = `${uri.toString()}#${start ?? ''}-${end ?? ''}`;
      if (seen.has(key)) return;
      seen.add(key);
      count++;
      if (start) t.stream.reference(new vscode.Location(uri, new vscode.Range(start - 1, 0, Math.max(start, end ?? start) - 1, 0)));
      else t.stream.reference(uri);
    };
    const keptIds = new Set(ledger.entries.filter((e) => e.source.startsWith('subscription:')).map((e) => e.source.slice('subscription:'.length).split(' ')[0]));
    for (const r of materialized) {
      if (!keptIds.has(r.subscription.id) || r.note) continue;
      add(r.location?.path ?? r.subscription.path, r.location?.startLine, r.location?.endLine);
    }
    for (const i of suggestions) add(i.location.path || undefined, i.location.line, i.location.endLine);
    for (const m of memory) if (m.kind === 'decision') add(m.path);
  }

  private async currentSuggestion(t: Turn): Promise<ContextSuggestion | undefined> {
    const query = this.currentQuery(t.folder);
    if (!query) return undefined;
    const timeout = AbortSignal.timeout(SUGGESTION_TIMEOUT_MS);
    return suggestAt(t.engine, query, AbortSignal.any([t.signal, timeout]));
  }

  /** The active editor's place as a query: the tracker's debounced activity, else the editor itself. */
  private currentQuery(folder: vscode.WorkspaceFolder): CurrentQuery | undefined {
    const a = this.deps.tracker.lastActivity;
    const editor = vscode.window.activeTextEditor;
    const editorPath = editor && editor.document.uri.scheme === 'file' && vscode.workspace.getWorkspaceFolder(editor.document.uri)?.uri.toString() === folder.uri.toString() ? relativePath(folder, editor.document.uri) : undefined;
    if (a?.kind === 'file' && a.folder.uri.toString() === folder.uri.toString() && (!editorPath || editorPath === a.path)) {
      return { currentFile: a.path, cursorPosition: { line: a.line, column: a.column }, selection: a.selection, currentSymbol: a.symbol?.name, recentFiles: a.recentFiles, symbolRange: a.symbol };
    }
    if (!editor || !editorPath) return undefined;
    const pos = editor.selection.active;
    return { currentFile: editorPath, cursorPosition: { line: pos.line + 1, column: pos.character + 1 } };
  }

  private async subscribe(t: Turn): Promise<void> {
    const { engine, stream } = t;
    let requests: SubscribeRequest[];
    const parsed = parseSubscribeArgs(t.request.prompt);
    if (parsed) requests = [parsed];
    else {
      requests = referencedFiles(t);
      if (!requests.length) {
        stream.markdown(SUBSCRIBE_USAGE);
        return;
      }
    }
    for (const req of requests) {
      let sub: Subscription;
      let renewed: boolean;
      try {
        ({ subscription: sub, renewed } = engine.subscriptions.subscribe(req));
      } catch (err) {
        if (err instanceof SubscriptionError && err.reason === 'limit') {
          stream.markdown(`⚠️ ${err.message}`);
          stream.button({ command: chatCommands.replaceOldest, title: 'Replace the oldest', arguments: [t.folder.uri.toString(), req] });
          return;
        }
        throw err;
      }
      const preview = await engine.materializer.materializeOne(sub, { signal: t.signal });
      const lines = [`${renewed ? 'Renewed' : 'Subscribed to'} **${describeSubscription(sub)}** (id \`${sub.id}\`). Every \`@context\` question now gets its current content; it expires ${formatDuration(sub.expiresAt - Date.now())} after its last use.`];
      if (preview.note) lines.push('', `Note: ${preview.note}. It stays subscribed and each turn says so until it can be read.`);
      else if (preview.truncated) lines.push('', `It holds ${preview.chars.toLocaleString('en-US')} characters; each turn includes the first ${engine.config.subscriptions.maxChars.toLocaleString('en-US')} with a truncation notice. Subscribe to a line range or a pattern to see a different part.`);
      stream.markdown(lines.join('\n') + '\n\n');
      if (!preview.note && preview.location?.path) {
        const uri = vscode.Uri.joinPath(t.folder.uri, ...preview.location.path.split('/'));
        stream.reference(uri);
      }
    }
  }

  private unsubscribe(t: Turn): void {
    const args = parseUnsubscribeArgs(t.request.prompt);
    const registry = t.engine.subscriptions;
    if (args.all) {
      const n = registry.unsubscribeAll();
      t.stream.markdown(n ? `Removed all ${n} subscription${n === 1 ? '' : 's'}.` : 'There were no active subscriptions.');
      return;
    }
    const removed: string[] = [];
    const failed: string[] = [];
    for (const id of args.ids) {
      try {
        removed.push(`\`${id}\` (${describeSubscription(registry.unsubscribe(id))})`);
      } catch (err) {
        if (err instanceof SubscriptionError) failed.push(err.message);
        else throw err;
      }
    }
    const out: string[] = [];
    if (removed.length) out.push(`Removed ${removed.join(', ')}.`);
    for (const f of failed) out.push(`⚠️ ${f}`);
    t.stream.markdown(out.join('\n\n'));
  }

  private async suggest(t: Turn): Promise<void> {
    const query = this.currentQuery(t.folder);
    if (!query) {
      t.stream.markdown('Open a file of this workspace and put the cursor in it: `/suggest` shows the context for the active editor.');
      return;
    }
    t.stream.progress(`Looking for context on ${query.currentFile}…`);
    const suggestion = await suggestAt(t.engine, query, t.signal);
    const where = `${query.currentFile}${query.currentSymbol ? ` · ${query.currentSymbol}` : ''}`;
    t.stream.markdown(renderSuggestions(suggestion.items, t.linkFor, `### Context for ${where}`));
    if (suggestion.notes?.length) t.stream.markdown(`\n\n_${suggestion.notes.join(' · ')}_`);
    t.meta.folder = t.folder.uri.toString();
    t.meta.suggestionId = suggestion.id;
    t.meta.suggestionEntities = suggestion.items.map((i) => i.entityId);
  }

  private async why(t: Turn): Promise<void> {
    const query = this.currentQuery(t.folder);
    if (!query) {
      t.stream.markdown('Put the cursor on a symbol in a workspace file: `/why` explains the decisions and history behind it.');
      return;
    }
    t.stream.progress('Looking up decisions and history…');
    const line = query.cursorPosition?.line ?? 1;
    const range = query.symbolRange ?? t.engine.symbolAt(query.currentFile, line);
    const symbol = query.currentSymbol ?? range?.name;
    const git = new GitService(t.engine.root, { logger: asLogger(this.deps.log) });
    const [suggestion, commits] = await Promise.all([
      suggestAt(t.engine, { ...query, currentSymbol: symbol, symbolRange: range }, t.signal),
      range ? git.lineHistory(query.currentFile, range.startLine, range.endLine, { signal: t.signal, timeoutMs: WHY_GIT_TIMEOUT_MS, maxCount: 10 }) : Promise.resolve([]),
    ]);
    const target = symbol ? `${symbol} (${query.currentFile})` : query.currentFile;
    const decisions = suggestion.items.filter((i) => i.type === 'decision');
    const changes = suggestion.items.filter((i) => i.type === 'change');
    const lines = range ? `${symbol ?? 'these lines'} (lines ${range.startLine}–${range.endLine})` : '';
    t.stream.markdown(renderWhy(target, decisions, changes, t.linkFor, suggestion.notes ?? [], range ? { lines, commits } : undefined));
  }

  private async decide(t: Turn): Promise<void> {
    const title = parseDecisionTitle(t.request.prompt);
    const model = t.request.model;
    if (!model) throw new NoModelError();
    t.stream.progress('Drafting the decision from this conversation…');
    const prompt = buildDecisionPrompt(title, transcriptOf(historyTurns(t.chatContext)));
    let reply = '';
    await streamFromModel(model, [vscode.LanguageModelChatMessage.User(prompt)], t.token, (fragment) => {
      reply += fragment;
    });
    let decision: NewDecision;
    try {
      const [proposal] = parseProposals(reply, 1);
      decision = proposal ? { ...proposal, title } : fallbackDraft(title, reply);
    } catch (err) {
      if (!(err instanceof MemoryError)) throw err;
      decision = fallbackDraft(title, reply);
    }
    const id = randomUUID();
    this.drafts.set(id, { folder: t.folder.uri.toString(), decision });
    while (this.drafts.size > MAX_DRAFTS) this.drafts.delete(this.drafts.keys().next().value as string);
    t.stream.markdown(renderDecisionDraft(decision));
    t.stream.button({ command: chatCommands.confirmDecision, title: 'Record this decision', arguments: [id] });
  }

  private ledger(t: Turn): void {
    for (let i = t.chatContext.history.length - 1; i >= 0; i--) {
      const turn = t.chatContext.history[i];
      if (!(turn instanceof vscode.ChatResponseTurn)) continue;
      const m = turn.result.metadata as TurnMetadata | undefined;
      if (m?.ledger) {
        t.stream.markdown(renderLedgerReport(m.ledger, m.ledgerAt ?? Date.now(), (l) => renderLedger(l)));
        return;
      }
    }
    t.stream.markdown(NO_LEDGER);
  }

  /** Writes a confirmed draft (the newest one when no id is given) as an ADR and opens it; returns its root-relative path. */
  async confirmDecision(draftId?: string): Promise<string | undefined> {
    if (typeof draftId !== 'string') draftId = [...this.drafts.keys()].pop();
    const draft = draftId === undefined ? undefined : this.drafts.get(draftId);
    if (!draft) {
      void vscode.window.showWarningMessage('This decision draft was already recorded or is no longer available; draft it again with @context /decide.');
      return undefined;
    }
    const folder = vscode.workspace.workspaceFolders?.find((f) => f.uri.toString() === draft.folder);
    if (!folder) {
      void vscode.window.showWarningMessage('The workspace folder of this draft is no longer open.');
      return undefined;
    }
    try {
      const engine = await this.deps.host.get(folder);
      const path = await engine.decisions.recordDecision(draft.decision);
      this.drafts.delete(draftId as string);
      const uri = vscode.Uri.joinPath(folder.uri, ...path.split('/'));
      void vscode.window.showTextDocument(uri, { preview: false }).then(undefined, () => undefined);
      void vscode.window.showInformationMessage(`Recorded the decision in ${path}.`);
      return path;
    } catch (err) {
      this.deps.log.error(`Recording a decision failed: ${(err as Error).message}`);
      void vscode.window.showErrorMessage(`Could not record the decision: ${(err as Error).message}`);
      return undefined;
    }
  }

  async replaceOldest(folderUri: string, request: SubscribeRequest): Promise<void> {
    const folder = vscode.workspace.workspaceFolders?.find((f) => f.uri.toString() === folderUri);
    if (!folder) return;
    try {
      const engine = await this.deps.host.get(folder);
      const r = engine.subscriptions.subscribe({ ...request, replaceOldest: true });
      void vscode.window.showInformationMessage(`Subscribed to ${describeSubscription(r.subscription)}${r.replaced ? `; removed the oldest, ${describeSubscription(r.replaced)}` : ''}.`);
    } catch (err) {
      void vscode.window.showErrorMessage(`Could not subscribe: ${(err as Error).message}`);
    }
  }

  /** Thumbs up marks the turn's suggestion items as used; thumbs down dismisses them for that place. */
  async feedback(feedback: vscode.ChatResultFeedback): Promise<void> {
    const m = feedback.result.metadata as TurnMetadata | undefined;
    if (!m?.suggestionId || !m.suggestionEntities?.length || !m.folder) return;
    const folder = vscode.workspace.workspaceFolders?.find((f) => f.uri.toString() === m.folder);
    if (!folder) return;
    try {
      const engine = await this.deps.host.get(folder);
      const helpful = feedback.kind === vscode.ChatResultFeedbackKind.Helpful;
      for (const entity of m.suggestionEntities) {
        if (helpful) engine.provider.markUsed(m.suggestionId, entity);
        else engine.provider.dismiss(m.suggestionId, entity);
      }
      this.deps.log.debug(`Chat feedback (${helpful ? 'helpful' : 'unhelpful'}) applied to ${m.suggestionEntities.length} suggestion item(s)`);
    } catch (err) {
      this.deps.log.warn(`Could not record chat feedback: ${(err as Error).message}`);
    }
  }
}

/** The active editor's place, with the editor's own symbol range when the tracker has one. */
type CurrentQuery = ProactiveQuery & { currentFile: string; symbolRange?: { name: string; startLine: number; endLine: number } };

interface Turn {
  request: vscode.ChatRequest;
  chatContext: vscode.ChatContext;
  stream: vscode.ChatResponseStream;
  token: vscode.CancellationToken;
  signal: AbortSignal;
  engine: Engine;
  folder: vscode.WorkspaceFolder;
  meta: TurnMetadata;
  linkFor: LinkFor;
}

function suggestAt(engine: Engine, current: CurrentQuery, signal: AbortSignal): Promise<ContextSuggestion> {
  const { symbolRange, ...query } = current;
  return engine.suggest(query, { signal, trigger: 'manual', symbolRange });
}

class NoModelError extends Error {
  constructor() {
    super('No language model is available for chat. Install or sign in to a chat model provider, then pick a model in the chat view.');
  }
}

/** Sends the prompt and hands each text fragment to `onText`; failures of the model (not ours) become ModelFailure. */
async function streamFromModel(model: vscode.LanguageModelChat, messages: vscode.LanguageModelChatMessage[], token: vscode.CancellationToken, onText: (fragment: string) => void): Promise<void> {
  let ours: unknown;
  try {
    const response = await model.sendRequest(messages, { justification: 'Proactive Context answers @context questions with your subscribed files and current suggestions.' }, token);
    for await (const fragment of response.text) {
      try {
        onText(fragment);
      } catch (err) {
        ours = err;
        throw err;
      }
    }
  } catch (err) {
    if (err === ours || err instanceof vscode.LanguageModelError || token.isCancellationRequested) throw err;
    throw new ModelFailure((err as Error)?.message ?? String(err));
  }
}

class ModelFailure extends Error {}

/** The message for errors the user can act on; undefined for bugs (logged and reported briefly). */
export function userMessageFor(err: unknown): string | undefined {
  if (err instanceof vscode.LanguageModelError) {
    const code = err.code;
    if (code === vscode.LanguageModelError.NoPermissions().code) return '⚠️ Proactive Context is not allowed to use this chat model. Allow it when asked, or pick another model in the chat view.';
    if (code === vscode.LanguageModelError.Blocked().code) return '⚠️ The chat model refused the request (rate limit or content filter). Wait a moment and try again, or pick another model.';
    if (code === vscode.LanguageModelError.NotFound().code) return '⚠️ The chat model you picked is not available any more. Pick another model in the chat view.';
    return `⚠️ The chat model reported an error: ${err.message}`;
  }
  if (err instanceof NoModelError) return `⚠️ ${err.message}`;
  if (err instanceof ModelFailure) return `⚠️ The chat model could not answer: ${err.message}`;
  if (err instanceof SlashArgsError || err instanceof SubscriptionError || err instanceof WorkspacePathError || err instanceof MemoryError) return `⚠️ ${err.message}`;
  return undefined;
}

function fallbackDraft(title: string, reply: string): NewDecision {
  return { title, context: 'Drafted from the @context conversation.', decision: reply.trim().slice(0, 4000) || 'Not discussed', consequences: 'Not discussed' };
}

/** The items of a ledger section that survived the budget: the top `items` in the assembler's keep order. */
function keptTop<T>(list: readonly T[], ledger: PromptLedger, source: string, order?: (a: T, b: T) => number): T[] {
  const n = ledger.entries.find((e) => e.source === source)?.items ?? 0;
  const sorted = order ? [...list].sort(order) : [...list];
  return sorted.slice(0, n);
}

/** Files and ranges attached to the request (`#file`, drag and drop), as subscriptions. */
function referencedFiles(t: Turn): SubscribeRequest[] {
  const out: SubscribeRequest[] = [];
  for (const ref of t.request.references) {
    const v = ref.value;
    const uri = v instanceof vscode.Uri ? v : v instanceof vscode.Location ? v.uri : undefined;
    if (!uri || uri.scheme !== 'file') continue;
    const folder = vscode.workspace.getWorkspaceFolder(uri);
    if (folder?.uri.toString() !== t.folder.uri.toString()) continue;
    const path = relativePath(folder, uri);
    if (v instanceof vscode.Location && !v.range.isEmpty) out.push({ kind: 'lines', target: path, lines: { start: v.range.start.line + 1, end: v.range.end.line + 1 } });
    else out.push({ kind: 'file', target: path });
  }
  if (!out.length) {
    const editor = vscode.window.activeTextEditor;
    if (editor && editor.document.uri.scheme === 'file' && vscode.workspace.getWorkspaceFolder(editor.document.uri)?.uri.toString() === t.folder.uri.toString()) {
      out.push({ kind: 'file', target: relativePath(t.folder, editor.document.uri) });
    }
  }
  return out;
}

function linkForFolder(folder: vscode.WorkspaceFolder): LinkFor {
  return (path, line) => vscode.Uri.joinPath(folder.uri, ...path.split('/')).with({ fragment: line ? `L${line}` : '' }).toString();
}

/**
 * One id per chat conversation: carried in every answer's metadata; the first turn makes a new one.
 * History from before (another participant's turns only) falls back to a hash of the first request.
 */
function conversationIdOf(chatContext: vscode.ChatContext): string {
  for (const turn of chatContext.history) {
    if (turn instanceof vscode.ChatResponseTurn) {
      const id = (turn.result.metadata as TurnMetadata | undefined)?.conversationId;
      if (typeof id === 'string' && id) return id;
    }
  }
  const first = chatContext.history.find((t): t is vscode.ChatRequestTurn => t instanceof vscode.ChatRequestTurn);
  if (first) return `chat_${createHash('sha256').update(first.prompt).digest('hex').slice(0, 16)}`;
  return `chat_${randomUUID()}`;
}

/** The conversation so far as plain turns; the ledger footer is not part of an answer. */
function historyTurns(chatContext: vscode.ChatContext): HistoryTurn[] {
  const out: HistoryTurn[] = [];
  for (const turn of chatContext.history) {
    if (turn instanceof vscode.ChatRequestTurn) out.push({ role: 'user', content: turn.prompt, command: turn.command });
    else if (turn instanceof vscode.ChatResponseTurn) {
      const m = turn.result.metadata as TurnMetadata | undefined;
      let text = turn.response.map((p) => (p instanceof vscode.ChatResponseMarkdownPart ? p.value.value : '')).join('');
      if (m?.footer && text.endsWith(m.footer)) text = text.slice(0, -m.footer.length);
      out.push({ role: 'assistant', content: text, command: turn.command ?? m?.command });
    }
  }
  return out;
}

function followupsFor(result: vscode.ChatResult): vscode.ChatFollowup[] {
  const m = result.metadata as TurnMetadata | undefined;
  if (result.errorDetails || !m) return [];
  switch (m.command) {
    case undefined:
      return m.ledger ? [{ prompt: '', command: 'ledger', label: 'What went into this answer?' }, { prompt: '', command: 'suggest', label: 'Show the context for the active editor' }] : [];
    case 'subscribe':
    case 'unsubscribe':
      return [{ prompt: '', command: 'list', label: 'List subscriptions' }];
    case 'suggest':
    case 'why':
      return [{ prompt: 'What should I keep in mind before changing this code?', label: 'What should I keep in mind before changing this code?' }];
    default:
      return [];
  }
}
