#!/usr/bin/env node
// Mines the co-change model of a repository into a fresh store and times queries:
//   node bench/synthetic/bench-model.mjs --root DIR   (after `npx tsc -p tsconfig.json`)
import { createRequire } from 'node:module';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';

const here = dirname(fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);
const { Store } = require(join(here, '../../out/src/core/store/store.js'));
const { CoChangeModel } = require(join(here, '../../out/src/core/cochange/cochangeModel.js'));
const { relatedFiles } = require(join(here, '../../out/src/core/cochange/relatedFiles.js'));

const i = process.argv.indexOf('--root');
const root = i > 0 ? process.argv[i + 1] : undefined;
if (!root) {
  process.stderr.write('usage: bench-model.mjs --root DIR\n');
  process.exit(2);
}
const stateDir = mkdtempSync(join(tmpdir(), 'pc-bench-'));
try {
  const store = await Store.open({ stateDir });
  const model = new CoChangeModel({ root, store });
  const rss0 = process.memoryUsage().rss;
  const mined = await model.update();
  const t1 = performance.now();
  store.flush();
  const flushMs = performance.now() - t1;
  store.dispose();
  const store2 = await Store.open({ stateDir });
  const t2 = performance.now();
  const reloaded = new CoChangeModel({ root, store: store2 });
  const commits = reloaded.commitCount;
  const loadMs = performance.now() - t2;
  const files = require('node:child_process')
    .execFileSync('git', ['ls-tree', '-r', '--name-only', 'HEAD'], { cwd: root, encoding: 'utf8' })
    .split('\n')
    .filter(Boolean);
  const lat = [];
  for (let k = 0; k < 500; k++) {
    const f = files[(k * 7919) % files.length];
    const s = performance.now();
    relatedFiles(f, { cochange: reloaded, now: Date.now() }, 10);
    lat.push(performance.now() - s);
  }
  lat.sort((a, b) => a - b);
  const upd = await reloaded.update();
  process.stdout.write(
    JSON.stringify({
      root,
      mine: mined,
      countedCommits: commits,
      flushMs: Math.round(flushMs),
      reloadMs: Math.round(loadMs),
      secondUpdate: upd.mode,
      indexBytes: store2.stats().indexBytes,
      rssDeltaMb: Math.round((process.memoryUsage().rss - rss0) / 1e6),
      relatedFilesMs: { p50: +lat[250].toFixed(3), p95: +lat[475].toFixed(3), max: +lat[499].toFixed(3) },
    }) + '\n',
  );
  store2.dispose();
} finally {
  rmSync(stateDir, { recursive: true, force: true });
}
