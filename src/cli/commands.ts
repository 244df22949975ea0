import { existsSync, statSync, watch } from 'node:fs';
import { join, resolve, sep } from 'node:path';
import { runBench } from '../measure/bench/bench';
import { formatBench } from '../measure/bench/benchReport';
import { Engine } from '../core/engine';
import { runCochangeEval } from '../measure/eval/cochangeEval';
import { EngineBackend } from '../mcp/engineBackend';
import { runStdioServer } from '../mcp/server';
import { toRelative } from '../core/paths';
import { SUBSCRIPTION_KINDS, SubscriptionError, type SubscriptionKind } from '../core/subscriptions/registry';
import { renderForPrompt } from '../core/subscriptions/materializer';
import { SUGGESTION_TYPES, type ContextSuggestion, type SuggestionType } from '../core/types';
import { StderrLogger } from '../core/logger';
import { UsageError, type FlagSpec, type ParsedArgs } from './args';

export interface CliCommand {
  name: string;
  summary: string;
  usage: string;
  description: string;
  flags: Record<string, FlagSpec>;
  run(args: ParsedArgs): Promise<number>;
}

/** Opens the engine for --root (default: the current directory). */
export async function openEngine(args: ParsedArgs): Promise<Engine> {
  const root = resolve(String(args.flags.root ?? process.cwd()));
  if (!existsSync(root) || !statSync(root).isDirectory()) throw new UsageError(`--root ${root} is not a folder`);
  return Engine.open({
    root,
    stateDir: args.flags['state-dir'] as string | undefined,
    logger: new StderrLogger(Boolean(args.flags.verbose)),
  });
}

export function print(args: ParsedArgs, json: unknown, text: string): void {
  process.stdout.write(args.flags.json ? JSON.stringify(json, null, 2) + '\n' : text.endsWith('\n') ? text : text + '\n');
}

export function noPositionals(args: ParsedArgs): void {
  if (args.positionals.length) throw new UsageError(`unexpected argument '${args.positionals[0]}' for '${args.command}'`);
}

const index: CliCommand = {
  name: 'index',
  summary: 'build or refresh the index; prints its stats',
  usage: 'index --root R [--json]',
  description: 'Builds or refreshes the workspace index and prints the store statistics.',
  flags: {},
  async run(args) {
    noPositionals(args);
    const engine = await openEngine(args);
    try {
      const work = await engine.refreshAll();
      engine.store.flush();
      const stats = { root: engine.root, ...engine.store.stats(), ...work };
      print(
        args,
        stats,
        [
          `root        ${stats.root}`,
          `state dir   ${stats.stateDir}`,
          `schema      durable v${stats.schema.durable}, index v${stats.schema.index}`,
          `code        ${work.index.files} files (${work.index.parsed} parsed, ${work.index.skipped} unchanged), ${work.index.symbols} definitions, ${work.index.calls} calls, ${work.index.imports} imports in ${(work.index.ms / 1000).toFixed(2)} s${work.index.capped ? ` — capped at ${work.index.capped.limit} (${work.index.capped.reason})` : ''}`,
          ...work.sources.map((s) => `${s.name.padEnd(12)}${s.entries} entries from ${s.files} files`),
          `durable     ${stats.durableBytes} bytes`,
          `index db    ${stats.indexBytes} bytes`,
        ].join('\n'),
      );
      return 0;
    } finally {
      engine.dispose();
    }
  },
};

const suggest: CliCommand = {
  name: 'suggest',
  summary: 'ranked context for a file, line and symbol',
  usage: 'suggest --root R --file F [--line N] [--symbol S] [--json]',
  description: 'Prints the ranked suggestions (decisions, changes, co-change, callers, docs, warnings) for a file; --json prints one ContextSuggestion.',
  flags: {
    file: { type: 'string', value: 'F', description: 'file, relative to the root (or absolute inside it)' },
    line: { type: 'number', value: 'N', description: '1-based cursor line' },
    symbol: { type: 'string', value: 'S', description: 'symbol at the cursor (default: the definition around --line)' },
  },
  async run(args) {
    noPositionals(args);
    if (typeof args.flags.file !== 'string') throw new UsageError('suggest needs --file');
    const line = args.flags.line as number | undefined;
    if (line !== undefined && (!Number.isInteger(line) || line < 1)) throw new UsageError('--line must be a positive whole number');
    const engine = await openEngine(args);
    try {
      const rel = toRelative(engine.root, args.flags.file);
      if (rel === undefined || rel === '') throw new UsageError(`--file ${args.flags.file} is not inside ${engine.root}`);
      if (!existsSync(join(engine.root, rel))) throw new UsageError(`--file ${rel} does not exist in ${engine.root}`);
      await engine.refreshAll();
      const s = await engine.suggest({ currentFile: rel, cursorPosition: line ? { line, column: 1 } : undefined, currentSymbol: args.flags.symbol as string | undefined }, { trigger: 'manual' });
      print(args, s, renderSuggestion(s));
      return 0;
    } finally {
      engine.dispose();
    }
  },
};

