import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { isAbsolute, join } from 'node:path';
import { Engine } from '../../core/engine';
import { runGit } from '../../core/git/gitExec';
import type { Logger } from '../../core/logger';
import { nullLogger } from '../../core/logger';
import { percentile } from '../../core/provider/provider';
import { prng } from '../../core/random';
import { all } from '../../core/store/sqlite';
import { watchWasmMemories } from './wasmMemories';

export interface BenchOptions {
  /** How many files to sample for the query benchmarks. */
  samples?: number;
  /** How many of them also get the slow second pass (line history). */
  enrichSamples?: number;
  seed?: number;
  /** Keep the state directory (default: a temporary one, removed afterwards). */
  stateDir?: string;
  /**
   * The engine's clock: 'head' (default) runs an hour after the last commit, as if the repository's
   * history had just been made (a snapshot or a synthetic history may end months from today); 'wall'.
   */
  now?: 'head' | 'wall';
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
  /** The engine's clock at the start (unix ms). */
  now: number;
  /** Whether the repository has a commit-graph file (git walks history much faster with one). */
  commitGraph: boolean;
  /** The whole bench, wall clock. */
  durationMs: number;
  cold: { totalMs: number; indexMs: number; historyMs: number; sourcesMs: number; filesPerSecond: number; capped?: { reason: string; limit: number } };
  /** A new engine on the same state directory, as after an editor reload: to its first suggestion, and to the end of its background check. */
  warmStart: { firstSuggestionMs: number; backgroundMs: number };
  incrementalUpdateMs: Stat;
  callersMs: Stat;
  relatedFilesMs: Stat;
  /** The first suggestion for each sampled file (per-file caches cold). */
  suggestMs: Stat;
  /** A second suggestion in the same file at another definition, as when the cursor moves. */
  cursorMoveMs: Stat;
  /** The second pass that adds slow sources (line history) to an answer. */
  enrichMs: Stat;
  peakRssMb: number;
  baselineRssMb: number;
  /** Peak RSS within each phase, to see which one sets the overall peak. */
  phasePeakRssMb: Record<string, number>;
  /** Where memory is at the end of the queries, in MB. */
  memoryMb: { v8Heap: number; external: number; sqlJs: number; treeSitter: number; history: number; historyPaths: number };
}

const INDEX_LIMITS = { index: { maxFiles: 200000, maxFileBytes: 1024 * 1024, timeBudgetMs: 600000 } };
const MB = 1048576;
/** Queries before the measured ones, on files outside the sample, so that the JIT is warm. */
const WARM_UP = 5;

function stat(values: number[]): Stat {
  return { p50: round(percentile(values, 50)), p95: round(percentile(values, 95)), n: values.length };
}

function round(n: number): number {
  return Math.round(n * 100) / 100;
}

async function time<T>(fn: () => Promise<T> | T): Promise<[number, T]> {
  const t0 = performance.now();
  const value = await fn();
  return [performance.now() - t0, value];
}

/**
 * Measures the engine on a real folder: cold index and history mining, a warm start (a new engine on
 * the same state, to its first suggestion), single-file updates, and the latency of callers, related
 * files, suggestions and their slow second pass on a sample of files, with peak memory and where it goes.
 */
