// Shared plumbing for every script that runs a real VS Code on this machine.
//
// VS Code's own download servers are unreachable in CI, so the test VS Code is code-server (VS Code
// 1.139 server + web workbench) from npm, run on Node 24 from npm, with a headless Chromium or Chrome
// as the workbench client. What the machine has is looked up in toolchain.mjs, installed by
// install.mjs. See /shared/docs/vscode-in-ci.md for the facts this relies on.
//
// Everything installed lives in a git-ignored cache at the repo root; every process started lives in
// its own process group and is killed with its whole group, whatever way the harness ends.

import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureTestVSCode } from './install.mjs';
import { HarnessError, REPO_ROOT, fail, findChromium, isAlive, log } from './toolchain.mjs';

export { CACHE_DIR, CODE_SERVER_VERSION, HarnessError, NODE_VERSION, REPO_ROOT, fail, log } from './toolchain.mjs';
export { ensureNode24, ensureTestVSCode, node24Env } from './install.mjs';
export { addTestExtensions, prepareWorkspace, testExtensionFolders } from './workspace.mjs';
export const RESULTS_DIR = path.join(REPO_ROOT, 'test-results');

// The real /tmp, captured before any child environment points TMPDIR elsewhere.
const REAL_TMP = os.tmpdir();

// ---------------------------------------------------------------------------------------------
// Run folders and environments

/**
 * Creates a throw-away folder for one run: home, XDG dirs and tmp for every child, so nothing lands
 * in the real home or /tmp. It sits in the real tmp dir because VS Code puts unix sockets in
 * TMPDIR/XDG_RUNTIME_DIR and socket paths must stay short (108 bytes).
 * Returns { dir, env, path(...), remove() }.
 */