const subscribe: CliCommand = {
  name: 'subscribe',
  summary: 'subscribe chat context to a file, lines, pattern, symbol or memory search',
  usage: 'subscribe --root R --kind file|lines|pattern|symbol|memory --target T [--lines a-b] [--pattern RE] [--replace-oldest]',
  description: 'Adds (or renews) a subscription; its current content goes into every @context chat turn and the MCP resources.',
  flags: {
    kind: { type: 'string', value: 'KIND', description: 'file, lines, pattern, symbol or memory' },
    target: { type: 'string', value: 'T', description: 'path (file, lines, pattern), path::name or name (symbol), or search text (memory)' },
    lines: { type: 'string', value: 'a-b', description: 'line range for --kind lines' },
    pattern: { type: 'string', value: 'RE', description: 'regular expression for --kind pattern' },
    'replace-oldest': { type: 'boolean', description: 'when the limit is reached, replace the oldest subscription' },
  },
  async run(args) {
    noPositionals(args);
    const kind = args.flags.kind;
    if (typeof kind !== 'string' || !SUBSCRIPTION_KINDS.includes(kind as SubscriptionKind)) throw new UsageError('--kind must be one of file, lines, pattern, symbol, memory');
    if (typeof args.flags.target !== 'string' || !args.flags.target.trim()) throw new UsageError('subscribe needs --target');
    let lines: { start: number; end: number } | undefined;
    if (args.flags.lines !== undefined) {
      const m = /^(\d+)(?:-(\d+))?$/.exec(String(args.flags.lines));
      if (!m) throw new UsageError(`--lines must look like 10-20, got '${args.flags.lines}'`);
      lines = { start: Number(m[1]), end: Number(m[2] ?? m[1]) };
    }
    if (kind === 'lines' && !lines) throw new UsageError('--kind lines needs --lines a-b');
    if (kind === 'pattern' && typeof args.flags.pattern !== 'string') throw new UsageError('--kind pattern needs --pattern RE');
    const engine = await openEngine(args);
    try {
      const target = kind === 'symbol' || kind === 'memory' ? args.flags.target : toRelative(engine.root, args.flags.target) ?? args.flags.target;
      const r = engine.subscriptions.subscribe({
        kind: kind as SubscriptionKind,
        target,
        lines,
        pattern: args.flags.pattern as string | undefined,
        replaceOldest: Boolean(args.flags['replace-oldest']),
      });
      print(args, r, `${r.renewed ? 'renewed' : 'subscribed'} ${r.subscription.id}  ${r.subscription.kind}  ${r.subscription.target}  (expires ${new Date(r.subscription.expiresAt).toISOString()})${r.replaced ? `\nreplaced ${r.replaced.id} ${r.replaced.target}` : ''}`);
      return 0;
    } catch (err) {
      if (err instanceof SubscriptionError && err.reason !== 'limit' && err.reason !== 'not_found') throw new UsageError(err.message);
      throw err;
    } finally {
      engine.dispose();
    }
  },
};

const unsubscribe: CliCommand = {
  name: 'unsubscribe',
  summary: 'remove a subscription by id, or all of them',
  usage: 'unsubscribe --root R (--id ID | --all)',
  description: 'Removes one subscription (by the id shown by `subscriptions`) or every subscription of the workspace.',
  flags: {
    id: { type: 'string', value: 'ID', description: 'subscription id' },
    all: { type: 'boolean', description: 'remove every subscription' },
  },
  async run(args) {
    noPositionals(args);
    const id = args.flags.id;
    if ((id === undefined) === !args.flags.all) throw new UsageError('unsubscribe needs exactly one of --id ID or --all');
    const engine = await openEngine(args);
    try {
      if (args.flags.all) {
        const n = engine.subscriptions.unsubscribeAll();
        print(args, { removed: n }, `removed ${n} subscription${n === 1 ? '' : 's'}`);
      } else {
        const s = engine.subscriptions.unsubscribe(String(id));
        print(args, { removed: 1, subscription: s }, `removed ${s.id} ${s.target}`);
      }
      return 0;
    } finally {
      engine.dispose();
    }
  },
};

