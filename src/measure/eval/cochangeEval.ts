import { performance } from 'node:perf_hooks';
import { BroadChanges } from '../../core/cochange/broadChanges';
import { CoChangeCounts, MAX_CHANGE_SET } from '../../core/cochange/cochangeCounts';
import { streamHistory, type ChangeSet } from '../../core/cochange/historyStream';
import { DEFAULT_WEIGHTS, relatedFiles, type ImportGraph, type RankingWeights } from '../../core/cochange/relatedFiles';
import { FileIndex } from '../../core/cochange/testPairing';
import { parseLsTree, readBlobs } from '../../core/git/catFile';
import { runGit } from '../../core/git/gitExec';
import { diffWords } from '../../core/git/hunks';
import { nullLogger, type Logger } from '../../core/logger';
import { parseLenientJson } from '../../core/index/resolve';
import { extractImportSpecs, isScriptFile, resolveRelative } from './importExtractor';
import { isResolutionConfig, PackageResolver } from '../../core/index/packageResolver';
import { prng } from '../../core/random';
import type { TermSimilarity } from '../../core/cochange/termIndex';
import { ParentTerms } from './parentTerms';

export interface CochangeEvalOptions {
  /** How many of the most recent qualifying commits to replay. */
  replay?: number;
  /** How many commits before each evaluated commit the model may learn from. */
  window?: number;
  seed?: number;
  /** Skips this many of the newest qualifying commits (to tune on one span and report on another). */
  offset?: number;
  weights?: RankingWeights;
  /** Replaces the built-in import extractor: the import graph at a commit's parent. */
  importGraphAt?: (parent: string, files: readonly string[]) => Promise<ImportGraph>;
  /** Leave the import graph out (for ablation). */
  noImports?: boolean;
  /** Leave large change sets out (for ablation). */
  noBroad?: boolean;
  /** Leave shared words in file contents out (for ablation). */
  noTerms?: boolean;
  /** The query carries the words of the lines its commit changed in it, as an uncommitted edit would. */
  withChange?: boolean;
  signal?: AbortSignal;
  timeoutMs?: number;
  /** Sees every replayed query with both rankings; for diagnostics. */
  inspect?: (q: QueryTrace) => void;
}

export interface QueryTrace {
  commit: string;
  query: string;
  truth: string[];
  ranked: string[];
  rose: string[];
  counts: CoChangeCounts;
  broad?: BroadChanges;
  files: FileIndex;
  imports?: ImportGraph;
  terms?: TermSimilarity;
  now: number;
  /** The words of the query file's change, with `withChange`. */
  changeWords?: string[];
  /** Change sets before the commit, newest last. */
  history: readonly ChangeSet[];
}

export interface RankingMetrics {
  recallAt5: number;
  recallAt10: number;
  mrr: number;
  hitAt10: number;
}

export interface CochangeEvalResult extends RankingMetrics {
  queries: number;
  latencyMs: { p50: number; p95: number };
  /** Plain ROSE: co-change partners by confidence, then support, as mined. */
  baseline: RankingMetrics;
  /** ROSE restricted to source files that exist at the parent: the same candidate set as the ranking. */
  baselineFiltered: RankingMetrics;
  head?: string;
  /** Why fewer queries ran than asked, when that happened. */
  note?: string;
}

const SOURCE_EXT =
  /\.(?:[cm]?[jt]sx?|vue|svelte|py|go|java|kt|kts|scala|rs|rb|cs|c|cc|cpp|cxx|h|hh|hpp|swift|php|dart|ex|exs|clj)$/i;
const MAX_BLOB_BYTES = 256 * 1024;

export function isSourceFile(path: string): boolean {
  return SOURCE_EXT.test(path) && !/(^|\/)(node_modules|vendor|dist|build)\//.test(path);
}

interface Query {
  index: number;
  query: string;
  truth: string[];
}

