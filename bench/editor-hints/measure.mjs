#!/usr/bin/env node
// Measures the editor hints' typing path (CodeLens and hover per request) with
// src/measure/bench/editorHintsBench.ts, on a folder or on a synthetic repository made for it.
//
//   npx tsc -p tsconfig.json
//   node bench/editor-hints/measure.mjs --root /path/to/repo [--samples 100] [--keystrokes 200] [--runs 3] [--json]
//   node bench/editor-hints/measure.mjs --synthetic [--files 5000] [--commits 2000] [--decisions 40] [--runs 3] [--json]
//
// --synthetic generates a TypeScript repository with bench/synthetic/generate.mjs in a temporary
// folder and writes decision records into it, each naming one file and its function (as teams do),
// so that lenses and hovers have something to show; the folder is removed afterwards.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const here = dirname(fileURLToPath(import.meta.url));
const repo = join(here, '..', '..');
const { runEditorHintsBench } = require(join(repo, 'out', 'src', 'measure', 'bench', 'editorHintsBench.js'));

const args = parseArgs(process.argv.slice(2));
const runs = Number(args.runs ?? 3);
let root = args.root ? resolve(args.root) : undefined;
let scratch;
if (!root) {
  if (!args.synthetic) usage();
  scratch = mkdtempSync(join(tmpdir(), 'pc-hints-synthetic-'));
  root = join(scratch, 'repo');
  const files = String(args.files ?? 5000);
  const commits = String(args.commits ?? 2000);
  process.stderr.write(`generating a ${files}-file, ${commits}-commit repository in ${root}\n`);
  execFileSync(
    process.execPath,
    [
      join(repo, 'bench', 'synthetic', 'generate.mjs'),
      '--out',
      root,
      '--files',
      files,
      '--commits',
      commits,
      '--seed',
      String(args.seed ?? 1),
    ],
    { stdio: 'inherit' },
  );
  writeDecisions(root, Number(args.decisions ?? 40));
}

try {
  const results = [];
  for (let i = 0; i < runs; i++) {
    const r = await runEditorHintsBench(
      root,
      { samples: Number(args.samples ?? 100), keystrokes: Number(args.keystrokes ?? 200), seed: 42 + i },
      (s) => args.json || process.stderr.write(`run ${i + 1}: ${s}…\n`),
    );
    results.push(r);
  }
  if (args.json) process.stdout.write(JSON.stringify(results, null, 2) + '\n');
  else {
    const r0 = results[0];
    process.stdout.write(
      `${r0.root}: ${r0.files} files indexed, ${r0.decisions} decision records; ${r0.sampledFiles} files sampled (${r0.governedFiles} governed), ${r0.anchors} anchors\n`,
    );
    const row = (label, key) =>
      process.stdout.write(
        `${label.padEnd(46)} ${results.map((r) => `p50 ${r[key].p50.toFixed(3)} p95 ${r[key].p95.toFixed(3)} max ${r[key].max.toFixed(2)} ms (n=${r[key].n})`).join(' | ')}\n`,
      );
    row('CodeLens request while typing', 'lensRequestMs');
    row('CodeLens first request of a document', 'lensLookupMs');
    row('hover, first at a version (panel suggestion)', 'hoverMs');
    row('hover again at the same version', 'hoverCachedMs');
    process.stdout.write(
      `extra suggestion passes from lenses and hovers: ${results.map((r) => r.extraPasses).join(', ')}\n`,
    );
  }
} finally {
  if (scratch) rmSync(scratch, { recursive: true, force: true });
}

/** Decision records naming one implementation file each and the function it defines. */
function writeDecisions(dir, n) {
  const impl = [];
  const walk = (rel) => {
    for (const e of readdirSync(join(dir, rel))) {
      const p = rel ? `${rel}/${e}` : e;
      if (e === '.git') continue;
      if (statSync(join(dir, p)).isDirectory()) walk(p);
      else if (p.endsWith('.ts') && !p.endsWith('.test.ts')) impl.push(p);
    }
  };
  walk('src');
  impl.sort();
  const adr = join(dir, 'docs', 'adr');
  mkdirSync(adr, { recursive: true });
  const step = Math.max(1, Math.floor(impl.length / n));
  for (let k = 0; k < n && k * step < impl.length; k++) {
    const file = impl[k * step];
    const fn = /export function (\w+)/.exec(readFileSync(join(dir, file), 'utf8'))?.[1] ?? 'version';
    const num = String(k + 1).padStart(4, '0');
    writeFileSync(
      join(adr, `${num}-rule-${k + 1}.md`),
      `# ${k + 1}. Rule ${k + 1}\n\nDate: 2026-01-01\n\n## Status\n\nAccepted\n\n## Decision\n\nThe rule lives in \`${fn}\` in \`${file}\`.\n`,
    );
  }
}

function parseArgs(argv) {
  const out = {};
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (!a.startsWith('--')) continue;
    const next = argv[i + 1];
    if (next === undefined || next.startsWith('--')) out[a.slice(2)] = true;
    else out[a.slice(2)] = argv[++i];
  }
  return out;
}

function usage() {
  process.stderr.write(
    'usage: measure.mjs (--root DIR | --synthetic [--files 5000] [--commits 2000] [--decisions 40]) [--samples 100] [--keystrokes 200] [--runs 3] [--json]\n',
  );
  process.exit(2);
}
