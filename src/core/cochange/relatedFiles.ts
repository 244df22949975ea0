import { posix } from 'node:path';
import type { BroadChangeSource } from './broadChanges';
import type { CoChangeSource, PairStat } from './cochangeCounts';
import type { SimilarFile, TermSimilarity } from './termIndex';
import { DEFAULT_WEIGHTS, FEATURE_NAMES, type RankingWeights } from './rankingModel';
import { dirDistance, FileIndex, identifierWords, isTestName, packageOf } from './testPairing';

export { DEFAULT_WEIGHTS, FEATURE_NAMES, type RankingWeights } from './rankingModel';

/** The import graph as the code index provides it; paths relative to the root. */
export interface ImportGraph {
  importsOf(path: string): string[];
  importersOf(path: string): string[];
}

export interface RelatedFile {
  path: string;
  /** 0..1 */
  score: number;
  /** Human-readable, strongest first. */
  reasons: string[];
  /** Commits that changed both files, when any. */
  support?: number;
}

export interface RelatedFilesContext {
  cochange: CoChangeSource;
  /** Change sets too large for pair counts; a weaker, wider co-change signal. */
  broad?: BroadChangeSource;
  imports?: ImportGraph;
  /** Files that exist now; enables test pairing and the sibling prior. */
  files?: FileIndex;
  /** Rare words shared by file contents; brings in files that name the same things. */
  terms?: TermSimilarity;
  /** Reference time for recency, unix ms. */
  now: number;
  /**
   * The words of the lines being changed in the file (its uncommitted diff): files that name what
   * the change is about are likely to change with it.
   */
  changeWords?: readonly string[];
}

const F = Object.fromEntries(FEATURE_NAMES.map((n, i) => [n, i])) as Record<(typeof FEATURE_NAMES)[number], number>;

interface Candidate {
  path: string;
  /** The product of (1 − strength) over the signals that found it: their noisy-or is 1 − miss. */
  miss: number;
  support?: number;
  /** Where its feature values (by FEATURE_NAMES) start in the call's feature matrix. */
  at: number;
}

export interface ScoredCandidate {
  path: string;
  x: readonly number[];
  heuristic: number;
}

const DAY = 86_400_000;
/** Files imported by more files than this are hubs: what sits next to them says little. */
const MAX_CO_IMPORTERS = 30;
const MAX_SHARED_IMPORT_CANDIDATES = 40;
/** The newest large change sets of a file that the ranking looks through, and their size limit. */
const MAX_BROAD_SETS = 20;
const MAX_BROAD_FILES = 300;
const MAX_SIMILAR_NAMES = 20;
/** Reasons that name a direct link (shared commits, an import, the test) come before inferred ones. */
const DIRECT = 1;
const MAX_BROAD_CANDIDATES = 100;
/** Files brought in by shared words alone, best first. */
const MAX_LEXICAL_CANDIDATES = 30;
/** Files brought in by the words of the change alone, best first. */
const MAX_CHANGE_CANDIDATES = 20;
/** Files brought in because the change names them (their file name's words), best first. */
const MAX_CHANGE_NAME_CANDIDATES = 10;

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
  const scored = gather(path, ctx, w).map((c) => ({
    c,
    score: Math.round((fitted ? logistic(w.model!, w.trees, c.at) : matrix[c.at + F.heuristic]) * 1e4) / 1e4,
  }));
  scored.sort((a, b) => b.score - a.score || (b.c.support ?? 0) - (a.c.support ?? 0) || (a.c.path < b.c.path ? -1 : 1));
  const top = scored.slice(0, limit);
  // Reasons are gathered and put in order for the files shown only.
  const reasons = new Map<number, [number, string][]>(top.map(({ c }) => [c.at, []]));
  for (let i = 0; i < reasonAt.length; i++) reasons.get(reasonAt[i])?.push([reasonWeight[i], reasonText[i]]);
  return top.map(({ c, score }) => ({
    path: c.path,
    score,
    reasons: reasons
      .get(c.at)!
      .sort((a, b) => b[0] - a[0])
      .map((r) => r[1]),
    support: c.support,
  }));
}

