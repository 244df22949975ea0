#!/usr/bin/env node
// A cold open as the extension host lives it, in one Node process: the workspace is opened with an
// empty state directory, the background work starts (sources, code index, history), and the
// suggestions for one active file are asked again each time the engine says its data changed. It
// reports when each kind of item first came, when the index and the history were complete, and
// every event-loop block over --block-ms (a proxy for the extension host's responsiveness).
//
//   npx tsc -p tsconfig.json
//   node bench/index/coldOpen.mjs --root /path/to/repo --file src/some/file.ts [--line N] [--json]
//       [--in-process]   parse and mine on this thread (the old path), to compare
//       [--snapshot FILE] open from a team index snapshot (then only catch up from its commit)
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const require = createRequire(import.meta.url);
const here = dirname(fileURLToPath(import.meta.url));
const out = join(here, '..', '..', 'out', 'src', 'core');
const { ContextService } = require(join(out, 'api', 'contextService.js'));

const { values } = parseArgs({
  options: {
    root: { type: 'string' },
    file: { type: 'string' },
    line: { type: 'string', default: '1' },
    'block-ms': { type: 'string', default: '50' },
    'in-process': { type: 'boolean', default: false },
    snapshot: { type: 'string' },
    verbose: { type: 'boolean', default: false },
    json: { type: 'boolean', default: false },
  },
});
if (!values.root || !values.file) {
  process.stderr.write('usage: coldOpen.mjs --root REPO --file PATH [--line N] [--in-process] [--json]\n');
  process.exit(2);
}

const t0 = performance.now();
// The same instant on the monotonic clock of CPU profiles (`node --cpu-prof`), to find a block's samples.
const profileStartUs = Number(process.hrtime.bigint() / 1000n);
const since = () => Math.round(performance.now() - t0);
let phase = 'open';
const blocks = [];
const blockMs = Number(values['block-ms']);
// A timer that should fire every 5 ms: a later tick means the loop was held that long.
let last = performance.now();
const ticker = setInterval(() => {
  const now = performance.now();
  const gap = now - last - 5;
  if (gap > blockMs) blocks.push({ at: since(), ms: Math.round(gap), phase });
  last = now;
}, 5);
const histogram = monitorEventLoopDelay({ resolution: 10 });
histogram.enable();

function timedLogger() {
  const say = (level) => (message) => process.stderr.write(`${since()} ${level} ${message}\n`);
  return { trace() {}, debug() {}, info: say('info'), warn: say('warn'), error: say('error') };
}

const stateDir = mkdtempSync(join(tmpdir(), 'pc-coldopen-'));
const service = await ContextService.open({
  root: resolve(values.root),
  stateDir,
  ...(values.verbose ? { logger: timedLogger() } : {}),
  ...(values['in-process'] ? { config: { index: { workers: 0 } } } : {}),
  ...(values.snapshot ? { snapshot: { location: resolve(values.snapshot) } } : {}),
});
const opened = since();
const first = {};
let asking = false;
let again = false;
const ask = async () => {
  if (asking) {
    again = true;
    return;
  }
  asking = true;
  try {
    do {
      again = false;
      const s = await service.suggestions.suggestAt({ file: values.file, line: Number(values.line) }, { limit: 40 });
      for (const item of s.items) first[item.type] ??= since();
    } while (again);
  } finally {
    asking = false;
  }
};
service.workspace.onDidChangeWorkspaceData(() => void ask());
let sawIndexing = false;
service.workspace.onDidChangeIndexing((p) => {
  if (p) sawIndexing = true;
  phase = p ? (p.commits ? `index+history` : 'index') : 'idle';
});
phase = 'background';
await service.workspace.startBackgroundWork();
const complete = since();
await ask();
// A pass asked by the last data event may still run: the store must stay open until it ends.
while (asking) await new Promise((r) => setTimeout(r, 20));
clearInterval(ticker);
histogram.disable();
const mem = process.memoryUsage();
service.dispose();
rmSync(stateDir, { recursive: true, force: true });

const report = {
  root: values.root,
  mode: values['in-process'] ? 'in-process' : 'workers',
  ...(values.snapshot ? { snapshot: values.snapshot } : {}),
  openedMs: opened,
  firstItemMs: first,
  completeMs: complete,
  sawIndexing,
  loopDelay: {
    p50: Math.round(histogram.percentile(50) / 1e6),
    p99: Math.round(histogram.percentile(99) / 1e6),
    max: Math.round(histogram.max / 1e6),
  },
  profileStartUs,
  blocksOver: blockMs,
  blocks: blocks.length,
  longestBlocks: [...blocks].sort((a, b) => b.ms - a.ms).slice(0, 8),
  allBlocks: blocks,
  rssMb: Math.round(mem.rss / 2 ** 20),
};
if (values.json) process.stdout.write(`${JSON.stringify(report)}\n`);
else process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
