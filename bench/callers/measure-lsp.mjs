#!/usr/bin/env node
// Measures CodeIndex.callers against a language server's "find references", for languages other
// than TypeScript (which bench/callers/measure.mjs measures against the TypeScript language service).
//
//   npx tsc -p tsconfig.json
//   node bench/callers/measure-lsp.mjs --root /path/to/repo --lang php --server "node /path/to/intelephense/lib/intelephense.js --stdio" [--n 60] [--seed 42] [--json]
//
//   GOPROXY=off GOFLAGS=-mod=mod node bench/callers/measure-lsp.mjs --root /path/to/go-repo --lang go --server gopls --no-index-wait
//
//   node bench/callers/measure-lsp.mjs --root /path/to/py-repo --lang python --server "node /path/to/pyright/langserver.index.js --stdio" --no-index-wait --n 200
//   (pyright from npm; a checkout whose package sits in src/ needs {"extraPaths": ["src"]} in its pyrightconfig.json)
//
// Any server that speaks the Language Server Protocol over stdio works; it is started in --root.
// intelephense says when its index is built; for a server that does not (gopls), --no-index-wait
// lets a first workspace-wide request do the loading. LSP_STDERR=1 shows the server's stderr.
// Ground truth: for each sampled exported function or method (seeded hash of its name and place),
// the server's references at its name, kept when the name is called there (followed by `(`) and
// outside the definition itself. Precision and recall are micro-averaged over the sample.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { confidenceSets, stableSample, tally } from './shared.mjs';

const require = createRequire(import.meta.url);
const here = dirname(fileURLToPath(import.meta.url));
const out = join(here, '..', '..', 'out', 'src', 'core');
const { Store } = require(join(out, 'store', 'store.js'));
const { CodeIndex } = require(join(out, 'index', 'codeIndex.js'));
const { all } = require(join(out, 'store', 'sqlite.js'));
const { defaultConfig } = require(join(out, 'config.js'));

const args = parseArgs(process.argv.slice(2));
if (!args.root || !args.lang || !args.server) {
  console.error(
    'usage: node bench/callers/measure-lsp.mjs --root R --lang php|go|... --server "CMD ARGS" [--no-index-wait] [--n 60] [--seed 42] [--json]',
  );
  process.exit(2);
}
const root = resolve(args.root);
const lang = String(args.lang);
const sampleSize = Number(args.n ?? 60);
const linesByPath = new Map();
const seed = Number(args.seed ?? 42);