export async function runBench(root: string, options: BenchOptions = {}, logger: Logger = nullLogger, onStep: (s: string) => void = () => undefined): Promise<BenchResult> {
  const started = performance.now();
  const stateDir = options.stateDir ?? mkdtempSync(join(tmpdir(), 'pc-bench-'));
  const baselineRssMb = process.memoryUsage().rss / MB;
  let peak = baselineRssMb;
  const phasePeak: Record<string, number> = {};
  let phase = 'cold index';
  const wasm = watchWasmMemories(() => phase);
  const sample = () => {
    const rss = process.memoryUsage().rss / MB;
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
  const now = options.now === 'wall' ? Date.now() : await headTime(root);
  const clock = () => now + (performance.now() - started);
  const open = () => Engine.open({ root, stateDir, logger, config: INDEX_LIMITS, clock });
  try {
    step('cold index');
    const [totalMs, { engine: coldEngine, cold }] = await time(async () => {
      const engine = await open();
      return { engine, cold: await engine.refreshAll() };
    });
    const files = all<{ path: string }>(coldEngine.store.index, 'SELECT path FROM files ORDER BY path').map((r) => r.path);
    coldEngine.store.flush();
    coldEngine.dispose();

    const random = prng(options.seed ?? 42);
    const pool = [...files];
    const take = (n: number) => Array.from({ length: Math.min(n, pool.length) }, () => pool.splice(Math.floor(random() * pool.length), 1)[0]);
    const picked = take(options.samples ?? 200);
    const warmUp = take(WARM_UP);

    step('warm start');
    const w0 = performance.now();
    const engine = await open();
    const background = engine.startBackgroundWork();
    const first = picked[0] ?? warmUp[0];
    if (first) await engine.suggest({ currentFile: first, cursorPosition: { line: 1, column: 1 } }, { record: false });
    const firstSuggestionMs = performance.now() - w0;
    await background;
    const backgroundMs = performance.now() - w0;

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
    const moves: number[] = [];
    const enrich: number[] = [];
    const lineIn = (path: string) => {
      const symbols = engine.index.symbolsIn(path);
      const sym = symbols.length ? symbols[Math.floor(random() * symbols.length)] : undefined;
      return { sym, line: sym ? Math.floor((sym.startLine + sym.endLine) / 2) : 1 };
    };
    for (const path of warmUp) {
      engine.relatedFiles(path, 10);
      await engine.suggest({ currentFile: path, cursorPosition: { line: lineIn(path).line, column: 1 } }, { record: false });
    }
    for (const path of picked) {
      const { sym, line } = lineIn(path);
      if (sym) callers.push((await time(() => engine.index.callers({ name: sym.name, path })))[0]);
      related.push((await time(() => engine.relatedFiles(path, 10)))[0]);
      suggest.push((await time(() => engine.suggest({ currentFile: path, cursorPosition: { line, column: 1 } }, { record: false })))[0]);
      const moved = lineIn(path);
      moves.push((await time(() => engine.suggest({ currentFile: path, cursorPosition: { line: moved.line, column: 1 } }, { record: false })))[0]);
    }
    for (const path of picked.slice(0, options.enrichSamples ?? 30)) {
      const { line } = lineIn(path);
      enrich.push((await time(() => engine.suggest({ currentFile: path, cursorPosition: { line, column: 1 } }, { record: false, includeSlow: true })))[0]);
    }
    sample();
    const mem = process.memoryUsage();
    const history = engine.cochange.memory();
    const [sqlJs, ...others] = wasm.seen;
    const memoryMb = {
      v8Heap: round(mem.heapUsed / MB),
      external: round(mem.external / MB),
      sqlJs: round((sqlJs?.memory.buffer.byteLength ?? 0) / MB),
      treeSitter: round(others.reduce((n, s) => n + s.memory.buffer.byteLength, 0) / MB),
      history: round((history.counts + history.history) / MB),
      // A path string and its table entries: its characters plus about 80 bytes of objects.
      historyPaths: round((history.pathChars + history.paths * 80) / MB),
    };
    const commits = engine.historyStats().commits;
    const commitGraph = await hasCommitGraph(root);
    engine.dispose();
    clearInterval(sampler);
    sample();
    return {
      root,
      files: cold.index.files,
      commits,
      now,
      commitGraph,
      durationMs: round(performance.now() - started),
      cold: {
        totalMs: round(totalMs),
        indexMs: round(cold.index.ms),
        historyMs: round(cold.history?.ms ?? 0),
        sourcesMs: round(cold.sourcesMs),
        filesPerSecond: round(cold.index.files / Math.max(0.001, cold.index.ms / 1000)),
        capped: cold.index.capped,
      },
      warmStart: { firstSuggestionMs: round(firstSuggestionMs), backgroundMs: round(backgroundMs) },
      incrementalUpdateMs: stat(updates),
      callersMs: stat(callers),
      relatedFilesMs: stat(related),
      suggestMs: stat(suggest),
      cursorMoveMs: stat(moves),
      enrichMs: stat(enrich),
      peakRssMb: round(peak),
      baselineRssMb: round(baselineRssMb),
      phasePeakRssMb: phasePeak,
      memoryMb,
    };
  } finally {
    clearInterval(sampler);
    wasm.dispose();
    if (!options.stateDir) rmSync(stateDir, { recursive: true, force: true });
  }
}

/** An hour after the last commit, or now when there is none. */
async function headTime(root: string): Promise<number> {
  const r = await runGit(['log', '-1', '--format=%ct', 'HEAD'], { cwd: root, timeoutMs: 10_000 });
  const seconds = Number(r.stdout.trim());
  return r.ok && seconds > 0 ? seconds * 1000 + 3_600_000 : Date.now();
}

async function hasCommitGraph(root: string): Promise<boolean> {
  for (const p of ['objects/info/commit-graph', 'objects/info/commit-graphs/commit-graph-chain']) {
    const r = await runGit(['rev-parse', '--git-path', p], { cwd: root, timeoutMs: 5000 });
    const path = r.stdout.trim();
    if (r.ok && existsSync(isAbsolute(path) ? path : join(root, path))) return true;
  }
  return false;
}
