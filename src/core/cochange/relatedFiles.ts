import { posix } from 'node:path';
import type { CoChangeSource } from './cochangeCounts';
import { dirDistance, FileIndex } from './testPairing';

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
  imports?: ImportGraph;
  /** Files that exist now; enables test pairing and the sibling prior. */
  files?: FileIndex;
  /** Reference time for recency, unix ms. */
  now: number;
}

export interface RankingWeights {
  /** Pseudo-count added to commits(a) so that 1 of 1 is weaker than 9 of 10. */
  shrinkage: number;
  cochange: number;
  /** Time after which a co-change counts half. */
  halfLifeDays: number;
  /** Share of the co-change score that recency can take away. */
  recencyShare: number;
  imports: number;
  importedBy: number;
  testPair: number;
  sibling: number;
  /** Bonus for co-change partners in the same or a nearby folder. */
  nearby: number;
  /** How many of the file's latest change sets the recency-weighted co-change looks at. */
  recentSets: number;
  /** Weight of each older change set relative to the next newer one. */
  setDecay: number;
  /** Share of the co-change score taken by the recency-weighted part. */
  recentShare: number;
  /** Exponent that lowers the weight of large change sets. */
  sizePenalty: number;
  /** Weight of files that co-change with the file's co-change partners. */
  twoHop: number;
  /** Share of the co-change score given to support / commits(partner). */
  backShare: number;
  /** Bonus for partners that change often and recently on their own. */
  activity: number;
  /** Commits after which a file counts as half active. */
  activityCommits: number;
  activityHalfLifeDays: number;
  /** Share of the import weight that does not depend on the other file's activity. */
  importFloor: number;
  /** Weight of active files in the folder above. */
  parentFolder: number;
  /** Folders with more files than this give no sibling prior. */
  maxFolder: number;
}

export const DEFAULT_WEIGHTS: RankingWeights = {
  shrinkage: 1,
  cochange: 1,
  halfLifeDays: 90,
  recencyShare: 0.3,
  imports: 0.3,
  importedBy: 0.25,
  testPair: 0.6,
  sibling: 0.15,
  nearby: 0.15,
  recentSets: 20,
  setDecay: 0.75,
  recentShare: 0,
  sizePenalty: 0.5,
  twoHop: 0.2,
  backShare: 0,
  activity: 0.5,
  activityCommits: 5,
  activityHalfLifeDays: 30,
  importFloor: 0.2,
  parentFolder: 0.08,
  maxFolder: 60,
};

interface Candidate {
  path: string;
  /** Per-signal strengths, each 0..1, combined with a noisy-or. */
  parts: number[];
  reasons: [number, string][];
  support?: number;
}

const DAY = 86_400_000;

/**
 * Files likely to change with `path`: co-change (shrunk confidence, decayed by age), imports in both
 * directions, the test or implementation by naming convention, and a weak prior for siblings.
 */
