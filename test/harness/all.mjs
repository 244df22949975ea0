// `npm test`: every check, in the order a failure is cheapest to find, stopping at the first that
// fails. The closing line counts the tests: "N passed, N failed[, N skipped]".
//
// Outside CI, the steps that need what this machine lacks (a Chromium or Chrome, the test VS Code,
// which runs on Linux x64 only) are skipped, each with one line saying how to run it. In CI (CI=true)
// nothing is skipped: setup installs what is missing or the run fails.

import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { browserTestFiles, conformanceNode, findChromium, inCI, vscodeTestsBlocker } from './toolchain.mjs';

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const VSIX = path.join(REPO_ROOT, 'dist', 'proactive-context.vsix');
// Beyond this the vsix has almost certainly swallowed something it should not ship (node_modules,
// the test VS Code cache, ...).
const VSIX_SIZE_WARNING = 30 * 1024 * 1024;
const WEBVIEW_DIR = path.join(REPO_ROOT, 'test', 'webview');

const npm = (script, ...args) => ['npm', ['run', script, ...(args.length ? ['--', ...args] : [])]];
// The build and the vsix made by the earlier steps are what integration and e2e test.
const built = { PC_SKIP_BUILD: '1' };

// Each `when` runs after the steps before it (setup may have installed a browser) and returns
// undefined to run the step as it is, { skip: { problem, enable } } to skip it, or { cmd, skip } to
// run a smaller command and still report what it leaves out.
const steps = [
  // Chromium (page tests, e2e) and the test VS Code; quick when already installed.
  { name: 'setup', cmd: ['node', ['test/harness/setup.mjs']] },
  { name: 'typecheck', cmd: npm('typecheck') },
  { name: 'lint', cmd: npm('lint') },
  { name: 'unit', cmd: npm('test:unit') },
  { name: 'webview', cmd: npm('test:webview'), when: webviewWithoutBrowser },
  { name: 'build', cmd: npm('build') },
  { name: 'package', cmd: npm('package'), after: reportVsix },
  // The MCP project's conformance suite against `mcp --http` from dist/cli.js.
  {
    name: 'conformance',
    cmd: ['node', ['test/harness/conformance.mjs']],
    env: built,
    when: () => blocked(conformanceNode()),
  },
  {
    name: 'integration',
    cmd: ['node', ['test/harness/integration.mjs']],
    env: built,
    when: () => blocked(vscodeTestsBlocker()),
  },
  { name: 'e2e', cmd: ['node', ['test/harness/e2e.mjs']], env: built, when: () => blocked(vscodeTestsBlocker()) },
  // A short editor benchmark on the demo: its numbers land in test-results/bench-editor/ with the
  // other artifacts; it fails on a wrong or missing panel state only, never on a time.
  {
    name: 'bench-editor',
    cmd: [
      'node',
      [
        'bench/editor/benchEditor.mjs',
        '--demo',
        '--quick',
        '--gate',
        '--no-build',
        '--out',
        'test-results/bench-editor',
      ],
    ],
    env: built,
    when: () => blocked(vscodeTestsBlocker()),
  },
];

function blocked(status) {
  return status?.problem ? { skip: status } : undefined;
}

/** Without a browser the page tests are left out and the Node-only webview tests still run. */
function webviewWithoutBrowser() {
  const browser = findChromium();
  if (browser.path) return undefined;
  const pageFiles = browserTestFiles(WEBVIEW_DIR);
  if (pageFiles.length === 0) return undefined;
  return {
    cmd: npm('test:webview', ...pageFiles.flatMap((f) => ['--ignore', `test/webview/${f}`])),
    skip: { what: `the page tests (${pageFiles.join(', ')})`, problem: browser.problem, enable: browser.enable },
  };
}

function reportVsix() {
  if (!fs.existsSync(VSIX)) return `${path.relative(REPO_ROOT, VSIX)} was not produced`;
  const size = fs.statSync(VSIX).size;
  console.log(`[all] ${path.relative(REPO_ROOT, VSIX)}: ${size} bytes`);
  if (size > VSIX_SIZE_WARNING)
    console.log(`[all] warning: the vsix is over ${VSIX_SIZE_WARNING} bytes; check .vscodeignore`);
  return undefined;
}

// Test counts read from each runner's own summary (mocha: "N passing / N failing / N pending";
// the e2e and conformance runners: "e2e: N passed, N failed"), so the closing line counts tests, not steps.
const tests = { passed: 0, failed: 0, skipped: 0 };
function countTests(text) {
  const plain = text.replace(/\x1b\[[0-9;]*m/g, '');
  for (const m of plain.matchAll(/^\s*(\d+) (passing|failing|pending)\b/gm))
    tests[m[2] === 'passing' ? 'passed' : m[2] === 'failing' ? 'failed' : 'skipped'] += Number(m[1]);
  for (const m of plain.matchAll(/^(?:e2e|conformance): (\d+) passed, (\d+) failed/gm)) {
    tests.passed += Number(m[1]);
    tests.failed += Number(m[2]);
  }
}

function runStep(cmd, args, env) {
  return new Promise((resolve) => {
    // npm is npm.cmd on Windows, which only a shell starts.
    const child = spawn(cmd, args, {
      cwd: REPO_ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
      env,
      shell: process.platform === 'win32',
    });
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

/** The page tests (test/webview/support.mjs) launch the browser PC_CHROMIUM_PATH names; setup may have just installed it. */
function baseEnv() {
  const browser = findChromium();
  return browser.path && !process.env.PC_CHROMIUM_PATH
    ? { ...process.env, PC_CHROMIUM_PATH: browser.path }
    : process.env;
}

let passed = 0;
let failed = 0;
const skippedSteps = [];
const timings = [];
const started = Date.now();
for (const step of steps) {
  console.log(`\n[all] ── ${step.name} ──`);
  const plan = inCI() ? undefined : step.when?.();
  if (plan?.skip) {
    const what = plan.skip.what ?? `step "${step.name}"`;
    console.log(`[all] SKIPPED ${what}: ${plan.skip.problem}. To run ${plan.cmd ? 'them' : 'it'}: ${plan.skip.enable}`);
    skippedSteps.push({ what: plan.cmd ? `${step.name}: ${plan.skip.what}` : step.name, partly: !!plan.cmd });
    if (!plan.cmd) continue;
  }
  const t0 = Date.now();
  const [cmd, args] = plan?.cmd ?? step.cmd;
  const r = await runStep(cmd, args, { ...baseEnv(), ...step.env });
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
const fullySkipped = skippedSteps.filter((s) => !s.partly).length;
const notRun = failed ? steps.length - passed - failed - fullySkipped : 0;
const stepSkips = skippedSteps.length
  ? `, ${skippedSteps.length} skipped (${skippedSteps.map((s) => s.what).join(', ')})`
  : '';
console.log(`[all] steps: ${passed} passed, ${failed} failed${stepSkips}${notRun ? `, ${notRun} not run` : ''}`);
// A skipped step counts once: how many tests it holds is known only by running it.
const skippedTotal = tests.skipped + skippedSteps.length;
const skippedParts = [
  tests.skipped ? `${tests.skipped} tests` : '',
  skippedSteps.length ? `${skippedSteps.length} steps` : '',
]
  .filter(Boolean)
  .join(', ');
console.log(
  `${tests.passed} passed, ${tests.failed} failed${skippedTotal ? `, ${skippedTotal} skipped (${skippedParts})` : ''}`,
);
process.exit(failed === 0 && tests.failed === 0 ? 0 : 1);
