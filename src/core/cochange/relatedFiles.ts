import { Candidates, F, type RelatedFilesContext } from './candidates';
import { DEFAULT_WEIGHTS, FEATURE_NAMES, type RankingWeights } from './rankingModel';

export { DEFAULT_WEIGHTS, FEATURE_NAMES, type RankingWeights } from './rankingModel';
export type { ImportGraph, RelatedFilesContext } from './candidates';

export interface RelatedFile {
  path: string;
  /** 0..1 */
  score: number;
  /** Human-readable, strongest first. */
  reasons: string[];
  /** Commits that changed both files, when any. */
  support?: number;
  /** Large change sets (too large for pair counts, short of a sweep) that changed both files. */
  largeChanges?: number;
  /**
   * What links it besides shared commits and shared words: an import either way, its test or
   * implementation by naming convention, or the words of the uncommitted change.
   */
  links?: { imports: boolean; test: boolean; change: boolean };
}

export interface ScoredCandidate {
  path: string;
  x: readonly number[];
  heuristic: number;
}

/**
 * Files likely to change with `path`: co-change (shrunk confidence, weighted by how recent the shared
 * changes are, how active and how near the other file is), imports in both directions, the test or
 * implementation by naming convention, partners of partners, and a weak prior for active siblings.
 */
export function relatedFiles(
  path: string,
  ctx: RelatedFilesContext,
  limit = 10,
  w: RankingWeights = DEFAULT_WEIGHTS,
): RelatedFile[] {
  // A model fitted for another feature list would score garbage: the heuristic stands in.
  const fitted = w.model && w.model.length === FEATURE_NAMES.length + 1;
  const found = Candidates.gather(path, ctx, w);
  const matrix = found.matrix;
  const scored = found.list().map((c) => ({
    c,
    score: Math.round((fitted ? logistic(matrix, w.model!, w.trees, c.at) : matrix[c.at + F.heuristic]) * 1e4) / 1e4,
  }));
  scored.sort((a, b) => b.score - a.score || (b.c.support ?? 0) - (a.c.support ?? 0) || (a.c.path < b.c.path ? -1 : 1));
  const top = scored.slice(0, limit);
  // Reasons are gathered and put in order for the files shown only.
  const reasons = new Map<number, [number, string][]>(top.map(({ c }) => [c.at, []]));
  const { reasonAt, reasonWeight, reasonText } = found;
  for (let i = 0; i < reasonAt.length; i++) reasons.get(reasonAt[i])?.push([reasonWeight[i], reasonText[i]]);
  return top.map(({ c, score }) => {
    const large = Math.round(Math.expm1(matrix[c.at + F.broadShared]));
    return {
      path: c.path,
      score,
      reasons: reasons
        .get(c.at)!
        .sort((a, b) => b[0] - a[0])
        .map((r) => r[1]),
      support: c.support,
      ...(large > 0 ? { largeChanges: large } : {}),
      links: {
        imports: matrix[c.at + F.imports] > 0 || matrix[c.at + F.importedBy] > 0,
        test: matrix[c.at + F.testPair] > 0 || matrix[c.at + F.distantTestPair] > 0,
        change: matrix[c.at + F.changeWords] > 0 || matrix[c.at + F.changeNames] > 0,
      },
    };
  });
}

/** Every candidate with its features; for fitting the logistic model (bench/synthetic/train-ranker.mjs). @public */
export function candidateFeatures(
  path: string,
  ctx: RelatedFilesContext,
  w: RankingWeights = DEFAULT_WEIGHTS,
): ScoredCandidate[] {
  const found = Candidates.gather(path, ctx, w);
  const matrix = found.matrix;
  return found.list().map((c) => ({
    path: c.path,
    x: Array.from(matrix.subarray(c.at, c.at + FEATURE_NAMES.length)),
    heuristic: matrix[c.at + F.heuristic],
  }));
}

function logistic(matrix: Float64Array, model: readonly number[], trees: RankingWeights['trees'], at: number): number {
  let z = model[0];
  for (let i = 0; i < FEATURE_NAMES.length; i++) z += model[i + 1] * matrix[at + i];
  if (trees) for (const t of trees) z += treeValue(matrix, t, at);
  return 1 / (1 + Math.exp(-z));
}

function treeValue(matrix: Float64Array, nodes: readonly (readonly number[])[], at: number): number {
  let i = 0;
  // Depth-bounded: a malformed tree ends at its first bad link instead of looping.
  for (let step = 0; step < 64; step++) {
    const n = nodes[i];
    if (!n) return 0;
    if (n[0] < 0) return n[1];
    i = matrix[at + n[0]] <= n[1] ? n[2] : n[3];
  }
  return 0;
}
