// `npm run test:conformance`: the MCP project's own conformance suite (@modelcontextprotocol/conformance)
// against `proactive-context mcp --http` from dist/cli.js, on a throw-away workspace and state folder.
//
//   node test/harness/conformance.mjs [--no-build] [--scenario NAME]... [--verbose]
//
// The suite knows nothing of our bearer token: it talks to a small loopback proxy that adds the
// Authorization header and passes everything else through. Host and Origin are kept, except that the
// proxy's own loopback address in Host is turned into the server's, so the suite's rebinding requests
// (Host: evil.example.com) still reach the server's own checks. The suite needs Node 22 or newer: it
// runs on the Node 24 the test VS Code uses (installed into .vscode-test-cache/ when missing).
//
// Environment: PC_SKIP_BUILD=1 (same as --no-build), PC_KEEP_RUN_DIR=1 (keep the run folder).

import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import {
  REPO_ROOT,
  RESULTS_DIR,
  ensureNode24,
  fail,
  log,
  makeRunDir,
  npmRun,
  prepareWorkspace,
  runMain,
  spawnGroup,
  withTimeout,
} from './vscode-env.mjs';

/** The suite's generic server scenarios: the rest test fixtures (test_* tools, prompts) a real server does not have. */
const SCENARIOS = ['server-initialize', 'ping', 'tools-list', 'resources-list', 'dns-rebinding-protection'];
const SUITE = fileURLToPath(import.meta.resolve('@modelcontextprotocol/conformance/dist/index.js'));
const CLI = path.join(REPO_ROOT, 'dist', 'cli.js');
const START_CEILING_MS = 60_000;
const SCENARIO_CEILING_MS = 120_000;
const STOP_CEILING_MS = 30_000;
const LOOPBACK_NAMES = ['127.0.0.1', 'localhost', '[::1]'];

async function main() {
  const { values } = parseArgs({
    options: {
      'no-build': { type: 'boolean', default: false },
      scenario: { type: 'string', multiple: true },
      verbose: { type: 'boolean', default: false },
    },
  });
  const scenarios = values.scenario?.length ? values.scenario : SCENARIOS;
  const node24 = await ensureNode24();
  if (!values['no-build'] && !process.env.PC_SKIP_BUILD) {
    log('building (npm run build)');
    if (npmRun('build') !== 0) fail('npm run build failed');
  }
  if (!fs.existsSync(CLI)) fail('dist/cli.js is missing: run npm run build');

  const run = makeRunDir('conformance');
  const logsDir = path.join(RESULTS_DIR, 'logs');
  fs.mkdirSync(logsDir, { recursive: true });
  const workspace = prepareWorkspace(run.path('workspace'), { env: run.env });
  const server = await startServer(run, workspace, path.join(logsDir, 'conformance-server.log'), values.verbose);
  const proxy = await startTokenProxy(server.port, server.token);
  log(`server at ${server.url}; the suite talks to ${proxy.url}`);

  const results = [];
  try {
    for (const scenario of scenarios) results.push(await runScenario(node24, scenario, proxy.url, run, values.verbose));
  } finally {
    await new Promise((resolve) => proxy.server.close(resolve));
    proxy.server.closeAllConnections();
  }

  // Stopping is part of the contract: SIGTERM closes the sessions and the process exits 0.
  process.kill(server.proc.pid, 'SIGTERM');
  const exit = await withTimeout(server.proc.exited, STOP_CEILING_MS, 'the server stopping on SIGTERM');
  const stoppedCleanly = exit.code === 0;

  log('results:');
  for (const r of results) log(`  ${r.ok ? 'PASS' : 'FAIL'} ${r.scenario}: ${r.summary}`);
  log(`  ${stoppedCleanly ? 'PASS' : 'FAIL'} server exit on SIGTERM: ${exit.code ?? exit.signal}`);
  const passed = results.filter((r) => r.ok).length + (stoppedCleanly ? 1 : 0);
  const failed = results.length + 1 - passed;
  console.log(`conformance: ${passed} passed, ${failed} failed`);
  run.remove();
  return failed === 0 ? 0 : 1;
}

