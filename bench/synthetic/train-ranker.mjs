#!/usr/bin/env node
// Fits the logistic model of the related-files ranking on an older span of history, so that the
// eval on the newest commits stays held out:
//   node bench/synthetic/train-ranker.mjs --offset 300 --replay 300 ROOT [ROOT...]
// Prints the coefficients (intercept first) for RankingWeights.model.
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);
const { runCochangeEval } = require(join(here, '../../out/src/core/eval/cochangeEval.js'));
const { candidateFeatures, FEATURE_NAMES } = require(join(here, '../../out/src/core/cochange/relatedFiles.js'));

const args = process.argv.slice(2);
const opt = (name, def) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args.splice(i, 2)[1] : def;
};
const offset = Number(opt('offset', 300));
const replay = Number(opt('replay', 300));
const l2 = Number(opt('l2', 0.01));
const roots = args;
if (!roots.length) {
  process.stderr.write('usage: train-ranker.mjs [--offset 300] [--replay 300] ROOT...\n');
  process.exit(2);
}

const X = [];
const Y = [];
for (const root of roots) {
  await runCochangeEval(root, {
    replay,
    offset,
    seed: 7,
    inspect: (q) => {
      const truth = new Set(q.truth);
      // Each query weighs the same, however many candidates it has.
      const cands = candidateFeatures(q.query, { cochange: q.counts, imports: q.imports, files: q.files, now: q.now });
      for (const c of cands) {
        X.push(Array.from(c.x));
        Y.push(truth.has(c.path) ? 1 : 0);
      }
    },
  });
}
const d = FEATURE_NAMES.length;
const mean = new Array(d).fill(0);
const sd = new Array(d).fill(0);
for (const x of X) for (let j = 0; j < d; j++) mean[j] += x[j] / X.length;
for (const x of X) for (let j = 0; j < d; j++) sd[j] += (x[j] - mean[j]) ** 2 / X.length;
for (let j = 0; j < d; j++) sd[j] = Math.sqrt(sd[j]) || 1;
const Z = X.map((x) => x.map((v, j) => (v - mean[j]) / sd[j]));
let w = new Array(d + 1).fill(0);
const m = new Array(d + 1).fill(0);
const v = new Array(d + 1).fill(0);
const lr = 0.05;
for (let it = 1; it <= 400; it++) {
  const g = new Array(d + 1).fill(0);
  for (let i = 0; i < Z.length; i++) {
    let z = w[0];
    for (let j = 0; j < d; j++) z += w[j + 1] * Z[i][j];
    const p = 1 / (1 + Math.exp(-z));
    const e = p - Y[i];
    g[0] += e;
    for (let j = 0; j < d; j++) g[j + 1] += e * Z[i][j];
  }
  for (let j = 0; j <= d; j++) {
    g[j] = g[j] / Z.length + (j ? l2 * w[j] : 0);
    m[j] = 0.9 * m[j] + 0.1 * g[j];
    v[j] = 0.999 * v[j] + 0.001 * g[j] * g[j];
    w[j] -= (lr * (m[j] / (1 - 0.9 ** it))) / (Math.sqrt(v[j] / (1 - 0.999 ** it)) + 1e-8);
    // Every feature is evidence for a file, never against it: keeps the model monotone and explainable.
    if (j > 0 && w[j] < 0) w[j] = 0;
  }
}
// Back to raw feature space.
const raw = [w[0]];
for (let j = 0; j < d; j++) {
  raw.push(w[j + 1] / sd[j]);
  raw[0] -= (w[j + 1] * mean[j]) / sd[j];
}
process.stderr.write(`${X.length} candidates, ${Y.filter(Boolean).length} positive\n`);
FEATURE_NAMES.forEach((n, j) => process.stderr.write(`  ${n.padEnd(20)} ${raw[j + 1].toFixed(4)}\n`));
process.stdout.write(JSON.stringify(raw.map((x) => Math.round(x * 1e4) / 1e4)) + '\n');
