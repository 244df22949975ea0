// `npm run test:e2e`: drives the packaged extension in a real workbench (code-server + headless
// Chromium) the way a user would. Each scenario is a file test/e2e/<name>.e2e.mjs using node:test;
// the files run one after another, each in its own process with its own code-server.
//
//   node test/harness/e2e.mjs [name-filter ...] [--no-build]
//
// Builds dist/proactive-context.vsix first (npm run package) unless --no-build or PC_SKIP_BUILD=1,
// in which case an existing vsix is used. Screenshots land in test-results/screenshots/, server and
// browser logs in test-results/logs/. PC_E2E_TIMEOUT_S bounds each scenario file (default 600:
// a guard against a hung scenario, with room for a busy machine).

import fs from 'node:fs';
import path from 'node:path';
import { run as runTests } from 'node:test';
import { spec } from 'node:test/reporters';
import { parseArgs } from 'node:util';
import { installVsix, VSIX } from '../e2e/fixture.mjs';
import { REPO_ROOT, ensureTestVSCode, fail, log, makeRunDir, npmRun, runMain } from './vscode-env.mjs';

const E2E_DIR = path.join(REPO_ROOT, 'test', 'e2e');

async function main() {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: { 'no-build': { type: 'boolean', default: false } },
  });
  const started = Date.now();
  const files = fs
    .readdirSync(E2E_DIR)
    .filter((f) => f.endsWith('.e2e.mjs'))
    .filter((f) => positionals.length === 0 || positionals.some((p) => f.includes(p)))
    .sort()
    .map((f) => path.join(E2E_DIR, f));
  if (files.length === 0) fail(`no e2e scenario matches ${positionals.join(' ') || 'test/e2e/*.e2e.mjs'}`);

  const vscode = await ensureTestVSCode();
  if (!values['no-build'] && !process.env.PC_SKIP_BUILD) {
    log('packaging the extension (npm run package)');
    if (npmRun('package') !== 0) fail('npm run package failed');
  } else if (!fs.existsSync(VSIX)) {
    log(`${path.relative(REPO_ROOT, VSIX)} is missing: packaging it (npm run package)`);
    if (npmRun('package') !== 0) fail('npm run package failed');
  }

  // Install once; every scenario copies the installed extension into its own fresh profile.
  const run = makeRunDir('e2e');
  const extensionsDir = run.path('extensions');
  installVsix(vscode, extensionsDir, run);
  log(
    `installed ${path.relative(REPO_ROOT, VSIX)} (${fs.statSync(VSIX).size} bytes); running ${files.length} scenario file(s)`,
  );
  process.env.PC_E2E_EXTENSIONS_DIR = extensionsDir;
  // Scenario processes nest their run folders in ours, so reaping ours catches everything of theirs.
  process.env.PC_HARNESS_RUN = run.dir;

  let passed = 0;
  let failed = 0;
  const stream = runTests({
    files,
    concurrency: 1,
    timeout: Number(process.env.PC_E2E_TIMEOUT_S ?? 600) * 1000,
  });
  stream.on('test:pass', (t) => {
    if (t.nesting === 0 && !t.skip && !t.todo) passed++;
  });
  stream.on('test:fail', (t) => {
    if (t.nesting === 0) failed++;
  });
  for await (const chunk of stream.compose(spec)) process.stdout.write(chunk);

  log(
    `e2e finished in ${((Date.now() - started) / 1000).toFixed(1)} s; screenshots in test-results/screenshots/, logs in test-results/logs/`,
  );
  process.stdout.write(`e2e: ${passed} passed, ${failed} failed\n`);
  return failed === 0 && passed > 0 ? 0 : 1;
}

runMain(main);
