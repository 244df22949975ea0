// `node test/harness/setup.mjs`, the first step of `npm test`: installs what the browser and VS Code
// tests need when it is missing. Node 24 and code-server come from npm into the cache folder (no
// root needed); Chromium and the compilers come from apt-get only in CI or when asked with
// PC_INSTALL_SYSTEM_PACKAGES=1 (install.mjs). In CI anything missing is an error, as CI must run
// every test; elsewhere it is reported here and `npm test` skips the tests that need it.
import { ensureSystemPackages, ensureTestVSCode } from './install.mjs';
import {
  BROWSER_SEARCH,
  fail,
  findChromium,
  inCI,
  log,
  systemInstaller,
  testVSCodeInstalled,
  testVSCodeUnsupported,
  vscodeTestsBlocker,
} from './toolchain.mjs';
import { runMain } from './vscode-env.mjs';

runMain(async () => {
  if (inCI()) {
    await ensureTestVSCode();
    return 0;
  }
  const browser = findChromium();
  if (browser.named) fail(`${browser.problem}; ${browser.enable}`);
  const unsupported = testVSCodeUnsupported();
  if (!unsupported && !systemInstaller().problem) ensureSystemPackages({ buildTools: !testVSCodeInstalled() });
  const blocker = vscodeTestsBlocker();
  if (blocker && !blocker.installable) {
    log(
      `the tests in a real VS Code cannot run here: ${blocker.problem}${browser.path ? '' : ` (looked at ${BROWSER_SEARCH})`}`,
    );
    log(`to run them: ${blocker.enable}`);
    return 0;
  }
  await ensureTestVSCode();
  return 0;
});
