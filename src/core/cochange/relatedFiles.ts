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
}

export const DEFAULT_WEIGHTS: RankingWeights = {
  shrinkage: 1,
  cochange: 1,
  halfLifeDays: 90,
  recencyShare: 0.3,
  imports: 0.3,
  importedBy: 0.25,
  testPair: 0.6,
  sibling: 0.06,
  nearby: 0.15,
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
  if (n > 0) {
    for (const [other, pair] of ctx.cochange.partners(path)) {
      if (other === path || !exists(other)) continue;
      const conf = pair.count / (n + w.shrinkage);
      const back = pair.count / (ctx.cochange.commitsOf(other) + w.shrinkage);
      const age = Math.max(0, ctx.now - pair.lastTime) / DAY;
      const recency = Math.pow(0.5, age / w.halfLifeDays);
      const near = dirDistance(path, other) <= 1 ? 1 : 0;
      let s = (0.75 * conf + 0.25 * back) * (1 - w.recencyShare + w.recencyShare * recency);
      s = Math.min(1, s * w.cochange * (1 + w.nearby * near));
      const c = get(other);
      c.parts.push(s);
      c.support = pair.count;
      c.reasons.push([s, `changed together in ${pair.count} of ${n} commits${ageText(age)}`]);
    }
  }

  if (ctx.imports) {
    for (const other of unique(ctx.imports.importsOf(path))) {
      if (other === path || !exists(other)) continue;
      const c = get(other);
      c.parts.push(w.imports);
      c.reasons.push([w.imports, 'imported by this file']);
    }
    for (const other of unique(ctx.imports.importersOf(path))) {
      if (other === path || !exists(other)) continue;
      const c = get(other);
      c.parts.push(w.importedBy);
      c.reasons.push([w.importedBy, 'imports this file']);
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
    if (siblings.length <= 60) {
      for (const other of siblings) {
        if (other === path) continue;
        const active = ctx.cochange.commitsOf(other);
        if (!active) continue;
        const recency = Math.pow(0.5, Math.max(0, ctx.now - ctx.cochange.lastTimeOf(other)) / DAY / w.halfLifeDays);
        const s = w.sibling * (0.5 + 0.5 * recency);
        const c = get(other);
        c.parts.push(s);
        c.reasons.push([s, 'in the same folder']);
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
