/** Entry point of the Suggestions page (bundled to dist/webview.js). */
import { Panel } from './panel';
import type { PageState } from './pageState';
import { getVsCodeApi } from './vscodeApi';

const root = document.getElementById('app');
if (root) new Panel(root, getVsCodeApi<PageState>()).start();
