#!/usr/bin/env node
// Fits a few shallow boosted regression trees on top of the linear ranking model, from candidate
// features written by dump-features.mjs (an older span of history than the eval reports on):
//   node bench/synthetic/train-trees.mjs [--trees 60] [--depth 3] [--rate 0.1] [--valid-from 600] A.jsonl B.jsonl
// With --valid-from N, queries with order >= N are held out and both rankings are scored on them;
// the trees (as JSON for RankingWeights.trees) go to stdout either way.
import { readFileSync } from 'node:fs';
import { engineModule, takeOption } from './common.mjs';
const { DEFAULT_WEIGHTS, FEATURE_NAMES } = engineModule('cochange/relatedFiles');

const args = process.argv.slice(2);
const opt = (name, def) => takeOption(args, name, def);
const nTrees = Number(opt('trees', 60));
const depth = Number(opt('depth', 3));
const rate = Number(opt('rate', 0.1));
const minLeaf = Number(opt('min-leaf', 20));
const lambda = Number(opt('lambda', 1));
const validFrom = opt('valid-from', undefined);
const objective = opt('objective', 'pairwise');
const d = FEATURE_NAMES.length;
const lin = DEFAULT_WEIGHTS.model;

const train = [];
const valid = [];
for (const file of args) {
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (!line) continue;
    const q = JSON.parse(line);
    const rows = q.rows.map((r) => ({ x: r.slice(0, d), y: r[d], base: linear(r) }));
    const item = { file, truth: q.truth, rows };
    (validFrom !== undefined && q.order >= Number(validFrom) ? valid : train).push(item);
  }
}
function linear(x) {
  let z = lin[0];
  for (let j = 0; j < d; j++) z += lin[j + 1] * x[j];
  return z;
}

// Quantile thresholds per feature.
const all = train.flatMap((q) => q.rows);
const cuts = [];
for (let j = 0; j < d; j++) {
  const vals = [...new Set(all.map((r) => r.x[j]))].sort((a, b) => a - b);
  const c = [];
  if (vals.length <= 32) for (let k = 0; k + 1 < vals.length; k++) c.push((vals[k] + vals[k + 1]) / 2);
  else {
    const sorted = all.map((r) => r.x[j]).sort((a, b) => a - b);
    for (let k = 1; k < 32; k++) c.push(sorted[Math.floor((k / 32) * sorted.length)]);
  }
  cuts.push([...new Set(c)]);
}

const trees = [];
for (const q of train) for (const r of q.rows) r.s = r.base;
for (let t = 0; t < nTrees; t++) {
  const rows = [];
  for (const q of train) {
    const pos = q.rows.filter((r) => r.y);
    const neg = q.rows.filter((r) => !r.y);
    for (const r of q.rows) {
      r.g = 0;
      r.h = 0;
    }
    if (objective === 'lambda') {
      if (!pos.length || !neg.length) continue;
      // Pairs weighted by how much swapping them moves a discounted gain: the top of the list counts.
      const order = [...q.rows].sort((a, b) => b.s - a.s);
      order.forEach((r, i) => (r.disc = 1 / Math.log2(i + 2)));
      const wq = 1 / q.truth;
      for (const p of pos)
        for (const n of neg) {
          const delta = Math.abs(p.disc - n.disc);
          if (delta < 1e-4) continue;
          const rho = 1 / (1 + Math.exp(p.s - n.s));
          p.g += rho * delta * wq;
          n.g -= rho * delta * wq;
          const hh = rho * (1 - rho) * delta * wq;
          p.h += hh;
          n.h += hh;
        }
    } else if (objective === 'pairwise') {
      if (!pos.length || !neg.length) continue;
      const wq = ((1 / (pos.length * neg.length)) * pos.length) / q.truth;
      for (const p of pos)
        for (const n of neg) {
          const rho = 1 / (1 + Math.exp(p.s - n.s));
          p.g += rho * wq;
          n.g -= rho * wq;
          const hh = rho * (1 - rho) * wq;
          p.h += hh;
          n.h += hh;
        }
    } else {
      const wq = 1 / q.rows.length;
      for (const r of q.rows) {
        const p = 1 / (1 + Math.exp(-r.s));
        r.g = (r.y - p) * wq;
        r.h = p * (1 - p) * wq;
      }
    }
    for (const r of q.rows) rows.push(r);
  }
  const nodes = [];
  build(rows, 0, nodes);
  trees.push(nodes);
  for (const q of train) for (const r of q.rows) r.s += predict(nodes, r.x);
  if (validFrom !== undefined && (t + 1) % 10 === 0)
    process.stderr.write(
      `trees ${t + 1}: train r@10 ${evaluate(train, true).toFixed(4)} valid r@10 ${evaluate(valid, true).toFixed(4)}\n`,
    );
}

