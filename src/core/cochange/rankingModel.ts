/** The related-files ranking's features and weights: what each candidate file is scored on. */

export interface RankingWeights {
  /** Pseudo-count added to commits(a) so that 1 of 1 is weaker than 9 of 10. */
  shrinkage: number;
  /** Scale of the co-change score before it is combined with the other signals. */
  cochange: number;
  /** Age after which a shared change counts half as much... */
  pairHalfLifeDays: number;
  /** ...within this share of the score (the rest does not decay). */
  pairRecencyShare: number;
  /** The same for the last time the other file changed at all. */
  targetHalfLifeDays: number;
  targetRecencyShare: number;
  /** Commits after which a file counts as half active. */
  activityCommits: number;
  /** Share of the co-change score that depends on how active the other file is. */
  activityShare: number;
  /** Multipliers by folder distance: same folder, 1-2 steps, 3 steps, further. */
  proximity: [number, number, number, number];
  imports: number;
  importedBy: number;
  /** Share of the import weight that does not depend on the other file's activity. */
  importFloor: number;
  testPair: number;
  sibling: number;
  /** Weight of active files in the folder above. */
  parentFolder: number;
  /** Folders with more files than this give no sibling prior. */
  maxFolder: number;
  /** Weight of files that co-change with the file's co-change partners. */
  twoHop: number;
  /** How many of the strongest partners the two-hop step looks through. */
  twoHopFanout: number;
  /**
   * A logistic model over the candidate features (intercept first, then one coefficient per
   * FEATURE_NAMES entry). When present it decides the score; the weights above only gather candidates.
   */
  model?: readonly number[];
  /**
   * Shallow regression trees added to the model's log-odds, for what a sum of features cannot say
   * (one signal counting only when another is weak). Each tree is a node list: `[feature, threshold,
   * left, right]` splits on `x[feature] <= threshold`, `[-1, value]` is a leaf. Used only with `model`.
   */
  trees?: readonly (readonly number[])[][];
}

/** The features each candidate carries, in order. */
export const FEATURE_NAMES = [
  'confidence',
  'logSupport',
  'roseReciprocalRank',
  'pairRecency',
  'activity',
  'backConfidence',
  'sameFolder',
  'nearFolder',
  'folderAbove',
  'imports',
  'importedBy',
  'testPair',
  'twoHop',
  'heuristic',
  'coChanged',
  'logCommits',
  'pairRecencyWeek',
  'targetRecencyWeek',
  'sharedImports',
  'coImported',
  'twoHopReciprocalRank',
  'pairRecencyDay',
  'targetRecencyDay',
  'lastWithQuery',
  'samePackage',
  'distantTestPair',
  'broadShared',
  'broadShare',
  'nameSimilarity',
  'lexical',
  'lexicalReciprocalRank',
  'changeWords',
  'changeWordsReciprocalRank',
  'changeNames',
  'changeNamesReciprocalRank',
] as const;

export const DEFAULT_WEIGHTS: RankingWeights = {
  shrinkage: 1,
  cochange: 1,
  pairHalfLifeDays: 30,
  pairRecencyShare: 0.3,
  targetHalfLifeDays: 30,
  targetRecencyShare: 0,
  activityCommits: 5,
  activityShare: 0,
  proximity: [1, 1, 1, 1],
  imports: 0.3,
  importedBy: 0.25,
  importFloor: 0.2,
  testPair: 0.6,
  sibling: 0.15,
  parentFolder: 0.08,
  maxFolder: 60,
  twoHop: 0.2,
  twoHopFanout: 30,
  // Fitted by `bench/synthetic/train-ranker.mjs --pairwise --offset 300 --replay 300 --with-change` on an
  // older span of seven public TypeScript histories (the 300 qualifying commits before the newest 300),
  // each query seen with and without the words of its change, so the eval on the newest ones is held out.
  model: [
    -5.7436, 1.3686, 0.1615, 0.6252, 0.7492, 0.23, 0.6359, 0.2211, 0.2934, 0.123, 0.7071, 0.6179, 1.1617, 0, 0, 0.2039,
    0.2527, 0.0744, 0.7974, 0, 0.1247, 0.4589, 0, 0.3962, 0.2786, 0.1178, 1.2292, 0.0592, 0.0703, 1.1943, 5.1194,
    1.3383, 5.075, 2.4816, 1.5, 1,
  ],
};
