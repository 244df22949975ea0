// `npm start [-- <folder>] [-- --port N] [-- --reset] [-- --no-build] [-- --profile DIR]`: the product,
// running in a real VS Code in your browser. Builds and packages the extension, installs it into a
// persistent profile (.vscode-test-cache/profile, or DIR), and serves code-server on
// http://127.0.0.1:8080 with <folder> open (default: a copy of demo-workspace/ in the profile's demo/
// folder, its git history made by demo-workspace/setup.mjs). Stays in the foreground; Ctrl-C stops it.
//
// The first screen is the point, not a Welcome page: the profile's settings turn the Welcome page
// off and bring the Suggestions view forward, and on the demo the URL opens src/pricing.ts with the
// cursor on applyDiscount (VS Code's own "open this file at this line" start-up payload).

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

const DEFAULT_PROFILE = path.join(CACHE_DIR, 'profile');
/** Where the demo lands: this file, at this definition. */
const DEMO_FILE = 'src/pricing.ts';
const DEMO_SYMBOL = 'applyDiscount';
/** Set in the profile's user settings unless the user already chose otherwise there. */
const PROFILE_SETTINGS = {
  'workbench.startupEditor': 'none',
  'workbench.secondarySideBar.defaultVisibility': 'hidden',
  'workbench.tips.enabled': false,
  'telemetry.telemetryLevel': 'off',
  'security.workspace.trust.enabled': false,
  'proactiveContext.revealOnStartup': true,
};

async function main() {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      port: { type: 'string', default: '8080' },
      host: { type: 'string', default: '127.0.0.1' },
      reset: { type: 'boolean', default: false },
      'no-build': { type: 'boolean', default: false },
      profile: { type: 'string', default: DEFAULT_PROFILE },
    },
  });
  const profileDir = path.resolve(values.profile);
  const demoCopy = path.join(profileDir, 'demo');
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
  const home = path.join(profileDir, 'home');
  const env = {
    ...run.env,
    HOME: home,
    XDG_CONFIG_HOME: path.join(home, '.config'),
    XDG_DATA_HOME: path.join(home, '.local', 'share'),
    XDG_CACHE_HOME: path.join(home, '.cache'),
    XDG_STATE_HOME: path.join(home, '.local', 'state'),
  };
  for (const d of [env.XDG_CONFIG_HOME, env.XDG_DATA_HOME, env.XDG_CACHE_HOME, env.XDG_STATE_HOME])
    fs.mkdirSync(d, { recursive: true });
  const extensionsDir = path.join(profileDir, 'extensions');
  const userDataDir = path.join(profileDir, 'user-data');
  writeProfileSettings(path.join(userDataDir, 'User', 'settings.json'));
  installVsix(vscode, extensionsDir, { ...run, env });
  log(`installed ${path.relative(REPO_ROOT, VSIX)} into ${path.relative(REPO_ROOT, extensionsDir)}`);

  let folder;
  let openFile;
  if (positionals[0]) {
    folder = path.resolve(positionals[0]);
    if (!fs.statSync(folder, { throwIfNoEntry: false })?.isDirectory()) fail(`${folder} is not a folder`);
  } else {
    if (values.reset) fs.rmSync(demoCopy, { recursive: true, force: true });
    if (!fs.existsSync(demoCopy)) {
      log(`creating the demo workspace in ${path.relative(REPO_ROOT, demoCopy)}`);
      prepareWorkspace(demoCopy, { env });
    }
    folder = demoCopy;
    openFile = definitionPosition(folder, DEMO_FILE, DEMO_SYMBOL);
  }

  const server = spawnGroup(
    vscode.node,
    [
      vscode.codeServerEntry,
      '--bind-addr',
      `${values.host}:${port}`,
      '--auth',
      'none',
      '--disable-telemetry',
      '--disable-update-check',
      '--disable-workspace-trust',
      '--disable-getting-started-override',
      '--user-data-dir',
      userDataDir,
      '--extensions-dir',
      extensionsDir,
      folder,
    ],
    { env, cwd: folder, echo: true, prefix: 'code-server' },
  );
  await waitForHttp(`http://${values.host}:${port}/healthz`, { timeoutMs: 60_000, proc: server });
  const authority = `${values.host}:${port}`;
  let url = `http://${authority}/?folder=${encodeURIComponent(folder)}`;
  if (openFile) {
    const payload = [
      [
        'openFile',
        `vscode-remote://${authority}${path.join(folder, openFile.path)}:${openFile.line}:${openFile.column}`,
      ],
      ['gotoLineMode', 'true'],
    ];
    url += `&payload=${encodeURIComponent(JSON.stringify(payload))}`;
  }
  process.stdout.write(`\nProactive Context is running in VS Code: ${url}\n(folder ${folder}; Ctrl-C to stop)\n\n`);
  const { code, signal } = await server.exited;
  log(`code-server exited (code ${code}, signal ${signal})`);
  return code ?? 1;
}

/** Adds the start-up settings to the profile's settings.json, keeping every value the user set there. */
function writeProfileSettings(file) {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  let current = {};
  if (fs.existsSync(file)) {
    try {
      current = JSON.parse(fs.readFileSync(file, 'utf8'));
    } catch {
      // settings.json may hold comments; then it is the user's to edit and is left alone.
      log(`${file} is not plain JSON; leaving it as it is`);
      return;
    }
  }
  const missing = Object.entries(PROFILE_SETTINGS).filter(([k]) => !(k in current));
  if (missing.length)
    fs.writeFileSync(file, `${JSON.stringify({ ...current, ...Object.fromEntries(missing) }, null, 2)}\n`);
}

/** 1-based line and column of the name in the first line declaring `function <name>` in the file. */
function definitionPosition(folder, file, name) {
  const lines = fs.readFileSync(path.join(folder, file), 'utf8').split('\n');
  const i = lines.findIndex((l) => new RegExp(`\\bfunction\\s+${name}\\b`).test(l));
  if (i < 0) return { path: file, line: 1, column: 1 };
  return { path: file, line: i + 1, column: lines[i].indexOf(name) + 1 };
}

runMain(main);
