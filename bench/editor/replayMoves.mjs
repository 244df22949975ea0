#!/usr/bin/env node
// The cursor moves of a `bench:editor` run, replayed against the engine in one Node process: the
// engine's own time per stop (first answer, then its enrichment), without the editor around it. A
// faster loop than the editor for work on the engine; compile first (`npx tsc -p tsconfig.json`).
//
//   node bench/editor/replayMoves.mjs --root REPO --results editor-….json [--state-dir DIR]
//        [--rounds 2] [--compiled out] [--items FILE.json]
//
// Round 1 is the first visit of each function (after the cold open); later rounds visit them again
// while the index stays the same. --items writes each stop's items (round 1), to compare two builds;
// a later round whose items differ from round 1 is reported.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { openIndex, symbolAtLine } from './targets.mjs';

const { values } = parseArgs({
  options: {
    root: { type: 'string' },
    results: { type: 'string' },
    'state-dir': { type: 'string' },
    rounds: { type: 'string', default: '2' },
    compiled: { type: 'string', default: 'out' },
    items: { type: 'string' },
  },
});
if (!values.root || !values.results) {
  process.stderr.write('usage: replayMoves.mjs --root REPO --results editor-….json [--state-dir DIR] [--rounds N]\n');
  process.exit(2);
}
const root = path.resolve(values.root);
const stateDir = values['state-dir']
  ? path.resolve(values['state-dir'])
  : fs.mkdtempSync(path.join(os.tmpdir(), 'pc-replay-'));
const samples = JSON.parse(fs.readFileSync(values.results, 'utf8')).runs?.[0]?.moves?.samples;
if (!samples?.length) {
  process.stderr.write(`${values.results}: no moves in it\n`);
  process.exit(2);
}
const { ContextService } = await import(path.resolve(values.compiled, 'src/core/api/contextService.js'));
const quiet = { trace() {}, debug() {}, info() {}, warn() {}, error() {} };

const t0 = performance.now();
const service = await ContextService.open({ root, stateDir, logger: quiet });
await service.workspace.refreshAll();
process.stdout.write(`opened and indexed in ${Math.round(performance.now() - t0)} ms\n`);
const index = await openIndex(stateDir);

const pct = (v, p) => [...v].sort((a, b) => a - b)[Math.min(v.length - 1, Math.floor((p / 100) * v.length))];
const fmt = (v) => `p50 ${pct(v, 50).toFixed(1)} / p95 ${pct(v, 95).toFixed(1)} / max ${Math.max(...v).toFixed(1)} ms`;
const first = [];
for (let round = 1; round <= Number(values.rounds); round++) {
  const engine = [];
  const enrich = [];
  for (const [i, s] of samples.entries()) {
    const span = symbolAtLine(index, s.path, s.line);
    const place = {
      file: s.path,
      line: s.line,
      column: 1,
      symbol: span && { name: span.name, startLine: span.startLine, endLine: span.endLine },
    };
    const a = performance.now();
    const answer = await service.suggestions.suggestAt(place, {});
    const b = performance.now();
    const enriched = (await service.suggestions.enrich(answer, {})) ?? answer;
    enrich.push(performance.now() - b);
    engine.push(b - a);
    const items = enriched.items.map((it) => [it.type, it.entityId, it.title, Math.round(it.relevanceScore * 1000)]);
    if (round === 1) first.push({ path: s.path, line: s.line, items });
    else if (JSON.stringify(first[i].items) !== JSON.stringify(items))
      process.stdout.write(`round ${round}: other items at ${s.path}:${s.line}\n`);
  }
  const sum = engine.reduce((x, y) => x + y, 0);
  const slowest = engine
    .map((ms, i) => ({ ms, at: `${samples[i].path}:${samples[i].line}` }))
    .sort((x, y) => y.ms - x.ms)
    .slice(0, 3)
    .map((x) => `${x.at} ${Math.round(x.ms)} ms`);
  process.stdout.write(
    `round ${round}: first answer ${fmt(engine)} (sum ${Math.round(sum)} ms); enrichment ${fmt(enrich)}\n` +
      `  slowest: ${slowest.join(', ')}\n`,
  );
}
if (values.items) fs.writeFileSync(values.items, JSON.stringify(first, null, 1));
index.close();
service.dispose();
