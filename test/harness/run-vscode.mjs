// `npm start [-- <folder>] [-- --port N] [-- --reset] [-- --no-build]`: the product, running in a real
// VS Code in your browser. Builds and packages the extension, installs it into a persistent profile
// (.vscode-test-cache/profile), and serves code-server on http://127.0.0.1:8080 with <folder> open
// (default: a copy of demo-workspace/ in .vscode-test-cache/demo, its git history made by
// demo-workspace/setup.mjs). Stays in the foreground; Ctrl-C stops it.

import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { installVsix, VSIX } from '../e2e/fixture.mjs';
import {
  CACHE_DIR,
  REPO_ROOT,
  ensureTestVSCode,
  fail,
  log,
  makeRunDir,
  npmRun,
  prepareWorkspace,
  runMain,
  spawnGroup,
  waitForHttp,
} from './vscode-env.mjs';

const PROFILE = path.join(CACHE_DIR, 'profile');
const DEMO_COPY = path.join(CACHE_DIR, 'demo');

async function main() {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      port: { type: 'string', default: '8080' },
      host: { type: 'string', default: '127.0.0.1' },
      reset: { type: 'boolean', default: false },
      'no-build': { type: 'boolean', default: false },
    },
  });
  const port = Number(values.port);
  if (!Number.isInteger(port) || port <= 0 || port > 65535) fail(`--port must be a port number, got ${values.port}`);

  if (!values['no-build']) {
    log('building and packaging the extension (npm run package)');
    if (npmRun('package') !== 0) fail('npm run package failed');
  }
  if (!fs.existsSync(VSIX)) fail(`${path.relative(REPO_ROOT, VSIX)} is missing: run npm run package`);
  const vscode = await ensureTestVSCode();

  // Sockets and scratch files go to a short-lived folder; settings, state and extensions persist.
  const run = makeRunDir('start');
  const home = path.join(PROFILE, 'home');
  const env = {
    ...run.env,
    HOME: home,
    XDG_CONFIG_HOME: path.join(home, '.config'),
    XDG_DATA_HOME: path.join(home, '.local', 'share'),
    XDG_CACHE_HOME: path.join(home, '.cache'),
    XDG_STATE_HOME: path.join(home, '.local', 'state'),
  };
  for (const d of [env.XDG_CONFIG_HOME, env.XDG_DATA_HOME, env.XDG_CACHE_HOME, env.XDG_STATE_HOME]) fs.mkdirSync(d, { recursive: true });
  const extensionsDir = path.join(PROFILE, 'extensions');
  const userDataDir = path.join(PROFILE, 'user-data');
  fs.mkdirSync(userDataDir, { recursive: true });
  installVsix(vscode, extensionsDir, { ...run, env });
  log(`installed ${path.relative(REPO_ROOT, VSIX)} into ${path.relative(REPO_ROOT, extensionsDir)}`);

  let folder;
  if (positionals[0]) {
    folder = path.resolve(positionals[0]);
    if (!fs.statSync(folder, { throwIfNoEntry: false })?.isDirectory()) fail(`${folder} is not a folder`);
  } else {
    if (values.reset) fs.rmSync(DEMO_COPY, { recursive: true, force: true });
    if (!fs.existsSync(DEMO_COPY)) {
      log(`creating the demo workspace in ${path.relative(REPO_ROOT, DEMO_COPY)}`);
      prepareWorkspace(DEMO_COPY, { env });
    }
    folder = DEMO_COPY;
  }

  const server = spawnGroup(
    vscode.node,
    [
      vscode.codeServerEntry,
      '--bind-addr', `${values.host}:${port}`,
      '--auth', 'none',
      '--disable-telemetry',
      '--disable-update-check',
      '--disable-workspace-trust',
      '--user-data-dir', userDataDir,
      '--extensions-dir', extensionsDir,
      folder,
    ],
    { env, cwd: folder, echo: true, prefix: 'code-server' },
  );
  await waitForHttp(`http://${values.host}:${port}/healthz`, { timeoutMs: 60_000, proc: server });
  const url = `http://${values.host}:${port}/?folder=${encodeURIComponent(folder)}`;
  process.stdout.write(`\nProactive Context is running in VS Code: ${url}\n(folder ${folder}; Ctrl-C to stop)\n\n`);
  const { code, signal } = await server.exited;
  log(`code-server exited (code ${code}, signal ${signal})`);
  return code ?? 1;
}

runMain(main);
