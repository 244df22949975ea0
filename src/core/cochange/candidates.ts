import { posix } from 'node:path';
import type { BroadChangeSource } from './broadChanges';
import type { CoChangeSource, PairStat } from './cochangeCounts';
import type { SimilarFile, TermSimilarity } from './termIndex';
import { FEATURE_NAMES, type RankingWeights } from './rankingModel';
import { dirDistance, FileIndex, identifierWords, isTestName, packageOf } from './testPairing';

/** The import graph as the code index provides it; paths relative to the root. */
export interface ImportGraph {
  importsOf(path: string): string[];
  importersOf(path: string): string[];
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

/** Each feature's column in a candidate's row. */
export const F = Object.fromEntries(FEATURE_NAMES.map((n, i) => [n, i])) as Record<
  (typeof FEATURE_NAMES)[number],
  number
>;

export interface Candidate {
  path: string;
  /** The product of (1 − strength) over the signals that found it: their noisy-or is 1 − miss. */
  miss: number;
  support?: number;
  /** Where its feature values (by FEATURE_NAMES) start in the feature matrix. */
  at: number;
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
/** Rows the feature matrix starts with; it doubles when full. */
const INITIAL_ROWS = 64;

/**
 * The candidates of one query, with their features and reasons: one feature matrix (a row per
 * candidate) and parallel reason arrays (whose candidate, how strong, what to say), owned by the
 * query instead of arrays per candidate. Each signal is one step, run in a fixed order.
 */
export class Candidates {
  readonly byPath = new Map<string, Candidate>();
  matrix = new Float64Array(FEATURE_NAMES.length * INITIAL_ROWS);
  readonly reasonAt: number[] = [];
  readonly reasonWeight: number[] = [];
  readonly reasonText: string[] = [];
  /** Commits of the query file, and the time of its last one. */
  private readonly n: number;
  private readonly lastOfQuery: number;

  private constructor(
    private readonly path: string,
    private readonly ctx: RelatedFilesContext,
    private readonly w: RankingWeights,
  ) {
    this.n = ctx.cochange.commitsOf(path);
    this.lastOfQuery = ctx.cochange.lastTimeOf(path);
  }

  /** Every candidate for `path` with its features, in the order the signals found them. */
  static gather(path: string, ctx: RelatedFilesContext, w: RankingWeights): Candidates {
    const g = new Candidates(path, ctx, w);
    g.coChanged();
    g.twoHop();
    g.imports();
    g.namesAndFolders();
    g.broadChanges();
    g.coImported();
    g.sharedWords();
    g.changeNames();
    const list = g.list();
    g.rankFeatures(list);
    g.sharedImports(list);
    return g;
  }

  list(): Candidate[] {
    // By path, so that ties rank the same whichever order the partners came in.
    return [...this.byPath.values()].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  }

  private get(p: string): Candidate {
    let c = this.byPath.get(p);
    if (!c) {
      c = { path: p, miss: 1, at: this.featureRow(this.byPath.size) };
      this.byPath.set(p, c);
    }
    return c;
  }

  /** Where the zeroed row of candidate number `index` starts, growing the matrix when it is full. */
  private featureRow(index: number): number {
    const width = FEATURE_NAMES.length;
    const at = index * width;
    if (at + width > this.matrix.length) {
      const grown = new Float64Array(this.matrix.length * 2);
      grown.set(this.matrix.subarray(0, at));
      this.matrix = grown;
    }
    this.matrix.fill(0, at, at + width);
    return at;
  }

  /** A signal of strength `s` found `c`: the noisy-or grows. */
  private found(c: Candidate, s: number): void {
    c.miss *= 1 - Math.min(0.999, Math.max(0, s));
  }

  private because(c: Candidate, weight: number, text: string): void {
    this.reasonAt.push(c.at);
    this.reasonWeight.push(weight);
    this.reasonText.push(text);
  }

  private exists(p: string): boolean {
    return !this.ctx.files || this.ctx.files.has(p);
  }

  private decay(time: number, halfLife: number, share: number): number {
    return 1 - share + share * Math.pow(0.5, Math.max(0, this.ctx.now - time) / DAY / halfLife);
  }

  /** How likely a file is to change at all: often and lately. */
  private activity(p: string): number {
    const nt = this.ctx.cochange.commitsOf(p);
    if (!nt) return 0;
    const { w } = this;
    return (
      (1 - Math.pow(0.5, nt / w.activityCommits)) *
      this.decay(this.ctx.cochange.lastTimeOf(p), w.targetHalfLifeDays, 0.7)
    );
  }

