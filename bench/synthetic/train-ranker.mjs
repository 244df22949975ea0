#!/usr/bin/env node
// Fits the logistic model of the related-files ranking on an older span of history, so that the
// eval on the newest commits stays held out:
//   node bench/synthetic/train-ranker.mjs --offset 300 --replay 300 [--with-change] ROOT [ROOT...]
// With --with-change each query is seen twice, as a path alone and with the words of its change,
// so that one model serves files with and without an uncommitted edit.
// Prints the coefficients (intercept first) for RankingWeights.model.
// With --only f1,f2 the model's other coefficients stay as they are (DEFAULT_WEIGHTS, padded with 0 for
// features it does not have yet) and only these are chosen, by a grid search for the best mean
// recall@10 over the repositories on the older span: a new feature joins without moving what the
// others already rank.
import { engineModule, takeFlag, takeOption } from './common.mjs';
const { runCochangeEval } = engineModule('eval/cochangeEval');
const { candidateFeatures, DEFAULT_WEIGHTS, FEATURE_NAMES } = engineModule('cochange/relatedFiles');
const { prng } = engineModule('random');

const args = process.argv.slice(2);
const opt = (name, def) => takeOption(args, name, def);
const offset = Number(opt('offset', 300));
const replay = Number(opt('replay', 300));
const l2 = Number(opt('l2', 0.01));
const pairwise = takeFlag(args, 'pairwise');
const perQuery = takeFlag(args, 'per-query');
const noBroad = takeFlag(args, 'no-broad');
const withChange = takeFlag(args, 'with-change');
const only = opt('only', '').split(',').filter(Boolean);
for (const name of only) {
  if (!FEATURE_NAMES.includes(name)) {
    process.stderr.write(`train-ranker.mjs: no feature named ${name}\n`);
    process.exit(2);
  }
}
const roots = args;
if (!roots.length) {
  process.stderr.write('usage: train-ranker.mjs [--offset 300] [--replay 300] ROOT...\n');
  process.exit(2);
}

