// Installs what the browser and VS Code tests need (Chromium from apt, Node 24 and code-server from
// npm into .vscode-test-cache/) when missing; a no-op when everything is there.
import { ensureTestVSCode, runMain } from './vscode-env.mjs';

runMain(async () => {
  await ensureTestVSCode();
  return 0;
});
