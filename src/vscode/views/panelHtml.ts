/**
 * The Suggestions page's HTML. No `vscode` import: the view passes in webview URIs as strings, and the
 * page tests load this exact document, so the content security policy they run under is the real one.
 */
import { INITIAL_STATE_ID } from '../../shared/protocol';

export interface PanelHtmlOptions {
  /** `webview.cspSource`. */
  cspSource: string;
  /** Fresh for every load. */
  nonce: string;
  scriptUri: string;
  /** codicon.css first, then the panel's own. */
  stylesheetUris: readonly string[];
  /**
   * The host's state when the page is made: inlined as JSON, so that the page draws it as soon as
   * its script runs instead of after a round trip through a busy extension host. `load` is fresh
   * for every page made: the same page shown again (the same HTML) draws what it saved since.
   */
  initialState?: { state: unknown; load: string };
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
  // A data block (never run, so the CSP has nothing to allow), read by the page with JSON.parse.
  const initial =
    o.initialState === undefined
      ? ''
      : `  <script type="application/json" id="${INITIAL_STATE_ID}" data-load="${attr(o.initialState.load)}">${jsonForScript(o.initialState.state)}</script>\n`;
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
${initial}  <script nonce="${attr(o.nonce)}" src="${attr(o.scriptUri)}"></script>
</body>
</html>
`;
}

/**
 * JSON that cannot end or change the script element it sits in: every `<` is escaped, which rules
 * out `</script>` and `<!--` in repository text (commit messages, titles, file names).
 */
function jsonForScript(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c');
}

function attr(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