const X = [];
const Y = [];
const W = [];
const Q = [];
/** Per query: its repository and how many files its commit changed with it. */
const queryRoot = [];
const queryTruth = [];
let qid = 0;
for (const root of roots) {
  await runCochangeEval(root, {
    replay,
    offset,
    noBroad,
    withChange,
    seed: 7,
    inspect: (q) => {
      const truth = new Set(q.truth);
      for (const changeWords of withChange ? [undefined, q.changeWords] : [undefined]) {
        qid++;
        queryRoot[qid] = root;
        queryTruth[qid] = q.truth.length;
        // With --per-query each query weighs the same, however many candidates it has.
        const cands = candidateFeatures(q.query, {
          cochange: q.counts,
          broad: q.broad,
          imports: q.imports,
          files: q.files,
          terms: q.terms,
          now: q.now,
          changeWords,
        });
        for (const c of cands) {
          X.push(Array.from(c.x));
          Y.push(truth.has(c.path) ? 1 : 0);
          W.push(perQuery ? 100 / Math.max(1, cands.length) : 1);
          Q.push(qid);
        }
      }
    },
  });
}
const d = FEATURE_NAMES.length;
if (only.length) {
  process.stdout.write(JSON.stringify(gridSearch()) + '\n');
  process.exit(0);
}
const mean = new Array(d).fill(0);
const sd = new Array(d).fill(0);
for (const x of X) for (let j = 0; j < d; j++) mean[j] += x[j] / X.length;
for (const x of X) for (let j = 0; j < d; j++) sd[j] += (x[j] - mean[j]) ** 2 / X.length;
for (let j = 0; j < d; j++) sd[j] = Math.sqrt(sd[j]) || 1;
const sumW = W.reduce((a, b) => a + b, 0);
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
    const e = (p - Y[i]) * W[i];
    g[0] += e;
    for (let j = 0; j < d; j++) g[j + 1] += e * Z[i][j];
  }
  for (let j = 0; j <= d; j++) {
    g[j] = g[j] / sumW + (j ? l2 * w[j] : 0);
    m[j] = 0.9 * m[j] + 0.1 * g[j];
    v[j] = 0.999 * v[j] + 0.001 * g[j] * g[j];
    w[j] -= (lr * (m[j] / (1 - 0.9 ** it))) / (Math.sqrt(v[j] / (1 - 0.999 ** it)) + 1e-8);
    // Every feature is evidence for a file, never against it: keeps the model monotone and explainable.
    if (j > 0 && w[j] < 0) w[j] = 0;
  }
}
if (pairwise) {
  // Then order within each query: a logistic loss on (relevant, other) pairs of the same query,
  // which is what recall@k rewards; at most 40 sampled others per relevant file.
  const rand = prng(11);
  const pairs = [];
  const byQuery = new Map();
  Q.forEach((q, i) => {
    let l = byQuery.get(q);
    if (!l) byQuery.set(q, (l = { pos: [], neg: [] }));
    (Y[i] ? l.pos : l.neg).push(i);
  });
  for (const { pos, neg } of byQuery.values()) {
    for (const p of pos) {
      const k = Math.min(40, neg.length);
      for (let t = 0; t < k; t++) pairs.push([p, neg[Math.floor(rand() * neg.length)], 1 / pos.length / k]);
    }
  }
  const sumP = pairs.reduce((a, b) => a + b[2], 0);
  m.fill(0);
  v.fill(0);
  for (let it = 1; it <= 300; it++) {
    const g = new Array(d + 1).fill(0);
    for (const [a, b, wt] of pairs) {
      let z = 0;
      for (let j = 0; j < d; j++) z += w[j + 1] * (Z[a][j] - Z[b][j]);
      const e = (-1 / (1 + Math.exp(z))) * wt;
      for (let j = 0; j < d; j++) g[j + 1] += e * (Z[a][j] - Z[b][j]);
    }
    for (let j = 1; j <= d; j++) {
      g[j] = g[j] / sumP + l2 * w[j];
      m[j] = 0.9 * m[j] + 0.1 * g[j];
      v[j] = 0.999 * v[j] + 0.001 * g[j] * g[j];
      w[j] -= (0.02 * (m[j] / (1 - 0.9 ** it))) / (Math.sqrt(v[j] / (1 - 0.999 ** it)) + 1e-8);
      if (w[j] < 0) w[j] = 0;
    }
  }
  process.stderr.write(`${pairs.length} pairs\n`);
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

/** The default model with the --only coefficients set to the grid point of the best mean recall@10 per repository. */
function gridSearch() {
  const base = [...DEFAULT_WEIGHTS.model];
  while (base.length < d + 1) base.push(0);
  const slots = only.map((name) => FEATURE_NAMES.indexOf(name) + 1);
  const grid = [0, 0.5, 1, 1.5, 2, 3, 4, 6];
  const rows = new Map();
  Q.forEach((q, i) => {
    let l = rows.get(q);
    if (!l) rows.set(q, (l = []));
    l.push(i);
  });
  let best;
  const point = new Array(slots.length).fill(0);
  const visit = (k) => {
    if (k === slots.length) {
      const model = [...base];
      slots.forEach((s, j) => (model[s] = point[j]));
      const perRoot = new Map();
      for (const [q, idx] of rows) {
        const scored = idx.map((i) => {
          let z = model[0];
          for (let j = 0; j < d; j++) z += model[j + 1] * X[i][j];
          return [z, Y[i]];
        });
        scored.sort((a, b) => b[0] - a[0]);
        const r = scored.slice(0, 10).filter((x) => x[1]).length / queryTruth[q];
        const acc = perRoot.get(queryRoot[q]) ?? [0, 0];
        perRoot.set(queryRoot[q], [acc[0] + r, acc[1] + 1]);
      }
      const means = [...perRoot.values()].map(([sum, n]) => sum / n);
      const mean = means.reduce((a, b) => a + b, 0) / Math.max(1, means.length);
      if (!best || mean > best.mean + 1e-9) best = { mean, model };
      process.stderr.write(`  ${point.join(' ')}: mean recall@10 ${mean.toFixed(4)}\n`);
      return;
    }
    for (const v of grid) {
      point[k] = v;
      visit(k + 1);
    }
  };
  visit(0);
  return best.model.map((x) => Math.round(x * 1e4) / 1e4);
}
