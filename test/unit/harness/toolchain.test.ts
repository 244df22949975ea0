import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';

// The harness is plain JavaScript (test/harness/toolchain.mjs); these are the parts `npm test` uses
// to decide what runs on a machine without a browser or root.
type Found = { path?: string; problem?: string; enable?: string; named?: string };
interface Toolchain {
  findChromium: (env: NodeJS.ProcessEnv, installed?: () => (string | undefined)[]) => Found;
  systemInstaller: (env: NodeJS.ProcessEnv) => { command?: string[]; problem?: string };
  browserTestFiles: (dir: string) => string[];
}

// Compiled to out/test/unit/harness/.
const REPO_ROOT = path.resolve(__dirname, '..', '..', '..', '..');

async function toolchain(): Promise<Toolchain> {
  return (await import(pathToFileURL(path.join(REPO_ROOT, 'test', 'harness', 'toolchain.mjs')).href)) as Toolchain;
}

function executable(dir: string, name: string): string {
  const file = path.join(dir, name);
  fs.writeFileSync(file, '#!/bin/sh\nexit 0\n', { mode: 0o755 });
  return file;
}

describe('test harness toolchain', () => {
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pc-toolchain-'));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  describe('findChromium', () => {
    it('uses the browser PC_CHROMIUM_PATH names before one on PATH', async () => {
      const { findChromium } = await toolchain();
      const named = executable(dir, 'my-chrome');
      fs.mkdirSync(path.join(dir, 'bin'));
      executable(path.join(dir, 'bin'), 'chromium');
      assert.deepEqual(
        findChromium({ PATH: path.join(dir, 'bin'), PC_CHROMIUM_PATH: named }, () => []),
        { path: named },
      );
      assert.deepEqual(
        findChromium({ PATH: path.join(dir, 'bin'), CHROME_PATH: named }, () => []),
        { path: named },
      );
    });

    it('reports a browser variable that names no executable instead of using another browser', async () => {
      const { findChromium } = await toolchain();
      executable(dir, 'chromium');
      const missing = path.join(dir, 'not-there');
      const found = findChromium({ PATH: dir, PC_CHROMIUM_PATH: missing }, () => []);
      assert.equal(found.path, undefined);
      assert.equal(found.named, 'PC_CHROMIUM_PATH');
      assert.match(found.problem ?? '', /PC_CHROMIUM_PATH=.*not-there is not an executable file/);
    });

    it('finds a Chrome on PATH, passing over a file of a browser name that is not executable', async () => {
      const { findChromium } = await toolchain();
      if (process.platform !== 'win32')
        fs.writeFileSync(path.join(dir, 'chromium'), 'not a program\n', { mode: 0o644 });
      const chrome = executable(dir, process.platform === 'win32' ? 'google-chrome.exe' : 'google-chrome');
      assert.deepEqual(
        findChromium({ PATH: dir }, () => []),
        { path: chrome },
      );
    });

    it('falls back to the installed browsers, then says how to get one when there is none', async () => {
      const { findChromium } = await toolchain();
      const installed = executable(dir, 'Google Chrome');
      assert.deepEqual(
        findChromium({ PATH: path.join(dir, 'empty') }, () => [undefined, path.join(dir, 'gone'), installed]),
        { path: installed },
      );
      const none = findChromium({ PATH: path.join(dir, 'empty') }, () => [path.join(dir, 'gone')]);
      assert.equal(none.path, undefined);
      assert.match(none.problem ?? '', /no Chromium or Chrome found/);
      assert.match(none.enable ?? '', /npx playwright-core install chromium/);
      assert.match(none.enable ?? '', /PC_CHROMIUM_PATH/);
    });
  });

  describe('systemInstaller', () => {
    it('installs system packages only in CI or when asked, and only with apt-get', async () => {
      const { systemInstaller } = await toolchain();
      executable(dir, 'apt-get');
      const plain = systemInstaller({ PATH: dir });
      assert.equal(plain.command, undefined);
      const debian = fs.existsSync('/etc/debian_version');
      assert.match(
        plain.problem ?? '',
        debian ? /only in CI \(CI=true\) or with PC_INSTALL_SYSTEM_PACKAGES=1/ : /only on Debian and Ubuntu/,
      );
      for (const asked of [{ CI: 'true' }, { PC_INSTALL_SYSTEM_PACKAGES: '1' }]) {
        const r = systemInstaller({ PATH: dir, ...asked });
        if (!debian) assert.match(r.problem ?? '', /only on Debian and Ubuntu/);
        else if (process.getuid?.() === 0) assert.deepEqual(r, { command: ['apt-get'] });
        else assert.match(r.problem ?? '', /not root and sudo is not on PATH/);
      }
      if (debian)
        assert.match(
          systemInstaller({ PATH: path.join(dir, 'empty'), CI: 'true' }).problem ?? '',
          /apt-get is not on PATH/,
        );
    });
  });

  describe('browserTestFiles', () => {
    it('names the webview test files that open the page, and only those', async () => {
      const { browserTestFiles } = await toolchain();
      const pages = browserTestFiles(path.join(REPO_ROOT, 'test', 'webview'));
      assert.ok(pages.includes('panel.test.mjs'), pages.join(', '));
      assert.ok(!pages.includes('protocol.test.mjs'), pages.join(', '));
      fs.writeFileSync(path.join(dir, 'page.test.mjs'), "const suite = pageSuite('x');\n");
      fs.writeFileSync(path.join(dir, 'node.test.mjs'), "import { buildNodeModules } from './support.mjs';\n");
      fs.writeFileSync(path.join(dir, 'support.mjs'), 'export async function launchBrowser() {}\n');
      assert.deepEqual(browserTestFiles(dir), ['page.test.mjs']);
    });
  });
});