// Nodes: [feature, threshold, left, right] for splits, [-1, value] for leaves; child indexes into the array.
function build(rows, level, nodes) {
  const me = nodes.length;
  nodes.push(null);
  let G = 0;
  let H = 0;
  for (const r of rows) {
    G += r.g;
    H += r.h;
  }
  const leaf = () => {
    nodes[me] = [-1, Math.round(((rate * G) / (H + lambda * 1e-3 + 1e-12)) * 1e4) / 1e4];
    return me;
  };
  if (level >= depth || rows.length < 2 * minLeaf) return leaf();
  let best = { gain: 0 };
  const parentScore = (G * G) / (H + lambda * 1e-3);
  for (let j = 0; j < d; j++) {
    const c = cuts[j];
    if (!c.length) continue;
    const bg = new Float64Array(c.length + 1);
    const bh = new Float64Array(c.length + 1);
    const bn = new Int32Array(c.length + 1);
    for (const r of rows) {
      const v = r.x[j];
      let lo = 0;
      let hi = c.length;
      while (lo < hi) {
        const m = (lo + hi) >> 1;
        if (v <= c[m]) hi = m;
        else lo = m + 1;
      }
      bg[lo] += r.g;
      bh[lo] += r.h;
      bn[lo]++;
    }
    let gl = 0;
    let hl = 0;
    let nl = 0;
    for (let k = 0; k < c.length; k++) {
      gl += bg[k];
      hl += bh[k];
      nl += bn[k];
      const nr = rows.length - nl;
      if (nl < minLeaf || nr < minLeaf) continue;
      const gr = G - gl;
      const hr = H - hl;
      const gain = (gl * gl) / (hl + lambda * 1e-3) + (gr * gr) / (hr + lambda * 1e-3) - parentScore;
      if (gain > best.gain) best = { gain, j, thr: c[k] };
    }
  }
  if (!best.gain || best.j === undefined) return leaf();
  const left = rows.filter((r) => r.x[best.j] <= best.thr);
  const right = rows.filter((r) => r.x[best.j] > best.thr);
  const l = build(left, level + 1, nodes);
  const rr = build(right, level + 1, nodes);
  nodes[me] = [best.j, best.thr, l, rr];
  return me;
}

function predict(nodes, x) {
  let i = 0;
  for (;;) {
    const n = nodes[i];
    if (n[0] < 0) return n[1];
    i = x[n[0]] <= n[1] ? n[2] : n[3];
  }
}

function evaluate(qs, withTrees) {
  let sum = 0;
  for (const q of qs) {
    const scored = q.rows.map((r) => {
      let s = r.base;
      if (withTrees) for (const tr of trees) s += predict(tr, r.x);
      return [s, r.y];
    });
    scored.sort((a, b) => b[0] - a[0]);
    sum += scored.slice(0, 10).filter((s) => s[1]).length / q.truth;
  }
  return sum / Math.max(1, qs.length);
}

if (validFrom !== undefined) {
  process.stderr.write(`${train.length} train / ${valid.length} valid queries\n`);
  for (const file of args) {
    const tr = train.filter((q) => q.file === file);
    const va = valid.filter((q) => q.file === file);
    process.stderr.write(
      `${file}: linear train ${evaluate(tr, false).toFixed(4)} valid ${evaluate(va, false).toFixed(4)} | trees train ${evaluate(tr, true).toFixed(4)} valid ${evaluate(va, true).toFixed(4)}\n`,
    );
  }
}
process.stdout.write(JSON.stringify(trees) + '\n');
