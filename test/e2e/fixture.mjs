// What every e2e scenario needs: a code-server with the packaged extension installed, a copy of the
// demo workspace, and headless Chromium on the workbench, plus the few workbench gestures scenarios
// share (open our panel, run a palette command, read notifications, take screenshots).
//
// Under the runner (test/harness/e2e.mjs) the extension is installed once and reused; a scenario run
// on its own (`node --test test/e2e/panel.e2e.mjs`) installs dist/proactive-context.vsix itself.

import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import {
  REPO_ROOT,
  RESULTS_DIR,
  addTestExtensions,
  cleanupAll,
  ensureTestVSCode,
  fail,
  freePort,
  launchChromium,
  log,
  makeRunDir,
  prepareWorkspace,
  sleep,
  spawnGroup,
  stopGroup,
  testExtensionFolders,
  waitForHttp,
} from '../harness/vscode-env.mjs';

export const VSIX = path.join(REPO_ROOT, 'dist', 'proactive-context.vsix');
export const SCREENSHOTS_DIR = path.join(RESULTS_DIR, 'screenshots');
export const manifest = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8'));
export const EXTENSION_ID = `${manifest.publisher}.${manifest.name}`;
export const CONTAINER_TITLE = 'Proactive Context';
/** The test-only extension that lets scenarios reach the extension host (test/extensions/e2e-bridge). */
const BRIDGE = 'e2e-bridge';

/** Installs the vsix into `extensionsDir` with code-server's CLI. */
export function installVsix(vscode, extensionsDir, run, vsix = VSIX) {
  if (!fs.existsSync(vsix)) fail(`${path.relative(REPO_ROOT, vsix)} is missing: run npm run package`);
  fs.mkdirSync(extensionsDir, { recursive: true });
  const r = spawnSync(
    vscode.node,
    [
      vscode.codeServerEntry,
      '--extensions-dir',
      extensionsDir,
      '--user-data-dir',
      run.path('install-user-data'),
      '--install-extension',
      vsix,
      '--force',
    ],
    { env: run.env, encoding: 'utf8', timeout: 120_000 },
  );
  if (r.status !== 0)
    fail(`code-server --install-extension failed (exit ${r.status ?? r.signal}):\n${r.stdout}${r.stderr}`);
  if (!fs.readdirSync(extensionsDir).some((d) => d.toLowerCase().startsWith(EXTENSION_ID.toLowerCase()))) {
    fail(`after --install-extension, no ${EXTENSION_ID}-* folder in ${extensionsDir}:\n${r.stdout}${r.stderr}`);
  }
}

const USER_SETTINGS = {
  'workbench.startupEditor': 'none',
  'workbench.tips.enabled': false,
  'workbench.enableExperiments': false,
  'extensions.autoCheckUpdates': false,
  'extensions.autoUpdate': false,
  'extensions.ignoreRecommendations': true,
  'telemetry.telemetryLevel': 'off',
  'update.mode': 'none',
  'security.workspace.trust.enabled': false,
  'git.openRepositoryInParentFolders': 'never',
};

/** Workspace Trust on, with no prompt at start: a fresh profile opens the folder in Restricted Mode. */
const TRUST_SETTINGS = {
  'security.workspace.trust.enabled': true,
  'security.workspace.trust.startupPrompt': 'never',
  'security.workspace.trust.banner': 'never',
};

/**
 * Starts code-server on a fresh profile and a fresh copy of the demo workspace and opens it in
 * Chromium. Returns a Workbench; call close() when done (cleanup also runs on any exit).
 * `testExtensions`: also load test/extensions/* (true) or the named ones (e.g. ['fake-lm']).
 * `restricted`: Workspace Trust on and the folder not trusted (Restricted Mode) instead of trust off.
 * `pathPrepend`: folders put first on PATH for code-server and every process it starts.
 * `workspace`: open this existing folder as it is instead of a fresh copy of the demo (benchmarks).
 * `extraEnv`: more variables for code-server and the extension host (e.g. PC_PERF=1).
 * `machineSettings`: settings of the machine the server runs on (machine-scoped ones are read only there).
 * `readyContainer`: the activity-bar container whose entry says the workbench is ready (ours by default).
 */
