// The editor benchmark's steps, each on a running Workbench (test/e2e/fixture.mjs): cold open,
// cursor stops, a held key, a rebuild. Every step waits on what the page shows, with generous
// timeouts as a safety net only; the numbers are what the page and the extension host stamped.
import { EXTENSION_ID } from '../../test/e2e/fixture.mjs';
import { sleep } from '../../test/harness/vscode-env.mjs';
import {
  enterAt,
  panelLog,
  percentile,
  resetEnter,
  stateArrivals,
  statusLog,
  frameTimeline,
  watchPanel,
  watchWebviews,
  watchWorkbench,
  webviewFrames,
  webviewLog,
} from './pageProbes.mjs';
import { symbolAtLine } from './targets.mjs';

const MOVE_TIMEOUT_MS = 15_000;
/** The benchmark's trivial webview view (bench/editor/baseline-view), opened with --baseline. */
export const BASELINE = { extensionId: 'proactive-context-bench.baseline-view', container: 'Baseline View' };

const api = (wb, method, ...args) => wb.bridge('api', { method, args });
/** The extension host's measures, or undefined for a build without them (a baseline). */
export const hostPerf = (wb, next) => api(wb, 'perfSnapshot', ...(next ? [next] : [])).catch(() => undefined);

/**
 * Cold open: folder opened (page load) → panel rendered → first items for the active file →
 * callers / co-change for it → index complete. `first` is where the cursor goes once the
 * extension host is up.
 */
export async function coldOpen(wb, first, { timeoutMs = 300_000, baseline = false, extensionId = EXTENSION_ID } = {}) {
  const t0 = wb.openedAt;
  const at = {};
  await wb.bridge('open', { path: first.path, line: first.line, column: 1 }, { timeoutMs: 120_000 });
  at.fileOpened = Date.now();
  await watchWebviews(wb.page);
  // The trivial webview first, when asked: the same steps for a view with nothing of ours in it.
  const base = baseline ? await baselineView(wb, t0) : undefined;
  const containerAsked = Date.now();
  await wb.openContainer();
  // What the workbench takes to show the side bar's container, before the webview starts to load.
  at.containerOpened = Date.now();
  const deadline = Date.now() + timeoutMs;
  let sawIndexing = false;
  // Two loops side by side: the page's DOM, polled often, and the host's indexing state, whose
  // answers a busy host may hold for seconds (the page's stamps must not wait for them).
  const pageLoop = (async () => {
    while (Date.now() < deadline && at.coChange === undefined && at.indexComplete === undefined) {
      const shown = await wb.panelSnapshot().catch(() => undefined);
      const now = Date.now();
      if (shown?.phase && at.panelRendered === undefined) at.panelRendered = now;
      const here = shown?.phase === 'ready' && shown.file === first.path;
      if (here && shown.items.length && at.firstItems === undefined) at.firstItems = now;
      if (here && shown.items.some((i) => i.type === 'related_code') && at.callers === undefined) at.callers = now;
      if (here && shown.items.some((i) => i.type === 'cochange') && at.coChange === undefined) at.coChange = now;
      await sleep(50);
    }
  })();
  while (Date.now() < deadline) {
    const s = await api(wb, 'panelState').catch(() => undefined);
    if (s?.indexing) sawIndexing = true;
    if (s && at.firstItems !== undefined && !s.indexing && at.indexComplete === undefined) {
      // Finished only when indexing was seen and is gone, or when the panel never had to wait for it.
      if (sawIndexing || Date.now() - at.firstItems > 3_000) at.indexComplete = Date.now();
    }
    if (at.indexComplete !== undefined && at.panelRendered !== undefined) break;
    await sleep(100);
  }
  await pageLoop;
  const rel = (t) => (t === undefined ? null : t - t0);
  const webview = await webviewSteps(wb, extensionId, t0).catch((err) => ({ error: String(err?.message ?? err) }));
  return {
    ...(base ? { baseline: base } : {}),
    webview: { containerAskedMs: rel(containerAsked), ...webview },
    fileOpenedMs: rel(at.fileOpened),
    containerOpenedMs: rel(at.containerOpened),
    panelRenderedMs: rel(at.panelRendered),
    firstItemsMs: rel(at.firstItems),
    callersMs: rel(at.callers),
    coChangeMs: rel(at.coChange),
    symbolItemsMs:
      at.callers === undefined && at.coChange === undefined
        ? null
        : rel(Math.min(at.callers ?? Infinity, at.coChange ?? Infinity)),
    indexCompleteMs: rel(at.indexComplete),
    timedOut: at.indexComplete === undefined,
  };
}

/**
 * The steps of one webview's load, in ms from page load: the workbench adds its iframe and marks it
 * ready, the content's document arrives, its style sheets, script and fonts load, it paints, and the
 * page's own marks and data attributes (the baseline's script and first message, our panel's).
 */
