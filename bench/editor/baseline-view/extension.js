// The editor benchmark's baseline (--baseline): a webview view with nothing in it but an inline
// script under the same strict CSP as the Suggestions view. The page answers 'ready', the host
// answers with one message, and each step is stamped (epoch ms) for the benchmark to read from
// the page: what any webview view costs in this workbench, ours or not.
const vscode = require('vscode');
const { randomBytes } = require('node:crypto');

exports.activate = (context) => {
  const activatedAt = Date.now();
  context.subscriptions.push(
    vscode.window.registerWebviewViewProvider('pcBaseline.view', {
      resolveWebviewView(view) {
        const resolvedAt = Date.now();
        const nonce = randomBytes(18).toString('base64url');
        view.webview.options = { enableScripts: true };
        view.webview.onDidReceiveMessage((m) => {
          if (m?.type === 'ready') void view.webview.postMessage({ type: 'state', readyAt: Date.now() });
        });
        view.webview.html = `<!DOCTYPE html>
<html lang="en"><head><meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'nonce-${nonce}'">
</head>
<body data-phase="loading" data-activated-at="${activatedAt}" data-resolved-at="${resolvedAt}">
<p id="text">Baseline</p>
<script nonce="${nonce}">
  const api = acquireVsCodeApi();
  document.body.dataset.scriptAt = String(Date.now());
  window.addEventListener('message', (e) => {
    if (e.data?.type !== 'state') return;
    document.body.dataset.hostReadyAt = String(e.data.readyAt);
    document.body.dataset.stateAt = String(Date.now());
    document.body.dataset.phase = 'ready';
  });
  api.postMessage({ type: 'ready' });
</script>
</body></html>`;
      },
    }),
  );
};
