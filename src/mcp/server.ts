import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { nullLogger, type Logger } from '../core/logger';
import { redactDeep } from '../core/security/secretRedaction';
import type { ContextSuggestion } from '../core/types';
import type { McpBackend, SubscriptionInfo } from './backend';
import { withTimeouts } from './bounded';
import { LiveResources, PollTracker } from './liveResources';
import { ResourceCatalog, describeSubscription } from './resources';
import { FramedStdioTransport } from './stdioFraming';
import { invalidParams, subscriptionUri, workspacePathFromInput } from './uris';

export const SERVER_NAME = 'proactive-context';
export const SERVER_VERSION = '0.1.0';

export interface McpServerOptions {
  /** Quiet time after a file change before subscribers are told (ms). */
  debounceMs?: number;
  /** Longest a single backend call may take before the request fails (ms). */
  timeoutMs?: number;
}

const DEFAULT_TIMEOUT_MS = 15_000;
/** Suggestion text for one tool answer stays readable in a chat. */
const MAX_SUGGESTION_TEXT = 8000;

export interface ProactiveContextMcpServer {
  readonly mcp: McpServer;
  /** URIs this client subscribed to with `resources/subscribe`. */
  subscribedUris(): string[];
  /** Settles when the connection is closed (by either side); dispose the backend only after it. */
  readonly closed: Promise<void>;
  connect(transport: Transport): Promise<void>;
  close(): Promise<void>;
}

/**
 * Builds the MCP server over a backend: the tools agents call, the resources they read, and live
 * `resources/subscribe` updates. One server serves one client connection.
 */
