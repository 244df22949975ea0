import { openEngine } from '../../core/engine';
import type { Logger } from '../../core/logger';
import { percentile } from '../../shared/text';
import { prng } from '../../core/random';
import { all } from '../../core/store/sqlite';
import type { RssSampler } from './rssSampler';
import type { SeenMemory } from './wasmMemories';

export interface Stat {
  p50: number;
  p95: number;
  n: number;
}

/** What the warm process measures. */
export interface WarmResult {
  files: number;
  commits: number;
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
  /** Where memory is at the end of the queries, in MB (after a full collection when node runs with --expose-gc). */
  memoryMb: {
    rss: number;
    collected: boolean;
    v8Heap: number;
    external: number;
    arrayBuffers: number;
    sqlJs: number;
    treeSitter: number;
    history: number;
    historyPaths: number;
  };
}

export const INDEX_LIMITS = { index: { maxFiles: 200000, maxFileBytes: 1024 * 1024, timeBudgetMs: 600000 } };
const MB = 1048576;
/** Queries before the measured ones, on files outside the sample, so that the JIT is warm. */
const WARM_UP = 5;

export interface WarmOptions {
  root: string;
  stateDir: string;
  /** The engine clock's start (unix ms). */
  now: number;
  samples: number;
  enrichSamples: number;
  seed: number;
}

export function stat(values: number[]): Stat {
  return { p50: round(percentile(values, 50)), p95: round(percentile(values, 95)), n: values.length };
}

export function round(n: number): number {
  return Math.round(n * 100) / 100;
}

export async function time<T>(fn: () => Promise<T> | T): Promise<[number, T]> {
  const t0 = performance.now();
  const value = await fn();
  return [performance.now() - t0, value];
}

/**
 * What an editor reload costs and what it then answers: a new engine on an indexed state directory
 * to its first suggestion, single-file updates, and the latency of callers, related files,
 * suggestions and their slow second pass on a sample of files, each file asked for the first time.
 */
// eslint-disable-next-line max-lines-per-function -- one measurement script, step by step
export async function measureWarm(
  o: WarmOptions,
  logger: Logger,
  rss: RssSampler,
  wasm: readonly SeenMemory[],
  onStep: (s: string) => void,
): Promise<WarmResult> {
  const started = performance.now();
  const clock = () => o.now + (performance.now() - started);
  const step = (name: string) => {
    rss.enter(name);
    onStep(name);
  };

  step('warm start');
  const engine = await openEngine({ root: o.root, stateDir: o.stateDir, logger, config: INDEX_LIMITS, clock });
  try {
    const files = all<{ path: string }>(engine.store.index, 'SELECT path FROM files ORDER BY path').map((r) => r.path);
    const random = prng(o.seed);
    const pool = [...files];
    const take = (n: number) =>
      Array.from({ length: Math.min(n, pool.length) }, () => pool.splice(Math.floor(random() * pool.length), 1)[0]);
    const picked = take(o.samples);
    const warmUp = take(WARM_UP);
    const background = engine.indexer.startBackgroundWork();
    const first = picked[0] ?? warmUp[0];
    if (first)
      await engine.provider.suggest({ currentFile: first, cursorPosition: { line: 1, column: 1 } }, { record: false });
    const firstSuggestionMs = performance.now() - started;
    await background;
    const backgroundMs = performance.now() - started;

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
    const ask = async (path: string, line: number, enriched = false) => {
      const first = await engine.provider.suggest(
        { currentFile: path, cursorPosition: { line, column: 1 } },
        { record: false },
      );
      // The slow sources enrich the first answer; the panel shows both.
      return enriched ? ((await engine.provider.enrich(first)) ?? first) : first;
    };
    for (const path of warmUp) {
      engine.history.related(path, 10);
      await ask(path, lineIn(path).line);
    }
    for (const path of picked) {
      const { sym, line } = lineIn(path);
      if (sym) callers.push((await time(() => engine.index.callers({ name: sym.name, path })))[0]);
      related.push((await time(() => engine.history.related(path, 10)))[0]);
      suggest.push((await time(() => ask(path, line)))[0]);
      moves.push((await time(() => ask(path, lineIn(path).line)))[0]);
    }
    for (const path of picked.slice(0, o.enrichSamples))
      enrich.push((await time(() => ask(path, lineIn(path).line, true)))[0]);

    // With --expose-gc, what is live rather than what the collector has not reclaimed yet.
    const gc = (globalThis as { gc?: () => void }).gc;
    gc?.();
    rss.sample();
    const mem = process.memoryUsage();
    const history = engine.cochange.memory();
    // sql.js is loaded first (by the store), tree-sitter when the index parses.
    const [sqlJs, ...others] = wasm;
    return {
      files: files.length,
      commits: engine.cochange.commitCount,
      warmStart: { firstSuggestionMs: round(firstSuggestionMs), backgroundMs: round(backgroundMs) },
      incrementalUpdateMs: stat(updates),
      callersMs: stat(callers),
      relatedFilesMs: stat(related),
      suggestMs: stat(suggest),
      cursorMoveMs: stat(moves),
      enrichMs: stat(enrich),
      memoryMb: {
        rss: round(mem.rss / MB),
        collected: Boolean(gc),
        v8Heap: round(mem.heapUsed / MB),
        external: round(mem.external / MB),
        arrayBuffers: round(mem.arrayBuffers / MB),
        sqlJs: round((sqlJs?.memory.buffer.byteLength ?? 0) / MB),
        treeSitter: round(others.reduce((n, s) => n + s.memory.buffer.byteLength, 0) / MB),
        history: round((history.counts + history.history) / MB),
        // A path string and its table entries: its characters plus about 80 bytes of objects.
        historyPaths: round((history.pathChars + history.paths * 80) / MB),
      },
    };
  } finally {
    engine.dispose();
  }
}