// ---------------------------------------------------------------- index
const stateDir = mkdtempSync(join(tmpdir(), 'pc-bench-lsp-'));
const serverStorage = mkdtempSync(join(tmpdir(), 'pc-bench-lsp-server-'));
const store = await Store.open({ stateDir });
const index = new CodeIndex(store, root, defaultConfig);
const built = await index.build();
const population = all(
  store.index,
  "SELECT f.path AS path, s.name AS name, s.kind AS kind, s.start_line AS start_line, s.container AS container FROM symbols s JOIN files f ON f.id = s.file WHERE f.lang = ? AND s.exported > 0 AND s.kind IN ('function', 'method') ORDER BY f.path, s.start_line",
  [lang],
).filter((s) => !s.name.startsWith('__') && !/(^|\/)(tests?|spec)\//i.test(s.path));
const sample = stableSample(population, sampleSize, seed);

// ---------------------------------------------------------------- language server
const [cmd, ...cmdArgs] = String(args.server).split(' ').filter(Boolean);
const server = spawn(cmd, cmdArgs, {
  cwd: root,
  stdio: ['pipe', 'pipe', process.env.LSP_STDERR ? 'inherit' : 'ignore'],
});
const lsp = new LspClient(server);
const indexed = args['no-index-wait']
  ? Promise.resolve()
  : lsp.waitForNotification((m) => m.method === 'indexingEnded', 600_000);
await lsp.request('initialize', {
  processId: process.pid,
  rootUri: pathToFileURL(root).href,
  workspaceFolders: [{ uri: pathToFileURL(root).href, name: 'root' }],
  capabilities: { textDocument: { references: {} }, workspace: { workspaceFolders: true } },
  initializationOptions: { storagePath: serverStorage, clearCache: true },
});
lsp.notify('initialized', {});
const serverStart = performance.now();
await indexed.catch(() => undefined);
// A server without an indexing notice loads the workspace on the first request that needs all of it.
if (args['no-index-wait']) await lsp.request('workspace/symbol', { query: sample[0]?.name ?? '' });
const serverIndexMs = performance.now() - serverStart;

const totals = {
  all: { tp: 0, fp: 0, fn: 0 },
  resolvedLikely: { tp: 0, fp: 0, fn: 0 },
  resolved: { tp: 0, fp: 0, fn: 0 },
};
const perSymbol = [];
let truthCalls = 0;
for (const s of sample) {
  const text = readFileSync(join(root, s.path), 'utf8');
  const lines = text.split('\n');
  const line = lines[s.start_line - 1] ?? '';
  const col = line.search(new RegExp(`\\b${escape(s.name)}\\b`));
  if (col < 0) continue;
  const uri = pathToFileURL(join(root, s.path)).href;
  lsp.notify('textDocument/didOpen', { textDocument: { uri, languageId: lang, version: 1, text } });
  const refs =
    (await lsp.request('textDocument/references', {
      textDocument: { uri },
      position: { line: s.start_line - 1, character: col },
      context: { includeDeclaration: false },
    })) ?? [];
  lsp.notify('textDocument/didClose', { textDocument: { uri } });
  const truth = new Set();
  for (const r of refs) {
    const file = fileURLToPath(r.uri);
    // References in the standard library or a dependency's sources are no workspace callers.
    if (!file.startsWith(root + sep)) continue;
    const path = file
      .slice(root.length + 1)
      .split('\\')
      .join('/');
    const refLine = r.range.start.line + 1;
    if (path === s.path && refLine === s.start_line) continue;
    const lineText = fileLines(path)[r.range.start.line] ?? '';
    if (!/^\s*\(/.test(lineText.slice(r.range.end.character))) continue;
    // A definition is no call: a property's setter (`def name(`), an overload, a Go method of that name.
    if (/\b(def|func|function|fn)\s+$/.test(lineText.slice(0, r.range.start.character))) continue;
    truth.add(`${path}:${refLine}:${r.range.start.character + 1}`);
  }
  truthCalls += truth.size;
  const got = index.callers({ name: s.name, path: s.path, line: s.start_line }, 10000);
  const sets = confidenceSets(got, (c) => `${c.path}:${c.line}:${c.column}`);
  const tps = tally(totals, sets, truth);
  const row = {
    symbol: `${s.path}:${s.start_line} ${s.container ? s.container + '.' : ''}${s.name}`,
    truth: truth.size,
  };
  for (const [k, set] of Object.entries(sets)) {
    row[k] = {
      found: set.size,
      tp: tps[k],
      missed: [...truth].filter((x) => !set.has(x)).slice(0, 5),
      extra: [...set].filter((x) => !truth.has(x)).slice(0, 5),
    };
  }
  perSymbol.push(row);
}
await lsp.request('shutdown', null).catch(() => undefined);
lsp.notify('exit', null);
server.kill();
store.dispose();
for (const dir of [stateDir, serverStorage]) rmSync(dir, { recursive: true, force: true });

const pr = (t) => ({
  precision: round(t.tp / Math.max(1, t.tp + t.fp)),
  recall: round(t.tp / Math.max(1, t.tp + t.fn)),
  ...t,
});
const result = {
  root,
  lang,
  files: built.files,
  sampled: perSymbol.length,
  truthCalls,
  serverIndexMs: Math.round(serverIndexMs),
  all: pr(totals.all),
  resolvedLikely: pr(totals.resolvedLikely),
  resolved: pr(totals.resolved),
  perSymbol: args.json ? perSymbol : undefined,
};
if (args.json) console.log(JSON.stringify(result, null, 2));
else {
  console.log(`${lang} callers vs the language server on ${root}: ${result.sampled} symbols, ${truthCalls} call sites`);
  for (const k of ['resolvedLikely', 'resolved', 'all'])
    console.log(`  ${k.padEnd(15)} precision ${result[k].precision}  recall ${result[k].recall}`);
}

// ---------------------------------------------------------------- helpers

function fileLines(path) {
  let lines = linesByPath.get(path);
  if (!lines) linesByPath.set(path, (lines = readFileSync(join(root, path), 'utf8').split('\n')));
  return lines;
}

/** A minimal JSON-RPC client over an LSP server's stdio (Content-Length framing). */
function LspClient(child) {
  let buffer = Buffer.alloc(0);
  let nextId = 1;
  const pending = new Map();
  const watchers = [];
  child.stdout.on('data', (chunk) => {
    buffer = Buffer.concat([buffer, chunk]);
    for (;;) {
      const headerEnd = buffer.indexOf('\r\n\r\n');
      if (headerEnd < 0) return;
      const length = Number(/Content-Length: (\d+)/i.exec(buffer.subarray(0, headerEnd).toString())?.[1] ?? 0);
      if (buffer.length < headerEnd + 4 + length) return;
      const message = JSON.parse(buffer.subarray(headerEnd + 4, headerEnd + 4 + length).toString());
      buffer = buffer.subarray(headerEnd + 4 + length);
      if (message.id !== undefined && pending.has(message.id) && message.method === undefined) {
        const { resolve: ok, reject } = pending.get(message.id);
        pending.delete(message.id);
        if (message.error) reject(new Error(message.error.message));
        else ok(message.result);
      } else if (message.id !== undefined && message.method) {
        // A request from the server (configuration, progress tokens): answer with nothing.
        send({ jsonrpc: '2.0', id: message.id, result: null });
      } else {
        for (const w of [...watchers]) if (w.accept(message)) w.done(message);
      }
    }
  });
  child.on('exit', (code) => {
    for (const { reject } of pending.values()) reject(new Error(`the language server exited (${code})`));
    pending.clear();
  });
  const send = (m) => {
    const body = Buffer.from(JSON.stringify(m));
    child.stdin.write(`Content-Length: ${body.length}\r\n\r\n`);
    child.stdin.write(body);
  };
  return {
    request(method, params) {
      const id = nextId++;
      send({ jsonrpc: '2.0', id, method, params });
      return new Promise((ok, reject) => pending.set(id, { resolve: ok, reject }));
    },
    notify(method, params) {
      send({ jsonrpc: '2.0', method, params });
    },
    waitForNotification(accept, timeoutMs) {
      return new Promise((ok, reject) => {
        const w = { accept, done: (m) => (clearTimeout(timer), watchers.splice(watchers.indexOf(w), 1), ok(m)) };
        const timer = setTimeout(
          () => (watchers.splice(watchers.indexOf(w), 1), reject(new Error('timed out'))),
          timeoutMs,
        );
        watchers.push(w);
      });
    },
  };
}

function escape(s) {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function round(x) {
  return Math.round(x * 100) / 100;
}

function parseArgs(argv) {
  const a = {};
  for (let i = 0; i < argv.length; i++) {
    if (!argv[i].startsWith('--')) continue;
    const k = argv[i].slice(2);
    if (i + 1 < argv.length && !argv[i + 1].startsWith('--')) a[k] = argv[++i];
    else a[k] = true;
  }
  return a;
}