export async function startWorkbench({
  name = 'scenario',
  settings = {},
  machineSettings,
  testExtensions = false,
  restricted = false,
  pathPrepend = [],
  workspace: existingWorkspace,
  extraEnv = {},
  readyContainer = CONTAINER_TITLE,
} = {}) {
  const vscode = await ensureTestVSCode();
  const run = makeRunDir(name);
  const env = { ...extraEnv };
  if (pathPrepend.length) {
    env.PATH = [...pathPrepend, run.env.PATH].join(path.delimiter);
    // The server gives the extension host the PATH of a login shell, not its own: the run's HOME
    // profile puts the folders first there too.
    fs.writeFileSync(
      path.join(run.env.HOME, '.profile'),
      `export PATH=${pathPrepend.map(shellQuote).join(':')}:"$PATH"\n`,
    );
  }
  const extensionsDir = run.path('extensions');
  if (process.env.PC_E2E_EXTENSIONS_DIR) {
    fs.cpSync(process.env.PC_E2E_EXTENSIONS_DIR, extensionsDir, { recursive: true });
  } else {
    installVsix(vscode, extensionsDir, run);
  }
  // Test-only extensions from test/extensions/ (true: all of them, or a list of folder names); the
  // bridge into the extension host always (see test/extensions/e2e-bridge).
  const all = testExtensionFolders();
  const wanted = testExtensions === true ? all.map((d) => path.basename(d)) : [...(testExtensions || []), BRIDGE];
  addTestExtensions(
    extensionsDir,
    all.filter((d) => wanted.includes(path.basename(d))),
  );
  const userDataDir = run.path('user-data');
  fs.mkdirSync(path.join(userDataDir, 'User'), { recursive: true });
  fs.writeFileSync(
    path.join(userDataDir, 'User', 'settings.json'),
    JSON.stringify({ ...USER_SETTINGS, ...(restricted ? TRUST_SETTINGS : {}), ...settings }, null, 2),
  );
  if (machineSettings) {
    fs.mkdirSync(path.join(userDataDir, 'Machine'), { recursive: true });
    fs.writeFileSync(path.join(userDataDir, 'Machine', 'settings.json'), JSON.stringify(machineSettings, null, 2));
  }
  const workspace = existingWorkspace ?? prepareWorkspace(run.path('workspace'), { env: run.env });
  const bridgeFile = run.path('bridge.json');

  const port = await freePort();
  const logsDir = path.join(RESULTS_DIR, 'logs');
  fs.mkdirSync(logsDir, { recursive: true });
  const serverLog = path.join(logsDir, `e2e-${name}-server.log`);
  fs.writeFileSync(serverLog, '');
  const server = spawnGroup(
    vscode.node,
    [
      vscode.codeServerEntry,
      '--bind-addr',
      `127.0.0.1:${port}`,
      '--auth',
      'none',
      '--disable-telemetry',
      '--disable-update-check',
      ...(restricted ? [] : ['--disable-workspace-trust']),
      '--disable-getting-started-override',
      '--user-data-dir',
      userDataDir,
      '--extensions-dir',
      extensionsDir,
      workspace,
    ],
    {
      env: { ...run.env, ...env, PC_E2E_BRIDGE_FILE: bridgeFile },
      cwd: run.dir,
      logFile: serverLog,
      echo: !!process.env.PC_VERBOSE,
      prefix: `code-server:${name}`,
    },
  );
  const url = `http://127.0.0.1:${port}/?folder=${encodeURIComponent(workspace)}`;
  await waitForHttp(`http://127.0.0.1:${port}/healthz`, { timeoutMs: 60_000, proc: server });

  const browser = await launchChromium(run);
  const { page } = browser;
  const browserLog = fs.createWriteStream(path.join(logsDir, `e2e-${name}-browser.log`));
  page.on('console', (msg) => browserLog.write(`[${msg.type()}] ${msg.text()}\n`));
  page.on('pageerror', (err) => browserLog.write(`[pageerror] ${err.stack ?? err}\n`));
  const openedAt = Date.now();
  await page.goto(url);
  const wb = new Workbench({ page, run, server, workspace, url, name, bridgeFile });
  wb.openedAt = openedAt;
  await wb.waitReady(60_000, readyContainer);
  wb.closeHooks.push(async () => {
    await browser.close();
    browserLog.end();
    await stopGroup(server.pid);
    run.remove();
  });
  return wb;
}