  private proximity(p: string): number {
    const d = dirDistance(this.path, p);
    return this.w.proximity[d === 0 ? 0 : d <= 2 ? 1 : d === 3 ? 2 : 3];
  }

  /** Files changed in the same commits: shrunk confidence, weighted by recency, activity and nearness. */
  private coChanged(): void {
    const { path, ctx, w, n } = this;
    if (n <= 0) return;
    eachPartner(ctx.cochange, path, (other, pair) => {
      if (other === path || !this.exists(other)) return;
      const conf = pair.count / (n + w.shrinkage);
      const nt = ctx.cochange.commitsOf(other);
      let s = conf * this.decay(pair.lastTime, w.pairHalfLifeDays, w.pairRecencyShare);
      s *= this.decay(ctx.cochange.lastTimeOf(other), w.targetHalfLifeDays, w.targetRecencyShare);
      s *= 1 - w.activityShare + w.activityShare * (1 - Math.pow(0.5, nt / w.activityCommits));
      s = Math.min(1, s * this.proximity(other) * w.cochange);
      const c = this.get(other);
      this.found(c, s);
      c.support = pair.count;
      const m = this.matrix;
      m[c.at + F.confidence] = conf;
      m[c.at + F.logSupport] = Math.log1p(pair.count);
      m[c.at + F.pairRecency] = Math.pow(0.5, Math.max(0, ctx.now - pair.lastTime) / DAY / 30);
      m[c.at + F.pairRecencyWeek] = Math.pow(0.5, Math.max(0, ctx.now - pair.lastTime) / DAY / 7);
      m[c.at + F.pairRecencyDay] = Math.pow(0.5, Math.max(0, ctx.now - pair.lastTime) / DAY);
      // Changed in the same commit as the last change to this file.
      m[c.at + F.lastWithQuery] = pair.lastTime >= this.lastOfQuery ? 1 : 0;
      m[c.at + F.backConfidence] = pair.count / (nt + w.shrinkage);
      m[c.at + F.coChanged] = 1;
      this.because(
        c,
        DIRECT + s,
        `changed together in ${pair.count} of ${n} commits${ageText((ctx.now - pair.lastTime) / DAY)}`,
      );
    });
  }

  /** One step further: partners of the partners, weighted by both confidences. */
  private twoHop(): void {
    const { path, ctx, w, n } = this;
    if (!(n > 0 && w.twoHop > 0)) return;
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
      if (!this.exists(other)) continue;
      const s = Math.min(1, w.twoHop * v);
      if (s < 0.01 && !this.byPath.has(other)) continue;
      const c = this.get(other);
      this.matrix[c.at + F.twoHop] = v;
      this.found(c, s);
      this.because(c, s, 'changes with files that change with this one');
    }
  }

  /** Imports in both directions, stronger for files that change often. */
  private imports(): void {
    const { path, ctx, w } = this;
    if (!ctx.imports) return;
    const graph = ctx.imports;
    const directions = [
      { files: () => graph.importsOf(path), weight: w.imports, feature: F.imports, reason: 'imported by this file' },
      {
        files: () => graph.importersOf(path),
        weight: w.importedBy,
        feature: F.importedBy,
        reason: 'imports this file',
      },
    ];
    for (const { files, weight, feature, reason } of directions)
      for (const other of unique(files())) {
        if (other === path || !this.exists(other)) continue;
        const s = weight * (w.importFloor + (1 - w.importFloor) * this.activity(other));
        const c = this.get(other);
        this.found(c, s);
        this.matrix[c.at + feature] = 1;
        this.because(c, DIRECT + s, reason);
      }
  }

