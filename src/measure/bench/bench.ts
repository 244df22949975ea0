import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openEngine } from '../../core/engine';
import type { Logger } from '../../core/logger';
import { nullLogger } from '../../core/logger';
import { percentile } from '../../core/text';
import { all } from '../../core/store/sqlite';
import { prng } from '../../core/random';

export interface BenchOptions {
  /** How many files to sample for the query benchmarks. */
  samples?: number;
  seed?: number;
  /** Keep the state directory (default: a temporary one, removed afterwards). */
  stateDir?: string;
}

export interface Stat {
  p50: number;
  p95: number;
  n: number;
}

export interface BenchResult {
  root: string;
  files: number;
  commits: number;
  cold: { totalMs: number; indexMs: number; historyMs: number; sourcesMs: number; filesPerSecond: number; capped?: { reason: string; limit: number } };
  warm: { indexMs: number; unchangedFiles: number };
  incrementalUpdateMs: Stat;
  callersMs: Stat;
  relatedFilesMs: Stat;
  suggestMs: Stat;
  peakRssMb: number;
  baselineRssMb: number;
  /** Peak RSS within each phase, to see which one sets the overall peak. */
  phasePeakRssMb: Record<string, number>;
}

function stat(values: number[]): Stat {
  return { p50: round(percentile(values, 50)), p95: round(percentile(values, 95)), n: values.length };
}

function round(n: number): number {
  return Math.round(n * 100) / 100;
}

/**
 * Measures the engine on a real folder: cold index and history mining, a warm re-index,
 * single-file updates, and the latency of callers, related files and suggest queries.
 */
export async function runBench(root: string, options: BenchOptions = {}, logger: Logger = nullLogger, onStep: (s: string) => void = () => undefined): Promise<BenchResult> {
  const stateDir = options.stateDir ?? mkdtempSync(join(tmpdir(), 'pc-bench-'));
  const baselineRssMb = process.memoryUsage().rss / 1048576;
  let peak = baselineRssMb;
  const phasePeak: Record<string, number> = {};
  let phase = 'cold index';
  const sample = () => {
    const rss = process.memoryUsage().rss / 1048576;
    peak = Math.max(peak, rss);
    phasePeak[phase] = round(Math.max(phasePeak[phase] ?? 0, rss));
  };
  const step = (name: string) => {
    sample();
    phase = name;
    onStep(name);
  };
  const sampler = setInterval(sample, 50);
  sampler.unref();
  try {
    step('cold index');
    const t0 = performance.now();
    let engine = await openEngine({ root, stateDir, logger, config: { index: { maxFiles: 200000, maxFileBytes: 1024 * 1024, timeBudgetMs: 600000 } } });
    const cold = await engine.indexer.refreshAll();
    const totalMs = performance.now() - t0;
    engine.store.flush();
    engine.dispose();

    step('warm re-index');
    engine = await openEngine({ root, stateDir, logger, config: { index: { maxFiles: 200000, maxFileBytes: 1024 * 1024, timeBudgetMs: 600000 } } });
    const w0 = performance.now();
    const warm = await engine.indexer.refreshAll();
    const warmMs = performance.now() - w0;

    const files = all<{ path: string }>(engine.store.index, 'SELECT path FROM files ORDER BY path').map((r) => r.path);
    const random = prng(options.seed ?? 42);
    const n = Math.min(options.samples ?? 200, files.length);
    const picked: string[] = [];
    const pool = [...files];
    for (let i = 0; i < n; i++) picked.push(pool.splice(Math.floor(random() * pool.length), 1)[0]);

    step('incremental updates');
    const updates: number[] = [];
    for (const path of picked.slice(0, 50)) {
      // Forget the content hash so the file is parsed again, exactly as after a save that changed it.
      engine.store.index.run('UPDATE files SET hash = ? WHERE path = ?', ['', path]);
      const r = await engine.index.updateFile(path);
      if (r.status === 'parsed') updates.push(r.ms);
    }

    step('queries');
    const callers: number[] = [];
    const related: number[] = [];
    const suggest: number[] = [];
    for (const path of picked) {
      const symbols = engine.index.symbolsIn(path);
      const sym = symbols.length ? symbols[Math.floor(random() * symbols.length)] : undefined;
      if (sym) {
        const c0 = performance.now();
        engine.index.callers({ name: sym.name, path });
        callers.push(performance.now() - c0);
      }
      const r0 = performance.now();
      engine.history.related(path, 10);
      related.push(performance.now() - r0);
      const line = sym ? Math.floor((sym.startLine + sym.endLine) / 2) : 1;
      // The first query for a file warms per-file caches; the bar is for warm queries.
      await engine.provider.suggest({ currentFile: path, cursorPosition: { line, column: 1 } }, { record: false });
      const s = await engine.provider.suggest({ currentFile: path, cursorPosition: { line, column: 1 } }, { record: false });
      suggest.push(s.latencyMs);
    }
    const commits = engine.cochange.commitCount;
    engine.dispose();
    clearInterval(sampler);
    sample();
    return {
      root,
      files: cold.index.files,
      commits,
      cold: {
        totalMs: round(totalMs),
        indexMs: round(cold.index.ms),
        historyMs: round(cold.history?.ms ?? 0),
        sourcesMs: round(cold.sourcesMs),
        filesPerSecond: round(cold.index.files / Math.max(0.001, cold.index.ms / 1000)),
        capped: cold.index.capped,
      },
      warm: { indexMs: round(warmMs), unchangedFiles: warm.index.skipped },
      incrementalUpdateMs: stat(updates),
      callersMs: stat(callers),
      relatedFilesMs: stat(related),
      suggestMs: stat(suggest),
      peakRssMb: round(peak),
      baselineRssMb: round(baselineRssMb),
      phasePeakRssMb: phasePeak,
    };
  } finally {
    clearInterval(sampler);
    if (!options.stateDir) rmSync(stateDir, { recursive: true, force: true });
  }
}
