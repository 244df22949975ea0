// Measures how long the page takes to validate, render and lay out a state: `node test/webview/renderBench.mjs`.
import fs from 'node:fs';
import path from 'node:path';
import * as S from './support.mjs';
const dir = S.tempDir('pc-bench-');
const { protocol, panelModel, panelHtml } = await S.buildNodeModules(dir);
const bundleFile = path.join(dir, 'webview.js');
await S.buildPageBundle(bundleFile);
const server = await S.startServer({ bundleFile, panelHtml });
const b = await S.launchBrowser();
const page = await S.openPanel(b, server.origin, 'dark');
const base = S.fixtureItems();
for (const n of [13, 100, 500]) {
  const items = Array.from({ length: n }, (_, i) => ({
    ...base[i % base.length],
    entityId: `e${i}`,
    relevanceScore: 1 - i / n,
  }));
  const t0 = performance.now();
  const state = panelModel.buildPanelState({ phase: 'ready', file: 'src/a.ts', items, now: S.NOW });
  const buildMs = performance.now() - t0;
  const times = await page.evaluate((m) => {
    const out = [];
    for (let i = 0; i < 30; i++) {
      const t = performance.now();
      window.dispatchEvent(new MessageEvent('message', { data: m }));
      document.body.getBoundingClientRect(); // force layout
      out.push(performance.now() - t);
    }
    out.sort((a, b) => a - b);
    return { p50: out[15], p95: out[28] };
  }, protocol.stateMessage(state));
  console.log(
    `items=${n} buildPanelState=${buildMs.toFixed(2)}ms render+layout p50=${times.p50.toFixed(2)}ms p95=${times.p95.toFixed(2)}ms`,
  );
}
await b.close();
await server.close();
fs.rmSync(dir, { recursive: true, force: true });