/** Starts `mcp --http --port 0 --json` and reads the URL line; the token comes from the file it names. */
async function startServer(run, workspace, logFile, verbose) {
  fs.writeFileSync(logFile, '');
  const proc = spawnGroup(
    process.execPath,
    [CLI, 'mcp', '--http', '--port', '0', '--json', '--root', workspace, '--state-dir', run.path('state')],
    {
      env: run.env,
      cwd: run.dir,
      logFile,
      echo: verbose,
      prefix: 'server',
    },
  );
  let stdout = '';
  const line = new Promise((resolve, reject) => {
    proc.child.stdout.on('data', (d) => {
      stdout += d;
      const nl = stdout.indexOf('\n');
      if (nl >= 0) resolve(stdout.slice(0, nl));
    });
    void proc.exited.then((e) =>
      reject(new Error(`the server exited (${e.code ?? e.signal}) before printing its URL; see ${logFile}`)),
    );
  });
  const { url, tokenFile } = JSON.parse(await withTimeout(line, START_CEILING_MS, 'the server printing its URL'));
  const token = fs.readFileSync(tokenFile, 'utf8').trim();
  return { proc, url, port: Number(new URL(url).port), token };
}

/** A loopback proxy that adds the bearer token; streams both ways, so server-sent events pass as they come. */
async function startTokenProxy(targetPort, token) {
  const server = http.createServer((req, res) => {
    const headers = { ...req.headers, authorization: `Bearer ${token}` };
    const own = LOOPBACK_NAMES.find((name) => (req.headers.host ?? '').toLowerCase() === `${name}:${proxyPort}`);
    if (own) headers.host = `${own}:${targetPort}`;
    const upstream = http.request(
      { host: '127.0.0.1', port: targetPort, method: req.method, path: req.url, headers },
      (up) => {
        res.writeHead(up.statusCode ?? 502, up.headers);
        up.pipe(res);
      },
    );
    upstream.on('error', (err) => {
      if (!res.headersSent) res.writeHead(502, { 'Content-Type': 'text/plain' });
      res.end(`proxy: ${err.message}`);
    });
    res.on('close', () => upstream.destroy());
    req.pipe(upstream);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const proxyPort = server.address().port;
  return { server, url: `http://127.0.0.1:${proxyPort}/mcp` };
}

/** Runs one scenario with the suite's CLI; passes when it exits 0 and every check it wrote succeeded. */
async function runScenario(node24, scenario, url, run, verbose) {
  const outDir = run.path('results', scenario);
  const logFile = path.join(RESULTS_DIR, 'logs', `conformance-${scenario}.log`);
  fs.writeFileSync(logFile, '');
  log(`scenario ${scenario}`);
  const proc = spawnGroup(node24, [SUITE, 'server', '--url', url, '--scenario', scenario, '-o', outDir], {
    env: run.env,
    cwd: run.dir,
    logFile,
    echo: true,
    prefix: scenario,
  });
  const exit = await withTimeout(proc.exited, SCENARIO_CEILING_MS, `conformance scenario ${scenario}`);
  const checks = readChecks(outDir);
  const bad = checks.filter((c) => c.status !== 'SUCCESS' && c.status !== 'INFO');
  const ok = exit.code === 0 && checks.length > 0 && bad.length === 0;
  const summary =
    `${checks.length - bad.length}/${checks.length} checks, exit ${exit.code ?? exit.signal}` +
    (bad.length
      ? ` — ${bad.map((c) => `${c.id}: ${c.status}${c.errorMessage ? ` (${c.errorMessage})` : ''}`).join('; ')}`
      : '');
  if (verbose || !ok) log(`  ${scenario}: ${summary}`);
  return { scenario, ok, summary };
}

/** Every checks.json the suite wrote under `dir` (it nests them in a folder per scenario and time). */
function readChecks(dir) {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((f) => path.basename(f) === 'checks.json')
    .flatMap((f) => JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8')));
}

runMain(main);
