// SuggestionsViewProvider in Node, with `vscode` replaced by a minimal stand-in (fakeVscode.mjs).
import assert from 'node:assert/strict';
import * as esbuild from 'esbuild';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { REPO_ROOT, buildNodeModules, fixtureState, tempDir } from './support.mjs';

describe('SuggestionsViewProvider (Node, stand-in vscode)', function () {
  this.timeout(30_000);
  let dir;
  let vscode;
  let SuggestionsViewProvider;
  let registerSuggestionsView;
  let protocol;
  let panelModel;

  before(async () => {
    dir = tempDir('pc-webview-provider-');
    const fake = path.join(REPO_ROOT, 'test', 'webview', 'fakeVscode.mjs');
    await esbuild.build({
      absWorkingDir: REPO_ROOT,
      entryPoints: ['src/vscode/views/suggestionsView.ts'],
      outfile: path.join(dir, 'suggestionsView.mjs'),
      bundle: true,
      format: 'esm',
      platform: 'node',
      target: 'node20',
      external: ['vscode'],
      logLevel: 'silent',
    });
    // Point the bundle's `vscode` import at the stand-in, the one module both sides then share.
    const file = path.join(dir, 'suggestionsView.mjs');
    fs.writeFileSync(
      file,
      fs.readFileSync(file, 'utf8').replace(/from "vscode"/g, `from ${JSON.stringify(pathToFileURL(fake).href)}`),
    );
    ({ SuggestionsViewProvider, registerSuggestionsView } = await import(pathToFileURL(file).href));
    vscode = await import(pathToFileURL(fake).href);
    ({ protocol, panelModel } = await buildNodeModules(dir));
  });

  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  function resolved() {
    const log = new vscode.FakeLog();
    const provider = new SuggestionsViewProvider(vscode.Uri.file('/ext'), log);
    const view = new vscode.FakeWebviewView();
    provider.resolveWebviewView(view, {}, {});
    return { provider, view, log };
  }

  const settle = () => new Promise((r) => setImmediate(r));

  it('has the view id the manifest contributes', () => {
    assert.equal(SuggestionsViewProvider.viewType, 'proactiveContext.suggestions');
  });

  it('sets up the webview locked down: scripts on, only dist and media loadable, a fresh nonce per load', () => {
    const { provider, view } = resolved();
    assert.equal(view.webview.options.enableScripts, true);
    assert.deepEqual(
      view.webview.options.localResourceRoots.map((u) => u.path),
      ['/ext/dist', '/ext/media'],
    );
    assert.equal('retainContextWhenHidden' in view.webview.options, false);
    const nonce = (html) => /script-src 'nonce-([^']+)'/.exec(html)[1];
    const first = nonce(view.webview.html);
    assert.match(view.webview.html, new RegExp(`<script nonce="${first}" src="[^"]+/ext/dist/webview\\.js">`));
    assert.match(view.webview.html, /href="[^"]+\/ext\/dist\/media\/codicon\.css"/);
    assert.match(view.webview.html, /href="[^"]+\/ext\/media\/panel\.css"/);
    const again = new vscode.FakeWebviewView();
    provider.resolveWebviewView(again, {}, {});
    assert.notEqual(nonce(again.webview.html), first);
    assert.ok(first.length >= 16);
  });

  it('sends the state when the page says ready and when the view is shown again, not while hidden', async () => {
    const { provider, view } = resolved();
    const state = fixtureState(panelModel);
    view.setVisible(false);
    provider.setState(state);
    await settle();
    assert.equal(view.posted.length, 0, 'nothing is posted to a hidden view');
    view.setVisible(true);
    await settle();
    assert.deepEqual(view.posted.at(-1), protocol.stateMessage(state));
    view.posted.length = 0;
    view.messages.fire(protocol.readyMessage());
    await settle();
    assert.deepEqual(view.posted, [protocol.stateMessage(state)]);
  });

  it('puts the state it has into the page it makes, as data that repository text cannot break out of', () => {
    const log = new vscode.FakeLog();
    const provider = new SuggestionsViewProvider(vscode.Uri.file('/ext'), log);
    const hostile = '</script><script>alert(1)</script><!-- \u2028';
    const state = fixtureState(panelModel, { symbol: hostile });
    state.items[0].title = `ADR </SCRIPT > ${hostile}`;
    provider.setState(state);
    const view = new vscode.FakeWebviewView();
    provider.resolveWebviewView(view, {}, {});
    const html = view.webview.html;
    const block = /<script type="application\/json" id="pc-initial-state" data-load="[\w-]{12}">([^<]*)<\/script>/.exec(
      html,
    );
    assert.ok(block, 'the page carries a JSON data block');
    assert.deepEqual(JSON.parse(block[1]), JSON.parse(JSON.stringify(state)));
    // Only the page's own script and the data block: the hostile text made no element.
    assert.equal(html.match(/<script/gi).length, 2);
    assert.equal(/<!--/.test(html), false);
  });

  it('forwards valid commands and logs and ignores malformed ones', async () => {
    const { provider, view, log } = resolved();
    const got = [];
    provider.onDidReceiveCommand((c) => got.push(c));
    view.messages.fire(protocol.itemCommand('dismiss', 'adr:0007'));
    view.messages.fire(protocol.panelCommand('showLog'));
    view.messages.fire({ type: 'dismiss', version: 1, entityId: 7 });
    view.messages.fire({ type: 'runCommand', version: 1, command: 'workbench.action.quit' });
    assert.deepEqual(got, [protocol.itemCommand('dismiss', 'adr:0007'), protocol.panelCommand('showLog')]);
    assert.equal(log.lines.filter(([level, m]) => level === 'warn' && m.includes('malformed')).length, 2);
  });

  it('drops an invalid state with an error in the log and keeps the last good one', async () => {
    const { provider, view, log } = resolved();
    const good = fixtureState(panelModel);
    provider.setState(good);
    provider.setState({ ...good, phase: 'bogus' });
    await settle();
    assert.deepEqual(provider.currentState, good);
    assert.equal(view.posted.filter((m) => m.type === 'state').length, 1);
    assert.ok(log.lines.some(([level]) => level === 'error'));
  });

  it('leaves the view title whole (the page names the file) and shows the warning count on the badge', () => {
    const { provider, view } = resolved();
    provider.setState(fixtureState(panelModel));
    assert.equal(view.description, undefined);
    assert.deepEqual(view.badge, { value: 1, tooltip: '1 warning for this code' });
    provider.setState(panelModel.buildPanelState({ phase: 'no-editor' }));
    assert.equal(view.description, undefined);
    assert.equal(view.badge, undefined);
  });

  it('sends indexing progress on its own and keeps it in the state for the next page load', async () => {
    const { provider, view } = resolved();
    provider.setState(fixtureState(panelModel));
    view.posted.length = 0;
    provider.setIndexing({ done: 5, total: 10 });
    await settle();
    assert.deepEqual(view.posted, [protocol.indexingMessage({ done: 5, total: 10 })]);
    assert.deepEqual(provider.currentState.indexing, { done: 5, total: 10 });
    provider.setIndexing(null);
    assert.equal(provider.currentState.indexing, undefined);
  });

  it('registers itself under the view id and is disposed with the extension', () => {
    const context = { extensionUri: vscode.Uri.file('/ext'), subscriptions: [] };
    const provider = registerSuggestionsView(context, new vscode.FakeLog());
    const entry = vscode.registered.at(-1);
    assert.equal(entry.viewType, 'proactiveContext.suggestions');
    assert.equal(entry.provider, provider);
    assert.ok(context.subscriptions.includes(entry));
    assert.ok(context.subscriptions.includes(provider));
    assert.equal(
      entry.options?.webviewOptions?.retainContextWhenHidden,
      undefined,
      'the page is rebuilt when shown, not kept alive',
    );
  });
});