const subscriptions: CliCommand = {
  name: 'subscriptions',
  summary: 'list active subscriptions',
  usage: 'subscriptions --root R [--json]',
  description: 'Lists the active subscriptions with their ids, targets and expiry.',
  flags: {},
  async run(args) {
    noPositionals(args);
    const engine = await openEngine(args);
    try {
      const list = engine.subscriptions.list();
      const text = list.length
        ? list.map((s) => `${s.id}  ${s.kind.padEnd(7)} ${s.target}  (expires ${new Date(s.expiresAt).toISOString()})`).join('\n')
        : 'no active subscriptions';
      print(args, list, text);
      return 0;
    } finally {
      engine.dispose();
    }
  },
};

const materialize: CliCommand = {
  name: 'materialize',
  summary: 'print the subscribed content a chat turn would get',
  usage: 'materialize --root R [--dry-run] [--json]',
  description: 'Resolves every active subscription to its current content, as the next @context turn would. --dry-run does not renew them or record their hashes.',
  flags: { 'dry-run': { type: 'boolean', description: 'do not renew or record hashes' } },
  async run(args) {
    noPositionals(args);
    const engine = await openEngine(args);
    try {
      const results = await engine.materializer.materialize({ record: !args.flags['dry-run'] });
      print(args, results, results.length ? renderForPrompt(results) : 'no active subscriptions');
      return 0;
    } finally {
      engine.dispose();
    }
  },
};

/** Feeds file changes under the root to the engine so its index stays current while serving. */
function watchWorkspace(engine: Engine, logger: StderrLogger): () => void {
  try {
    const watcher = watch(engine.root, { recursive: true }, (_event, name) => {
      if (!name) return;
      const rel = name.toString().split(sep).join('/');
      if (/(^|\/)node_modules(\/|$)/.test(rel) || (rel.startsWith('.git/') && !/^\.git\/(HEAD|refs\/|packed-refs)/.test(rel))) return;
      engine.fileChanged(rel, !existsSync(join(engine.root, rel)));
    });
    watcher.on('error', (err) => logger.warn(`File watching stopped: ${err.message}`));
    return () => watcher.close();
  } catch (err) {
    logger.warn(`Cannot watch ${engine.root} for changes (${(err as Error).message}); the index is refreshed when a client reads.`);
    return () => undefined;
  }
}

export function renderSuggestion(s: ContextSuggestion): string {
  const lines = [`${s.items.length} suggestion${s.items.length === 1 ? '' : 's'} for ${s.trigger.source} in ${s.latencyMs} ms`];
  for (const n of s.notes ?? []) lines.push(`note: ${n}`);
  for (const type of SUGGESTION_TYPES) {
    const items = s.items.filter((i) => i.type === type);
    if (!items.length) continue;
    lines.push('', `${TYPE_LABELS[type]}:`);
    for (const i of items) {
      const where = i.location.line ? `${i.location.path}:${i.location.line}` : i.location.path;
      lines.push(`  [${i.relevanceScore.toFixed(2)}] ${i.title}`, `         why: ${i.reason}`, `         at:  ${where}${i.location.commit ? ` (${i.location.commit.slice(0, 10)})` : ''}`);
    }
  }
  return lines.join('\n');
}

const TYPE_LABELS: Record<SuggestionType, string> = {
  decision: 'Decisions',
  warning: 'Warnings',
  change: 'Recent changes',
  cochange: 'Usually changes with',
  related_code: 'Callers',
  doc: 'Docs',
};

const mcp: CliCommand = {
  name: 'mcp',
  summary: 'serve the engine over MCP on stdio',
  usage: 'mcp --root R [--state-dir DIR] [--debounce MS]',
  description: 'Runs an MCP server (tools, resources and live resource subscriptions) on stdin/stdout for any MCP client. Logs go to stderr.',
  flags: { debounce: { type: 'number', value: 'MS', description: 'wait this long after a change before notifying subscribers (default 100)' } },
  async run(args) {
    noPositionals(args);
    const engine = await openEngine(args);
    try {
      // Serve at once; indexing and history mining continue in the background.
      void engine.startBackgroundWork().catch((err) => process.stderr.write(`[warn] background indexing failed: ${(err as Error).message}\n`));
      const logger = new StderrLogger(Boolean(args.flags.verbose));
      const stopWatching = watchWorkspace(engine, logger);
      engine.onDispose(stopWatching);
      const server = await runStdioServer(new EngineBackend(engine), logger, { debounceMs: args.flags.debounce as number | undefined });
      await server.closed;
      logger.info('mcp: client closed the connection');
      return 0;
    } finally {
      engine.dispose();
    }
  },
};