export function makeRunDir(name) {
  // A harness started by another harness (an e2e scenario under the e2e runner) nests its folder in
  // the parent's, so the parent's reapRun also finds the child's processes.
  const parent =
    process.env.PC_HARNESS_RUN && fs.existsSync(process.env.PC_HARNESS_RUN) ? process.env.PC_HARNESS_RUN : REAL_TMP;
  if (parent === REAL_TMP) reapAbandonedRuns();
  const dir = fs.mkdtempSync(path.join(parent, `pcx-${name}-`));
  fs.writeFileSync(path.join(dir, 'owner.pid'), String(process.pid));
  const home = path.join(dir, 'home');
  const tmp = path.join(dir, 'tmp');
  for (const d of [
    home,
    tmp,
    path.join(home, '.config'),
    path.join(home, '.local', 'share'),
    path.join(home, '.cache'),
    path.join(home, '.local', 'state'),
  ]) {
    fs.mkdirSync(d, { recursive: true, mode: 0o700 });
  }
  const env = {
    ...process.env,
    HOME: home,
    XDG_CONFIG_HOME: path.join(home, '.config'),
    XDG_DATA_HOME: path.join(home, '.local', 'share'),
    XDG_CACHE_HOME: path.join(home, '.cache'),
    XDG_STATE_HOME: path.join(home, '.local', 'state'),
    XDG_RUNTIME_DIR: tmp,
    TMPDIR: tmp,
    // Marks every process of this run, so stragglers can be found and reaped (see reapRun).
    PC_HARNESS_RUN: dir,
    // A git identity for commits made in test workspaces (the run's HOME has no .gitconfig).
    GIT_AUTHOR_NAME: 'Harness',
    GIT_AUTHOR_EMAIL: 'harness@example.invalid',
    GIT_COMMITTER_NAME: 'Harness',
    GIT_COMMITTER_EMAIL: 'harness@example.invalid',
  };
  delete env.ELECTRON_RUN_AS_NODE;
  delete env.VSCODE_IPC_HOOK_CLI;
  const run = {
    dir,
    env,
    path: (...parts) => path.join(dir, ...parts),
    /** Kills what is left of the run and deletes its folder (unless PC_KEEP_RUN_DIR is set). */
    remove() {
      if (!runDirs.delete(run)) return;
      reapRun(dir);
      if (process.env.PC_KEEP_RUN_DIR) {
        fs.writeFileSync(path.join(dir, 'kept'), '');
        process.stdout.write(`[harness] keeping run folder ${dir}\n`);
        return;
      }
      try {
        fs.rmSync(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
      } catch (err) {
        process.stderr.write(`[harness] could not remove ${dir}: ${err.message}\n`);
      }
    },
  };
  runDirs.add(run);
  return run;
}

// ---------------------------------------------------------------------------------------------
// Process groups: everything spawned here is killed with its whole group, whatever happens.

const groups = new Map(); // pgid -> label
const runDirs = new Set();
const cleanups = [];

/** Registers an async cleanup (closing a browser, ...) that runs before groups are killed. */
export function onCleanup(fn) {
  cleanups.push(fn);
}

/**
 * Spawns `cmd` in its own process group. Output goes to `logFile` (if given) and, when `echo` is
 * true, to our stdout with a prefix. Returns { child, pid, exited, stop() }; `exited` resolves with
 * { code, signal } when the group leader exits.
 */
export function spawnGroup(cmd, args, { env, cwd, logFile, echo = false, prefix = path.basename(cmd) } = {}) {
  const child = spawn(cmd, args, { env, cwd, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  const out = logFile ? fs.createWriteStream(logFile, { flags: 'a' }) : undefined;
  const forward = (chunk) => {
    out?.write(chunk);
    if (echo) {
      for (const line of chunk.toString().split('\n')) if (line.trim()) process.stdout.write(`[${prefix}] ${line}\n`);
    }
  };
  child.stdout.on('data', forward);
  child.stderr.on('data', forward);
  const exited = new Promise((resolve) => {
    child.on('error', (error) => resolve({ code: null, signal: null, error }));
    child.on('exit', (code, signal) => resolve({ code, signal }));
  });
  void exited.then(() => out?.end());
  if (child.pid) groups.set(child.pid, `${prefix}`);
  return { child, pid: child.pid, exited, stop: () => stopGroup(child.pid) };
}

/** Registers an existing process group (e.g. the browser playwright launched) for cleanup. */
export function adoptGroup(pgid, label) {
  if (pgid) groups.set(pgid, label);
}

export function groupAlive(pgid) {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

/** SIGTERM to the group, then SIGKILL after `graceMs`; resolves when no process of it is left. */
export async function stopGroup(pgid, graceMs = 3000) {
  if (!pgid) return;
  signalGroup(pgid, 'SIGTERM');
  const deadline = Date.now() + graceMs;
  while (groupAlive(pgid) && Date.now() < deadline) await sleep(100);
  if (groupAlive(pgid)) signalGroup(pgid, 'SIGKILL');
  const hard = Date.now() + 5000;
  while (groupAlive(pgid) && Date.now() < hard) await sleep(50);
  groups.delete(pgid);
}

function signalGroup(pgid, signal) {
  try {
    process.kill(-pgid, signal);
  } catch {
    // already gone
  }
}

/**
 * Kills every process that carries this run's marker (or a nested run's) in its environment:
 * children that left their group, e.g. Chromium's helpers or a server's daemons. Synchronous so it
 * also works in 'exit'.
 */
export function reapRun(runDir) {
  const needle = `PC_HARNESS_RUN=${runDir}`;
  let killed = 0;
  for (const entry of safeReaddir('/proc')) {
    const pid = Number(entry);
    if (!Number.isInteger(pid) || pid === process.pid) continue;
    let environ;
    try {
      environ = fs.readFileSync(`/proc/${pid}/environ`, 'latin1');
    } catch {
      continue;
    }
    if (environ.includes(`${needle}\0`) || environ.includes(`${needle}/`)) {
      try {
        process.kill(pid, 'SIGKILL');
        killed++;
      } catch {
        // gone
      }
    }
  }
  return killed;
}

/** Last resort on process exit: SIGKILL every group, reap every run, delete the run folders. */
/**
 * A harness killed with SIGKILL cannot clean up after itself: the next run kills what its run left
 * running and deletes its folder.
 */
function reapAbandonedRuns() {
  for (const entry of safeReaddir(REAL_TMP)) {
    if (!entry.startsWith('pcx-')) continue;
    const dir = path.join(REAL_TMP, entry);
    const owner = Number(readOr(path.join(dir, 'owner.pid'), '0'));
    if (!owner || isAlive(owner) || fs.existsSync(path.join(dir, 'kept'))) continue;
    const killed = reapRun(dir);
    log(`removing abandoned run folder ${dir}${killed ? ` (killed ${killed} leftover processes)` : ''}`);
    fs.rmSync(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
  }
}

export function isExiting() {
  return exiting;
}

function killEverythingSync() {
  for (const pgid of groups.keys()) signalGroup(pgid, 'SIGKILL');
  groups.clear();
  for (const run of [...runDirs]) run.remove();
}

/** Runs registered cleanups, stops every group, reaps stragglers. Safe to call more than once. */
export async function cleanupAll() {
  for (const fn of cleanups.splice(0).reverse()) {
    try {
      await withTimeout(Promise.resolve().then(fn), 10_000, 'cleanup');
    } catch {
      // keep going: the groups still get killed below
    }
  }
  await Promise.all([...groups.keys()].map((pgid) => stopGroup(pgid, 2000)));
  for (const run of runDirs) reapRun(run.dir);
}

let exiting = false;
process.on('exit', killEverythingSync);
for (const [signal, code] of [
  ['SIGINT', 130],
  ['SIGTERM', 143],
  ['SIGHUP', 129],
]) {
  process.on(signal, () => {
    if (exiting) {
      // A second signal: stop waiting for graceful shutdown.
      killEverythingSync();
      process.exit(code);
    }
    exiting = true;
    log(`${signal}: stopping`);
    void cleanupAll().finally(() => process.exit(code));
  });
}

/**
 * Wraps a harness main(): prints HarnessError messages plainly, cleans up on every path and exits
 * with the code main returned.
 */
export function runMain(main) {
  const onFatal = (err) => {
    // Work interrupted by a signal fails on its way out; the signal handler is already exiting.
    if (exiting) return;
    exiting = true;
    if (err instanceof HarnessError) process.stderr.write(`[harness] error: ${err.message}\n`);
    else process.stderr.write(`[harness] unexpected error: ${err?.stack ?? err}\n`);
    void cleanupAll().finally(() => process.exit(1));
  };
  process.on('uncaughtException', onFatal);
  process.on('unhandledRejection', onFatal);
  Promise.resolve()
    .then(main)
    .then(async (code) => {
      if (exiting) return;
      exiting = true;
      await cleanupAll();
      // The 'exit' handler deletes the run folders.
      process.exit(typeof code === 'number' ? code : 0);
    }, onFatal);
}

// ---------------------------------------------------------------------------------------------
// Small helpers

export function sleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

export async function withTimeout(promise, ms, what) {
  let timer;
  try {
    return await Promise.race([
      promise,
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new HarnessError(`${what} timed out after ${Math.round(ms / 1000)} s`)), ms);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/** A TCP port that is free on 127.0.0.1 right now. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** Resolves once `url` answers HTTP at all; rejects on timeout or when `proc` exits first. */
export async function waitForHttp(url, { timeoutMs = 60_000, proc } = {}) {
  const deadline = Date.now() + timeoutMs;
  let exited = false;
  proc?.exited.then(() => {
    exited = true;
  });
  while (Date.now() < deadline) {
    if (exited) fail(`the server exited before ${url} answered`);
    const ok = await new Promise((resolve) => {
      const req = http.get(url, (res) => {
        res.resume();
        resolve(true);
      });
      req.on('error', () => resolve(false));
      req.setTimeout(2000, () => {
        req.destroy();
        resolve(false);
      });
    });
    if (ok) return;
    await sleep(200);
  }
  fail(`${url} did not answer within ${Math.round(timeoutMs / 1000)} s`);
}

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
];

/**
 * Launches headless Chromium (the one toolchain.mjs's findChromium picks) through playwright-core
 * with a fresh profile in the run folder. Returns { context, page, close() }. The browser's process
 * group is registered so it dies with the harness even if playwright cannot close it.
 */
export async function launchChromium(run, { viewport = { width: 1400, height: 900 } } = {}) {
  const browser = findChromium();
  if (!browser.path) fail(`${browser.problem}; ${browser.enable}`);
  const { chromium } = await import('playwright-core');
  const userDataDir = run.path('chromium-profile');
  fs.mkdirSync(userDataDir, { recursive: true });
  // Playwright keeps an artifacts folder in os.tmpdir(): put it in the run folder, so even a
  // harness killed with SIGKILL leaves nothing behind in /tmp once its run folder is reaped.
  const savedTmp = process.env.TMPDIR;
  process.env.TMPDIR = run.env.TMPDIR;
  const context = await chromium
    .launchPersistentContext(userDataDir, {
      executablePath: browser.path,
      headless: true,
      args: CHROMIUM_ARGS,
      env: run.env,
      viewport,
      // We handle signals ourselves (cleanupAll), playwright must not exit the process under us.
      handleSIGINT: false,
      handleSIGTERM: false,
      handleSIGHUP: false,
    })
    .finally(() => {
      if (savedTmp === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = savedTmp;
    });
  for (const pgid of browserGroups(userDataDir)) adoptGroup(pgid, 'chromium');
  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    await withTimeout(context.close(), 10_000, 'closing Chromium').catch(() => {});
  };
  onCleanup(close);
  const page = context.pages()[0] ?? (await context.newPage());
  return { context, page, close };
}

function browserGroups(userDataDir) {
  const found = new Set();
  for (const entry of safeReaddir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cmdline = fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8');
      if (!cmdline.includes(userDataDir)) continue;
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      const pgid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2]);
      if (pgid > 1 && pgid !== process.pid && pgid !== getPgid()) found.add(pgid);
    } catch {
      // process vanished
    }
  }
  return found;
}

let ownPgid;
function getPgid() {
  if (ownPgid === undefined) {
    const stat = fs.readFileSync('/proc/self/stat', 'utf8');
    ownPgid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2]);
  }
  return ownPgid;
}

/**
 * Formats a printf-style argument list as the browser console would (%s %d %i %f %o %O %j %c %%),
 * dropping %c styling.
 */
export function formatPrintf(args) {
  if (!Array.isArray(args) || args.length === 0) return '';
  const [first, ...rest] = args;
  if (typeof first !== 'string') return args.map(show).join(' ');
  let i = 0;
  const head = first.replace(/%([sdifoOjc%])/g, (m, k) => {
    if (k === '%') return '%';
    if (i >= rest.length) return m;
    const value = rest[i++];
    switch (k) {
      case 'c':
        return '';
      case 'd':
      case 'i':
        return String(parseInt(value, 10));
      case 'f':
        return String(parseFloat(value));
      case 's':
        return typeof value === 'string' ? value : show(value);
      default:
        return show(value);
    }
  });
  return [head, ...rest.slice(i).map(show)].join(' ');
}

function show(value) {
  if (typeof value === 'string') return value;
  try {
    return JSON.stringify(value);
  } catch {
    return String(value);
  }
}

/** Runs an npm script of the repo with the repo's own Node, inheriting stdio. Returns the exit code. */
export function npmRun(script, { env = process.env } = {}) {
  const r = spawnSync('npm', ['run', '--silent', script], { cwd: REPO_ROOT, stdio: 'inherit', env });
  if (r.error) fail(`npm run ${script}: ${r.error.message}`);
  return r.status ?? 1;
}

function safeReaddir(dir) {
  try {
    return fs.readdirSync(dir);
  } catch {
    return [];
  }
}

function readOr(file, fallback) {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return fallback;
  }
}

// `node test/harness/vscode-env.mjs` installs (or checks) the test VS Code and prints where it is.
if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  runMain(async () => {
    const paths = await ensureTestVSCode();
    for (const [k, v] of Object.entries(paths)) log(`${k}: ${v}`);
    return 0;
  });
}
