// `npm run test:stress [-- --rounds N]`: the integration and e2e suites with two busy loops on the
// machine, as on a developer's laptop that is compiling something else. A suite that only passes on
// an idle machine teaches people to ignore red; this run must pass every round.
//
// Builds and packages once, then per round starts two CPU-bound processes, runs the integration
// suite and the e2e suite (each in its own code-server), and stops the loops whatever happens.

import { spawn } from 'node:child_process';
import { parseArgs } from 'node:util';
import { fail, log, npmRun, runMain } from './vscode-env.mjs';

const BUSY_LOOP = 'for (;;) { Math.sqrt(Math.random()); }';

/** Two processes that keep the CPUs busy until stopped. */
function startBusyLoops(n = 2) {
  const loops = Array.from({ length: n }, () => spawn(process.execPath, ['-e', BUSY_LOOP], { stdio: 'ignore' }));
  const stop = () => {
    for (const p of loops) if (p.exitCode === null && p.signalCode === null) p.kill('SIGKILL');
  };
  process.once('exit', stop);
  return { pids: loops.map((p) => p.pid), stop };
}

function runStep(script) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [script], { stdio: 'inherit', env: { ...process.env, PC_SKIP_BUILD: '1' } });
    child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

async function main() {
  const { values } = parseArgs({
    options: { rounds: { type: 'string', default: '1' }, 'no-build': { type: 'boolean', default: false } },
  });
  const rounds = Number(values.rounds);
  if (!Number.isInteger(rounds) || rounds < 1)
    fail(`--rounds must be a whole number of at least 1, got ${values.rounds}`);
  if (!values['no-build']) {
    log('building and packaging the extension (npm run package)');
    if (npmRun('build') !== 0 || npmRun('package') !== 0) fail('the build failed');
  }
  const results = [];
  for (let round = 1; round <= rounds; round++) {
    const busy = startBusyLoops();
    log(`stress round ${round} of ${rounds}: two busy loops running (pids ${busy.pids.join(', ')})`);
    let integration;
    let e2e;
    try {
      integration = await runStep('test/harness/integration.mjs');
      e2e = await runStep('test/harness/e2e.mjs');
    } finally {
      busy.stop();
    }
    results.push({ round, integration, e2e });
    log(
      `stress round ${round}: integration ${integration === 0 ? 'passed' : 'FAILED'}, e2e ${e2e === 0 ? 'passed' : 'FAILED'}`,
    );
  }
  const failed = results.filter((r) => r.integration !== 0 || r.e2e !== 0);
  log(`stress: ${results.length - failed.length} of ${results.length} round(s) passed under two busy loops`);
  return failed.length === 0 ? 0 : 1;
}

runMain(main);
