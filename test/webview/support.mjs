// Shared set-up for the Suggestions page tests: builds the page bundle and the Node-side modules with
// esbuild, serves the page under its real content security policy from 127.0.0.1, and drives it in
// headless Chromium with a stand-in for the VS Code webview API.

import * as esbuild from 'esbuild';
import { chromium } from 'playwright-core';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { themeCss } from './themes.mjs';

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const SCREENSHOT_DIR = path.join(REPO_ROOT, 'test-results', 'screenshots');
const CHROMIUM_PATH = process.env.PC_CHROMIUM_PATH ?? '/usr/bin/chromium';
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
];

/** Bundles the host-side modules the tests use in Node (no `vscode` in any of them). */
export async function buildNodeModules(outDir) {
  await esbuild.build({
    absWorkingDir: REPO_ROOT,
    entryPoints: {
      protocol: 'src/shared/protocol.ts',
      panelModel: 'src/vscode/views/panelModel.ts',
      panelHtml: 'src/vscode/views/panelHtml.ts',
    },
    outdir: outDir,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    logLevel: 'silent',
  });
  const load = (name) => import(pathToFileURL(path.join(outDir, `${name}.mjs`)).href);
  return { protocol: await load('protocol'), panelModel: await load('panelModel'), panelHtml: await load('panelHtml') };
}

/** Bundles the page exactly as esbuild.mjs does for dist/webview.js. */
export async function buildPageBundle(outFile) {
  await esbuild.build({
    absWorkingDir: REPO_ROOT,
    entryPoints: ['src/webview/main.ts'],
    outfile: outFile,
    bundle: true,
    platform: 'browser',
    format: 'iife',
    target: 'es2022',
    logLevel: 'silent',
  });
}

/**
 * Serves /panel-<theme>.html (the provider's HTML with a fresh nonce per load), the bundle, the
 * codicon assets and the panel CSS. Returns { origin, setInitialState, close }.
 */
