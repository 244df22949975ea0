import type { BenchResult, Stat } from './bench';

const st = (x: Stat) => `p50 ${x.p50} ms, p95 ${x.p95} ms (n=${x.n})`;
const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

/** The bench result as the CLI prints it, one measure per line. */
export function formatBench(r: BenchResult): string {
  const m = r.memoryMb;
  return [
    `root                ${r.root}`,
    `files / commits     ${r.files} / ${r.commits}${r.commitGraph ? ' (commit-graph)' : ' (no commit-graph)'}, clock at ${new Date(r.now).toISOString()}`,
    `cold total          ${s(r.cold.totalMs)} (index ${s(r.cold.indexMs)} at ${r.cold.filesPerSecond} files/s, history ${s(r.cold.historyMs)}, docs/ADRs/reports ${s(r.cold.sourcesMs)})${r.cold.capped ? ` — capped at ${r.cold.capped.limit} (${r.cold.capped.reason})` : ''}`,
    `warm start          ${s(r.warmStart.firstSuggestionMs)} to the first suggestion (background check done at ${s(r.warmStart.backgroundMs)})`,
    `incremental update  ${st(r.incrementalUpdateMs)}`,
    `callers             ${st(r.callersMs)}`,
    `related files       ${st(r.relatedFilesMs)}`,
    `suggest (new file)  ${st(r.suggestMs)}`,
    `suggest (cursor)    ${st(r.cursorMoveMs)}`,
    `enrich (slow pass)  ${st(r.enrichMs)}`,
    `peak RSS            cold process ${r.coldPeakRssMb} MB, warm process ${r.warmPeakRssMb} MB (baseline ${r.baselineRssMb} MB: +${Math.round(r.coldPeakRssMb - r.baselineRssMb)} / +${Math.round(r.warmPeakRssMb - r.baselineRssMb)} MB)`,
    `memory at the end   RSS ${m.rss} MB${m.collected ? ' after a full collection' : ''}: V8 heap ${m.v8Heap} MB, external ${m.external} MB (sql.js ${m.sqlJs} MB, tree-sitter ${m.treeSitter} MB, array buffers ${m.arrayBuffers} MB), history ${m.history} MB + paths ~${m.historyPaths} MB`,
    `bench duration      ${s(r.durationMs)}`,
  ].join('\n');
}