/**
 * Replays recent commits: for each, one modified file is the query and the other modified files are
 * what a good ranking should find, using only history strictly before that commit and file contents
 * at its parent. Compares the full ranking with plain ROSE co-change over the same window.
 */
// eslint-disable-next-line max-lines-per-function, complexity -- one evaluation script, step by step
export async function runCochangeEval(
  root: string,
  options: CochangeEvalOptions = {},
  logger: Logger = nullLogger,
): Promise<CochangeEvalResult> {
  const replay = options.replay ?? 300;
  const window = options.window ?? 2000;
  const rand = prng(options.seed ?? 42);
  const weights = options.weights ?? DEFAULT_WEIGHTS;
  const started = performance.now();

  const commits: ChangeSet[] = [];
  const res = await streamHistory(
    { cwd: root, withStatus: true, timeoutMs: options.timeoutMs ?? 600_000, signal: options.signal },
    (c) => commits.push(c),
  );
  if (!res.ok) logger.warn(`eval: could not read history (${res.failure})`);
  commits.reverse();
  logger.info(`eval: ${commits.length} first-parent commits read in ${Math.round(performance.now() - started)} ms`);

  // The commits to replay: the newest `replay` ones that touch 2..20 source files, two of them modified.
  const picked: number[] = [];
  let skip = options.offset ?? 0;
  for (let i = commits.length - 1; i >= 1 && picked.length < replay; i--) {
    const c = commits[i];
    const src = c.files.filter(isSourceFile);
    const modified = c.files.filter((f, k) => c.statuses![k] === 'M' && isSourceFile(f));
    if (src.length >= 2 && src.length <= 20 && modified.length >= 2) {
      if (skip > 0) skip--;
      else picked.push(i);
    }
  }
  picked.reverse();
  const queries: Query[] = picked.map((i) => {
    const c = commits[i];
    const modified = c.files.filter((f, k) => c.statuses![k] === 'M' && isSourceFile(f)).sort();
    const query = modified[Math.floor(rand() * modified.length)];
    return { index: i, query, truth: modified.filter((f) => f !== query) };
  });

  const counts = new CoChangeCounts(MAX_CHANGE_SET);
  const broad = new BroadChanges();
  let lo = 0;
  let hi = 0;
  const graphs = options.importGraphAt ? undefined : new ParentImportGraphs(root, options.signal);
  const terms =
    graphs && !options.noTerms
      ? new ParentTerms(root, (e) => isSourceFile(e.path) && e.size <= MAX_BLOB_BYTES, options.signal)
      : undefined;
  const ours: number[][] = [];
  const base: number[][] = [];
  const baseFiltered: number[][] = [];
  const latencies: number[] = [];

  for (const q of queries) {
    if (options.signal?.aborted) break;
    const start = Math.max(0, q.index - window);
    while (hi < q.index) {
      counts.add(commits[hi].files, commits[hi].time);
      broad.add(commits[hi].files, commits[hi].time);
      hi++;
    }
    while (lo < start) {
      counts.remove(commits[lo].files);
      broad.remove(commits[lo].files);
      lo++;
    }
    const parent = `${commits[q.index].hash}^`;
    const now = commits[q.index - 1].time;
    const tree = graphs ? await graphs.treeAt(parent) : undefined;
    const paths = tree ? tree.map((e) => e.path) : [...counts.files.keys()];
    const fileIndex = new FileIndex(paths.filter(isSourceFile));
    let imports: ImportGraph | undefined;
    if (!options.noImports)
      imports = graphs ? await graphs.graphFor(tree!, q.query) : await options.importGraphAt!(parent, paths);
    const termIndex = terms && tree ? await terms.moveTo(tree) : undefined;
    const changeWords = options.withChange
      ? await wordsOfChange(root, commits[q.index].hash, q.query, options.signal)
      : undefined;

    const t0 = performance.now();
    const ranked = relatedFiles(
      q.query,
      {
        cochange: counts,
        broad: options.noBroad ? undefined : broad,
        imports,
        files: fileIndex,
        terms: termIndex,
        now,
        changeWords,
      },
      10,
      weights,
    ).map((r) => r.path);
    latencies.push(performance.now() - t0);
    ours.push(ranks(ranked, q.truth));

    const partners = counts.coChanged(q.query, 500);
    base.push(
      ranks(
        partners.slice(0, 10).map((r) => r.path),
        q.truth,
      ),
    );
    const rose = partners
      .filter((r) => isSourceFile(r.path) && fileIndex.has(r.path))
      .slice(0, 10)
      .map((r) => r.path);
    baseFiltered.push(ranks(rose, q.truth));
    options.inspect?.({
      commit: commits[q.index].hash,
      query: q.query,
      truth: q.truth,
      ranked,
      rose,
      counts,
      broad: options.noBroad ? undefined : broad,
      files: fileIndex,
      imports,
      terms: termIndex,
      now,
      changeWords,
      history: commits.slice(Math.max(0, q.index - 50), q.index),
    });
  }
  graphs?.dispose();

  const result: CochangeEvalResult = {
    queries: ours.length,
    ...metrics(ours, queries),
    latencyMs: { p50: round(percentile(latencies, 50)), p95: round(percentile(latencies, 95)) },
    baseline: metrics(base, queries),
    baselineFiltered: metrics(baseFiltered, queries),
    head: commits.length ? commits[commits.length - 1].hash : undefined,
  };
  if (!res.ok) {
    const why =
      res.stderr
        ?.trim()
        .split('\n')[0]
        ?.replace(/^fatal:\s*/, '') || res.failure;
    result.note = `could not read the git history of ${root}: ${why}`;
  } else if (ours.length < replay)
    result.note = `only ${ours.length} commits touch 2 to 20 source files with two of them modified`;
  logger.info(`eval: ${ours.length} queries in ${Math.round(performance.now() - started)} ms`);
  return result;
}

