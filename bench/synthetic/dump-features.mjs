#!/usr/bin/env node
// Writes the candidate features of an older span of history as JSON lines (one query a line), for
// fitting the ranking offline without touching the newest commits the eval reports on:
//   node bench/synthetic/dump-features.mjs --offset 300 --replay 900 ROOT > features.jsonl
// With --ceiling the newest commits may be dumped too (--offset 0 --seed 42: the queries `eval
// cochange` reports), to ask how far any model of these features could go there, by fitting one on
// the first half and scoring the second (train-trees.mjs --valid-from 150). Never ship such a fit.
import { engineModule, takeOption } from './common.mjs';
const { runCochangeEval } = engineModule('eval/cochangeEval');
const { candidateFeatures } = engineModule('cochange/relatedFiles');

const args = process.argv.slice(2);
const opt = (name, def) => takeOption(args, name, def);
const offset = Number(opt('offset', 300));
const replay = Number(opt('replay', 900));
const seed = Number(opt('seed', 7));
const ceiling = args.includes('--ceiling');
const [root] = args.filter((a) => a !== '--ceiling');
if (!root || (offset < 300 && !ceiling)) {
  process.stderr.write('usage: dump-features.mjs [--offset N>=300] [--replay 900] [--seed 7] [--ceiling] ROOT\n');
  process.exit(2);
}
let order = 0;
await runCochangeEval(root, {
  replay,
  offset,
  seed,
  inspect: (q) => {
    const truth = new Set(q.truth);
    const cands = candidateFeatures(q.query, {
      cochange: q.counts,
      broad: q.broad,
      imports: q.imports,
      files: q.files,
      terms: q.terms,
      now: q.now,
    });
    const rows = cands.map((c) => [...Array.from(c.x, (v) => Math.round(v * 1e5) / 1e5), truth.has(c.path) ? 1 : 0]);
    process.stdout.write(JSON.stringify({ order: order++, commit: q.commit, truth: q.truth.length, rows }) + '\n');
  },
});
