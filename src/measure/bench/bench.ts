import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { isAbsolute, join } from 'node:path';
import { openEngine } from '../../core/engine';
import { runGit } from '../../core/git/gitExec';
import type { Logger } from '../../core/logger';
import { nullLogger } from '../../core/logger';
import { INDEX_LIMITS, measureWarm, round, time, type WarmResult } from './benchWarm';

export type { Stat, WarmResult } from './benchWarm';
import { RssSampler } from './rssSampler';
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
  /**
   * Measure the warm part in a new process, as an editor reload starts one (the default when run as
   * the `bench` command): WebAssembly heaps never shrink, so a process that indexed cold keeps
   * that peak, which a reloaded editor does not have.
   */
  warmProcess?: boolean;
}

export interface BenchResult extends WarmResult {
  root: string;
  /** The engine's clock at the start (unix ms). */
  now: number;
  /** Whether the repository has a commit-graph file (git walks history much faster with one). */
  commitGraph: boolean;
  /** The whole bench, wall clock. */
  durationMs: number;
  cold: {
    totalMs: number;
    indexMs: number;
    historyMs: number;
    sourcesMs: number;
    filesPerSecond: number;
    capped?: { reason: string; limit: number };
  };
  /** Peak RSS of the process that indexed cold, and of the one that started warm, in MB. */
  peakRssMb: number;
  coldPeakRssMb: number;
  warmPeakRssMb: number;
  baselineRssMb: number;
  /** Peak RSS within each phase, to see which one sets the overall peak. */
  phasePeakRssMb: Record<string, number>;
}

/** Set in the process that measures the warm part: `{ stateDir, now }`. */
const WARM_ENV = 'PC_BENCH_WARM';

/**
 * Measures the engine on a real folder: cold index and history mining, then, in a new process as
 * after an editor reload, a warm start to the first suggestion, single-file updates and the latency
 * of callers, related files, suggestions and their slow second pass on a sample of files, with peak
 * memory and where it goes.
 */
export async function runBench(
  root: string,
  options: BenchOptions = {},
  logger: Logger = nullLogger,
  onStep: (s: string) => void = () => undefined,
): Promise<BenchResult> {
  const warmEnv = process.env[WARM_ENV];
  if (warmEnv) return runWarmProcess(root, JSON.parse(warmEnv) as { stateDir: string; now: number }, options, logger);
  const started = performance.now();
  const stateDir = options.stateDir ?? mkdtempSync(join(tmpdir(), 'pc-bench-'));
  const rss = new RssSampler('cold index');
  const wasm = watchWasmMemories(() => rss.phase);
  try {
    const now = options.now === 'wall' ? Date.now() : await headTime(root);
    onStep('cold index');
    const [totalMs, cold] = await time(async () => {
      const engine = await openEngine({
        root,
        stateDir,
        logger,
        config: INDEX_LIMITS,
        clock: () => now + (performance.now() - started),
      });
      try {
        const stats = await engine.indexer.refreshAll();
        engine.store.flush();
        return stats;
      } finally {
        engine.dispose();
      }
    });
    rss.stop();
    const coldPeak = rss.peakMb;
    const warmOptions = {
      root,
      stateDir,
      now,
      samples: options.samples ?? 200,
      enrichSamples: options.enrichSamples ?? 30,
      seed: options.seed ?? 42,
    };
    const forked = options.warmProcess ?? process.argv[2] === 'bench';
    const warm = forked
      ? await inNewProcess(warmOptions, onStep)
      : await inThisProcess(warmOptions, logger, onStep, rss, wasm.seen);
    return {
      ...warm,
      root,
      now,
      commitGraph: await hasCommitGraph(root),
      durationMs: round(performance.now() - started),
      cold: {
        totalMs: round(totalMs),
        indexMs: round(cold.index.ms),
        historyMs: round(cold.history?.ms ?? 0),
        sourcesMs: round(cold.sourcesMs),
        filesPerSecond: round(cold.index.files / Math.max(0.001, cold.index.ms / 1000)),
        capped: cold.index.capped,
      },
      files: cold.index.files,
      coldPeakRssMb: round(coldPeak),
      warmPeakRssMb: warm.peakRssMb,
      peakRssMb: round(Math.max(coldPeak, warm.peakRssMb)),
      baselineRssMb: round(rss.baselineMb),
      phasePeakRssMb: { ...rss.phasePeakMb, ...warm.phasePeakRssMb },
    };
  } finally {
    rss.stop();
    wasm.dispose();
    if (!options.stateDir) rmSync(stateDir, { recursive: true, force: true });
  }
}

type WarmPart = WarmResult & { peakRssMb: number; phasePeakRssMb: Record<string, number> };

async function inThisProcess(
  o: Parameters<typeof measureWarm>[0],
  logger: Logger,
  onStep: (s: string) => void,
  rss: RssSampler,
  wasm: Parameters<typeof measureWarm>[3],
): Promise<WarmPart> {
  const warm = new RssSampler('warm start');
  try {
    const result = await measureWarm(o, logger, warm, wasm, onStep);
    warm.stop();
    return { ...result, peakRssMb: round(Math.max(rss.peakMb, warm.peakMb)), phasePeakRssMb: warm.phasePeakMb };
  } finally {
    warm.stop();
  }
}

/** Runs this same command again with the warm part only, and reads its JSON. */
function inNewProcess(o: Parameters<typeof measureWarm>[0], onStep: (s: string) => void): Promise<WarmPart> {
  return new Promise((resolve, reject) => {
    onStep('warm start, in a new process');
    const child = spawn(
      process.execPath,
      [
        ...process.execArgv,
        process.argv[1],
        'bench',
        '--root',
        o.root,
        '--samples',
        String(o.samples),
        '--seed',
        String(o.seed),
        '--json',
      ],
      {
        env: {
          ...process.env,
          [WARM_ENV]: JSON.stringify({ stateDir: o.stateDir, now: o.now, enrichSamples: o.enrichSamples }),
        },
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    const out: Buffer[] = [];
    child.stdout.on('data', (b: Buffer) => out.push(b));
    child.on('error', reject);
    child.on('close', (code) => {
      try {
        if (code !== 0) throw new Error(`the warm process exited with ${code}`);
        resolve(JSON.parse(Buffer.concat(out).toString('utf8')) as WarmPart);
      } catch (err) {
        reject(err);
      }
    });
  });
}

/** The warm part alone, in the process the cold one started; printed by the command as its result. */
async function runWarmProcess(
  root: string,
  env: { stateDir: string; now: number; enrichSamples?: number },
  options: BenchOptions,
  logger: Logger,
): Promise<BenchResult> {
  const rss = new RssSampler('warm start');
  const wasm = watchWasmMemories(() => rss.phase);
  try {
    const o = {
      root,
      stateDir: env.stateDir,
      now: env.now,
      samples: options.samples ?? 200,
      enrichSamples: env.enrichSamples ?? 30,
      seed: options.seed ?? 42,
    };
    const warm = await measureWarm(o, logger, rss, wasm.seen, () => undefined);
    rss.stop();
    const zero = { totalMs: 0, indexMs: 0, historyMs: 0, sourcesMs: 0, filesPerSecond: 0 };
    return {
      ...warm,
      root,
      now: env.now,
      commitGraph: false,
      durationMs: 0,
      cold: zero,
      peakRssMb: round(rss.peakMb),
      coldPeakRssMb: 0,
      warmPeakRssMb: round(rss.peakMb),
      baselineRssMb: round(rss.baselineMb),
      phasePeakRssMb: rss.phasePeakMb,
    };
  } finally {
    rss.stop();
    wasm.dispose();
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