export function relatedFiles(path: string, ctx: RelatedFilesContext, limit = 10, w: RankingWeights = DEFAULT_WEIGHTS): RelatedFile[] {
  const cands = new Map<string, Candidate>();
  const get = (p: string): Candidate => {
    let c = cands.get(p);
    if (!c) {
      c = { path: p, parts: [], reasons: [] };
      cands.set(p, c);
    }
    return c;
  };
  const exists = (p: string) => !ctx.files || ctx.files.has(p);

  const n = ctx.cochange.commitsOf(path);
  // Recency-weighted co-change: the file's latest change sets count most, small ones more than large ones.
  const recent = new Map<string, number>();
  let recentTotal = 0;
  if (n > 0 && ctx.cochange.changeSetsOf && w.recentShare > 0) {
    const sets = ctx.cochange.changeSetsOf(path, w.recentSets);
    sets.forEach((set, i) => {
      const age = Math.max(0, ctx.now - set.time) / DAY;
      const wt = Math.pow(w.setDecay, i) * (0.5 + 0.5 * Math.pow(0.5, age / w.halfLifeDays));
      recentTotal += wt;
      const sz = wt / Math.pow(Math.max(1, set.files.length - 1), w.sizePenalty);
      for (const f of set.files) if (f !== path) recent.set(f, (recent.get(f) ?? 0) + sz);
    });
  }
  if (n > 0) {
    for (const [other, pair] of ctx.cochange.partners(path)) {
      if (other === path || !exists(other)) continue;
      const conf = pair.count / (n + w.shrinkage);
      const back = pair.count / (ctx.cochange.commitsOf(other) + w.shrinkage);
      const age = Math.max(0, ctx.now - pair.lastTime) / DAY;
      const recency = Math.pow(0.5, age / w.halfLifeDays);
      const near = dirDistance(path, other) <= 1 ? 1 : 0;
      const nt = ctx.cochange.commitsOf(other);
      const hot = w.activity * (1 - Math.pow(0.5, nt / 10)) * Math.pow(0.5, Math.max(0, ctx.now - ctx.cochange.lastTimeOf(other)) / DAY / w.halfLifeDays);
      let s = ((1 - w.backShare) * conf + w.backShare * back) * (1 - w.recencyShare + w.recencyShare * recency) * (1 + hot);
      if (recentTotal > 0) s = (1 - w.recentShare) * s + w.recentShare * ((recent.get(other) ?? 0) / (recentTotal + w.shrinkage * 0.5));
      s = Math.min(1, s * w.cochange * (1 + w.nearby * near));
      const c = get(other);
      c.parts.push(s);
      c.support = pair.count;
      c.reasons.push([s, `changed together in ${pair.count} of ${n} commits${ageText(age)}`]);
    }
  }

  if (n > 0 && w.twoHop > 0) {
    // One step further: partners of the partners, weighted by both confidences.
    const hop = new Map<string, number>();
    for (const [mid, p1] of ctx.cochange.partners(path)) {
      const c1 = p1.count / (n + w.shrinkage);
      const nm = ctx.cochange.commitsOf(mid);
      if (!nm) continue;
      for (const [other, p2] of ctx.cochange.partners(mid)) {
        if (other === path) continue;
        hop.set(other, (hop.get(other) ?? 0) + c1 * (p2.count / (nm + w.shrinkage)));
      }
    }
    for (const [other, v] of hop) {
      if (!exists(other)) continue;
      const s = Math.min(1, w.twoHop * v);
      if (s < 0.01 && !cands.has(other)) continue;
      const c = get(other);
      c.parts.push(s);
      c.reasons.push([s, 'changes with files that change with this one']);
    }
  }

  // How likely a file is to change at all: often and lately. Scales the structural signals, since
  // an import or a sibling that never changes is rarely part of the next change.
  const activity = (p: string): number => {
    const nt = ctx.cochange.commitsOf(p);
    if (!nt) return 0;
    const age = Math.max(0, ctx.now - ctx.cochange.lastTimeOf(p)) / DAY;
    return (1 - Math.pow(0.5, nt / w.activityCommits)) * (0.3 + 0.7 * Math.pow(0.5, age / w.activityHalfLifeDays));
  };

  if (ctx.imports) {
    for (const other of unique(ctx.imports.importsOf(path))) {
      if (other === path || !exists(other)) continue;
      const s = w.imports * (w.importFloor + (1 - w.importFloor) * activity(other));
      const c = get(other);
      c.parts.push(s);
      c.reasons.push([s, 'imported by this file']);
    }
    for (const other of unique(ctx.imports.importersOf(path))) {
      if (other === path || !exists(other)) continue;
      const s = w.importedBy * (w.importFloor + (1 - w.importFloor) * activity(other));
      const c = get(other);
      c.parts.push(s);
      c.reasons.push([s, 'imports this file']);
    }
  }

  if (ctx.files) {
    const pairs = ctx.files.testPartners(path);
    pairs.forEach((other, i) => {
      const s = w.testPair / (i + 1);
      const c = get(other);
      c.parts.push(s);
      c.reasons.push([s, isTestName(other) ? 'its test, by naming convention' : 'the implementation it tests, by naming convention']);
    });
    const dir = posix.dirname(path);
    const siblings = ctx.files.inDirectory(dir);
    if (siblings.length <= w.maxFolder) {
      for (const other of siblings) {
        if (other === path) continue;
        const s = w.sibling * activity(other);
        if (s <= 0) continue;
        const c = get(other);
        c.parts.push(s);
        c.reasons.push([s, 'in the same folder']);
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
          c.parts.push(s);
          c.reasons.push([s, 'in the folder above']);
        }
      }
    }
  }

  const out: RelatedFile[] = [];
  for (const c of cands.values()) {
    let miss = 1;
    for (const p of c.parts) miss *= 1 - Math.min(0.999, Math.max(0, p));
    const score = 1 - miss;
    c.reasons.sort((a, b) => b[0] - a[0]);
    out.push({ path: c.path, score: Math.round(score * 1e4) / 1e4, reasons: c.reasons.map((r) => r[1]), support: c.support });
  }
  out.sort((a, b) => b.score - a.score || (b.support ?? 0) - (a.support ?? 0) || (a.path < b.path ? -1 : 1));
  return out.slice(0, limit);
}

function ageText(days: number): string {
  if (days < 1) return ', last today';
  if (days < 60) return `, last ${Math.round(days)} days ago`;
  if (days < 730) return `, last ${Math.round(days / 30)} months ago`;
  return `, last ${Math.round(days / 365)} years ago`;
}

function isTestName(p: string): boolean {
  return /[._-](test|spec)\.|__tests__|^test_|_test\.|Test\.[a-z]+$/.test(p);
}

function unique(xs: string[]): string[] {
  return [...new Set(xs)];
}
