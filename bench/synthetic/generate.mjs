#!/usr/bin/env node
// Creates a synthetic TypeScript repository with realistic co-change structure, fast, through
// `git fast-import`:
//   node bench/synthetic/generate.mjs --out DIR --files 5000 --commits 10000 [--seed 1] [--no-checkout]
// Modules under src/<module>/ hold implementation files that import each other (and a few files of
// the modules they depend on), most with a test next to them. Work comes in features: a feature is
// a small cluster of files around one of them (its imports, importers and tests); each commit works
// on one feature, popular features change more often and popularity drifts over time. Some commits
// are single-file fixes, a few are bulk edits, and some add noise files.
import { spawn, execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync } from 'node:fs';
import { resolve } from 'node:path';

const args = process.argv.slice(2);
const opt = (name, def) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : def;
};
const out = opt('out');
if (!out) {
  process.stderr.write('usage: generate.mjs --out DIR [--files 5000] [--commits 10000] [--seed 1] [--no-checkout]\n');
  process.exit(2);
}
const FILES = Number(opt('files', 5000));
const COMMITS = Number(opt('commits', 10000));
const SEED = Number(opt('seed', 1));
const started = Date.now();

function mulberry32(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const rand = mulberry32(SEED);
const int = (n) => Math.floor(rand() * n);
const pick = (xs) => xs[int(xs.length)];

const WORDS = [
  'user',
  'order',
  'cart',
  'price',
  'auth',
  'token',
  'session',
  'cache',
  'queue',
  'event',
  'report',
  'invoice',
  'search',
  'index',
  'parser',
  'lexer',
  'render',
  'layout',
  'theme',
  'config',
  'logger',
  'metric',
  'upload',
  'image',
  'video',
  'email',
  'notify',
  'billing',
  'account',
  'profile',
  'route',
  'store',
  'model',
  'schema',
  'query',
  'client',
  'server',
  'socket',
  'stream',
  'buffer',
];
const KINDS = [
  'Service',
  'Store',
  'Controller',
  'View',
  'Util',
  'Mapper',
  'Validator',
  'Client',
  'Repository',
  'Handler',
];

// --- layout: modules, files, imports -------------------------------------------------------------
const perModule = 40;
const moduleCount = Math.max(1, Math.round(FILES / (perModule * 1.6)));
const modules = [];
const files = []; // { path, imports: [idx], test: idx|undefined, module, isTest }
for (let m = 0; m < moduleCount; m++) {
  const name = `${pick(WORDS)}-${m}`;
  const deps = m > 0 ? Array.from({ length: 1 + int(3) }, () => int(m)) : [];
  modules.push({ name, deps: [...new Set(deps)], impl: [] });
}
outer: for (let m = 0; files.length < FILES; m = (m + 1) % moduleCount) {
  const mod = modules[m];
  const sub = rand() < 0.3 ? `${pick(WORDS)}/` : '';
  const base = `${pick(WORDS)}${pick(KINDS)}${mod.impl.length}`;
  const idx = files.length;
  files.push({ path: `src/${mod.name}/${sub}${base}.ts`, imports: [], module: m, isTest: false, version: 0 });
  mod.impl.push(idx);
  if (files.length >= FILES) break outer;
  if (rand() < 0.6) {
    files.push({ path: `src/${mod.name}/${sub}${base}.test.ts`, imports: [idx], module: m, isTest: true, version: 0 });
    files[idx].test = files.length - 1;
  }
}
for (const mod of modules) {
  mod.impl.forEach((idx, i) => {
    const f = files[idx];
    const n = Math.min(i, 1 + int(3));
    for (let k = 0; k < n; k++) f.imports.push(mod.impl[int(i)]);
    if (mod.deps.length && rand() < 0.4) {
      const dep = modules[pick(mod.deps)];
      if (dep.impl.length) f.imports.push(pick(dep.impl));
    }
    f.imports = [...new Set(f.imports)];
  });
}
const importers = files.map(() => []);
files.forEach((f, i) => f.imports.forEach((j) => importers[j].push(i)));

function relImport(from, to) {
  const a = from.split('/').slice(0, -1);
  const b = to.split('/');
  let i = 0;
  while (i < a.length && i < b.length - 1 && a[i] === b[i]) i++;
  const up = a.length - i;
  const rest = b.slice(i).join('/').replace(/\.ts$/, '');
  return (up === 0 ? './' : '../'.repeat(up)) + rest;
}
function content(i) {
  const f = files[i];
  const lines = f.imports.map((j, k) => `import { v${k} } from '${relImport(f.path, files[j].path)}';`);
  const name = f.path.split('/').pop().replace(/\W/g, '_');
  if (f.isTest) lines.push(`describe('${name}', () => { it('works', () => { expect(v0).toBeDefined(); }); });`);
  lines.push(
    `export const version = ${f.version};`,
    `export function ${name}() {`,
    `  return ${f.imports.map((_, k) => `v${k}`).join(' + ') || '0'};`,
    '}',
    '',
  );
  return lines.join('\n');
}

// --- features ---------------------------------------------------------------------------------
const impls = files.map((f, i) => (f.isTest ? -1 : i)).filter((i) => i >= 0);
const featureCount = Math.max(1, Math.round(impls.length / 4));
const features = [];
for (let k = 0; k < featureCount; k++) {
  const core = pick(impls);
  const set = new Set([core]);
  for (const j of files[core].imports) if (rand() < 0.6) set.add(j);
  for (const j of importers[core]) if (!files[j].isTest && rand() < 0.4) set.add(j);
  for (const j of [...set]) if (files[j].test !== undefined && rand() < 0.7) set.add(files[j].test);
  features.push([...set].slice(0, 8));
}
// Zipf-like popularity that drifts: every so often a new feature becomes hot.
const weights = features.map((_, k) => 1 / (1 + k) ** 0.9);
const order = features.map((_, k) => k).sort(() => rand() - 0.5);
function pickFeature() {
  let total = 0;
  for (const w of weights) total += w;
  let r = rand() * total;
  for (let k = 0; k < weights.length; k++) {
    r -= weights[k];
    if (r <= 0) return features[order[k]];
  }
  return features[order[0]];
}

// --- history through fast-import ---------------------------------------------------------------
const dir = resolve(out);
if (existsSync(dir) && readdirSync(dir).length) {
  process.stderr.write(`${dir} is not empty\n`);
  process.exit(2);
}
mkdirSync(dir, { recursive: true });
execFileSync('git', ['init', '-q', '-b', 'main', dir]);
const fi = spawn('git', ['fast-import', '--quiet', '--done'], { cwd: dir, stdio: ['pipe', 'inherit', 'inherit'] });
const exited = new Promise((res) => fi.on('close', res));
let buffered = [];
let bufferedBytes = 0;
async function emit(s) {
  buffered.push(s);
  bufferedBytes += s.length;
  if (bufferedBytes > 1 << 20) await flush();
}
async function flush() {
  const chunk = buffered.join('');
  buffered = [];
  bufferedBytes = 0;
  if (!fi.stdin.write(chunk)) await new Promise((r) => fi.stdin.once('drain', r));
}
const data = (s) => `data ${Buffer.byteLength(s)}\n${s}\n`;
const AUTHORS = [
  'Ada <ada@example.com>',
  'Linus <linus@example.com>',
  'Grace <grace@example.com>',
  'Ken <ken@example.com>',
  'Barbara <barbara@example.com>',
];
let time = Math.floor(Date.UTC(2020, 0, 1) / 1000);
let mark = 0;
async function commit(message, changed) {
  time += 600 + int(6 * 3600);
  const who = pick(AUTHORS);
  let s = `commit refs/heads/main\nmark :${++mark}\nauthor ${who} ${time} +0000\ncommitter ${who} ${time} +0000\n${data(message)}`;
  if (mark > 1) s += `from :${mark - 1}\n`;
  for (const i of changed) {
    files[i].version++;
    s += `M 100644 inline ${files[i].path}\n${data(content(i))}`;
  }
  await emit(s);
}

await commit(
  'Initial import',
  files.map((_, i) => i),
);
let noise = 0;
for (let c = 1; c < COMMITS; c++) {
  if (c % 200 === 0) {
    // Drift: a random feature becomes the most popular.
    const k = int(order.length);
    [order[0], order[k]] = [order[k], order[0]];
  }
  const r = rand();
  let changed;
  if (r < 0.01) changed = Array.from({ length: 40 + int(60) }, () => int(files.length));
  else if (r < 0.2) changed = [pick(impls)];
  else {
    const feat = pickFeature();
    changed = feat.filter(() => rand() < 0.7);
    if (changed.length === 0) changed = [feat[0]];
    if (rand() < 0.15) changed.push(int(files.length));
  }
  changed = [...new Set(changed)];
  noise += changed.length;
  await commit(`Change ${changed.length} file(s) (#${c})`, changed);
}
await emit('done\n');
await flush();
fi.stdin.end();
const code = await exited;
if (code !== 0) {
  process.stderr.write(`git fast-import failed with ${code}\n`);
  process.exit(1);
}
const importMs = Date.now() - started;
if (!args.includes('--no-checkout')) execFileSync('git', ['checkout', '-q', '-f', 'main'], { cwd: dir });
process.stdout.write(
  JSON.stringify({
    out: dir,
    files: files.length,
    commits: COMMITS,
    modules: moduleCount,
    features: featureCount,
    fileChanges: noise,
    importMs,
    totalMs: Date.now() - started,
  }) + '\n',
);
