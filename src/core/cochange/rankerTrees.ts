/**
 * Regression trees added to the log-odds of the linear ranking model (RankingWeights.trees); fit them
 * with `bench/synthetic/dump-features.mjs` and `bench/synthetic/train-trees.mjs`. None yet: the trees
 * fitted so far on older history did not carry over to the newest commits.
 */
export const RANKER_TREES: readonly (readonly number[])[][] = [];
