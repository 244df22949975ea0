// The same integration tests as `npm run test:integration`, run by @vscode/test-electron in a
// desktop VS Code that it downloads. For machines that can reach VS Code's download servers (not
// this project's CI, which uses integration.mjs and code-server from npm instead).
//
//   node test/harness/integration-electron.mjs [--version stable|insiders|1.101.0] [--no-build]

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { compileIntegrationTests } from './integration.mjs';
import { REPO_ROOT, fail, log, npmRun, prepareWorkspace, testExtensionFolders } from './vscode-env.mjs';

const { values } = parseArgs({
  options: {
    version: { type: 'string', default: 'stable' },
    'no-build': { type: 'boolean', default: false },
  },
});

if (!values['no-build'] && npmRun('build') !== 0) fail('npm run build failed');
const extensionTestsPath = await compileIntegrationTests();
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'pcx-electron-'));
const workspace = prepareWorkspace(path.join(scratch, 'workspace'));
const { runTests } = await import('@vscode/test-electron');
let code = 0;
try {
  log(`running ${path.relative(REPO_ROOT, extensionTestsPath)} in VS Code ${values.version}`);
  await runTests({
    version: values.version,
    // Desktop VS Code takes several development paths: ours plus the test-only extensions.
    extensionDevelopmentPath: [REPO_ROOT, ...testExtensionFolders()],
    extensionTestsPath,
    launchArgs: [
      workspace,
      '--disable-extensions',
      '--disable-workspace-trust',
      '--user-data-dir',
      path.join(scratch, 'user-data'),
    ],
    extensionTestsEnv: { XDG_STATE_HOME: path.join(scratch, 'state') },
  });
} catch (err) {
  log(`integration tests failed: ${err?.message ?? err}`);
  code = 1;
} finally {
  fs.rmSync(scratch, { recursive: true, force: true });
}
process.exit(code);