export function createMcpServer(engine: McpBackend, logger: Logger = nullLogger, options: McpServerOptions = {}): ProactiveContextMcpServer {
  const backend = withTimeouts(engine, options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
  const mcp = new McpServer(
    { name: SERVER_NAME, version: SERVER_VERSION },
    {
      capabilities: { tools: {} },
      instructions:
        'Proactive Context: call context_suggest for the decisions, recent changes, co-changing files, callers, docs and warnings ' +
        'relevant to a file or symbol; subscribe to files or memory queries to keep their current content available as resources.',
    },
  );
  const catalog = new ResourceCatalog(backend);
  const live = new LiveResources(
    backend,
    catalog,
    {
      updated: (uri) => (mcp.isConnected() ? mcp.server.sendResourceUpdated({ uri }) : Promise.resolve()),
      listChanged: async () => {
        if (mcp.isConnected()) await mcp.server.sendResourceListChanged();
      },
    },
    logger,
    options.debounceMs,
  );
  const poller = new PollTracker(catalog);

  registerResources(mcp, catalog, live, logger);
  registerTools(mcp, backend, live, poller, logger);

  let closed = false;
  let markClosed: () => void = () => undefined;
  const closedPromise = new Promise<void>((resolve) => (markClosed = resolve));
  const close = async (): Promise<void> => {
    if (closed) return;
    closed = true;
    live.dispose();
    try {
      await mcp.close();
    } finally {
      markClosed();
    }
  };
  mcp.server.onclose = () => {
    closed = true;
    live.dispose();
    markClosed();
  };

  return {
    mcp,
    subscribedUris: () => live.subscribedUris(),
    closed: closedPromise,
    async connect(transport) {
      live.start();
      await mcp.connect(transport);
    },
    close,
  };
}

/**
 * Serves the backend over stdin/stdout until the client closes stdin. Resolves once connected;
 * await `closed` on the result before disposing the backend. stdout carries only protocol
 * messages; the logger is expected to write to stderr.
 */
export async function runStdioServer(backend: McpBackend, logger: Logger = nullLogger, options: McpServerOptions = {}): Promise<ProactiveContextMcpServer> {
  const server = createMcpServer(backend, logger, options);
  const transport = new FramedStdioTransport({ logger });
  const stop = (): void => {
    server.close().catch((err: Error) => logger.warn(`mcp: close failed: ${err.message}`));
  };
  process.stdin.once('end', stop);
  process.stdin.once('close', stop);
  // The client went away mid-write: nothing left to talk to.
  process.stdout.once('error', stop);
  await server.connect(transport);
  logger.info(`mcp: serving ${backend.root} on stdio`);
  return server;
}

function registerResources(mcp: McpServer, catalog: ResourceCatalog, live: LiveResources, logger: Logger): void {
  mcp.server.registerCapabilities({ resources: { subscribe: true, listChanged: true } });
  // Requests are matched by method only and their params checked here: the SDK's own schemas answer
  // a wrong type with -32603 and a dump of validator internals instead of a plain -32602.
  mcp.server.setRequestHandler(looseRequest('resources/list'), async (req) => {
    optionalCursor('resources/list', req.params);
    return { resources: await catalog.list() };
  });
  mcp.server.setRequestHandler(looseRequest('resources/templates/list'), (req) => {
    optionalCursor('resources/templates/list', req.params);
    return { resourceTemplates: catalog.templates() };
  });
  mcp.server.setRequestHandler(looseRequest('resources/read'), async (req) => {
    const uri = uriParam('resources/read', req.params);
    logger.trace(`mcp: read ${uri}`);
    // Everything read over MCP leaves the machine: well-known keys are redacted, with a note.
    return redactDeep(await catalog.read(uri), 'text');
  });
  mcp.server.setRequestHandler(looseRequest('resources/subscribe'), async (req) => {
    await live.subscribe(uriParam('resources/subscribe', req.params));
    return {};
  });
  mcp.server.setRequestHandler(looseRequest('resources/unsubscribe'), async (req) => {
    await live.unsubscribe(uriParam('resources/unsubscribe', req.params));
    return {};
  });
}

function looseRequest<M extends string>(method: M) {
  return z.object({ method: z.literal(method), params: z.unknown().optional() });
}

function describeValue(v: unknown): string {
  return v === null ? 'null' : Array.isArray(v) ? 'an array' : typeof v;
}

function uriParam(method: string, params: unknown): string {
  const uri = typeof params === 'object' && params !== null ? (params as { uri?: unknown }).uri : undefined;
  if (typeof uri !== 'string') {
    throw invalidParams(`${method} needs params.uri, a resource URI string; got ${params === undefined ? 'no params' : `params.uri of type ${describeValue(uri)}`}.`);
  }
  return uri;
}

function optionalCursor(method: string, params: unknown): void {
  const cursor = typeof params === 'object' && params !== null ? (params as { cursor?: unknown }).cursor : undefined;
  if (cursor !== undefined && typeof cursor !== 'string') throw invalidParams(`${method}: params.cursor must be a string; got ${describeValue(cursor)}.`);
}

function registerTools(mcp: McpServer, backend: McpBackend, live: LiveResources, poller: PollTracker, logger: Logger): void {
  const path = z.string().min(1).max(1024);

  mcp.registerTool(
    'context_suggest',
    {
      title: 'Suggest context',
      description:
        'Ranked context for a file, line or symbol: decisions that govern it, recent changes, files that usually change with it, ' +
        'callers, docs and warnings, each with the reason it is shown. Give at least a file or a symbol.',
      inputSchema: {
        file: path.optional().describe('Workspace file, relative to the root (absolute paths inside the root are accepted).'),
        line: z.number().int().min(1).optional().describe('1-based line of the cursor in the file.'),
        symbol: z.string().min(1).max(256).optional().describe('Symbol under the cursor.'),
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async ({ file, line, symbol }) => {
      if (file === undefined && symbol === undefined) throw new Error('Give a file, a symbol, or both.');
      if (line !== undefined && file === undefined) throw new Error('A line needs a file.');
      const rel = file === undefined ? undefined : workspacePathFromInput(file, backend.root);
      const suggestion = await backend.suggest({ file: rel, line, symbol });
      return result(formatSuggestion(suggestion), suggestion as unknown as Record<string, unknown>);
    },
  );

  mcp.registerTool(
    'context_subscribe',
    {
      title: 'Watch for context',
      description: 'Watch file globs, symbols or topics and get suggestions pushed when matching activity happens.',
      inputSchema: {
        patterns: z
          .array(
            z.object({
              type: z.enum(['file', 'symbol', 'topic']),
              pattern: z.string().min(1).max(512),
              priority: z.number().int().min(0).max(100).optional(),
            }),
          )
          .min(1)
          .max(50),
        minRelevanceScore: z.number().min(0).max(1).optional(),
        maxSuggestionsPerTrigger: z.number().int().min(1).max(50).optional(),
        cooldownMs: z.number().int().min(0).max(86_400_000).optional(),
      },
    },
    async (input) => {
      const { id } = await backend.watch(input);
      return result(`Watching ${input.patterns.map((p) => `${p.type} ${p.pattern}`).join(', ')} (id ${id}).`, { id });
    },
  );

  mcp.registerTool(
    'subscribe_file',
    {
      title: 'Subscribe to a file',
      description:
        'Keep a workspace file, a line range of it, or its lines matching a regular expression available as fresh context. ' +
        'The content is served as the resource context://subscription/{id}. Subscribing again to the same target replaces it.',
      inputSchema: {
        path: path.describe('Workspace file, relative to the root.'),
        lines: z
          .object({ start: z.number().int().min(1), end: z.number().int().min(1) })
          .optional()
          .describe('1-based inclusive line range.'),
        pattern: z.string().min(1).max(512).optional().describe('Regular expression; only matching lines are kept.'),
      },
    },
    async ({ path: p, lines, pattern }) => {
      const target = workspacePathFromInput(p, backend.root);
      if (lines && lines.end < lines.start) throw new Error(`Line range ${lines.start}-${lines.end} ends before it starts.`);
      const kind = pattern !== undefined ? 'pattern' : lines ? 'lines' : 'file';
      const sub = await backend.subscribe({ kind, target, lines, pattern });
      await live.refreshList();
      return subscriptionResult(sub);
    },
  );

  mcp.registerTool(
    'subscribe_memory',
    {
      title: 'Subscribe to a memory search',
      description: 'Keep the results of a search over decisions, notes and past conversations available as fresh context.',
      inputSchema: { query: z.string().min(1).max(512).describe('What to search for.') },
    },
    async ({ query }) => {
      const sub = await backend.subscribe({ kind: 'memory', target: query });
      await live.refreshList();
      return subscriptionResult(sub);
    },
  );

  mcp.registerTool(
    'unsubscribe',
    {
      title: 'Unsubscribe',
      description: 'Remove one subscription by its id.',
      inputSchema: { id: z.string().min(1).max(128) },
      annotations: { destructiveHint: true, idempotentHint: true },
    },
    async ({ id }) => {
      await backend.unsubscribe(id);
      await live.refreshList();
      return result(`Removed subscription ${id}.`, { id, removed: true });
    },
  );

  mcp.registerTool(
    'unsubscribe_all',
    {
      title: 'Unsubscribe from everything',
      description: 'Remove every active subscription.',
      inputSchema: {},
      annotations: { destructiveHint: true, idempotentHint: true },
    },
    async () => {
      const removed = await backend.unsubscribeAll();
      await live.refreshList();
      return result(`Removed ${removed} subscription${removed === 1 ? '' : 's'}.`, { removed });
    },
  );

  mcp.registerTool(
    'list_subscriptions',
    {
      title: 'List subscriptions',
      description: 'Active subscriptions with their kind, target, resource URI and expiry.',
      inputSchema: {},
      annotations: { readOnlyHint: true },
    },
    async () => {
      const subs = await backend.listSubscriptions();
      const text = subs.length
        ? subs.map((s) => `${s.id}  ${describeSubscription(s)}  ${subscriptionUri(s.id)}  expires ${new Date(s.expiresAt).toISOString()}`).join('\n')
        : 'No active subscriptions.';
      return result(text, { subscriptions: subs.map((s) => ({ ...s, uri: subscriptionUri(s.id) })) });
    },
  );

  mcp.registerTool(
    'suggestion_feedback',
    {
      title: 'Suggestion feedback',
      description: 'Say whether a suggested item was useful (used) or not (dismissed); this tunes later rankings.',
      inputSchema: {
        suggestionId: z.string().min(1).max(128),
        itemIndex: z.number().int().min(0).describe('0-based index of the item in the suggestion.'),
        action: z.enum(['used', 'dismissed']),
      },
    },
    async ({ suggestionId, itemIndex, action }) => {
      await backend.feedback(suggestionId, itemIndex, action);
      return result(`Recorded ${action} for item ${itemIndex} of ${suggestionId}.`, { suggestionId, itemIndex, action });
    },
  );

  mcp.registerTool(
    'poll_updates',
    {
      title: 'Poll for resource changes',
      description:
        'For clients that do not use resources/subscribe: the resource URIs whose content changed since your previous poll ' +
        '(every listed resource, plus any URIs you pass, which are remembered for later polls). The first poll returns everything.',
      inputSchema: { uris: z.array(z.string().min(1).max(4096)).max(100).optional().describe('Extra resource URIs to track.') },
      annotations: { readOnlyHint: true },
    },
    async ({ uris }) => {
      const r = await poller.poll(uris);
      logger.trace(`mcp: poll found ${r.changed.length} changed`);
      const lines = [
        r.changed.length ? `Changed${r.firstPoll ? ' (first poll)' : ''}:\n${r.changed.join('\n')}` : 'Nothing changed.',
        ...(r.removed.length ? [`Removed:\n${r.removed.join('\n')}`] : []),
      ];
      return result(lines.join('\n'), { ...r });
    },
  );
}

function subscriptionResult(sub: SubscriptionInfo): CallToolResult {
  const uri = subscriptionUri(sub.id);
  return result(`Subscribed (${sub.id}): ${describeSubscription(sub)}. Read it at ${uri}.`, { ...sub, uri });
}

function result(text: string, structured: Record<string, unknown>): CallToolResult {
  return redactDeep({ content: [{ type: 'text', text }], structuredContent: structured }, 'text');
}

function formatSuggestion(s: ContextSuggestion): string {
  const file = s.query.currentFile && s.query.cursorPosition ? `${s.query.currentFile}:${s.query.cursorPosition.line}` : s.query.currentFile;
  const head = `Suggestion ${s.id} for ${[file, s.query.currentSymbol].filter(Boolean).join(' / ')} (${s.items.length} item${s.items.length === 1 ? '' : 's'}, ${Math.round(s.latencyMs)} ms)`;
  const items = s.items.map((it, i) => {
    const where = it.location.path ? ` — ${it.location.path}${it.location.line ? `:${it.location.line}` : ''}` : '';
    return `${i}. [${it.type}] ${it.title} (${it.relevanceScore.toFixed(2)})${where}\n   ${clip(it.summary, 300)}\n   why: ${it.reason}`;
  });
  const notes = s.notes?.length ? ['Notes: ' + s.notes.join('; ')] : [];
  return clip([head, ...items, ...notes].join('\n'), MAX_SUGGESTION_TEXT);
}

function clip(text: string, max: number): string {
  return text.length > max ? text.slice(0, max - 1) + '…' : text;
}
