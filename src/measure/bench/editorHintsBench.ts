import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ContextService } from '../../core/api/contextService';
import { AnchorLines, lensesOf, renderWhyHover } from '../../vscode/editor/hintText';
import type { DecisionAnchor, WhyCard } from '../../core/api/types';
import { prng } from '../../core/random';
import { walkFiles } from '../../core/sources/reports/walk';
import { percentile } from '../../shared/text';

export interface EditorHintsBenchOptions {
  /** Files sampled (governed files first). */
  samples?: number;
  /** Keystrokes typed into each sampled file. */
  keystrokes?: number;
  seed?: number;
  stateDir?: string;
}

export interface Stat {
  p50: number;
  p95: number;
  max: number;
  n: number;
}

export interface EditorHintsBenchResult {
  root: string;
  files: number;
  decisions: number;
  sampledFiles: number;
  governedFiles: number;
  anchors: number;
  /** One CodeLens request while typing: the anchors moved by one keystroke's edit, and the lenses built from them. */
  lensRequestMs: Stat;
  /** The first CodeLens request of a document (or after its file or a record changed on disk): anchors looked up. */
  lensLookupMs: Stat;
  /** The first hover on a governed definition at a document version: the why-card from the panel's suggestion. */
  hoverMs: Stat;
  /** Hovering again at the same version: the card is kept and only rendered. */
  hoverCachedMs: Stat;
  /** Suggestion passes the lenses and hovers ran beyond the panel's own (one per sampled file): must be 0. */
  extraPasses: number;
}

function stat(values: number[]): Stat {
  const r = (n: number) => Math.round(n * 1000) / 1000;
  return {
    p50: r(percentile(values, 50)),
    p95: r(percentile(values, 95)),
    max: r(values.length ? Math.max(...values) : 0),
    n: values.length,
  };
}

/**
 * Measures the editor hints' typing path on a real folder, the way the extension computes them:
 * anchors looked up once per document and moved with each edit, lenses built from them, and the
 * why-card built from the suggestion the panel already has. Indexing is done first and not counted.
 */
export async function runEditorHintsBench(
  root: string,
  options: EditorHintsBenchOptions = {},
  onStep: (s: string) => void = () => undefined,
): Promise<EditorHintsBenchResult> {
  const ownState = options.stateDir === undefined;
  const stateDir = options.stateDir ?? mkdtempSync(join(tmpdir(), 'pc-bench-hints-'));
  const service = await ContextService.open({
    root,
    stateDir,
    config: { index: { maxFiles: 200000, maxFileBytes: 1024 * 1024, timeBudgetMs: 600000 } },
  });
  try {
    onStep('indexing');
    const refreshed = await service.workspace.refreshAll();
    const files = refreshed.index.files;
    const decisions = (await service.decisions.list()).length;
    onStep('sampling');
    const { sampled, governed } = sample(service, sourceFiles(root), options.samples ?? 100, options.seed ?? 42);
    const lensRequest: number[] = [];
    const lensLookup: number[] = [];
    const hover: number[] = [];
    const hoverCached: number[] = [];
    let anchorCount = 0;
    let extraPasses = 0;
    const keystrokes = options.keystrokes ?? 200;
    onStep(`typing into ${sampled.length} files`);
    for (const file of sampled) {
      let t = performance.now();
      const anchors = service.decisions.anchors(file);
      lensLookup.push(performance.now() - t);
      anchorCount += anchors.length;
      const lines = new AnchorLines(anchors, 1);
      // Type above the first governed definition, so every keystroke that breaks a line moves them all.
      const at = Math.max(1, (anchors[0]?.symbol.startLine ?? 2) - 1);
      for (let k = 0; k < keystrokes; k++) {
        t = performance.now();
        lines.edit(at, at, k % 40 === 39 ? 1 : 0);
        lines.version++;
        lensesOf(lines.anchors);
        lensRequest.push(performance.now() - t);
      }
      if (!anchors.length) continue;
      const span = anchors[0].symbol;
      const place = { file, line: span.startLine, symbol: { ...span } };
      // The panel's answer for the place, enriched with the slow sources as the panel shows it.
      const panel = await service.suggestions.complete(await service.suggestions.suggestAt(place, { record: false }));
      const before = service.suggestions.passes;
      t = performance.now();
      const found = lines.at(lines.anchors[0].symbol.startLine);
      const card = await service.suggestions.explainWhy(place, { suggestion: panel });
      renderWhyHover(found?.anchors ?? [], card, (p) => p, Date.now());
      hover.push(performance.now() - t);
      extraPasses += service.suggestions.passes - before;
      const kept = new Map<string, WhyCard>([[`${file}@1#${span.name}`, card]]);
      t = performance.now();
      renderWhyHover(
        lines.at(lines.anchors[0].symbol.startLine)?.anchors ?? ([] as DecisionAnchor[]),
        kept.get(`${file}@1#${span.name}`),
        (p) => p,
        Date.now(),
      );
      hoverCached.push(performance.now() - t);
    }
    return {
      root,
      files,
      decisions,
      sampledFiles: sampled.length,
      governedFiles: governed,
      anchors: anchorCount,
      lensRequestMs: stat(lensRequest),
      lensLookupMs: stat(lensLookup),
      hoverMs: stat(hover),
      hoverCachedMs: stat(hoverCached),
      extraPasses,
    };
  } finally {
    service.dispose();
    if (ownState) rmSync(stateDir, { recursive: true, force: true });
  }
}

/** Files with governed definitions first, then others, picked with a seeded generator. */
function sample(
  service: ContextService,
  pool: readonly string[],
  n: number,
  seed: number,
): { sampled: string[]; governed: number } {
  const random = prng(seed);
  const governed = pool.filter((f) => service.decisions.anchors(f).length > 0);
  const others = pool.filter((f) => !governed.includes(f));
  const pick = (from: string[], k: number) => {
    const copy = [...from];
    const out: string[] = [];
    while (out.length < k && copy.length) out.push(copy.splice(Math.floor(random() * copy.length), 1)[0]);
    return out;
  };
  const first = pick(governed, n);
  return { sampled: [...first, ...pick(others, n - first.length)], governed: governed.length };
}

/** The code files of the folder (root-relative), outside dependencies and build output. */
function sourceFiles(root: string): string[] {
  const { files } = walkFiles(root, { maxDepth: 20, maxEntries: 400_000 });
  return files
    .filter(
      (f) => /\.(ts|tsx|js|jsx|mjs|cjs|py|go|java|rs|cs)$/.test(f) && !/(^|\/)(node_modules|dist|out|build)\//.test(f),
    )
    .sort();
}
