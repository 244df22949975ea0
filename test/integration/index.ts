// Entry point that VS Code's extension host loads when it runs with `extensionTestsPath` pointing here:
// the same run() contract as @vscode/test-electron, so these tests run under code-server in CI
// (test/harness/integration.mjs) and under a downloaded VS Code elsewhere (integration-electron.mjs).
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as util from 'node:util';
import Mocha from 'mocha';

type Print = (...args: unknown[]) => void;
// Every reporter prints through this one function.
const reporterOutput = Mocha.reporters.Base as unknown as { consoleLog: Print };

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
  const restoreOutput = markOutput(process.env.PC_INTEGRATION_MARK);

  return new Promise<void>((resolve, reject) => {
    try {
      const runner = mocha.run((failures) => {
        const passed = runner.stats?.passes ?? 0;
        reporterOutput.consoleLog(`integration: ${passed} passed, ${failures} failed`);
        if (failures > 0) reject(new Error(`${failures} integration test(s) failed`));
        else if (passed === 0) reject(new Error('no integration test ran'));
        else resolve();
      });
    } catch (err) {
      reject(err);
    }
  }).finally(restoreOutput);
}

function findTests(dir: string): string[] {
  return fs
    .readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.test.js'))
    .sort()
    .map((f) => path.join(dir, f));
}

/**
 * The code-server harness receives the extension host's console mixed with the workbench's own log;
 * a marker on the report's lines lets it show the report and hide the rest. (VS Code makes the
 * extension host's console methods read-only, so the reporter's printer is what gets wrapped.)
 */
function markOutput(mark: string | undefined): () => void {
  const original = reporterOutput.consoleLog;
  if (!mark) return () => {};
  reporterOutput.consoleLog = (...args: unknown[]) => original('%s', mark + util.format(...args));
  return () => {
    reporterOutput.consoleLog = original;
  };
}