export class Workbench {
  constructor({ page, run, server, workspace, url, name, bridgeFile }) {
    Object.assign(this, { page, run, server, workspace, url, name, bridgeFile });
    this.closeHooks = [];
    this.shots = 0;
  }

  // ---- the extension host, through the test bridge (test/extensions/e2e-bridge)

  /**
   * Calls the bridge: `command`, `open`, `api`, `waitPanel`, `problems`, `waitProblems` (see the
   * bridge's header). Waits for the bridge to have started (it writes its port when it has).
   */
  async bridge(route, body = {}, { timeoutMs = 60_000 } = {}) {
    const deadline = Date.now() + timeoutMs;
    while (!fs.existsSync(this.bridgeFile)) {
      if (Date.now() > deadline) throw new Error('the e2e bridge extension never started (no bridge.json)');
      await sleep(100);
    }
    const { port, token } = JSON.parse(fs.readFileSync(this.bridgeFile, 'utf8'));
    const res = await fetch(`http://127.0.0.1:${port}/${route}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-bridge-token': token },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(timeoutMs),
    });
    const answer = await res.json();
    if (!answer.ok) throw new Error(`bridge /${route} ${JSON.stringify(body)}: ${answer.error}`);
    return answer.value;
  }

  /** The extension's state folder for the workspace: $XDG_STATE_HOME/proactive-context/<hash of the real path>. */
  stateDir() {
    const key = createHash('sha256').update(fs.realpathSync(this.workspace)).digest('hex').slice(0, 16);
    return path.join(this.run.env.XDG_STATE_HOME, 'proactive-context', key);
  }

  /** Subscriptions as the CLI (dist/cli.js) reads them from the extension's state folder: what another process sees. */
  cliSubscriptions() {
    const cli = path.join(REPO_ROOT, 'dist', 'cli.js');
    const r = spawnSync(
      process.execPath,
      [cli, 'subscriptions', '--root', this.workspace, '--state-dir', this.stateDir(), '--json'],
      { env: this.run.env, encoding: 'utf8', timeout: 30_000 },
    );
    if (r.status !== 0) throw new Error(`proactive-context subscriptions failed: ${r.stderr}`);
    return JSON.parse(r.stdout);
  }

  /** Runs a command in the extension host (not through the palette). */
  executeCommand(command, ...args) {
    return this.bridge('command', { command, args });
  }

  /** Opens a workspace file with the cursor at a 1-based line and column, and waits for its tab. */
  async openAt(relPath, line = 1, column = 1) {
    await this.bridge('open', { path: relPath, line, column });
    await this.waitForActiveTab(path.posix.basename(relPath));
  }

  /** Waits until the extension's panel state matches (phase, file, symbol, itemType, itemTitle regex). */
  waitForPanelState(query, timeoutMs = 60_000) {
    return this.bridge('waitPanel', { ...query, timeoutMs }, { timeoutMs: timeoutMs + 5_000 });
  }

  /** Waits for the workbench DOM and for our activity-bar entry (contributions are registered). */
  async waitReady(timeoutMs = 60_000, container = CONTAINER_TITLE) {
    await this.page.locator('.monaco-workbench').waitFor({ state: 'visible', timeout: timeoutMs });
    await this.activityBarItem(container).waitFor({ state: 'visible', timeout: timeoutMs });
  }

  activityBarItem(title = CONTAINER_TITLE) {
    return this.page.locator(`.part.activitybar .action-item a.action-label[aria-label^="${title}"]`).first();
  }

  /** Opens our activity-bar container (does not toggle it closed when it is already open). */
  async openContainer(title = CONTAINER_TITLE) {
    // After a reload the title may be in the DOM while the side bar is still hidden: only a
    // visible title counts as open, and a click that toggled it closed is undone.
    const ours = this.page.locator('.part.sidebar .composite.title h2', { hasText: new RegExp(title, 'i') });
    const deadline = Date.now() + 20_000;
    while (!(await ours.isVisible().catch(() => false))) {
      if (Date.now() > deadline) throw new Error(`the ${title} container did not open within 20 s`);
      // A count or progress badge may cover the icon and take the click: it is part of the same
      // activity-bar item, whose handler sees the click either way.
      await this.activityBarItem(title).click({ force: true });
      await ours.waitFor({ state: 'visible', timeout: 3_000 }).catch(() => {});
    }
  }

  /**
   * Waits until the view `name` shows in the side bar: as a section header when the container has
   * several views, or in the container's title when it is the only one (its header is hidden then).
   */
  async waitForView(name, timeoutMs = 20_000) {
    const sidebar = this.page.locator('.part.sidebar');
    const header = sidebar.locator(`.pane-header:not(.hidden)[aria-label^="${name}"]`);
    const title = sidebar.locator('.composite.title h2', { hasText: name });
    await header.or(title).first().waitFor({ state: 'visible', timeout: timeoutMs });
  }

  /**
   * The body of our webview view. The content lives two iframes deep: the outer
   * `iframe.webview.ready` (one per webview, tagged with the extension id) and the inner
   * `#active-frame`.
   */
  webviewBody(extensionId = EXTENSION_ID) {
    return this.page
      .frameLocator(`iframe.webview.ready[src*="extensionId=${extensionId}"]`)
      .frameLocator('#active-frame')
      .locator('body');
  }

  /** Waits until the webview's body shows text; returns that text. */
  async webviewText({ timeoutMs = 30_000, extensionId } = {}) {
    const body = this.webviewBody(extensionId);
    await body.waitFor({ state: 'visible', timeout: timeoutMs });
    const deadline = Date.now() + timeoutMs;
    let text = '';
    while (Date.now() < deadline) {
      text = (await body.innerText().catch(() => '')).trim();
      if (text) return text;
      await sleep(250);
    }
    throw new Error(`the webview showed no text within ${timeoutMs / 1000} s`);
  }

  /** Runs a command through the palette (F1, type, Enter), as a user would. */
  async runCommand(label, { timeoutMs = 15_000, awaitClose = true } = {}) {
    const input = this.page.locator('.quick-input-widget .quick-input-box input');
    // Keys typed while focus is inside a webview iframe do not reach the workbench reliably.
    await this.page.locator('.part.editor').click();
    await this.page.keyboard.press('F1');
    await input.waitFor({ state: 'visible', timeout: timeoutMs });
    await input.fill(`>${label}`);
    const row = this.page.locator('.quick-input-widget .monaco-list-row', { hasText: label }).first();
    await row.waitFor({ state: 'visible', timeout: timeoutMs });
    // Click the row: Enter would run whichever command the palette ranks first.
    await row.click();
    // A command that opens a quick pick of its own keeps the widget up: `awaitClose: false`.
    if (awaitClose) await input.waitFor({ state: 'hidden', timeout: timeoutMs });
  }

  /** Texts of the notification toasts showing now, with their severity. */
  async notifications() {
    return this.page.locator('.notifications-toasts .notification-toast').evaluateAll((toasts) =>
      toasts.map((t) => {
        const icon = t.querySelector('.notification-list-item-icon');
        const cls = icon ? icon.className : '';
        const severity = /codicon-error/.test(cls) ? 'error' : /codicon-warning/.test(cls) ? 'warning' : 'info';
        const message =
          t.querySelector('.notification-list-item-message')?.textContent?.trim() ?? t.textContent?.trim() ?? '';
        return { severity, message };
      }),
    );
  }

  async errorNotifications() {
    return (await this.notifications()).filter((n) => n.severity === 'error');
  }

  // ---- editor gestures

  /** Moves keyboard focus to the editor area without moving the cursor (clicks the active tab). */
  async focusEditor() {
    const tab = this.page.locator('.part.editor .tab.active');
    if ((await tab.count()) > 0) await tab.first().click();
    else await this.page.locator('.part.editor').click();
    // A pointer left on the tab opens its hover a moment later, which takes Quick Open's input away
    // (seen as an inert, then hidden, input): park it low in the editor, below the text.
    const box = await this.page.locator('.part.editor').boundingBox();
    if (box) await this.page.mouse.move(box.x + box.width / 2, box.y + box.height - 8);
  }

  /** Opens a workspace file with Quick Open (Ctrl+P, type, Enter) and waits for its tab to be active. */
  async quickOpen(relPath, { timeoutMs = 20_000 } = {}) {
    const input = this.page.locator('.quick-input-widget .quick-input-box input');
    const base = path.posix.basename(relPath);
    const dir = path.posix.dirname(relPath);
    // The workbench may close a fresh picker while it is still restoring (after a start or a
    // reload): try again then.
    for (let attempt = 1; ; attempt++) {
      try {
        await this.focusEditor();
        await this.page.keyboard.press('Control+P');
        await input.waitFor({ state: 'visible', timeout: 5_000 });
        await input.fill(relPath, { timeout: 5_000 });
        const rows = this.page.locator('.quick-input-widget .monaco-list-row', { hasText: base });
        const row = dir === '.' ? rows.first() : rows.filter({ hasText: dir }).first();
        await row.waitFor({ state: 'visible', timeout: timeoutMs });
        await row.click({ timeout: 5_000 });
        await input.waitFor({ state: 'hidden', timeout: 5_000 });
        break;
      } catch (err) {
        // A modal dialog makes the rest of the workbench inert: say what it was and dismiss it.
        const dialog = await this.dismissDialog();
        if (attempt >= 4) {
          await this.screenshot('quick-open-failed').catch(() => {});
          if (dialog) err.message += ` (a dialog was open: ${dialog})`;
          throw err;
        }
        await this.page.keyboard.press('Escape').catch(() => {});
        await sleep(500 * attempt);
      }
    }
    await this.waitForActiveTab(base, timeoutMs);
  }

  /** Closes a modal dialog of the workbench, if one is open, and returns its text. */
  async dismissDialog() {
    const box = this.page.locator('.monaco-dialog-box');
    if (
      !(await box
        .first()
        .isVisible()
        .catch(() => false))
    )
      return undefined;
    const text = (
      (await box
        .first()
        .innerText()
        .catch(() => '')) || ''
    )
      .replace(/\s+/g, ' ')
      .trim()
      .slice(0, 300);
    process.stderr.write(`[e2e] closing a dialog the workbench opened: ${text}\n`);
    await this.page.keyboard.press('Escape').catch(() => {});
    if (
      await box
        .first()
        .isVisible()
        .catch(() => false)
    )
      await box
        .first()
        .locator('.dialog-buttons .monaco-button')
        .last()
        .click({ timeout: 2_000 })
        .catch(() => {});
    return text;
  }

  /**
   * Go to Line (Ctrl+G, type the number, Enter) in the focused editor. `beforeEnter` runs right
   * before the Enter key goes down (to start a clock).
   */
  async goToLine(line, { beforeEnter, timeoutMs = 10_000 } = {}) {
    const input = this.page.locator('.quick-input-widget .quick-input-box input');
    for (let attempt = 1; ; attempt++) {
      try {
        await this.page.keyboard.press('Control+G');
        await input.waitFor({ state: 'visible', timeout: 5_000 });
        await this.page.keyboard.type(String(line));
        // Keys typed while the picker is still taking focus can be lost; set the value directly then.
        if ((await input.inputValue({ timeout: 5_000 })) !== `:${line}`)
          await input.fill(`:${line}`, { timeout: 5_000 });
        // Enter does nothing until the picker has turned the typed text into its "Go to line" row.
        const deadline = Date.now() + 5_000;
        while ((await input.inputValue({ timeout: 5_000 })) !== `:${line}`) {
          if (Date.now() > deadline)
            throw new Error(`Go to Line shows ${JSON.stringify(await input.inputValue())}, expected ":${line}"`);
          await sleep(20);
        }
        await this.page
          .locator('.quick-input-widget .monaco-list-row', { hasText: String(line) })
          .first()
          .waitFor({ state: 'visible', timeout: timeoutMs });
        break;
      } catch (err) {
        if (attempt >= 5) throw err;
        await this.page.keyboard.press('Escape').catch(() => {});
        await sleep(300);
        await this.focusEditor();
      }
    }
    await beforeEnter?.();
    await this.page.keyboard.press('Enter');
    await input.waitFor({ state: 'hidden', timeout: timeoutMs });
  }

  /** The active editor tab's title (its label, e.g. "pricing.ts" or a diff editor's title). */
  async activeTabTitle() {
    const tab = this.page.locator('.part.editor .editor-group-container.active .tab.active').first();
    if ((await tab.count()) === 0) return '';
    const label = (await tab.getAttribute('aria-label').catch(() => '')) ?? '';
    return label.trim() || (await tab.innerText().catch(() => '')).trim();
  }

  /** Waits until the active tab's title contains `text` (a string or RegExp); returns the title. */
  async waitForActiveTab(text, timeoutMs = 20_000) {
    const deadline = Date.now() + timeoutMs;
    let title = '';
    while (Date.now() < deadline) {
      title = await this.activeTabTitle();
      if (typeof text === 'string' ? title.includes(text) : text.test(title)) return title;
      await sleep(50);
    }
    throw new Error(
      `the active editor tab is ${JSON.stringify(title)}, expected one matching ${text} within ${timeoutMs / 1000} s`,
    );
  }

  /** The cursor line the status bar shows ("Ln 18, Col 1" → 18), or undefined. */
  async statusBarLine() {
    const item = this.page.locator('.part.statusbar [id="status.editor.selection"]').first();
    if ((await item.count()) === 0) return undefined;
    const m = /Ln (\d+)/.exec(await item.innerText().catch(() => ''));
    return m ? Number(m[1]) : undefined;
  }

  async waitForStatusBarLine(line, timeoutMs = 10_000) {
    const deadline = Date.now() + timeoutMs;
    let seen;
    while (Date.now() < deadline) {
      seen = await this.statusBarLine();
      if (seen === line) return;
      await sleep(50);
    }
    throw new Error(`the status bar shows line ${seen}, expected ${line}`);
  }

  // ---- the Suggestions panel

  /** The inner frame of our webview as a playwright Frame (for waitForFunction inside it). */
  async panelFrame({ timeoutMs = 30_000, extensionId = EXTENSION_ID } = {}) {
    const body = this.webviewBody(extensionId);
    await body.waitFor({ state: 'attached', timeout: timeoutMs });
    const inner = await this.page
      .frameLocator(`iframe.webview.ready[src*="extensionId=${extensionId}"]`)
      .locator('#active-frame')
      .elementHandle({ timeout: timeoutMs });
    const frame = await inner?.contentFrame();
    if (!frame) throw new Error('could not find the Suggestions webview frame');
    return frame;
  }

  /** The panel's state as the page shows it: phase, header file/symbol and the items drawn. */
  async panelSnapshot() {
    const body = this.webviewBody();
    return body.evaluate((b) => ({
      phase: b.dataset.phase ?? '',
      itemCount: Number(b.dataset.itemCount ?? 0),
      file: b.querySelector('.header-file')?.getAttribute('title') ?? '',
      symbol: b.querySelector('.header-symbol .header-name')?.textContent ?? '',
      items: Array.from(b.querySelectorAll('.item')).map((el) => {
        const title = el.querySelector('.item-title');
        // The "new" marker sits inside the title for items not seen before; it is not part of the title.
        const marker = title?.querySelector('.new-marker');
        return {
          entityId: el.getAttribute('data-entity-id'),
          type: el.getAttribute('data-type'),
          title: Array.from(title?.childNodes ?? [])
            .filter((n) => n !== marker)
            .map((n) => n.textContent)
            .join(''),
          isNew: !!marker,
          tooltip: el.getAttribute('title') ?? '',
        };
      }),
    }));
  }

  /**
   * Waits until the panel is ready with items for `symbol` (and `file`, when given) and returns the
   * snapshot.
   */
  async waitForPanelItems({ symbol, file, timeoutMs = 30_000 } = {}) {
    const deadline = Date.now() + timeoutMs;
    let snap;
    while (Date.now() < deadline) {
      snap = await this.panelSnapshot().catch(() => undefined);
      if (
        snap &&
        snap.phase === 'ready' &&
        snap.items.length > 0 &&
        (!symbol || snap.symbol === symbol) &&
        (!file || snap.file === file)
      )
        return snap;
      await sleep(50);
    }
    throw new Error(
      `the panel did not show items for ${file ?? ''} ${symbol ?? ''} within ${timeoutMs / 1000} s; last: ${JSON.stringify(snap)}`,
    );
  }

  /** The row of the item `entityId` in the panel. */
  panelItem(entityId) {
    return this.webviewBody().locator(`.item[data-entity-id="${cssEscape(entityId)}"]`);
  }

  /** Switches the colour theme (its settings id, e.g. "Default Dark Modern") with "Preferences: Color Theme". */
  async setColorTheme(name, { timeoutMs = 15_000 } = {}) {
    await this.runCommand('Preferences: Color Theme', { awaitClose: false });
    const input = this.page.locator('.quick-input-widget .quick-input-box input');
    // The picker labels the built-in themes without their "Default " prefix (the settings id keeps it).
    // Typing in the picker also searches the (unreachable) marketplace: pick from the installed list.
    const label = name.replace(/^Default /, '');
    const row = this.page
      .locator('.quick-input-widget .monaco-list-row', {
        has: this.page.locator('.label-name', { hasText: new RegExp(`^${label}$`) }),
      })
      .first();
    await row.waitFor({ state: 'visible', timeout: timeoutMs });
    await row.click();
    await input.waitFor({ state: 'hidden', timeout: timeoutMs });
  }

  /** Writes keys into the user settings.json (read at start; edits while running are not always seen). */
  setUserSettings(patch) {
    const file = this.run.path('user-data', 'User', 'settings.json');
    const current = JSON.parse(fs.readFileSync(file, 'utf8'));
    fs.writeFileSync(file, JSON.stringify({ ...current, ...patch }, null, 2));
  }

  /** Waits for a quick pick whose title contains `title`; returns the text of each of its rows. */
  async quickPickRows(title, { timeoutMs = 15_000 } = {}) {
    const widget = this.page.locator('.quick-input-widget');
    await widget.locator('.quick-input-title', { hasText: title }).waitFor({ state: 'visible', timeout: timeoutMs });
    await widget.locator('.monaco-list-row').first().waitFor({ state: 'visible', timeout: timeoutMs });
    return (await widget.locator('.monaco-list-row').allInnerTexts()).map((t) => t.replace(/\s+/g, ' ').trim());
  }

  /** Closes the open quick pick (Escape) and waits for it to go. */
  async closeQuickPick({ timeoutMs = 10_000 } = {}) {
    await this.page.keyboard.press('Escape');
    await this.page.locator('.quick-input-widget').waitFor({ state: 'hidden', timeout: timeoutMs });
  }

  /** Waits for a notification toast whose message matches `text`; returns its message. */
  async waitForNotification(text, { timeoutMs = 15_000 } = {}) {
    const deadline = Date.now() + timeoutMs;
    let seen = [];
    while (Date.now() < deadline) {
      seen = await this.notifications();
      const hit = seen.find((n) => (typeof text === 'string' ? n.message.includes(text) : text.test(n.message)));
      if (hit) return hit.message;
      await sleep(100);
    }
    throw new Error(`no notification matching ${text} within ${timeoutMs / 1000} s; showing: ${JSON.stringify(seen)}`);
  }

  /** Saves a screenshot under test-results/screenshots/ and returns its path. */
  async screenshot(label) {
    fs.mkdirSync(SCREENSHOTS_DIR, { recursive: true });
    const file = path.join(SCREENSHOTS_DIR, `${this.name}-${String(++this.shots).padStart(2, '0')}-${label}.png`);
    await this.page.screenshot({ path: file });
    return file;
  }

  async close() {
    for (const hook of this.closeHooks.splice(0).reverse()) await hook();
  }
}

function shellQuote(value) {
  return `'${String(value).replace(/'/g, `'\\''`)}'`;
}

function cssEscape(value) {
  return String(value).replace(/["\\]/g, '\\$&');
}

/** For scenario files: make sure nothing outlives the test file even when a test throws. */
export async function closeAll() {
  await cleanupAll();
}

export { log };
