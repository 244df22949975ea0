#!/usr/bin/env node
// Where the code index's memory goes: RSS, JS heap and the two WebAssembly heaps (sql.js, tree-sitter)
// before and after a cold build, after a warm reopen from the saved cache, and the cache's own size.
//
//   npx tsc -p tsconfig.json
//   node --expose-gc bench/index/memory.mjs --root /path/to/repo [--json]
//
// WebAssembly memories only grow: their size after the build is the high-water mark the process keeps.
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { mb, memoryNow as snapshot } from './processMemory.mjs';

const require = createRequire(import.meta.url);
const here = dirname(fileURLToPath(import.meta.url));
const out = join(here, '..', '..', 'out', 'src', 'core');

const { Store } = require(join(out, 'store', 'store.js'));
const { CodeIndex } = require(join(out, 'index', 'codeIndex.js'));
const { one } = require(join(out, 'store', 'sqlite.js'));
const { defaultConfig, resolveConfig } = require(join(out, 'config.js'));

const { values: args } = parseArgs({ options: { root: { type: 'string' }, json: { type: 'boolean' } } });
const root = resolve(args.root ?? '.');
const config = resolveConfig({
  index: { ...defaultConfig.index, maxFiles: 200000, maxFileBytes: 1024 * 1024, timeBudgetMs: 600000 },
});

function dbFacts(db) {
  const n = (sql) => Number(Object.values(one(db, sql) ?? { n: 0 })[0]);
  return {
    pages: mb(n('PRAGMA page_count') * n('PRAGMA page_size')),
    free: mb(n('PRAGMA freelist_count') * n('PRAGMA page_size')),
    files: n('SELECT count(*) AS n FROM files'),
    symbols: n('SELECT count(*) AS n FROM symbols'),
    calls: n('SELECT count(*) AS n FROM calls'),
    callsToUndefinedNames: n('SELECT count(*) AS n FROM calls WHERE name NOT IN (SELECT name FROM symbols)'),
    imports: n('SELECT count(*) AS n FROM imports'),
  };
}

const report = { root, node: process.version, gcExposed: typeof globalThis.gc === 'function' };
report.start = snapshot();
const stateDir = mkdtempSync(join(tmpdir(), 'pc-bench-index-memory-'));
try {
  let store = await Store.open({ stateDir });
  report.storeOpen = snapshot();
  let index = new CodeIndex(store, root, config);
  const t0 = performance.now();
  let peak = 0;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
  const stats = await index.build();
  clearInterval(sampler);
  report.build = {
    files: stats.files,
    parsed: stats.parsed,
    ms: Math.round(performance.now() - t0),
    peakRss: mb(Math.max(peak, process.memoryUsage().rss)),
  };
  report.afterBuild = snapshot();
  report.db = dbFacts(store.index);
  // Any query of the import graph reads it into memory.
  index.importersOf('graph-probe.ts');
  report.afterGraph = snapshot();
  store.flush();
  report.savedBytes = mb(statSync(store.indexPath).size);
  store.dispose();
  index = undefined;
  store = undefined;
  report.afterDispose = snapshot();
  // Warm: a new store reads the saved cache; queries load the import graph.
  store = await Store.open({ stateDir });
  index = new CodeIndex(store, root, config);
  const warm = await index.build();
  report.warm = { parsed: warm.parsed, skipped: warm.skipped, ms: warm.ms };
  report.afterWarm = snapshot();
  store.dispose();
} finally {
  rmSync(stateDir, { recursive: true, force: true });
}

if (args.json) process.stdout.write(JSON.stringify(report, null, 2) + '\n');
else {
  const row = (label, s) =>
    console.log(
      `${label.padEnd(14)} rss ${s.rss} MB  heap ${s.heapUsed} MB  external ${s.external} MB  wasm [${s.wasm.join(', ')}] MB`,
    );
  console.log(
    `root ${root}: ${report.build.files} files (${report.build.parsed} parsed) in ${report.build.ms} ms, peak rss ${report.build.peakRss} MB`,
  );
  for (const k of ['start', 'storeOpen', 'afterBuild', 'afterGraph', 'afterDispose', 'afterWarm']) row(k, report[k]);
  console.log(
    `index db: ${report.db.pages} MB in pages (${report.db.free} MB free), saved file ${report.savedBytes} MB`,
  );
  console.log(
    `rows: ${report.db.files} files, ${report.db.symbols} symbols, ${report.db.calls} calls (${report.db.callsToUndefinedNames} to names defined nowhere), ${report.db.imports} imports`,
  );
}
