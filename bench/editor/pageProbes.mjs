// What the editor benchmark watches inside the browser: the Suggestions webview's header and phase,
// VS Code's own status bar (Ln/Col), and the Enter of Go to Line, each change stamped with the
// page's Date.now() (the same clock as the benchmark and the extension host on one machine).

/** Starts (or restarts) logging every change of the panel's phase, symbol and item count in the webview frame. */
export async function watchPanel(frame) {
  await frame.evaluate(() => {
    const read = () => ({
      phase: document.body.dataset.phase ?? '',
      symbol: document.querySelector('.header-symbol .header-name')?.textContent ?? '',
      file: document.querySelector('.header-file')?.getAttribute('title') ?? '',
      items: Number(document.body.dataset.itemCount ?? 0),
    });
    window.__pcPanelLog = [];
    // When each state message reached the page, before the page renders it (a capture listener at
    // the window runs first): splits host → page into the message's way and the page's render.
    window.__pcStateAt = [];
    if (!window.__pcMessageHooked) {
      window.__pcMessageHooked = true;
      window.addEventListener(
        'message',
        (e) => {
          if (e.data?.type === 'state') window.__pcStateAt.push(Date.now());
        },
        true,
      );
    }
    let last = '';
    const note = () => {
      const s = read();
      const key = `${s.phase}|${s.file}|${s.symbol}|${s.items}`;
      if (key === last) return;
      last = key;
      window.__pcPanelLog.push({ at: Date.now(), ...s });
    };
    window.__pcPanelObserver?.disconnect();
    window.__pcPanelObserver = new MutationObserver(note);
    window.__pcPanelObserver.observe(document.body, {
      attributes: true,
      childList: true,
      subtree: true,
      characterData: true,
    });
    note();
  });
}

export function panelLog(frame, since = 0) {
  return frame.evaluate((t) => window.__pcPanelLog.filter((e) => e.at >= t), since);
}

/** When state messages reached the page, since `since`. */
export function stateArrivals(frame, since = 0) {
  return frame.evaluate((t) => window.__pcStateAt.filter((at) => at >= t), since);
}

/** Starts logging the status bar's cursor line and the Enter key in the workbench page. */
export async function watchWorkbench(page) {
  await page.evaluate(() => {
    if (!window.__pcEnterHooked) {
      window.__pcEnterHooked = true;
      window.addEventListener(
        'keydown',
        (e) => {
          if (e.key === 'Enter') window.__pcEnterAt = Date.now();
        },
        true,
      );
    }
    window.__pcStatusLog = [];
    const item = () => document.querySelector('.part.statusbar [id="status.editor.selection"]');
    let last;
    const note = () => {
      const m = /Ln (\d+)/.exec(item()?.textContent ?? '');
      const line = m ? Number(m[1]) : undefined;
      if (line === last) return;
      last = line;
      window.__pcStatusLog.push({ at: Date.now(), line });
    };
    window.__pcStatusObserver?.disconnect();
    window.__pcStatusObserver = new MutationObserver(note);
    window.__pcStatusObserver.observe(document.querySelector('.part.statusbar') ?? document.body, {
      childList: true,
      subtree: true,
      characterData: true,
    });
    note();
  });
}

export function statusLog(page, since = 0) {
  return page.evaluate((t) => window.__pcStatusLog.filter((e) => e.at >= t), since);
}

export function resetEnter(page) {
  return page.evaluate(() => {
    window.__pcEnterAt = undefined;
  });
}

export function enterAt(page) {
  return page.evaluate(() => window.__pcEnterAt);
}

export function percentile(values, p) {
  const sorted = values.filter((v) => typeof v === 'number').sort((a, b) => a - b);
  if (!sorted.length) return undefined;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

/**
 * Starts logging, in the workbench page, when each webview's outer iframe is added and when the
 * workbench marks it ready (its service worker and host page loaded): installed before a container
 * opens, it splits "container shown → page shows" into the workbench's part and the page's.
 */
export async function watchWebviews(page) {
  await page.evaluate(() => {
    if (window.__pcWebviews) return;
    window.__pcWebviews = [];
    const seen = new Map();
    const note = (frame) => {
      const src = frame.getAttribute('src') ?? frame.src ?? '';
      const id = /extensionId=([^&]+)/.exec(src)?.[1] ?? '';
      let e = seen.get(frame);
      if (!e) {
        e = { extensionId: decodeURIComponent(id), addedAt: Date.now() };
        seen.set(frame, e);
        window.__pcWebviews.push(e);
      }
      if (frame.classList.contains('ready') && e.readyAt === undefined) e.readyAt = Date.now();
    };
    const scan = () => document.querySelectorAll('iframe.webview').forEach(note);
    new MutationObserver(scan).observe(document.body, {
      childList: true,
      subtree: true,
      attributes: true,
      attributeFilter: ['class', 'src'],
    });
    scan();
  });
}

export function webviewLog(page) {
  return page.evaluate(() => window.__pcWebviews ?? []);
}

/**
 * What a frame's own Performance timeline says (navigation, resources, paints, marks), in epoch ms:
 * when the page's document arrived, each style sheet, script and font, and the first paint.
 */
export function frameTimeline(frame) {
  return frame.evaluate(() => {
    const t0 = performance.timeOrigin;
    const at = (t) => (t > 0 ? Math.round(t0 + t) : null);
    const nav = performance.getEntriesByType('navigation')[0];
    return {
      url: location.href.replace(/\?.*$/, ''),
      timeOrigin: Math.round(t0),
      responseEnd: nav ? at(nav.responseEnd) : null,
      domInteractive: nav ? at(nav.domInteractive) : null,
      domContentLoaded: nav ? at(nav.domContentLoadedEventEnd) : null,
      load: nav ? at(nav.loadEventEnd) : null,
      resources: performance.getEntriesByType('resource').map((r) => ({
        name: r.name.replace(/^.*\//, '').replace(/\?.*$/, ''),
        start: at(r.startTime),
        end: at(r.responseEnd),
        ms: Math.round(r.duration),
      })),
      paints: performance.getEntriesByType('paint').map((p) => ({ name: p.name, at: at(p.startTime) })),
      marks: performance.getEntriesByType('mark').map((m) => ({ name: m.name, at: at(m.startTime) })),
      data: { ...document.body.dataset },
    };
  });
}

/** The outer (host page) and inner (content) frames of an extension's webview, once they exist. */
export async function webviewFrames(page, extensionId, timeoutMs = 60_000) {
  const outerEl = await page
    .locator(`iframe.webview[src*="extensionId=${extensionId}"]`)
    .first()
    .elementHandle({ timeout: timeoutMs });
  const outer = await outerEl?.contentFrame();
  const innerEl = await outer?.locator('#active-frame').elementHandle({ timeout: timeoutMs });
  const inner = await innerEl?.contentFrame();
  return { outer, inner };
}
