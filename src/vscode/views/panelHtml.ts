/**
 * The Suggestions page's HTML. No `vscode` import: the view passes in webview URIs as strings, and the
 * page tests load this exact document, so the content security policy they run under is the real one.
 */

export interface PanelHtmlOptions {
  /** `webview.cspSource`. */
  cspSource: string;
  /** Fresh for every load. */
  nonce: string;
  scriptUri: string;
  /** codicon.css first, then the panel's own. */
  stylesheetUris: readonly string[];
}

export function contentSecurityPolicy(cspSource: string, nonce: string): string {
  return [
    `default-src 'none'`,
    `style-src ${cspSource}`,
    `font-src ${cspSource}`,
    `script-src 'nonce-${nonce}'`,
    `img-src ${cspSource}`,
  ].join('; ');
}

export function panelHtml(o: PanelHtmlOptions): string {
  const links = o.stylesheetUris.map((u) => `  <link rel="stylesheet" href="${attr(u)}">`).join('\n');
  return `<!DOCTYPE html>
<html lang="en">
<head>
  <meta charset="UTF-8">
  <meta http-equiv="Content-Security-Policy" content="${attr(contentSecurityPolicy(o.cspSource, o.nonce))}">
  <meta name="viewport" content="width=device-width, initial-scale=1.0">
${links}
  <title>Suggestions</title>
</head>
<body data-phase="loading" data-item-count="0">
  <div id="app"></div>
  <script nonce="${attr(o.nonce)}" src="${attr(o.scriptUri)}"></script>
</body>
</html>
`;
}

function attr(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
