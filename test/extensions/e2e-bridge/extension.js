// A test-only bridge into the extension host, for e2e scenarios that drive the workbench in a
// browser: what the palette or the mouse is not what a step tests (opening a file at a line,
// running a command, reading the extension's test API, waiting for its events, reading problems)
// goes through here instead, so the step waits on state and never on time.
//
// Started only when PC_E2E_BRIDGE_FILE is set in the VS Code server's environment: it listens on
// 127.0.0.1 on a free port and writes { port, token } to that file. Every request is a POST of JSON
// with the token in the `x-bridge-token` header; the answer is JSON { ok, value } or { ok: false, error }.
//
//   /command   { command, args }            -> the command's result (Uris as strings)
//   /open      { path, line, column }       -> opens a workspace file with the cursor there
//   /api       { method, args }             -> calls a method of Proactive Context's exported test API
//   /waitPanel { phase, file, symbol, itemType, itemTitle, timeoutMs } -> the panel state once it matches
//   /configure { key, value }               -> sets a user setting (undefined value: back to its default)
//   /problems  { path }                     -> the diagnostics of a workspace file
//   /waitProblems { path, source, present, timeoutMs } -> the diagnostics once some (or none) are there
//   /trust     { wait, timeoutMs }          -> { trusted }: whether the workspace is trusted (Restricted Mode when
//                                              not); with `wait`, once it has been granted trust
'use strict';
const crypto = require('node:crypto');
const fs = require('node:fs');
const http = require('node:http');
const path = require('node:path');
const vscode = require('vscode');

const EXTENSION_ID = 'proactive-context.proactive-context';
const MAX_BODY = 1024 * 1024;

function workspaceUri(rel) {
  const folder = vscode.workspace.workspaceFolders?.[0];
  if (!folder) throw new Error('no workspace folder is open');
  return vscode.Uri.joinPath(folder.uri, ...String(rel).split('/'));
}

function plain(value) {
  return JSON.parse(JSON.stringify(value, (_k, v) => (v instanceof vscode.Uri ? v.toString() : v)) ?? 'null');
}

async function api() {
  const ext = vscode.extensions.getExtension(EXTENSION_ID);
  if (!ext) throw new Error(`${EXTENSION_ID} is not installed`);
  return ext.activate();
}

/** Resolves with `probe()`'s first truthy value, checked now and after each `event` firing. */
function whenTrue(event, probe, timeoutMs, what) {
  return new Promise((resolve, reject) => {
    let sub;
    const timer = setTimeout(() => {
      sub?.dispose();
      reject(new Error(`${what} did not happen within ${timeoutMs / 1000} s`));
    }, timeoutMs);
    const check = () => {
      let value;
      try {
        value = probe();
      } catch (err) {
        clearTimeout(timer);
        sub?.dispose();
        reject(err);
        return true;
      }
      if (!value) return false;
      clearTimeout(timer);
      sub?.dispose();
      resolve(value);
      return true;
    };
    if (!check()) sub = event(() => void check());
  });
}

function panelMatches(state, q) {
  if (q.phase && state.phase !== q.phase) return false;
  if (q.file && state.file !== q.file) return false;
  if (q.symbol && state.symbol !== q.symbol) return false;
  if (q.itemType || q.itemTitle) {
    const re = q.itemTitle ? new RegExp(q.itemTitle, 'i') : undefined;
    if (!state.items.some((i) => (!q.itemType || i.type === q.itemType) && (!re || re.test(i.title)))) return false;
  }
  return true;
}

function problemsOf(rel, source) {
  return vscode.languages
    .getDiagnostics(workspaceUri(rel))
    .filter((d) => !source || d.source === source)
    .map((d) => ({ message: d.message, line: d.range.start.line + 1, source: d.source, severity: d.severity }));
}

const routes = {
  async command({ command, args = [] }) {
    return plain(await vscode.commands.executeCommand(command, ...args));
  },
  async open({ path: rel, line = 1, column = 1 }) {
    const doc = await vscode.workspace.openTextDocument(workspaceUri(rel));
    const pos = new vscode.Position(line - 1, column - 1);
    const editor = await vscode.window.showTextDocument(doc, { preview: false, selection: new vscode.Range(pos, pos) });
    editor.revealRange(new vscode.Range(pos, pos), vscode.TextEditorRevealType.InCenter);
    return { path: rel, line, column };
  },
  async api({ method, args = [] }) {
    const exported = await api();
    if (typeof exported?.[method] !== 'function') throw new Error(`the test API has no ${method}()`);
    return plain(await exported[method](...args));
  },
  async waitPanel(q) {
    const exported = await api();
    return plain(
      await whenTrue(
        exported.onDidUpdatePanel,
        () => (panelMatches(exported.panelState(), q) ? exported.panelState() : undefined),
        q.timeoutMs ?? 30_000,
        `the panel showing ${JSON.stringify(q)}`,
      ),
    );
  },
  async trust({ wait = false, timeoutMs = 30_000 }) {
    if (!wait) return { trusted: vscode.workspace.isTrusted };
    return whenTrue(
      vscode.workspace.onDidGrantWorkspaceTrust,
      () => (vscode.workspace.isTrusted ? { trusted: true } : undefined),
      timeoutMs,
      'trust being granted',
    );
  },
  async configure({ key, value }) {
    await vscode.workspace.getConfiguration().update(key, value, vscode.ConfigurationTarget.Global);
    return { key, value: vscode.workspace.getConfiguration().get(key) };
  },
  async problems({ path: rel, source }) {
    return problemsOf(rel, source);
  },
  async waitProblems({ path: rel, source, present = true, timeoutMs = 30_000 }) {
    const probe = () => {
      const found = problemsOf(rel, source);
      return (present ? found.length > 0 : found.length === 0) ? { problems: found } : undefined;
    };
    return whenTrue(
      vscode.languages.onDidChangeDiagnostics,
      probe,
      timeoutMs,
      `${present ? 'problems on' : 'no problems on'} ${rel}`,
    );
  },
};

function activate(context) {
  const file = process.env.PC_E2E_BRIDGE_FILE;
  if (!file) return;
  const token = crypto.randomBytes(24).toString('hex');
  const server = http.createServer((req, res) => {
    const reply = (status, body) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    const route = routes[(req.url ?? '').replace(/^\//, '')];
    if (req.method !== 'POST' || req.headers['x-bridge-token'] !== token || !route)
      return reply(404, { ok: false, error: 'not found' });
    let body = '';
    req.on('data', (chunk) => {
      body += chunk;
      if (body.length > MAX_BODY) req.destroy();
    });
    req.on('end', () => {
      let input;
      try {
        input = body ? JSON.parse(body) : {};
      } catch {
        return reply(400, { ok: false, error: 'the body is not JSON' });
      }
      Promise.resolve()
        .then(() => route(input))
        .then(
          (value) => reply(200, { ok: true, value: value ?? null }),
          (err) => reply(200, { ok: false, error: err?.message ?? String(err) }),
        );
    });
  });
  server.listen(0, '127.0.0.1', () => {
    const { port } = server.address();
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(`${file}.tmp`, JSON.stringify({ port, token }));
    fs.renameSync(`${file}.tmp`, file);
  });
  context.subscriptions.push({ dispose: () => server.close() });
}

function deactivate() {}

module.exports = { activate, deactivate };