/** Every candidate with its features; for fitting the logistic model (bench/synthetic/train-ranker.mjs). @public */
export function candidateFeatures(
  path: string,
  ctx: RelatedFilesContext,
  w: RankingWeights = DEFAULT_WEIGHTS,
): ScoredCandidate[] {
  return gather(path, ctx, w).map((c) => ({
    path: c.path,
    x: Array.from(matrix.subarray(c.at, c.at + FEATURE_NAMES.length)),
    heuristic: matrix[c.at + F.heuristic],
  }));
}

function logistic(model: readonly number[], trees: RankingWeights['trees'], at: number): number {
  let z = model[0];
  for (let i = 0; i < FEATURE_NAMES.length; i++) z += model[i + 1] * matrix[at + i];
  if (trees) for (const t of trees) z += treeValue(t, at);
  return 1 / (1 + Math.exp(-z));
}

function treeValue(nodes: readonly (readonly number[])[], at: number): number {
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

/**
 * The feature matrix of the call under way, one row per candidate, and its reasons (whose candidate,
 * how strong, what to say): reused from call to call instead of arrays per candidate.
 */
let matrix = new Float64Array(FEATURE_NAMES.length * 256);
const reasonAt: number[] = [];
const reasonWeight: number[] = [];
const reasonText: string[] = [];

/** Where the zeroed row of candidate number `index` starts, growing the matrix when it is full. */
function featureRow(index: number): number {
  const width = FEATURE_NAMES.length;
  const at = index * width;
  if (at + width > matrix.length) {
    const grown = new Float64Array(matrix.length * 2);
    grown.set(matrix.subarray(0, at));
    matrix = grown;
  }
  matrix.fill(0, at, at + width);
  return at;
}

function gather(path: string, ctx: RelatedFilesContext, w: RankingWeights): Candidate[] {
  const cands = new Map<string, Candidate>();
  const get = (p: string): Candidate => {
    let c = cands.get(p);
    if (!c) {
      c = { path: p, miss: 1, at: featureRow(cands.size) };
      cands.set(p, c);
    }
    return c;
  };
  reasonAt.length = 0;
  reasonWeight.length = 0;
  reasonText.length = 0;
  const because = (c: Candidate, weight: number, text: string) => {
    reasonAt.push(c.at);
    reasonWeight.push(weight);
    reasonText.push(text);
  };
  const exists = (p: string) => !ctx.files || ctx.files.has(p);
  const decay = (time: number, halfLife: number, share: number) =>
    1 - share + share * Math.pow(0.5, Math.max(0, ctx.now - time) / DAY / halfLife);
  // How likely a file is to change at all: often and lately.
  const activity = (p: string): number => {
    const nt = ctx.cochange.commitsOf(p);
    if (!nt) return 0;
    return (1 - Math.pow(0.5, nt / w.activityCommits)) * decay(ctx.cochange.lastTimeOf(p), w.targetHalfLifeDays, 0.7);
  };
  const proximity = (p: string): number => {
    const d = dirDistance(path, p);
    return w.proximity[d === 0 ? 0 : d <= 2 ? 1 : d === 3 ? 2 : 3];
  };

  const n = ctx.cochange.commitsOf(path);
  const lastOfQuery = ctx.cochange.lastTimeOf(path);
  const pkg = packageOf(path);
  if (n > 0) {
    eachPartner(ctx.cochange, path, (other, pair) => {
      if (other === path || !exists(other)) return;
      const conf = pair.count / (n + w.shrinkage);
      const nt = ctx.cochange.commitsOf(other);
      let s = conf * decay(pair.lastTime, w.pairHalfLifeDays, w.pairRecencyShare);
      s *= decay(ctx.cochange.lastTimeOf(other), w.targetHalfLifeDays, w.targetRecencyShare);
      s *= 1 - w.activityShare + w.activityShare * (1 - Math.pow(0.5, nt / w.activityCommits));
      s = Math.min(1, s * proximity(other) * w.cochange);
      const c = get(other);
      c.miss *= 1 - Math.min(0.999, Math.max(0, s));
      c.support = pair.count;
      matrix[c.at + F.confidence] = conf;
      matrix[c.at + F.logSupport] = Math.log1p(pair.count);
      matrix[c.at + F.pairRecency] = Math.pow(0.5, Math.max(0, ctx.now - pair.lastTime) / DAY / 30);
      matrix[c.at + F.pairRecencyWeek] = Math.pow(0.5, Math.max(0, ctx.now - pair.lastTime) / DAY / 7);
      matrix[c.at + F.pairRecencyDay] = Math.pow(0.5, Math.max(0, ctx.now - pair.lastTime) / DAY);
      // Changed in the same commit as the last change to this file.
      matrix[c.at + F.lastWithQuery] = pair.lastTime >= lastOfQuery ? 1 : 0;
      matrix[c.at + F.backConfidence] = pair.count / (nt + w.shrinkage);
      matrix[c.at + F.coChanged] = 1;
      because(
        c,
        DIRECT + s,
        `changed together in ${pair.count} of ${n} commits${ageText((ctx.now - pair.lastTime) / DAY)}`,
      );
    });
  }

  if (n > 0 && w.twoHop > 0) {
    // One step further: partners of the partners, weighted by both confidences.
    const hop = new Map<string, number>();
    // Ties by path: partners come in the order their paths were first mined, which differs between a
    // model mined at once and one caught up commit by commit (from a team snapshot, after a pull).
    const mids = [...ctx.cochange.partners(path)]
      .sort((a, b) => b[1].count - a[1].count || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
      .slice(0, w.twoHopFanout);
    for (const [mid, p1] of mids) {
      const c1 = p1.count / (n + w.shrinkage);
      const nm = ctx.cochange.commitsOf(mid);
      if (!nm) continue;
      eachPartner(ctx.cochange, mid, (other, p2) => {
        if (other !== path) hop.set(other, (hop.get(other) ?? 0) + c1 * (p2.count / (nm + w.shrinkage)));
      });
    }
    for (const [other, v] of hop) {
      if (!exists(other)) continue;
      const s = Math.min(1, w.twoHop * v);
      if (s < 0.01 && !cands.has(other)) continue;
      const c = get(other);
      matrix[c.at + F.twoHop] = v;
      c.miss *= 1 - Math.min(0.999, Math.max(0, s));
      because(c, s, 'changes with files that change with this one');
    }
  }

  if (ctx.imports) {
    for (const other of unique(ctx.imports.importsOf(path))) {
      if (other === path || !exists(other)) continue;
      const s = w.imports * (w.importFloor + (1 - w.importFloor) * activity(other));
      const c = get(other);
      c.miss *= 1 - Math.min(0.999, Math.max(0, s));
      matrix[c.at + F.imports] = 1;
      because(c, DIRECT + s, 'imported by this file');
    }
    for (const other of unique(ctx.imports.importersOf(path))) {
      if (other === path || !exists(other)) continue;
      const s = w.importedBy * (w.importFloor + (1 - w.importFloor) * activity(other));
      const c = get(other);
      c.miss *= 1 - Math.min(0.999, Math.max(0, s));
      matrix[c.at + F.importedBy] = 1;
      because(c, DIRECT + s, 'imports this file');
    }
  }

  if (ctx.files) {
    const pairs = ctx.files.testPartners(path);
    pairs.forEach((other, i) => {
      const s = w.testPair / (i + 1);
      const c = get(other);
      c.miss *= 1 - Math.min(0.999, Math.max(0, s));
      matrix[c.at + F.testPair] = 1 / (i + 1);
      because(
        c,
        DIRECT + s,
        isTestName(other) ? 'its test, by naming convention' : 'the implementation it tests, by naming convention',
      );
    });
    for (const other of ctx.files.distantTestPartners(path)) {
      const s = w.testPair / 2;
      const c = get(other);
      c.miss *= 1 - Math.min(0.999, Math.max(0, s));
      matrix[c.at + F.distantTestPair] = 1;
      because(c, s, isTestName(other) ? 'a test with its name' : 'the implementation its name points to');
    }
    for (const [other, sim] of ctx.files.similarNames(path, MAX_SIMILAR_NAMES)) {
      const c = get(other);
      matrix[c.at + F.nameSimilarity] = sim;
      // A test found by its name already says so.
      if (matrix[c.at + F.testPair] || matrix[c.at + F.distantTestPair]) continue;
      const s = 0.05 * sim;
      c.miss *= 1 - Math.min(0.999, Math.max(0, s));
      because(c, s, 'a similar name');
    }
    const dir = posix.dirname(path);
    const siblings = ctx.files.inDirectory(dir);
    if (siblings.length <= w.maxFolder) {
      for (const other of siblings) {
        if (other === path) continue;
        const s = w.sibling * activity(other);
        if (s <= 0) continue;
        const c = get(other);
        c.miss *= 1 - Math.min(0.999, Math.max(0, s));
        because(c, s, 'in the same folder');
      }
    }
    // The folder above (a test next to its `entity/` or `fixtures/` folder).
    const up = posix.dirname(dir);
    if (w.parentFolder > 0 && up !== dir) {
      const above = ctx.files.inDirectory(up);
      if (above.length <= w.maxFolder) {
        for (const other of above) {
          const s = w.parentFolder * activity(other);
          if (s <= 0) continue;
          const c = get(other);
          c.miss *= 1 - Math.min(0.999, Math.max(0, s));
          because(c, s, 'in the folder above');
        }
      }
    }
  }

  if (ctx.broad) {
    // Large change sets (a feature across every driver, a moved test suite) that touched this file.
    const sets = ctx.broad.changesOf(path, MAX_BROAD_SETS);
    const shared = new Map<string, number>();
    for (const set of sets) {
      if (set.files.length > MAX_BROAD_FILES) continue;
      for (const f of set.files) if (f !== path) shared.set(f, (shared.get(f) ?? 0) + 1);
    }
    // Files already found another way, then the ones shared most often: a file in many large change
    // sets would otherwise bring in thousands of weak candidates.
    const ranked = [...shared]
      .filter(([other]) => exists(other))
      .sort((a, b) => Number(cands.has(b[0])) - Number(cands.has(a[0])) || b[1] - a[1]);
    for (const [other, k] of ranked.slice(
      0,
      Math.max(MAX_BROAD_CANDIDATES, ranked.filter(([o]) => cands.has(o)).length),
    )) {
      const c = get(other);
      matrix[c.at + F.broadShared] = Math.log1p(k);
      matrix[c.at + F.broadShare] = k / sets.length;
      const s = 0.05 * (k / sets.length);
      c.miss *= 1 - Math.min(0.999, Math.max(0, s));
      because(c, s, `changed with it in ${k} large ${k === 1 ? 'change' : 'changes'}`);
    }
  }

  if (ctx.imports) {
    // Files imported next to this one by the same importers (the other parts of what uses it).
    const importers = unique(ctx.imports.importersOf(path)).filter((p) => p !== path);
    if (importers.length && importers.length <= MAX_CO_IMPORTERS) {
      const co = new Map<string, number>();
      for (const imp of importers) {
        const others = unique(ctx.imports.importsOf(imp));
        for (const o of others) if (o !== path) co.set(o, (co.get(o) ?? 0) + 1 / importers.length);
      }
      for (const [other, v] of co) {
        if (!exists(other)) continue;
        const c = get(other);
        matrix[c.at + F.coImported] = v;
        const s = 0.1 * v;
        c.miss *= 1 - Math.min(0.999, Math.max(0, s));
        because(c, s, 'imported alongside this file');
      }
    }
  }
  // Every file with shared words gets the feature; only the closest ones become candidates.
  const similar = (found: SimilarFile[], maxNew: number, score: number, rank: number, say: (term: string) => string) =>
    found.forEach((sim, i) => {
      if (!exists(sim.path)) return;
      const known = cands.get(sim.path);
      if (!known && i >= maxNew) return;
      const c = known ?? get(sim.path);
      matrix[c.at + score] = sim.score;
      matrix[c.at + rank] = 1 / (i + 1);
      const s = 0.1 * sim.score;
      c.miss *= 1 - Math.min(0.999, Math.max(0, s));
      because(c, s, say(sim.term));
    });
  if (ctx.terms)
    similar(
      ctx.terms.similarTo(path),
      MAX_LEXICAL_CANDIDATES,
      F.lexical,
      F.lexicalReciprocalRank,
      (t) => `mentions ${t} too`,
    );
  if (ctx.terms && ctx.changeWords?.length) {
    similar(
      ctx.terms.similarToTerms(ctx.changeWords, path),
      MAX_CHANGE_CANDIDATES,
      F.changeWords,
      F.changeWordsReciprocalRank,
      (t) => `mentions ${t}, which your change touches`,
    );
  }
  if (ctx.files && ctx.changeWords?.length) {
    const named = ctx.files.namedBy(changeWordCounts(ctx.changeWords), path, MAX_CHANGE_NAME_CANDIDATES);
    named.forEach(({ path: other, score, words }, i) => {
      const c = get(other);
      matrix[c.at + F.changeNames] = score;
      matrix[c.at + F.changeNamesReciprocalRank] = 1 / (i + 1);
      // Weaker as a reason than an identifier the change and the file share, which says more.
      const s = 0.08 * score;
      c.miss *= 1 - Math.min(0.999, Math.max(0, s));
      because(c, s, `your change is about ${words.join(' ')}`);
    });
  }
  // By path, so that ties rank the same whichever order the partners came in.
  const list = [...cands.values()].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const folderAbove = posix.dirname(posix.dirname(path));
  // ROSE order among co-changed candidates: confidence, then support.
  const co = list
    .filter((c) => matrix[c.at + F.coChanged] > 0)
    .sort((a, b) => matrix[b.at + F.confidence] - matrix[a.at + F.confidence] || (b.support ?? 0) - (a.support ?? 0));
  co.forEach((c, i) => (matrix[c.at + F.roseReciprocalRank] = 1 / (i + 1)));
  const hops = list
    .filter((c) => matrix[c.at + F.twoHop] > 0)
    .sort((a, b) => matrix[b.at + F.twoHop] - matrix[a.at + F.twoHop]);
  hops.forEach((c, i) => (matrix[c.at + F.twoHopReciprocalRank] = 1 / (i + 1)));
  for (const c of list) {
    const d = dirDistance(path, c.path);
    matrix[c.at + F.heuristic] = 1 - c.miss;
    matrix[c.at + F.activity] = activity(c.path);
    matrix[c.at + F.sameFolder] = d === 0 ? 1 : 0;
    matrix[c.at + F.nearFolder] = d === 1 || d === 2 ? 1 : 0;
    matrix[c.at + F.folderAbove] = posix.dirname(c.path) === folderAbove ? 1 : 0;
    matrix[c.at + F.logCommits] = Math.log1p(ctx.cochange.commitsOf(c.path));
    const last = ctx.cochange.lastTimeOf(c.path);
    matrix[c.at + F.targetRecencyWeek] = last ? Math.pow(0.5, Math.max(0, ctx.now - last) / DAY / 7) : 0;
    matrix[c.at + F.targetRecencyDay] = last ? Math.pow(0.5, Math.max(0, ctx.now - last) / DAY) : 0;
    matrix[c.at + F.samePackage] = packageOf(c.path) === pkg ? 1 : 0;
  }
  if (ctx.imports) {
    // Files that import what this file imports work on the same thing (cosine over import sets).
    const mine = new Set(ctx.imports.importsOf(path));
    if (mine.size) {
      // Only the strongest candidates: each one costs an import lookup.
      const top = [...list]
        .sort((x, y) => matrix[y.at + F.heuristic] - matrix[x.at + F.heuristic])
        .slice(0, MAX_SHARED_IMPORT_CANDIDATES);
      for (const c of top) {
        const theirs = unique(ctx.imports.importsOf(c.path));
        if (!theirs.length) continue;
        let shared = 0;
        for (const t of theirs) if (mine.has(t) && t !== c.path) shared++;
        if (shared) matrix[c.at + F.sharedImports] = shared / Math.sqrt(mine.size * theirs.length);
      }
    }
  }
  return list;
}

/** How many of the change's identifiers hold each word: `ZodRecord`, `$ZodRecordDef` → record 2, zod 2, def 1. */
function changeWordCounts(ids: readonly string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const id of ids) for (const w of new Set(identifierWords(id))) counts.set(w, (counts.get(w) ?? 0) + 1);
  return counts;
}

function ageText(days: number): string {
  if (days < 1) return ', last today';
  if (days < 60) return `, last ${Math.round(days)} days ago`;
  if (days < 730) return `, last ${Math.round(days / 30)} months ago`;
  return `, last ${Math.round(days / 365)} years ago`;
}

/** Every partner of `path`, in the order partners() gives them, without building the pairs when the source can avoid it. */
function eachPartner(src: CoChangeSource, path: string, fn: (other: string, pair: PairStat) => void): void {
  if (src.forEachPartner) src.forEachPartner(path, fn);
  else for (const [other, pair] of src.partners(path)) fn(other, pair);
}

function unique(xs: string[]): string[] {
  return [...new Set(xs)];
}
