import type { ContextService } from '../../core/api/contextService';
import type { SuggestionType } from '../../core/api/types';
import { nullLogger, type Logger } from '../../core/logger';
import { PANEL_ITEM_TYPES } from '../../shared/protocol';
import { commitNote, withIndexedWorkspace, type EvalWorkspaceOptions } from './evalWorkspace';
import { placeHistory, repoFacts, type PlaceHistory, type RepoFacts } from './panelGit';
import { expectedItems, judgePanel, visibleItems, type ExpectedItem, type JudgedItem } from './panelJudge';
import type { PanelCase, PanelLabels, PanelSet } from './panelLabels';

export interface KindFigures {
  shown: number;
  correct: number;
  noise: number;
  /** correct / (correct + noise); 1 when nothing judged was shown. */
  precision: number;
  expected: number;
  found: number;
  /** found / expected; 1 when nothing was expected. */
  recall: number;
}

export interface PanelFigures {
  cases: number;
  /** Of the visible items judged right or noise, the share that is right. */
  precision: number;
  noisePerPanel: number;
  decisionNoisePerPanel: number;
  /** Of the expected items (labels, and the symbol's latest commits), the share visible. */
  recall: number;
  byKind: Record<SuggestionType, KindFigures>;
}

export interface PanelCaseResult {
  file: string;
  line?: number;
  symbol?: string;
  /** The symbol's lines that history and warnings were judged on. */
  range?: { start: number; end: number };
  items: JudgedItem[];
  expected: (ExpectedItem & { found: boolean })[];
  noise: number;
  decisionNoise: number;
}

export interface PanelRepoResult extends PanelFigures {
  repo: string;
  commit: string;
  set: PanelSet;
  /** Set when the workspace is not at the labelled commit. */
  note?: string;
  perCase: PanelCaseResult[];
}

export interface PanelEvalResult extends PanelFigures {
  repos: PanelRepoResult[];
}

/**
 * For each labelled place, asks the product what the panel would show (the first answer, then the
 * enriched one that replaces it, as the editor does), keeps what is visible without expanding a
 * group, and judges every item against the labels and git.
 */
export async function runPanelEval(
  root: string,
  labels: PanelLabels,
  options: EvalWorkspaceOptions = {},
  logger: Logger = nullLogger,
): Promise<PanelRepoResult> {
  const facts = await repoFacts(root, labels.bulkFiles, options.signal);
  return withIndexedWorkspace(root, options, logger, async (service) => {
    const perCase: PanelCaseResult[] = [];
    for (const c of labels.cases) {
      options.signal?.throwIfAborted();
      perCase.push(await evalCase(service, facts, c, options.signal));
    }
    return {
      repo: labels.repo,
      commit: labels.commit,
      set: labels.set,
      note: await commitNote(root, labels.commit, options.signal),
      ...figures(perCase),
      perCase,
    };
  });
}

async function evalCase(
  service: ContextService,
  facts: RepoFacts,
  c: PanelCase,
  signal?: AbortSignal,
): Promise<PanelCaseResult> {
  // The extension takes the enclosing definition from the code index (the editor's symbols otherwise).
  const span = c.line !== undefined ? service.workspace.symbolAt(c.file, c.line) : undefined;
  const symbol = span && (!c.symbol || span.name === c.symbol || span.name.endsWith(`.${c.symbol}`)) ? span : undefined;
  const first = await service.suggestions.suggestAt(
    { file: c.file, line: c.line, column: 1, symbol, symbolName: symbol ? undefined : c.symbol },
    { record: false, signal },
  );
  const settled = service.suggestions.hasEnrichment
    ? ((await service.suggestions.enrich(first, { signal })) ?? first)
    : first;
  const range =
    c.line === undefined
      ? undefined
      : c.endLine !== undefined
        ? { start: c.line, end: c.endLine }
        : symbol
          ? { start: symbol.startLine, end: symbol.endLine }
          : { start: c.line, end: c.line };
  const history: PlaceHistory = await placeHistory(facts, c.file, range);
  const items = judgePanel(c, history, visibleItems(settled.items), range);
  const expected = expectedItems(c, history).map((e) => ({
    ...e,
    found: items.some((i) => i.type === e.kind && i.expected === e.key),
  }));
  return {
    file: c.file,
    line: c.line,
    symbol: c.symbol,
    range,
    items,
    expected,
    noise: items.filter((i) => i.verdict === 'noise').length,
    decisionNoise: items.filter((i) => i.record && i.verdict === 'noise').length,
  };
}

const round = (n: number) => Math.round(n * 1000) / 1000;
const ratio = (a: number, b: number) => (b === 0 ? 1 : round(a / b));

/** Micro-averaged figures over cases (every visible item and every expected item weighs the same). */
export function figures(cases: readonly PanelCaseResult[]): PanelFigures {
  const byKind = {} as Record<SuggestionType, KindFigures>;
  for (const kind of PANEL_ITEM_TYPES) {
    const items = cases.flatMap((c) => c.items.filter((i) => i.type === kind));
    const expected = cases.flatMap((c) => c.expected.filter((e) => e.kind === kind));
    const correct = items.filter((i) => i.verdict === 'correct').length;
    const noise = items.filter((i) => i.verdict === 'noise').length;
    const found = expected.filter((e) => e.found).length;
    byKind[kind] = {
      shown: items.length,
      correct,
      noise,
      precision: ratio(correct, correct + noise),
      expected: expected.length,
      found,
      recall: ratio(found, expected.length),
    };
  }
  const k = Object.values(byKind);
  const sum = (f: (x: KindFigures) => number) => k.reduce((s, x) => s + f(x), 0);
  const n = cases.length;
  return {
    cases: n,
    precision: ratio(
      sum((x) => x.correct),
      sum((x) => x.correct + x.noise),
    ),
    noisePerPanel: n ? round(sum((x) => x.noise) / n) : 0,
    decisionNoisePerPanel: n ? round(cases.reduce((s, c) => s + c.decisionNoise, 0) / n) : 0,
    recall: ratio(
      sum((x) => x.found),
      sum((x) => x.expected),
    ),
    byKind,
  };
}

/** Overall figures of several repositories' runs. */
export function combine(repos: PanelRepoResult[]): PanelEvalResult {
  return { ...figures(repos.flatMap((r) => r.perCase)), repos };
}