const evalCommand: CliCommand = {
  name: 'eval',
  summary: 'evaluate related-files ranking against git history (eval cochange)',
  usage: 'eval cochange --root R [--replay 300] [--window 2000] [--seed 42] [--json]',
  description:
    'Replays the last N commits that touch 2–20 source files; for each, one modified file is the query and the others are the answer, using only history before the commit and file contents at its parent. Reports recall@5, recall@10, MRR, hit@10 and latency for the related-files ranking and for a plain ROSE-style co-change baseline computed in the same run.',
  flags: {
    replay: { type: 'number', value: 'N', description: 'commits to replay (default 300)' },
    window: { type: 'number', value: 'N', description: 'commits before each one that the model learns from (default 2000)' },
    seed: { type: 'number', value: 'N', description: 'seed for choosing the query file (default 42)' },
  },
  async run(args) {
    if (args.positionals[0] !== 'cochange' || args.positionals.length > 1) throw new UsageError("eval needs the evaluation to run: 'eval cochange'");
    for (const f of ['replay', 'window'] as const) {
      const v = args.flags[f];
      if (v !== undefined && (!Number.isInteger(v) || (v as number) < 1)) throw new UsageError(`--${f} must be a positive whole number`);
    }
    const root = resolve(String(args.flags.root ?? process.cwd()));
    if (!existsSync(root) || !statSync(root).isDirectory()) throw new UsageError(`--root ${root} is not a folder`);
    const r = await runCochangeEval(
      root,
      { replay: args.flags.replay as number | undefined, window: args.flags.window as number | undefined, seed: args.flags.seed as number | undefined },
      new StderrLogger(Boolean(args.flags.verbose)),
    );
    const pct = (x: number) => x.toFixed(3);
    const text = [
      `queries ${r.queries}${r.head ? ` at ${r.head.slice(0, 12)}` : ''}${r.note ? ` (${r.note})` : ''}`,
      '',
      'ranking          recall@5  recall@10  MRR    hit@10',
      `related files    ${pct(r.recallAt5)}     ${pct(r.recallAt10)}      ${pct(r.mrr)}  ${pct(r.hitAt10)}`,
      `ROSE baseline    ${pct(r.baseline.recallAt5)}     ${pct(r.baseline.recallAt10)}      ${pct(r.baseline.mrr)}  ${pct(r.baseline.hitAt10)}`,
      '',
      `recall@10 ratio  ${r.baseline.recallAt10 > 0 ? (r.recallAt10 / r.baseline.recallAt10).toFixed(2) : 'n/a'}×`,
      `query latency    p50 ${r.latencyMs.p50} ms, p95 ${r.latencyMs.p95} ms`,
    ].join('\n');
    print(args, r, text);
    return r.queries > 0 ? 0 : 1;
  },
};

const bench: CliCommand = {
  name: 'bench',
  summary: 'measure indexing, updates and query latency on a folder',
  usage: 'bench --root R [--samples 200] [--seed 42] [--json]',
  description: 'Cold index and history mining, a warm start (a new engine to its first suggestion), single-file updates, callers / related-files / suggest latency (p50, p95) on sampled files, the slow second pass, peak memory and where it goes, in a temporary state directory.',
  flags: {
    samples: { type: 'number', value: 'N', description: 'files to sample for query latency (default 200)' },
    seed: { type: 'number', value: 'N', description: 'sampling seed (default 42)' },
  },
  async run(args) {
    noPositionals(args);
    const root = resolve(String(args.flags.root ?? process.cwd()));
    if (!existsSync(root) || !statSync(root).isDirectory()) throw new UsageError(`--root ${root} is not a folder`);
    const quiet = Boolean(args.flags.json);
    const r = await runBench(root, { samples: args.flags.samples as number | undefined, seed: args.flags.seed as number | undefined }, new StderrLogger(Boolean(args.flags.verbose)), (step) => quiet || process.stderr.write(`bench: ${step}…\n`));
    print(args, r, formatBench(r));
    return 0;
  },
};

export const commands: Record<string, CliCommand> = { index, suggest, subscribe, unsubscribe, subscriptions, materialize, eval: evalCommand, bench, mcp };
