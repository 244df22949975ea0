#!/usr/bin/env node
// What the engine keeps in memory once a workspace is open, in one Node process: a cold open (empty
// state directory, code index and history built), then suggestions asked for a few files, then a
// full GC. It prints RSS, the JS heap, the WebAssembly heaps (sql.js, tree-sitter), and with
// --snapshot the JS heap retained by each of the engine's classes, read from a V8 heap snapshot.
//
//   npx tsc -p tsconfig.json
//   node --expose-gc bench/index/heap.mjs --root /path/to/repo [--snapshot /tmp/x.heapsnapshot] [--json]
//
// "Retained by Foo" is what a GC would free if every Foo were gone: all that only Foo objects reach.
// Components overlap (the ContextService retains nearly all), so the rows do not add up.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import v8 from 'node:v8';
import { retainedByName } from './heapSnapshot.mjs';
import { mb, memoryNow } from './processMemory.mjs';

const require = createRequire(import.meta.url);
const here = dirname(fileURLToPath(import.meta.url));
const out = join(here, '..', '..', 'out', 'src', 'core');

const { ContextService } = require(join(out, 'api', 'contextService.js'));

const { values: args } = parseArgs({
  options: {
    root: { type: 'string' },
    snapshot: { type: 'string' },
    asks: { type: 'string', default: '12' },
    'in-process': { type: 'boolean', default: false },
    json: { type: 'boolean', default: false },
  },
});
if (!args.root) {
  process.stderr.write('usage: heap.mjs --root REPO [--snapshot FILE] [--asks N] [--in-process] [--json]\n');
  process.exit(2);
}
const root = resolve(args.root);
const measure = () => ({ ...memoryNow(), mallocedPeak: mb(v8.getHeapStatistics().peak_malloced_memory) });

const report = { root, node: process.version, gcExposed: typeof globalThis.gc === 'function' };
report.start = measure();
const stateDir = mkdtempSync(join(tmpdir(), 'pc-bench-heap-'));
try {
  const service = await ContextService.open({
    root,
    stateDir,
    ...(args['in-process'] ? { config: { index: { workers: 0 } } } : {}),
  });
  report.opened = measure();
  const t0 = performance.now();
  // The JS heap stays committed at its peak: when the peak came, and in which phase, says what to cut.
  let phase = 'start';
  service.workspace.onDidChangeIndexing((p) => (phase = p ? (p.commits ? 'index+history' : 'index') : 'idle'));
  let peak = 0;
  let peakHeap = { mb: 0 };
  const sampler = setInterval(() => {
    const m = process.memoryUsage();
    peak = Math.max(peak, m.rss);
    if (m.heapUsed > peakHeap.mb * 1048576)
      peakHeap = { mb: mb(m.heapUsed), atMs: Math.round(performance.now() - t0), phase };
  }, 50);
  await service.workspace.startBackgroundWork();
  clearInterval(sampler);
  report.backgroundMs = Math.round(performance.now() - t0);
  report.peakRss = mb(peak);
  report.peakHeap = peakHeap;
  report.indexed = measure();
  // Suggestions for the most recently changed files: what a user opens first.
  const log = execFileSync('git', ['-C', root, 'log', '-n', '200', '--name-only', '--format='], { encoding: 'utf8' });
  const files = [...new Set(log.split('\n'))].filter(
    (p) => /\.(ts|tsx|js|py|go|java|rb)$/.test(p) && existsSync(join(root, p)),
  );
  report.asked = [];
  for (const file of files.slice(0, Number(args.asks))) {
    const s = await service.suggestions.suggestAt({ file, line: 1 }, { limit: 40 });
    service.workspace.relatedFiles(file);
    report.asked.push({ file, items: s.items.length });
  }
  // Parse workers stop after 5 s idle; wait for that, as the extension host would.
  await new Promise((r) => setTimeout(r, 6000));
  report.afterAsks = measure();
  if (args.snapshot) {
    v8.writeHeapSnapshot(args.snapshot);
    report.snapshot = args.snapshot;
  }
  service.dispose();
  report.disposed = measure();
} finally {
  rmSync(stateDir, { recursive: true, force: true });
}
if (args.snapshot) report.retained = retainedByName(args.snapshot, { topTypes: 25 });

if (args.json) process.stdout.write(JSON.stringify(report, null, 2) + '\n');
else {
  const row = (label, s) =>
    console.log(
      `${label.padEnd(10)} rss ${s.rss} MB  heap ${s.heapUsed}/${s.heapTotal} MB  external ${s.external} MB  arrayBuffers ${s.arrayBuffers} MB  wasm [${s.wasm.join(', ')}] MB`,
    );
  console.log(
    `root ${root}: background work ${report.backgroundMs} ms (peak rss ${report.peakRss} MB, peak heap ${report.peakHeap.mb} MB at ${report.peakHeap.atMs} ms in ${report.peakHeap.phase}), ${report.asked.length} files asked`,
  );
  for (const k of ['start', 'opened', 'indexed', 'afterAsks', 'disposed']) row(k, report[k]);
  if (report.retained) {
    console.log(`\nheap snapshot: ${report.retained.totalMb} MB in ${report.retained.nodes} objects`);
    console.log('retained by class (MB, count):');
    for (const r of report.retained.byClass)
      console.log(`  ${r.name.padEnd(28)} ${String(r.mb).padStart(7)}  ${r.count}`);
    console.log('self size by type (MB):');
    for (const r of report.retained.byType)
      console.log(`  ${r.name.padEnd(28)} ${String(r.mb).padStart(7)}  ${r.count}`);
  }
}