/** The words of the lines `commit` changed in `path` against its first parent. */
async function wordsOfChange(root: string, commit: string, path: string, signal?: AbortSignal): Promise<string[]> {
  const res = await runGit(
    ['diff', '--no-color', '--no-ext-diff', '--no-textconv', '-U0', `${commit}^`, commit, '--', path],
    { cwd: root, timeoutMs: 60_000, signal, maxBytes: 16 * 1024 * 1024 },
  );
  return res.ok ? diffWords(res.stdout) : [];
}

/** 1-based ranks of the truth files found in the list. */
function ranks(list: string[], truth: string[]): number[] {
  const out: number[] = [];
  for (const t of truth) {
    const r = list.indexOf(t);
    if (r >= 0) out.push(r + 1);
  }
  return out;
}

function metrics(found: number[][], queries: Query[]): RankingMetrics {
  if (found.length === 0) return { recallAt5: 0, recallAt10: 0, mrr: 0, hitAt10: 0 };
  let r5 = 0;
  let r10 = 0;
  let mrr = 0;
  let hit = 0;
  found.forEach((rk, i) => {
    const n = queries[i].truth.length;
    r5 += rk.filter((r) => r <= 5).length / n;
    r10 += rk.filter((r) => r <= 10).length / n;
    if (rk.length) {
      mrr += 1 / Math.min(...rk);
      hit += 1;
    }
  });
  const k = found.length;
  return { recallAt5: round(r5 / k), recallAt10: round(r10 / k), mrr: round(mrr / k), hitAt10: round(hit / k) };
}

function percentile(xs: number[], p: number): number {
  if (!xs.length) return 0;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
}

function round(x: number): number {
  return Math.round(x * 1e4) / 1e4;
}

interface Entry {
  path: string;
  oid: string;
  size: number;
}

/** Import graphs at parent commits, from blob contents read once per blob id. */
class ParentImportGraphs {
  private readonly specs = new Map<string, string[]>();
  private readonly configs = new Map<string, Record<string, unknown> | undefined>();