export async function startServer({ bundleFile, panelHtml }) {
  const codicons = path.join(REPO_ROOT, 'node_modules', '@vscode', 'codicons', 'dist');
  const files = {
    '/dist/webview.js': [bundleFile, 'text/javascript'],
    '/dist/media/codicon.css': [path.join(codicons, 'codicon.css'), 'text/css'],
    '/dist/media/codicon.ttf': [path.join(codicons, 'codicon.ttf'), 'font/ttf'],
    '/media/panel.css': [path.join(REPO_ROOT, 'media', 'panel.css'), 'text/css'],
  };
  let origin = '';
  let loads = 0;
  // What the host would inline in the pages served next (undefined: none).
  let initialState;
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', origin || 'http://127.0.0.1');
    const page = /^\/panel-(light|dark|hc)\.html$/.exec(url.pathname);
    const theme = /^\/theme-(light|dark|hc)\.css$/.exec(url.pathname);
    if (page) {
      loads++;
      const html = panelHtml.panelHtml({
        cspSource: origin,
        nonce: `n${loads}x${Math.random().toString(36).slice(2)}`,
        scriptUri: `${origin}/dist/webview.js`,
        stylesheetUris: [
          `${origin}/dist/media/codicon.css`,
          `${origin}/theme-${page[1]}.css`,
          `${origin}/media/panel.css`,
        ],
        initialState: initialState && { state: initialState.state, load: initialState.load },
      });
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
      res.end(html);
    } else if (theme) {
      res.writeHead(200, { 'content-type': 'text/css' });
      res.end(themeCss(theme[1]));
    } else if (url.pathname === '/compare.html') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(compareHtml(url.searchParams.getAll('frame')));
    } else if (files[url.pathname]) {
      const [file, type] = files[url.pathname];
      res.writeHead(200, { 'content-type': type });
      fs.createReadStream(file).pipe(res);
    } else {
      res.writeHead(404);
      res.end();
    }
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${server.address().port}`;
  return {
    origin,
    // `load` names the page made: the same load is the same page shown again.
    setInitialState: (state, load = 'load-1') => {
      initialState = state === undefined ? undefined : { state, load };
    },
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

function compareHtml(frames) {
  const cells = frames
    .map(
      (f, i) =>
        `<figure><figcaption>${['Light', 'Dark', 'Dark'][i] ?? ''}</figcaption><iframe name="f${i}" src="/panel-${f}.html"></iframe></figure>`,
    )
    .join('');
  return `<!DOCTYPE html><html><head><style>
    body { margin: 0; padding: 12px; background: #777; display: flex; gap: 12px; font: 12px sans-serif; color: #fff; }
    figure { margin: 0; } figcaption { margin-bottom: 4px; }
    iframe { width: 300px; height: 640px; border: 0; display: block; }
  </style></head><body>${cells}</body></html>`;
}

/** The stand-in for VS Code's webview API, installed before the page's own script runs. */
function fakeVsCodeApi() {
  window.__posted = [];
  window.__cspViolations = [];
  window.__dialogs = 0;
  window.alert = () => {
    window.__dialogs++;
  };
  window.addEventListener('securitypolicyviolation', (e) =>
    window.__cspViolations.push(`${e.violatedDirective} ${e.blockedURI}`),
  );
  let acquired = false;
  window.acquireVsCodeApi = () => {
    if (acquired) throw new Error('An instance of the VS Code API has already been acquired');
    acquired = true;
    return {
      postMessage: (m) => window.__posted.push(JSON.parse(JSON.stringify(m))),
      getState: () => {
        const s = sessionStorage.getItem('vscode-webview-state');
        return s === null ? undefined : JSON.parse(s);
      },
      setState: (s) => {
        sessionStorage.setItem('vscode-webview-state', JSON.stringify(s));
        return s;
      },
    };
  };
}

export async function launchBrowser() {
  const userDataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pc-webview-chromium-'));
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: CHROMIUM_ARGS,
    viewport: { width: 320, height: 720 },
  });
  await context.addInitScript(fakeVsCodeApi);
  return {
    context,
    close: async () => {
      await context.close();
      fs.rmSync(userDataDir, { recursive: true, force: true });
    },
  };
}

/** Opens the page, records dialogs, and waits until it has said `ready`. */
export async function openPanel(browser, origin, theme = 'light') {
  const page = await browser.context.newPage();
  page.dialogs = [];
  page.on('dialog', (d) => {
    page.dialogs.push(d.message());
    d.dismiss().catch(() => {});
  });
  await page.goto(`${origin}/panel-${theme}.html`);
  await waitForReady(page);
  return page;
}

export async function waitForReady(frame) {
  await frame.waitForFunction(() => window.__posted.some((m) => m.type === 'ready'));
}

/** Sends a host message the way VS Code delivers them: a `message` event on the page's window. */
export async function sendToPage(frame, message) {
  await frame.evaluate((m) => window.postMessage(m, '*'), message);
}

/** Sends a state and waits until the page shows it. */
export async function showState(frame, protocol, state) {
  await sendToPage(frame, protocol.stateMessage(state));
  await frame.waitForFunction(
    ([phase, count]) => document.body.dataset.phase === phase && document.body.dataset.itemCount === String(count),
    [state.phase, state.items.length],
  );
}

export async function posted(frame) {
  return frame.evaluate(() => window.__posted);
}

export async function clearPosted(frame) {
  await frame.evaluate(() => {
    window.__posted.length = 0;
  });
}

const DAY = 24 * 3600 * 1000;
export const NOW = Date.UTC(2026, 10, 20, 12, 0, 0);

/** SuggestionItems of every kind, with hostile text in a decision title and a file name. */
export function fixtureItems() {
  const item = (type, entityId, title, reason, score, location, timestamp, summary = title) => ({
    type,
    entityId,
    title,
    reason,
    relevanceScore: score,
    location,
    summary,
    ...(timestamp ? { timestamp } : {}),
  });
  return [
    item(
      'decision',
      'adr:0007',
      'ADR-0007: Cache parsed files in the index, not in memory',
      'Governs src/core/index/indexer.ts',
      0.82,
      { path: 'docs/adr/0007-cache.md', adr: '0007' },
      NOW - 3 * DAY,
    ),
    item(
      'warning',
      'warn:deprecated:parseLegacy',
      'parseLegacy() is deprecated',
      'Called on line 42; use parseModule() instead',
      0.77,
      { path: 'src/core/index/indexer.ts', line: 42 },
    ),
    item(
      'change',
      'commit:a1b2c3d4',
      'Fix off-by-one in the line index',
      'Touched these lines 2 days ago',
      0.74,
      { path: 'src/core/index/indexer.ts', line: 40, endLine: 48, commit: 'a1b2c3d4e5f6' },
      NOW - 2 * DAY,
    ),
    item(
      'decision',
      'adr:0012',
      '<img src=x onerror=alert(1)>',
      'Mentions indexer.ts',
      0.61,
      { path: 'docs/adr/0012-xss.md', adr: '0012' },
      NOW - 40 * DAY,
    ),
    item(
      'cochange',
      'cochange:src/core/store/store.ts',
      'src/core/store/store.ts',
      'Changed together in 14 of 20 commits',
      0.58,
      { path: 'src/core/store/store.ts' },
    ),
    item(
      'change',
      'commit:b2c3d4e5',
      'Move the index writer behind a lock',
      'Touched this file last week',
      0.55,
      { path: 'src/core/index/indexer.ts', commit: 'b2c3d4e5f6a7' },
      NOW - 8 * DAY,
    ),
    item('related_code', 'caller:src/cli/main.ts:88', 'runIndex — src/cli/main.ts:88', 'Calls indexWorkspace()', 0.52, {
      path: 'src/cli/main.ts',
      line: 88,
    }),
    item(
      'change',
      'commit:c3d4e5f6',
      'Add progress events to the indexer',
      'Touched this file 3 weeks ago',
      0.44,
      { path: 'src/core/index/indexer.ts', commit: 'c3d4e5f6a7b8' },
      NOW - 21 * DAY,
    ),
    item(
      'cochange',
      'cochange:test/"><svg onload=alert(2)>.ts',
      'test/"><svg onload=alert(2)>.ts',
      'Changed together in 6 of 20 commits',
      0.41,
      { path: 'test/"><svg onload=alert(2)>.ts' },
    ),
    item(
      'change',
      'commit:d4e5f6a7',
      'Skip binary files while indexing',
      'Touched this file 2 months ago',
      0.38,
      { path: 'src/core/index/indexer.ts', commit: 'd4e5f6a7b8c9' },
      NOW - 65 * DAY,
    ),
    item(
      'doc',
      'doc:docs/indexing.md#incremental',
      'Indexing: incremental updates',
      'Explains indexWorkspace()',
      0.36,
      { path: 'docs/indexing.md', line: 12 },
    ),
    item(
      'related_code',
      'caller:src/vscode/commands/reindex.ts:14',
      'reindexCommand — src/vscode/commands/reindex.ts:14',
      'Calls indexWorkspace()',
      0.33,
      { path: 'src/vscode/commands/reindex.ts', line: 14 },
    ),
    item(
      'change',
      'commit:e5f6a7b8',
      'Index symbols with tree-sitter',
      'Touched this file 5 months ago',
      0.3,
      { path: 'src/core/index/indexer.ts', commit: 'e5f6a7b8c9d0' },
      NOW - 150 * DAY,
    ),
  ];
}

export function fixtureState(panelModel, extra = {}) {
  return panelModel.buildPanelState({
    phase: 'ready',
    file: 'src/core/index/indexer.ts',
    symbol: 'indexWorkspace',
    items: fixtureItems(),
    now: NOW,
    useful: new Set(['adr:0007']),
    ...extra,
  });
}

export function tempDir(prefix) {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

/**
 * For a describe block: builds the page bundle and the host modules, serves them and starts Chromium
 * before its tests, and tears it all down after. The returned object fills in before the first test.
 */
export function pageSuite(prefix) {
  const suite = { dir: undefined, protocol: undefined, panelModel: undefined, server: undefined, browser: undefined };
  before(async () => {
    suite.dir = tempDir(prefix);
    const built = await buildNodeModules(suite.dir);
    Object.assign(suite, { protocol: built.protocol, panelModel: built.panelModel });
    const bundleFile = path.join(suite.dir, 'webview.js');
    await buildPageBundle(bundleFile);
    suite.server = await startServer({ bundleFile, panelHtml: built.panelHtml });
    suite.browser = await launchBrowser();
  });
  after(async () => {
    await suite.browser?.close();
    await suite.server?.close();
    if (suite.dir) fs.rmSync(suite.dir, { recursive: true, force: true });
  });
  return suite;
}
