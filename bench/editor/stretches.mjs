#!/usr/bin/env node
// The longest synchronous stretches of a CPU profile (`bench:editor --profile`, `node --cpu-prof`):
// runs of samples with no idle sample between them, each with the functions that held it longest.
// A minified bundle's frames are named through its source map (`--map dist/extension.js.map`; build
// one with `node esbuild.mjs --production --sourcemap`, which leaves the code itself unchanged).
//
//   node bench/editor/stretches.mjs FILE.cpuprofile [--top 25] [--min-ms 50] [--map FILE.map] [--json]
import fs from 'node:fs';
import { SourceMap } from 'node:module';
import path from 'node:path';
import { parseArgs } from 'node:util';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    top: { type: 'string', default: '25' },
    'min-ms': { type: 'string', default: '50' },
    map: { type: 'string' },
    json: { type: 'boolean', default: false },
    // Which scripts are ours: the packaged bundle, or the compiled tree of `npx tsc`.
    ours: { type: 'string', default: 'proactive-context[^/]*/dist/|/out/src/' },
  },
});
if (positionals.length !== 1) {
  process.stderr.write('usage: stretches.mjs FILE.cpuprofile [--top N] [--min-ms MS] [--map FILE.map] [--json]\n');
  process.exit(2);
}

const profile = JSON.parse(fs.readFileSync(positionals[0], 'utf8'));
const map = values.map ? new SourceMap(JSON.parse(fs.readFileSync(values.map, 'utf8'))) : undefined;
const mapDir = values.map ? path.dirname(path.resolve(values.map)) : '';
const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
const parent = new Map();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);

/** A frame's name: the function and where it is, through the source map when the bundle has one. */
const names = new Map();
function nameOf(node) {
  let name = names.get(node.id);
  if (name !== undefined) return name;
  const f = node.callFrame;
  name = f.functionName || '(anonymous)';
  if (map && ours(node) && f.url.endsWith(path.basename(values.map, '.map'))) {
    const e = map.findEntry(f.lineNumber, f.columnNumber);
    if (e?.originalSource) {
      const src = path.resolve(mapDir, e.originalSource).replace(/^.*?\/(?=(src|node_modules)\/)/, '');
      name = `${e.name ?? name} ${src}:${e.originalLine + 1}`;
    }
  } else if (f.url) name = `${name} ${path.basename(f.url)}:${f.lineNumber + 1}`;
  names.set(node.id, name);
  return name;
}

const IDLE = new Set(['(idle)', '(program)']);
const oursRe = new RegExp(values.ours);
const ours = (n) => oursRe.test(n.callFrame.url);

// Sample i lasted timeDeltas[i + 1]; a stretch ends at the first idle sample.
const stretches = [];
let cur;
let t = profile.startTime; // µs
for (let i = 0; i < profile.samples.length; i++) {
  const dt = (profile.timeDeltas[i + 1] ?? 0) / 1000;
  const node = nodes.get(profile.samples[i]);
  t += profile.timeDeltas[i] ?? 0;
  if (IDLE.has(node.callFrame.functionName)) {
    if (cur) stretches.push(cur);
    cur = undefined;
    continue;
  }
  cur ??= { startMs: (t - profile.startTime) / 1000, ms: 0, frames: new Map(), self: new Map() };
  cur.ms += dt;
  // Each frame of the stack counts once per sample (recursion does not count twice).
  const seen = new Set();
  let top;
  for (let id = node.id; id !== undefined; id = parent.get(id)) {
    const n = nodes.get(id);
    if (!ours(n)) continue;
    top ??= n;
    const name = nameOf(n);
    if (seen.has(name)) continue;
    seen.add(name);
    cur.frames.set(name, (cur.frames.get(name) ?? 0) + dt);
  }
  const selfName = top ? nameOf(top) : `[${nameOf(node)}]`;
  cur.self.set(selfName, (cur.self.get(selfName) ?? 0) + dt);
}
if (cur) stretches.push(cur);

const minMs = Number(values['min-ms']);
const long = stretches.filter((s) => s.ms >= minMs).sort((a, b) => b.ms - a.ms);
const best = (m, k) =>
  [...m]
    .sort((a, b) => b[1] - a[1])
    .slice(0, k)
    .map(([name, ms]) => ({ name, ms: Math.round(ms) }));
const report = long.slice(0, Number(values.top)).map((s) => ({
  atS: Math.round(s.startMs / 100) / 10,
  ms: Math.round(s.ms),
  // The outermost of our frames that held most of the stretch say what it was; the self times where.
  holding: best(s.frames, 12).filter((f) => f.ms >= s.ms * 0.25),
  self: best(s.self, 5),
}));
const total = (profile.endTime - profile.startTime) / 1000;
if (values.json) process.stdout.write(`${JSON.stringify({ totalMs: total, over: long.length, report }, null, 2)}\n`);
else {
  process.stdout.write(
    `${path.basename(positionals[0])}: ${Math.round(total)} ms profiled, ${long.length} stretches ≥ ${minMs} ms\n`,
  );
  for (const s of report) {
    process.stdout.write(`\n${s.ms} ms at ${s.atS} s\n`);
    for (const f of s.holding) process.stdout.write(`  ${String(f.ms).padStart(6)}  ${f.name}\n`);
    process.stdout.write(`  self: ${s.self.map((f) => `${f.name} ${f.ms}`).join('; ')}\n`);
  }
}
