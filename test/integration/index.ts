// Entry point that VS Code's extension host loads when it runs with `extensionTestsPath` pointing here:
// the same run() contract as @vscode/test-electron, so these tests run under code-server in CI
// (test/harness/integration.mjs) and under a downloaded VS Code elsewhere (integration-electron.mjs).
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as util from 'node:util';
import Mocha from 'mocha';

export function run(): Promise<void> {
  const mocha = new Mocha({
    ui: 'tdd',
    reporter: 'spec',
    // Output travels through the browser console, which does not render ANSI colours.
    color: false,
    timeout: Number(process.env.PC_INTEGRATION_TEST_TIMEOUT_MS ?? 60_000),
  });
  const grep = process.env.PC_INTEGRATION_GREP;
  if (grep) mocha.grep(grep);
  for (const file of findTests(__dirname)) mocha.addFile(file);
  const restoreConsole = markConsole(process.env.PC_INTEGRATION_MARK);

  return new Promise<void>((resolve, reject) => {
    try {
      const runner = mocha.run((failures) => {
        const passed = runner.stats?.passes ?? 0;
        console.log(`integration: ${passed} passed, ${failures} failed`);
        if (failures > 0) reject(new Error(`${failures} integration test(s) failed`));
        else if (passed === 0) reject(new Error('no integration test ran'));
        else resolve();
      });
    } catch (err) {
      reject(err);
    }
  }).finally(restoreConsole);
}

/**
 * The code-server harness receives the extension host's console mixed with the workbench's own log;
 * a marker on every line written during the run lets it show the tests' output and hide the rest.
 */
function markConsole(mark: string | undefined): () => void {
  if (!mark) return () => {};
  const originals = { log: console.log, info: console.info, warn: console.warn, error: console.error };
  for (const key of Object.keys(originals) as Array<keyof typeof originals>) {
    console[key] = (...args: unknown[]) => originals[key]('%s', mark + util.format(...args));
  }
  return () => Object.assign(console, originals);
}

function findTests(dir: string): string[] {
  return fs
    .readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.test.js'))
    .sort()
    .map((f) => path.join(dir, f));
}