  constructor(
    private readonly root: string,
    private readonly signal?: AbortSignal,
  ) {}

  async treeAt(rev: string): Promise<Entry[]> {
    const res = await runGit(['ls-tree', '-r', '-l', '-z', rev], {
      cwd: this.root,
      timeoutMs: 60_000,
      signal: this.signal,
    });
    return res.ok ? parseLsTree(res.stdout) : [];
  }

  async graphFor(tree: Entry[], query: string): Promise<ImportGraph> {
    const scripts = tree.filter((e) => isScriptFile(e.path) && e.size <= MAX_BLOB_BYTES);
    const configs = tree.filter((e) => isResolutionConfig(e.path) && e.size <= MAX_BLOB_BYTES);
    const missing = [...new Set(scripts.filter((e) => !this.specs.has(e.oid)).map((e) => e.oid))];
    const missingConfigs = [...new Set(configs.filter((e) => !this.configs.has(e.oid)).map((e) => e.oid))];
    if (missing.length || missingConfigs.length) {
      const blobs = await readBlobs(this.root, [...missing, ...missingConfigs], { signal: this.signal });
      for (const oid of missing) this.specs.set(oid, extractImportSpecs(blobs.get(oid) ?? ''));
      for (const oid of missingConfigs) this.configs.set(oid, parseConfig(blobs.get(oid)));
    }
    const set = new Set(tree.map((e) => e.path));
    const exists = (p: string) => set.has(p);
    const oidOf = new Map(scripts.map((e) => [e.path, e.oid]));
    const configOid = new Map(configs.map((e) => [e.path, e.oid]));
    const packages = new PackageResolver(
      exists,
      (p) => this.configs.get(configOid.get(p) ?? ''),
      configs.filter((e) => e.path.endsWith('package.json')).map((e) => e.path),
    );
    const resolveOne = (path: string, s: string) =>
      s.startsWith('.') ? resolveRelative(path, s, exists) : packages.resolve(path, s);
    const memo = new Map<string, string[]>();
    const resolveAll = (path: string): string[] => {
      let out = memo.get(path);
      if (out) return out;
      out = [];
      memo.set(path, out);
      for (const s of this.specs.get(oidOf.get(path) ?? '') ?? []) {
        const r = resolveOne(path, s);
        if (r && r !== path) out.push(r);
      }
      return out;
    };
    const importsOfQuery = resolveAll(query);
    const importers: string[] = [];
    const stem = baseStem(query);
    for (const e of scripts) {
      if (e.path === query) continue;
      // Cheap filter before resolving: a relative import must mention the query's base name.
      const specs = this.specs.get(e.oid) ?? [];
      if (
        specs.some((s) =>
          s.startsWith('.')
            ? s.includes(stem) && resolveRelative(e.path, s, exists) === query
            : packages.resolve(e.path, s) === query,
        )
      )
        importers.push(e.path);
    }
    return {
      importsOf: (p) => (p === query ? importsOfQuery : resolveAll(p)),
      importersOf: (p) => (p === query ? importers : []),
    };
  }

  dispose(): void {
    this.specs.clear();
    this.configs.clear();
  }
}

function parseConfig(text: string | undefined): Record<string, unknown> | undefined {
  if (!text) return undefined;
  try {
    const json = parseLenientJson(text);
    return json && typeof json === 'object' && !Array.isArray(json) ? (json as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

function baseStem(path: string): string {
  const base = path.slice(path.lastIndexOf('/') + 1);
  const stem = base.replace(/\.[^.]+$/, '');
  // `dir/index.ts` is imported as `dir`.
  if (stem === 'index') {
    const dir = path.slice(0, Math.max(0, path.lastIndexOf('/')));
    return dir.slice(dir.lastIndexOf('/') + 1);
  }
  return stem;
}