  /** The test or implementation by naming convention, similar names, and active files nearby. */
  private namesAndFolders(): void {
    const { path, ctx, w } = this;
    if (!ctx.files) return;
    ctx.files.testPartners(path).forEach((other, i) => {
      const s = w.testPair / (i + 1);
      const c = this.get(other);
      this.found(c, s);
      this.matrix[c.at + F.testPair] = 1 / (i + 1);
      this.because(
        c,
        DIRECT + s,
        isTestName(other) ? 'its test, by naming convention' : 'the implementation it tests, by naming convention',
      );
    });
    for (const other of ctx.files.distantTestPartners(path)) {
      const s = w.testPair / 2;
      const c = this.get(other);
      this.found(c, s);
      this.matrix[c.at + F.distantTestPair] = 1;
      this.because(c, s, isTestName(other) ? 'a test with its name' : 'the implementation its name points to');
    }
    for (const [other, sim] of ctx.files.similarNames(path, MAX_SIMILAR_NAMES)) {
      const c = this.get(other);
      this.matrix[c.at + F.nameSimilarity] = sim;
      // A test found by its name already says so.
      if (this.matrix[c.at + F.testPair] || this.matrix[c.at + F.distantTestPair]) continue;
      const s = 0.05 * sim;
      this.found(c, s);
      this.because(c, s, 'a similar name');
    }
    const dir = posix.dirname(path);
    this.activeIn(ctx.files.inDirectory(dir), w.sibling, 'in the same folder');
    // The folder above (a test next to its `entity/` or `fixtures/` folder).
    const up = posix.dirname(dir);
    if (w.parentFolder > 0 && up !== dir)
      this.activeIn(ctx.files.inDirectory(up), w.parentFolder, 'in the folder above');
  }

  /** A weak prior for the active files of one folder, unless the folder is too large to say much. */
  private activeIn(files: readonly string[], weight: number, reason: string): void {
    if (files.length > this.w.maxFolder) return;
    for (const other of files) {
      if (other === this.path) continue;
      const s = weight * this.activity(other);
      if (s <= 0) continue;
      const c = this.get(other);
      this.found(c, s);
      this.because(c, s, reason);
    }
  }

  /** Large change sets (a feature across every driver, a moved test suite) that touched this file. */
  private broadChanges(): void {
    const { path, ctx } = this;
    if (!ctx.broad) return;
    const sets = ctx.broad.changesOf(path, MAX_BROAD_SETS);
    const shared = new Map<string, number>();
    for (const set of sets) {
      if (set.files.length > MAX_BROAD_FILES) continue;
      for (const f of set.files) if (f !== path) shared.set(f, (shared.get(f) ?? 0) + 1);
    }
    // Files already found another way, then the ones shared most often: a file in many large change
    // sets would otherwise bring in thousands of weak candidates.
    const known = (p: string) => this.byPath.has(p);
    const ranked = [...shared]
      .filter(([other]) => this.exists(other))
      .sort((a, b) => Number(known(b[0])) - Number(known(a[0])) || b[1] - a[1]);
    for (const [other, k] of ranked.slice(0, Math.max(MAX_BROAD_CANDIDATES, ranked.filter(([o]) => known(o)).length))) {
      const c = this.get(other);
      this.matrix[c.at + F.broadShared] = Math.log1p(k);
      this.matrix[c.at + F.broadShare] = k / sets.length;
      const s = 0.05 * (k / sets.length);
      this.found(c, s);
      this.because(c, s, `changed with it in ${k} large ${k === 1 ? 'change' : 'changes'}`);
    }
  }

  /** Files imported next to this one by the same importers (the other parts of what uses it). */
  private coImported(): void {
    const { path, ctx } = this;
    if (!ctx.imports) return;
    const importers = unique(ctx.imports.importersOf(path)).filter((p) => p !== path);
    if (!importers.length || importers.length > MAX_CO_IMPORTERS) return;
    const co = new Map<string, number>();
    for (const imp of importers) {
      const others = unique(ctx.imports.importsOf(imp));
      for (const o of others) if (o !== path) co.set(o, (co.get(o) ?? 0) + 1 / importers.length);
    }
    for (const [other, v] of co) {
      if (!this.exists(other)) continue;
      const c = this.get(other);
      this.matrix[c.at + F.coImported] = v;
      const s = 0.1 * v;
      this.found(c, s);
      this.because(c, s, 'imported alongside this file');
    }
  }

  /** Files that share rare words with this one, and with the words of the change. */
  private sharedWords(): void {
    const { path, ctx } = this;
    if (ctx.terms)
      this.similar(
        ctx.terms.similarTo(path),
        MAX_LEXICAL_CANDIDATES,
        F.lexical,
        F.lexicalReciprocalRank,
        (t) => `mentions ${t} too`,
      );
    if (ctx.terms && ctx.changeWords?.length) {
      this.similar(
        ctx.terms.similarToTerms(ctx.changeWords, path),
        MAX_CHANGE_CANDIDATES,
        F.changeWords,
        F.changeWordsReciprocalRank,
        (t) => `mentions ${t}, which your change touches`,
      );
    }
  }

