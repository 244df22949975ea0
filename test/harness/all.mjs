// `npm test`: every check, in the order a failure is cheapest to find, stopping at the first that
// fails. The closing line counts the steps: "N passed, N failed[, N skipped]".

import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const VSIX = path.join(REPO_ROOT, 'dist', 'proactive-context.vsix');
// Beyond this the vsix has almost certainly swallowed something it should not ship (node_modules,
// the test VS Code cache, ...).
const VSIX_SIZE_WARNING = 30 * 1024 * 1024;

const npm = (script) => ['npm', ['run', script]];
// The build and the vsix made by the earlier steps are what integration and e2e test.
const built = { ...process.env, PC_SKIP_BUILD: '1' };

const steps = [
  // Chromium (page tests, e2e) and the test VS Code; quick when already installed.
  { name: 'setup', cmd: ['node', ['test/harness/setup.mjs']] },
  { name: 'typecheck', cmd: npm('typecheck') },
  { name: 'lint', cmd: npm('lint') },
  { name: 'unit', cmd: npm('test:unit') },
  { name: 'webview', cmd: npm('test:webview') },
  { name: 'build', cmd: npm('build') },
  { name: 'package', cmd: npm('package'), after: reportVsix },
  // The MCP project's conformance suite against `mcp --http` from dist/cli.js.
  { name: 'conformance', cmd: ['node', ['test/harness/conformance.mjs']], env: built },
  { name: 'integration', cmd: ['node', ['test/harness/integration.mjs']], env: built },
  { name: 'e2e', cmd: ['node', ['test/harness/e2e.mjs']], env: built },
];

function reportVsix() {
  if (!fs.existsSync(VSIX)) return `${path.relative(REPO_ROOT, VSIX)} was not produced`;
  const size = fs.statSync(VSIX).size;
  console.log(`[all] ${path.relative(REPO_ROOT, VSIX)}: ${size} bytes`);
  if (size > VSIX_SIZE_WARNING) console.log(`[all] warning: the vsix is over ${VSIX_SIZE_WARNING} bytes; check .vscodeignore`);
  return undefined;
}

// Test counts read from each runner's own summary (mocha: "N passing / N failing / N pending";
// the e2e and conformance runners: "e2e: N passed, N failed"), so the closing line counts tests, not steps.
const tests = { passed: 0, failed: 0, skipped: 0 };
function countTests(text) {
  const plain = text.replace(/\x1b\[[0-9;]*m/g, '');
  for (const m of plain.matchAll(/^\s*(\d+) (passing|failing|pending)\b/gm)) tests[m[2] === 'passing' ? 'passed' : m[2] === 'failing' ? 'failed' : 'skipped'] += Number(m[1]);
  for (const m of plain.matchAll(/^(?:e2e|conformance): (\d+) passed, (\d+) failed/gm)) {
    tests.passed += Number(m[1]);
    tests.failed += Number(m[2]);
  }
}

function runStep(cmd, args, env) {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'], env });
    let out = '';
    child.stdout.on('data', (d) => {
      process.stdout.write(d);
      out += d;
    });
    child.stderr.on('data', (d) => process.stderr.write(d));
    child.on('error', (error) => resolve({ error }));
    child.on('close', (status, signal) => {
      countTests(out);
      resolve({ status, signal });
    });
  });
}

let passed = 0;
let failed = 0;
const timings = [];
const started = Date.now();
for (const step of steps) {
  console.log(`\n[all] ── ${step.name} ──`);
  const t0 = Date.now();
  const [cmd, args] = step.cmd;
  const r = await runStep(cmd, args, step.env ?? process.env);
  let problem = r.error ? r.error.message : r.status !== 0 ? `exit ${r.status ?? r.signal}` : undefined;
  if (!problem && step.after) problem = step.after();
  const seconds = ((Date.now() - t0) / 1000).toFixed(1);
  timings.push(`${step.name} ${seconds}s`);
  if (problem) {
    failed++;
    console.log(`[all] step "${step.name}" FAILED (${problem}) after ${seconds} s; later steps not run`);
    break;
  }
  passed++;
  console.log(`[all] step "${step.name}" passed in ${seconds} s`);
}
console.log(`\n[all] ${timings.join(', ')}; total ${((Date.now() - started) / 1000).toFixed(1)} s`);
const skipped = steps.length - passed - failed;
console.log(`[all] steps: ${passed} passed, ${failed} failed${skipped ? `, ${skipped} not run` : ''}`);
console.log(`${tests.passed} passed, ${tests.failed} failed${tests.skipped ? `, ${tests.skipped} skipped` : ''}`);
process.exit(failed === 0 && tests.failed === 0 ? 0 : 1);
