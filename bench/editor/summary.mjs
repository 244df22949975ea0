// The editor benchmark's readable summary, and the correctness problems a CI run gates on (never
// times: a busy machine makes every time longer, not wrong).

const ms = (v) => (v === null || v === undefined ? '—' : `${Math.round(v)} ms`);
const s = (v) => (v === null || v === undefined ? '—' : `${(v / 1000).toFixed(1)} s`);

export function summarize(result) {
  const lines = [];
  const problems = [];
  const { repo, machine } = result;
  lines.push(
    `# Editor benchmark: ${repo.label} (${repo.files} files, ${repo.commits} commits)`,
    '',
    `${result.measuredAt}, ${machine.cpus} cores, load average ${machine.loadAverage.join(' ')}`,
    '',
  );
  for (const r of result.runs) {
    if (r.baselineOnly) {
      const b = r.baselineOnly.baseline;
      lines.push(
        `## Run ${r.run} (baseline view only)`,
        '',
        `- file opened ${s(r.baselineOnly.fileOpenedMs)}, container asked ${s(b.containerAskedMs)}, shown ${s(b.containerOpenedMs)}, ` +
          `view resolved ${s(b.data.resolvedAt)}, content ${s(b.contentStartMs)}, script ${s(b.data.scriptAt)}, ` +
          `first message ${s(b.data.stateAt)}, first paint ${s(b.firstPaintMs)}`,
        '',
      );
      continue;
    }
    const c = r.coldOpen;
    const m = r.moves;
    lines.push(`## Run ${r.run}`, '');
    lines.push(
      `- cold open (from page load): file opened ${s(c.fileOpenedMs)}, container shown ${s(c.containerOpenedMs)}, ` +
        `panel rendered ${s(c.panelRenderedMs)}, first items ${s(c.firstItemsMs)}, ` +
        `callers ${s(c.callersMs)}, co-change ${s(c.coChangeMs)}, index complete ${s(c.indexCompleteMs)}` +
        (c.timedOut ? ' (index not complete when the wait ended)' : ''),
      ...webviewLines(c),
      `- cursor stop → panel over ${m.moves} moves in ${m.files} files: p50 ${ms(m.panel.p50)}, p95 ${ms(m.panel.p95)}, max ${ms(m.panel.max)}`,
      `- status bar (Ln/Col): p50 ${ms(m.statusBar.p50)}, p95 ${ms(m.statusBar.p95)}; panel behind it: p50 ${ms(m.panelBehindStatusBar.p50)}, p95 ${ms(m.panelBehindStatusBar.p95)}`,
      `- where the time goes (p50): Enter → pass start ${ms(m.breakdown.toPassStart.p50)}, engine ${ms(m.breakdown.suggest.p50)}, host state → page shows it ${ms(m.breakdown.renderToPage.p50)}` +
        (m.breakdown.sentToPage
          ? ` (message on its way ${ms(m.breakdown.sentToPage.p50)}, page render ${ms(m.breakdown.pageRender.p50)}); ` +
            `p95: pass start ${ms(m.breakdown.toPassStart.p95)}, engine ${ms(m.breakdown.suggest.p95)}, on its way ${ms(m.breakdown.sentToPage.p95)}, page render ${ms(m.breakdown.pageRender.p95)}`
          : ''),
    );
    if (r.held) {
      const h = r.held;
      lines.push(
        `- held ↓ through ${h.functions.length - 1} functions (${h.keys} keys, one per ${h.repeatMs} ms): ` +
          `${h.panelUpdates} panel updates, at most ${h.maxUpdatesBehind} function(s) behind, ` +
          `caught up in p50 ${ms(h.msBehind.p50)} / max ${ms(h.msBehind.max)}, settled ${ms(h.settleMs)} after the last key`,
      );
    }
    if (r.rebuild) {
      const b = r.rebuild;
      lines.push(
        `- Rebuild Index (${s(b.ms)}): items ${b.itemsBefore} before, at least ${b.minItemsDuring ?? '—'} during; ` +
          `wrong symbol shown ${b.wrongSymbolStates} time(s)`,
      );
    }
    if (r.host)
      lines.push(
        `- extension host: activation ${ms(r.host.activationMs)}, rss ${r.host.memory.rssMb} MB (+${r.host.extraRssMb} MB since activation)`,
      );
    for (const seg of r.host?.segments ?? []) {
      const worst = seg.blocks
        .slice()
        .sort((a, b) => b.ms - a.ms)
        .slice(0, 3)
        .map((b) => `${b.ms} ms [${b.phases.join(', ') || 'other'}]`);
      lines.push(
        `  - event loop during ${seg.segment}: delay p50 ${seg.delay.p50} / p99 ${seg.delay.p99} / max ${seg.delay.max} ms; ` +
          `${seg.blocksOver50ms} blocks over 50 ms${worst.length ? ` (worst: ${worst.join('; ')})` : ''}`,
      );
    }
    lines.push('');
    if (m.timedOut) problems.push(`run ${r.run}: the panel never showed the destination of ${m.timedOut} move(s)`);
    if (m.wrongSymbols) problems.push(`run ${r.run}: a wrong symbol showed on the way in ${m.wrongSymbols} move(s)`);
    if (r.held && !r.held.settled) problems.push(`run ${r.run}: the panel did not settle after the held key`);
    if (r.rebuild?.wrongSymbolStates) problems.push(`run ${r.run}: a wrong symbol showed during Rebuild Index`);
    if (c.firstItemsMs === null) problems.push(`run ${r.run}: no items for the first file`);
  }
  return { text: lines.join('\n'), problems };
}

/** The cold open's webview steps (ms from page load), ours and the baseline's when it ran. */
function webviewLines(c) {
  const w = c.webview;
  if (!w || w.error) return [];
  const h = c.hostSteps ?? {};
  const out = [
    `- Suggestions view: container asked ${s(w.containerAskedMs)}, host page loaded ${s(w.hostPageLoadedMs)}, ` +
      `view resolved ${s(h['view.resolve'])}, content arrived ${s(w.hostPageMarks?.['content/started'])}, ` +
      `service worker ready ${s(w.hostPageMarks?.['content/workerReady'])}, page loaded ${s(w.contentLoadedMs)}, ` +
      `first state ${s(w.marks?.['pc-initial-state'] ?? w.marks?.['pc-first-state'])}, first paint ${s(w.firstPaintMs)}, ` +
      `first items drawn ${s(w.marks?.['pc-first-items'])}; ` +
      `host: activated ${s(h.activated)}, first items ${s(h['state.items'])}, page ready ${s(h['view.ready'])}`,
  ];
  const b = c.baseline;
  if (b)
    out.push(
      `- baseline view (opened first): container shown ${s(b.containerOpenedMs)}, resolved ${s(b.data?.resolvedAt)}, ` +
        `service worker ready ${s(b.hostPageMarks?.['content/workerReady'])}, first paint ${s(b.firstPaintMs)}`,
    );
  return out;
}
