// `npm run test:integration`: runs test/integration/*.test.ts with mocha INSIDE a real VS Code
// extension host (code-server's VS Code server), the workbench client being headless Chromium.
//
//   node test/harness/integration.mjs [--grep <regex>] [--no-build] [--verbose]
//
// Environment: PC_SKIP_BUILD=1 (same as --no-build), PC_INTEGRATION_TIMEOUT_S (default 900),
// PC_KEEP_RUN_DIR=1 (keep the run folder for inspection), PC_VERBOSE=1 (echo server + browser logs).

import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import {
  REPO_ROOT,
  RESULTS_DIR,
  addTestExtensions,
  ensureTestVSCode,
  fail,
  formatPrintf,
  freePort,
  isExiting,
  launchChromium,
  log,
  makeRunDir,
  npmRun,
  prepareWorkspace,
  runMain,
  spawnGroup,
  waitForHttp,
} from './vscode-env.mjs';

const TESTS_SRC = path.join(REPO_ROOT, 'test', 'integration');
// Not out/test/integration, where `tsc` (typecheck, unit tests) emits the same files: a tsc run of
// older sources must not overwrite what is about to be loaded. Same depth below the repo root, so
// `path.resolve(__dirname, '..', '..', '..')` is the repo in both places.
const TESTS_OUT = path.join(REPO_ROOT, 'out', 'harness', 'integration');
// Prefix (two zero-width spaces) that test/integration/index.ts puts on the tests' console output.
const MARK = '\u200b\u200b';

