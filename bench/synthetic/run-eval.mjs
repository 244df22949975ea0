#!/usr/bin/env node
// Runs the co-change evaluation from the compiled engine (run `npx tsc -p tsconfig.json` first).
// node bench/synthetic/run-eval.mjs --root DIR [--replay 300] [--window 2000] [--seed 42] [--no-imports] [--json]
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);
const { runCochangeEval } = require(join(here, '../../out/src/measure/eval/cochangeEval.js'));
const { StderrLogger } = require(join(here, '../../out/src/core/logger.js'));

const args = process.argv.slice(2);
const opt = (name, def) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : def;
};
const root = opt('root');
if (!root) {
  process.stderr.write(
    'usage: run-eval.mjs --root DIR [--replay N] [--window N] [--seed N] [--offset N] [--weights JSON] [--no-imports] [--json]\n',
  );
  process.exit(2);
}
const t0 = Date.now();
const result = await runCochangeEval(
  root,
  {
    replay: Number(opt('replay', 300)),
    window: Number(opt('window', 2000)),
    seed: Number(opt('seed', 42)),
    offset: Number(opt('offset', 0)),
    noImports: args.includes('--no-imports'),
    noBroad: args.includes('--no-broad'),
    weights: opt('weights')
      ? {
          ...require(join(here, '../../out/src/core/cochange/relatedFiles.js')).DEFAULT_WEIGHTS,
          ...JSON.parse(opt('weights')),
        }
      : undefined,
  },
  new StderrLogger(args.includes('--verbose')),
);
if (args.includes('--json')) process.stdout.write(JSON.stringify(result) + '\n');
else {
  const b = result.baseline;
  const ratio = b.recallAt10 ? (result.recallAt10 / b.recallAt10).toFixed(2) : 'n/a';
  process.stdout.write(
    `repo ${root} head ${result.head}\nqueries ${result.queries}  (${Date.now() - t0} ms total)\n` +
      `ranking  r@5 ${result.recallAt5}  r@10 ${result.recallAt10}  mrr ${result.mrr}  hit@10 ${result.hitAt10}  latency p50 ${result.latencyMs.p50} ms p95 ${result.latencyMs.p95} ms\n` +
      `ROSE     r@5 ${b.recallAt5}  r@10 ${b.recallAt10}  mrr ${b.mrr}  hit@10 ${b.hitAt10}\n` +
      `ROSE/filt r@5 ${result.baselineFiltered.recallAt5}  r@10 ${result.baselineFiltered.recallAt10}  mrr ${result.baselineFiltered.mrr}  hit@10 ${result.baselineFiltered.hitAt10}\n` +
      `recall@10 ratio ${ratio} (vs filtered ${(result.recallAt10 / result.baselineFiltered.recallAt10).toFixed(2)})\n`,
  );
}