async function webviewSteps(wb, extensionId, t0) {
  const rel = (t) => (t === null || t === undefined ? null : Math.round(t - t0));
  const log = await webviewLog(wb.page);
  const added = log.find((e) => e.extensionId.toLowerCase() === extensionId.toLowerCase());
  const { outer, inner } = await webviewFrames(wb.page, extensionId);
  const o = outer ? await frameTimeline(outer) : undefined;
  const i = inner ? await frameTimeline(inner) : undefined;
  const paint = (name) => rel(i?.paints.find((p) => p.name === name)?.at);
  return {
    iframes: log.map((e) => ({ extensionId: e.extensionId, addedMs: rel(e.addedAt), readyMs: rel(e.readyAt) })),
    iframeAddedMs: rel(added?.addedAt),
    iframeReadyMs: rel(added?.readyAt),
    hostPageStartMs: rel(o?.timeOrigin),
    hostPageLoadedMs: rel(o?.load),
    contentStartMs: rel(i?.timeOrigin),
    contentArrivedMs: rel(i?.responseEnd),
    contentInteractiveMs: rel(i?.domInteractive),
    contentLoadedMs: rel(i?.domContentLoaded),
    firstPaintMs: paint('first-paint'),
    firstContentfulPaintMs: paint('first-contentful-paint'),
    hostPageResources: (o?.resources ?? []).map((r) => ({ name: r.name, endMs: rel(r.end), ms: r.ms })),
    // VS Code's own marks in the host page: the content message arrived, the service worker ready, …
    hostPageMarks: Object.fromEntries(
      (o?.marks ?? []).map((m) => [m.name.replace(/^webview\/index\.html\//, ''), rel(m.at)]),
    ),
    resources: (i?.resources ?? []).map((r) => ({ name: r.name, startMs: rel(r.start), endMs: rel(r.end), ms: r.ms })),
    marks: Object.fromEntries((i?.marks ?? []).map((m) => [m.name, rel(m.at)])),
    data: Object.fromEntries(
      Object.entries(i?.data ?? {}).map(([k, v]) => [k, /At$/.test(k) && Number(v) > 1e12 ? rel(Number(v)) : v]),
    ),
  };
}

/**
 * Only the baseline view, in a workbench without our extension: the file opens, then the baseline's
 * container, timed as the cold open times ours (--baseline-only).
 */
export async function baselineOnly(wb, first) {
  const t0 = wb.openedAt;
  await wb.bridge('open', { path: first.path, line: first.line, column: 1 }, { timeoutMs: 120_000 });
  const fileOpenedMs = Date.now() - t0;
  await watchWebviews(wb.page);
  return { fileOpenedMs, baseline: await baselineView(wb, t0), pageLoadedAt: t0 };
}

/** Opens the baseline's container and waits for its page to have its host's answer; its steps. */
async function baselineView(wb, t0) {
  const asked = Date.now();
  await wb.openContainer(BASELINE.container);
  const shown = Date.now();
  const body = wb.webviewBody(BASELINE.extensionId);
  const deadline = Date.now() + 120_000;
  let ready;
  while (Date.now() < deadline) {
    const phase = await body.evaluate((b) => b.dataset.phase, null, { timeout: 60_000 }).catch(() => undefined);
    if (phase === 'ready') {
      ready = Date.now();
      break;
    }
    await sleep(50);
  }
  const steps = await webviewSteps(wb, BASELINE.extensionId, t0);
  return {
    containerAskedMs: asked - t0,
    containerOpenedMs: shown - t0,
    readySeenMs: ready ? ready - t0 : null,
    ...steps,
  };
}

/** Go to Line to each function of each file; the panel and status-bar times after the Enter. */
export async function cursorMoves(wb, files, index, { moves = 40 } = {}) {
  const samples = [];
  const plan = [];
  for (let i = 0; plan.length < moves && files.length; i++) {
    const f = files[i % files.length];
    plan.push(...f.moves.map((m, j) => ({ ...m, path: f.path, first: j === 0 })));
  }
  plan.length = Math.min(plan.length, moves);
  let file;
  for (const move of plan) {
    if (move.path !== file || move.first) {
      // A new file: open it (not timed) and let the panel show it before the timed jumps.
      await wb.bridge('open', { path: move.path, line: 1, column: 1 });
      await wb.waitForActiveTab(move.path.split('/').pop());
      await wb.waitForPanelState({ file: move.path }, 60_000).catch(() => undefined);
      file = move.path;
      await wb.focusEditor();
    }
    const frame = await wb.panelFrame();
    await watchPanel(frame);
    await watchWorkbench(wb.page);
    const expected = symbolAtLine(index, move.path, move.line)?.name ?? move.symbol;
    const before = (await panelLog(frame)).at(-1);
    await wb.goToLine(move.line, { beforeEnter: () => resetEnter(wb.page) });
    const enter = await enterAt(wb.page);
    const deadline = Date.now() + MOVE_TIMEOUT_MS;
    let shownAt;
    let log = [];
    while (Date.now() < deadline) {
      log = await panelLog(frame, enter ?? 0);
      const hit = log.find((e) => e.phase === 'ready' && e.symbol === expected && e.file === move.path);
      if (hit) {
        shownAt = hit.at;
        break;
      }
      await sleep(20);
    }
    const status = (await statusLog(wb.page, enter ?? 0)).find((e) => e.line === move.line);
    // The last state message that reached the page before it showed the destination.
    const arrived = (await stateArrivals(frame, enter ?? 0))
      .filter((at) => shownAt !== undefined && at <= shownAt)
      .at(-1);
    const host = await hostPerf(wb);
    const pass = host?.last?.pass;
    const suggest = host?.last?.suggest;
    const render = host?.last?.render;
    // A header that named a symbol other than the old one or the destination, on the way.
    const wrong = log.filter(
      (e) =>
        e.phase === 'ready' && e.file === move.path && e.symbol && e.symbol !== expected && e.symbol !== before?.symbol,
    );
    samples.push({
      path: move.path,
      line: move.line,
      symbol: expected,
      panelMs: shownAt !== undefined && enter !== undefined ? shownAt - enter : null,
      statusBarMs: status && enter !== undefined ? status.at - enter : null,
      // Where the time went (host stamps; valid when the last pass was this move's).
      toPassStartMs: pass && enter !== undefined && pass.start >= enter ? pass.start - enter : null,
      suggestMs:
        suggest?.end !== undefined && enter !== undefined && suggest.start >= enter
          ? suggest.end - suggest.start
          : null,
      renderToPageMs:
        render?.end !== undefined && shownAt !== undefined && render.start >= (enter ?? 0)
          ? shownAt - render.end
          : null,
      // host state sent → message at the page, and message at the page → header shows it.
      sentToPageMs:
        render?.end !== undefined && arrived !== undefined && render.start >= (enter ?? 0)
          ? arrived - render.end
          : null,
      pageRenderMs: arrived !== undefined && shownAt !== undefined ? shownAt - arrived : null,
      wrongSymbols: wrong.map((e) => e.symbol),
      timedOut: shownAt === undefined,
    });
  }
  const panel = samples.map((s) => s.panelMs);
  const bar = samples.map((s) => s.statusBarMs);
  const diff = samples.map((s) => (s.panelMs !== null && s.statusBarMs !== null ? s.panelMs - s.statusBarMs : null));
  const stat = (v) => ({
    p50: percentile(v, 50) ?? null,
    p95: percentile(v, 95) ?? null,
    max: percentile(v, 100) ?? null,
  });
  return {
    moves: samples.length,
    files: new Set(samples.map((s) => s.path)).size,
    panel: stat(panel),
    statusBar: stat(bar),
    panelBehindStatusBar: stat(diff),
    breakdown: {
      toPassStart: stat(samples.map((s) => s.toPassStartMs)),
      suggest: stat(samples.map((s) => s.suggestMs)),
      renderToPage: stat(samples.map((s) => s.renderToPageMs)),
      sentToPage: stat(samples.map((s) => s.sentToPageMs)),
      pageRender: stat(samples.map((s) => s.pageRenderMs)),
    },
    timedOut: samples.filter((s) => s.timedOut).length,
    wrongSymbols: samples.filter((s) => s.wrongSymbols.length).length,
    samples,
  };
}

/** Holds ↓ (a key repeat every `repeatMs`) from one function's first line to the start of the N-th next. */
export async function heldKey(wb, held, index, { repeatMs = 33 } = {}) {
  await wb.bridge('open', { path: held.path, line: held.from, column: 1 });
  await wb.waitForActiveTab(held.path.split('/').pop());
  const first = symbolAtLine(index, held.path, held.from)?.name;
  await wb.waitForPanelState({ file: held.path, symbol: first, phase: 'ready' }, 60_000).catch(() => undefined);
  await wb.focusEditor();
  const frame = await wb.panelFrame();
  await watchPanel(frame);
  await watchWorkbench(wb.page);
  const start = Date.now();
  const keys = held.to - held.from;
  for (let k = 0; k < keys; k++) {
    const t = Date.now();
    await wb.page.keyboard.press('ArrowDown');
    await sleep(Math.max(0, repeatMs - (Date.now() - t)));
  }
  const lastKeyAt = Date.now();
  const final = symbolAtLine(index, held.path, held.to)?.name;
  const deadline = Date.now() + MOVE_TIMEOUT_MS;
  let settledAt;
  while (Date.now() < deadline) {
    const log = await panelLog(frame, start);
    const hit = log.find((e) => e.phase === 'ready' && e.symbol === final && e.at >= lastKeyAt - 1000);
    if (hit) {
      settledAt = hit.at;
      break;
    }
    await sleep(20);
  }
  // Counted in the held-through functions: a line, and a symbol the panel names (a nested callback
  // included), count as the function they sit in. Lines between them name none and are left out.
  const fnOfLine = (line) => held.ranges.find((r) => line >= r.startLine && line <= r.endLine)?.name ?? '';
  const fnOfSymbol = (name) => {
    if (held.functions.includes(name)) return name;
    const rows = index.all(
      'SELECT s.start_line AS line FROM symbols s JOIN files f ON f.id = s.file WHERE f.path = ? AND s.name = ?',
      [held.path, name],
    );
    return rows.map((r) => fnOfLine(r.line)).find(Boolean) ?? '';
  };
  const statuses = await statusLog(wb.page, start);
  const lastCursorAt = statuses.at(-1)?.at ?? lastKeyAt;
  const cursor = statuses
    .filter((e) => e.line !== undefined)
    .map((e) => ({ at: e.at, symbol: fnOfLine(e.line) }))
    .filter((e) => e.symbol);
  const panel = (await panelLog(frame, start))
    .filter((e) => e.phase === 'ready')
    .map((e) => ({ ...e, symbol: fnOfSymbol(e.symbol) }))
    .filter((e) => e.symbol);
  // Order of the symbols as the cursor passed them; the panel is "behind" by the difference in order.
  const order = [];
  for (const c of cursor) if (order.at(-1) !== c.symbol) order.push(c.symbol);
  const pos = (symbol, upTo) => {
    for (let i = Math.min(upTo, order.length - 1); i >= 0; i--) if (order[i] === symbol) return i;
    return -1;
  };
  let behind = 0;
  let seqIdx = 0;
  let prev;
  const entered = [];
  for (const c of cursor) {
    if (c.symbol !== prev) {
      if (prev !== undefined) seqIdx++;
      entered.push({ at: c.at, idx: seqIdx });
      prev = c.symbol;
    }
    const shown = panel.filter((p) => p.at <= c.at).at(-1);
    const shownIdx = shown ? pos(shown.symbol, seqIdx) : 0;
    behind = Math.max(behind, seqIdx - Math.max(0, shownIdx));
  }
  let panelIdx = 0;
  const panelAt = panel.map((p) => {
    panelIdx = Math.max(panelIdx, pos(p.symbol, order.length - 1));
    return { at: p.at, idx: panelIdx };
  });
  const msBehind = entered.map((e) => {
    const caught = panelAt.find((p) => p.at >= e.at && p.idx >= e.idx);
    return caught ? caught.at - e.at : null;
  });
  return {
    path: held.path,
    functions: held.functions,
    keys,
    repeatMs,
    holdMs: lastKeyAt - start,
    panelUpdates: panel.length,
    maxUpdatesBehind: behind,
    msBehind: { p50: percentile(msBehind, 50) ?? null, max: percentile(msBehind, 100) ?? null },
    settleMs: settledAt !== undefined ? Math.max(0, settledAt - lastCursorAt) : null,
    settled: settledAt !== undefined,
  };
}

/** Rebuild Index with the cursor still: does the panel keep its answers and its symbol? */
export async function rebuild(wb, place, index) {
  await wb.bridge('open', { path: place.path, line: place.line, column: 1 });
  const expected = symbolAtLine(index, place.path, place.line)?.name;
  const before = await wb.waitForPanelState({ file: place.path, symbol: expected, phase: 'ready' }, 60_000);
  let done = false;
  const started = Date.now();
  const command = wb.executeCommand('proactiveContext.reindex').finally(() => {
    done = true;
  });
  const seen = [];
  while (!done) {
    const s = await api(wb, 'panelState').catch(() => undefined);
    if (s) seen.push({ at: Date.now(), phase: s.phase, file: s.file, symbol: s.symbol, items: s.items.length });
    await sleep(50);
  }
  await command;
  const ms = Date.now() - started;
  const during = seen.filter((s) => s.file === place.path && s.phase === 'ready');
  const wrong = during.filter((s) => s.symbol && s.symbol !== expected);
  return {
    ms,
    symbol: expected,
    itemsBefore: before.items.length,
    minItemsDuring: during.length ? Math.min(...during.map((s) => s.items)) : null,
    wrongSymbolStates: wrong.length,
    wrongSymbols: [...new Set(wrong.map((s) => s.symbol))],
    samples: seen.length,
  };
}