/** Compiles test/integration/**.ts to out/harness/integration (CommonJS, as the extension host loads it). */
export async function compileIntegrationTests() {
  const esbuild = await import('esbuild');
  const entryPoints = fs
    .readdirSync(TESTS_SRC, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'))
    .map((f) => path.join(TESTS_SRC, f));
  if (!entryPoints.some((f) => path.basename(f) === 'index.ts'))
    fail(`${TESTS_SRC}/index.ts (the run() entry) is missing`);
  // A test deleted from the sources must not linger as a stale .js (the runner globs *.test.js).
  // Only stale files go: another run may be loading the current ones right now.
  const sources = new Set(entryPoints.map((f) => path.relative(TESTS_SRC, f).replace(/\.ts$/, '')));
  if (fs.existsSync(TESTS_OUT)) {
    for (const f of fs.readdirSync(TESTS_OUT, { recursive: true, encoding: 'utf8' })) {
      const stem = f.replace(/\.js(\.map)?$/, '');
      if (stem !== f && !sources.has(stem)) fs.rmSync(path.join(TESTS_OUT, f), { force: true });
    }
  }
  await esbuild.build({
    entryPoints,
    outdir: TESTS_OUT,
    outbase: TESTS_SRC,
    bundle: false,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    sourcemap: 'inline',
    logLevel: 'warning',
  });
  return path.join(TESTS_OUT, 'index.js');
}

async function main() {
  const { values } = parseArgs({
    options: {
      grep: { type: 'string' },
      'no-build': { type: 'boolean', default: false },
      verbose: { type: 'boolean', default: false },
    },
  });
  const verbose = values.verbose || !!process.env.PC_VERBOSE;
  // A guard against a hung run, not a time limit: the suite takes about 160 s on 2 quiet cores and more
  // than 300 s at load 8 (a shared CI machine).
  const timeoutMs = Number(process.env.PC_INTEGRATION_TIMEOUT_S ?? 900) * 1000;
  const started = Date.now();

  const vscode = await ensureTestVSCode();
  if (!values['no-build'] && !process.env.PC_SKIP_BUILD) {
    log('building the extension (npm run build)');
    if (npmRun('build') !== 0) fail('npm run build failed');
  }
  if (!fs.existsSync(path.join(REPO_ROOT, 'dist', 'extension.js')))
    fail('dist/extension.js is missing: run npm run build');
  const testsEntry = await compileIntegrationTests();

  const run = makeRunDir('integration');
  const logsDir = path.join(RESULTS_DIR, 'logs');
  fs.mkdirSync(logsDir, { recursive: true });
  const workspace = prepareWorkspace(run.path('workspace'), { env: run.env });
  // Test-only extensions (test/extensions/*) load as installed extensions next to ours.
  const extras = addTestExtensions(run.path('extensions'));
  if (extras.length) log(`with test extensions: ${extras.map((d) => path.basename(d)).join(', ')}`);
  const port = await freePort();
  const env = { ...run.env };
  env.PC_INTEGRATION_MARK = MARK;
  if (values.grep) env.PC_INTEGRATION_GREP = values.grep;

  log(`starting VS Code server on 127.0.0.1:${port} (workspace ${workspace})`);
  const serverLog = path.join(logsDir, 'integration-server.log');
  fs.writeFileSync(serverLog, '');
  const server = spawnGroup(
    vscode.node,
    [
      vscode.serverMain,
      '--host',
      '127.0.0.1',
      '--port',
      String(port),
      '--without-connection-token',
      '--accept-server-license-terms',
      '--disable-telemetry',
      '--disable-workspace-trust',
      '--enable-smoke-test-driver',
      '--user-data-dir',
      run.path('user-data'),
      '--extensions-dir',
      run.path('extensions'),
      '--server-data-dir',
      run.path('server-data'),
    ],
    { env, cwd: run.dir, logFile: serverLog, echo: verbose, prefix: 'server' },
  );
  await waitForHttp(`http://127.0.0.1:${port}/`, { timeoutMs: 60_000, proc: server });

  const { page } = await launchChromium(run);
  const browserLog = fs.createWriteStream(path.join(logsDir, 'integration-browser.log'));
  page.on('console', (msg) => {
    browserLog.write(`[${msg.type()}] ${msg.text()}\n`);
    if (verbose) process.stdout.write(`[browser:${msg.type()}] ${msg.text()}\n`);
  });
  page.on('pageerror', (err) => browserLog.write(`[pageerror] ${err.stack ?? err}\n`));

  let finish;
  const exitCode = new Promise((resolve) => {
    finish = resolve;
  });
  await page.exposeFunction('codeAutomationLog', (type, args) => {
    const line = formatPrintf(args);
    browserLog.write(`[automation:${type}] ${line}\n`);
    // Lines the tests (and the extension) wrote during the run carry the marker; the rest is the
    // workbench's own log, which is mostly noise offline (open-vsx, GitHub auth, ...).
    const fromTests = line.startsWith(MARK);
    if (fromTests || verbose) {
      (type === 'error' ? process.stderr : process.stdout).write(
        `${fromTests ? line.slice(MARK.length) : `[workbench:${type}] ${line}`}\n`,
      );
    }
  });
  await page.exposeFunction('codeAutomationExit', (code) => finish(Number(code)));

  const remote = (p) => `vscode-remote://127.0.0.1:${port}${p}`;
  const payload = [
    ['extensionDevelopmentPath', remote(REPO_ROOT)],
    ['extensionTestsPath', remote(testsEntry)],
  ];
  const url = `http://127.0.0.1:${port}/?folder=${encodeURIComponent(workspace)}&payload=${encodeURIComponent(JSON.stringify(payload))}`;
  log('opening the workbench; tests run in the extension host');
  await page.goto(url);

  let timer;
  let settled = false;
  const code = await Promise.race([
    exitCode,
    server.exited.then(({ code: c, signal }) => {
      if (settled || isExiting()) return 1;
      log(`VS Code server exited early (code ${c}, signal ${signal}); see ${path.relative(REPO_ROOT, serverLog)}`);
      return 1;
    }),
    new Promise((resolve) => {
      timer = setTimeout(() => {
        log(
          `integration tests did not finish within ${timeoutMs / 1000} s; logs in ${path.relative(REPO_ROOT, logsDir)}`,
        );
        resolve(1);
      }, timeoutMs);
    }),
  ]);
  settled = true;
  clearTimeout(timer);
  browserLog.end();
  if (isExiting()) return code;
  // The extension must run without errors in its own log, whatever the tests asserted.
  const errors = extensionLogErrors(run.path('user-data'));
  if (errors.length) {
    log(
      `the extension logged ${errors.length} error${errors.length === 1 ? '' : 's'}:\n${errors.slice(0, 20).join('\n')}`,
    );
    if (code === 0) log('failing the run for them');
  }
  const result = code === 0 && errors.length ? 1 : code;
  log(
    `integration tests ${result === 0 ? 'passed' : `FAILED (exit ${result})`} in ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );
  if (result !== 0) log(`workbench and server logs: ${path.relative(REPO_ROOT, logsDir)}/integration-*.log`);
  return result;
}

/** `[error]` lines of the extension's LogOutputChannel files under the run's user-data folder. */
function extensionLogErrors(userData) {
  const out = [];
  const visit = (dir) => {
    let entries;
    try {
      entries = fs.readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) visit(p);
      else if (e.name.endsWith('.log') && p.includes(`${path.sep}proactive-context.proactive-context${path.sep}`)) {
        for (const line of fs.readFileSync(p, 'utf8').split('\n')) if (/\[error\]/.test(line)) out.push(line);
      }
    }
  };
  visit(path.join(userData, 'logs'));
  return out;
}

// Run only as a script: integration-electron.mjs imports compileIntegrationTests from here.
if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) runMain(main);