  /** Every file with shared words gets the feature; only the closest ones become candidates. */
  private similar(found: SimilarFile[], maxNew: number, score: number, rank: number, say: (term: string) => string) {
    found.forEach((sim, i) => {
      if (!this.exists(sim.path)) return;
      const known = this.byPath.get(sim.path);
      if (!known && i >= maxNew) return;
      const c = known ?? this.get(sim.path);
      this.matrix[c.at + score] = sim.score;
      this.matrix[c.at + rank] = 1 / (i + 1);
      const s = 0.1 * sim.score;
      this.found(c, s);
      this.because(c, s, say(sim.term));
    });
  }

  /** Files whose names the change's words name. */
  private changeNames(): void {
    const { path, ctx } = this;
    if (!ctx.files || !ctx.changeWords?.length) return;
    const named = ctx.files.namedBy(changeWordCounts(ctx.changeWords), path, MAX_CHANGE_NAME_CANDIDATES);
    named.forEach(({ path: other, score, words }, i) => {
      const c = this.get(other);
      this.matrix[c.at + F.changeNames] = score;
      this.matrix[c.at + F.changeNamesReciprocalRank] = 1 / (i + 1);
      // Weaker as a reason than an identifier the change and the file share, which says more.
      const s = 0.08 * score;
      this.found(c, s);
      this.because(c, s, `your change is about ${words.join(' ')}`);
    });
  }

  /** The features that need every candidate: ranks among them, the heuristic, and each file's own. */
  private rankFeatures(list: readonly Candidate[]): void {
    const { path, ctx } = this;
    const m = this.matrix;
    const folderAbove = posix.dirname(posix.dirname(path));
    const pkg = packageOf(path);
    // ROSE order among co-changed candidates: confidence, then support.
    const co = list
      .filter((c) => m[c.at + F.coChanged] > 0)
      .sort((a, b) => m[b.at + F.confidence] - m[a.at + F.confidence] || (b.support ?? 0) - (a.support ?? 0));
    co.forEach((c, i) => (m[c.at + F.roseReciprocalRank] = 1 / (i + 1)));
    const hops = list.filter((c) => m[c.at + F.twoHop] > 0).sort((a, b) => m[b.at + F.twoHop] - m[a.at + F.twoHop]);
    hops.forEach((c, i) => (m[c.at + F.twoHopReciprocalRank] = 1 / (i + 1)));
    for (const c of list) {
      const d = dirDistance(path, c.path);
      m[c.at + F.heuristic] = 1 - c.miss;
      m[c.at + F.activity] = this.activity(c.path);
      m[c.at + F.sameFolder] = d === 0 ? 1 : 0;
      m[c.at + F.nearFolder] = d === 1 || d === 2 ? 1 : 0;
      m[c.at + F.folderAbove] = posix.dirname(c.path) === folderAbove ? 1 : 0;
      m[c.at + F.logCommits] = Math.log1p(ctx.cochange.commitsOf(c.path));
      const last = ctx.cochange.lastTimeOf(c.path);
      m[c.at + F.targetRecencyWeek] = last ? Math.pow(0.5, Math.max(0, ctx.now - last) / DAY / 7) : 0;
      m[c.at + F.targetRecencyDay] = last ? Math.pow(0.5, Math.max(0, ctx.now - last) / DAY) : 0;
      m[c.at + F.samePackage] = packageOf(c.path) === pkg ? 1 : 0;
    }
  }

  /** Files that import what this file imports work on the same thing (cosine over import sets). */
  private sharedImports(list: readonly Candidate[]): void {
    const { path, ctx } = this;
    if (!ctx.imports) return;
    const mine = new Set(ctx.imports.importsOf(path));
    if (!mine.size) return;
    const m = this.matrix;
    // Only the strongest candidates: each one costs an import lookup.
    const top = [...list]
      .sort((x, y) => m[y.at + F.heuristic] - m[x.at + F.heuristic])
      .slice(0, MAX_SHARED_IMPORT_CANDIDATES);
    for (const c of top) {
      const theirs = unique(ctx.imports.importsOf(c.path));
      if (!theirs.length) continue;
      let shared = 0;
      for (const t of theirs) if (mine.has(t) && t !== c.path) shared++;
      if (shared) m[c.at + F.sharedImports] = shared / Math.sqrt(mine.size * theirs.length);
    }
  }
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
