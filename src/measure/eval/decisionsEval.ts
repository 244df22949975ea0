import { nullLogger, type Logger } from '../../core/logger';
import type { SuggestionItem } from '../../core/api/types';
import { commitNote, withIndexedWorkspace, type EvalWorkspaceOptions } from './evalWorkspace';
import { isText, isTextList, readLabelObject } from './labelFile';

/** One labelled place in the code and the decision records that govern it. */
export interface DecisionCase {
  file: string;
  line?: number;
  symbol?: string;
  /** Records a reader needs to see here. */
  expected: string[];
  /** Records that are fair to show here too (not counted as noise). */
  acceptable?: string[];
  why: string;
}

/** A label file: every decision record of a repository at a commit, and the labelled cases. */
export interface DecisionLabels {
  repo: string;
  commit: string;
  language: string;
  layout: string;
  records: string[];
  cases: DecisionCase[];
}

export interface DecisionCaseResult {
  file: string;
  line?: number;
  symbol?: string;
  /** Records shown as decision items, in panel order. */
  shown: string[];
  /** Their panel scores, in the same order. */
  scores: number[];
  /** 1-based rank of the first expected record among them; 0 when none is shown. */
  rank: number;
  noise: number;
}

export interface DecisionsEvalResult {
  cases: number;
  hitAt5: number;
  mrr: number;
  /** Share of the labelled records that discovery found. */
  discovered: number;
  expectedRecords: number;
  noisePerPanel: number;
  repo: string;
  commit: string;
  /** Labelled records that discovery missed. */
  missed: string[];
  /** Set when the workspace is not at the labelled commit. */
  note?: string;
  perCase: DecisionCaseResult[];
}

/** Reads and checks a label file; a malformed one gets an error naming the file and the field. */
export function readDecisionLabels(file: string): DecisionLabels {
  const { d, bad } = readLabelObject(file);
  for (const key of ['repo', 'commit', 'language', 'layout'] as const)
    if (!isText(d[key])) throw bad(`"${key}" must be a non-empty string`);
  if (!isTextList(d.records) || d.records.length === 0) throw bad('"records" must be a non-empty list of paths');
  if (!Array.isArray(d.cases) || d.cases.length === 0) throw bad('"cases" must be a non-empty list');
  d.cases.forEach((c: unknown, i: number) => {
    const at = `case ${i}`;
    if (!c || typeof c !== 'object') throw bad(`${at} must be an object`);
    const k = c as Record<string, unknown>;
    if (!isText(k.file)) throw bad(`${at}: "file" must be a path`);
    if (k.line !== undefined && !(Number.isInteger(k.line) && (k.line as number) > 0))
      throw bad(`${at}: "line" must be a positive whole number`);
    if (k.symbol !== undefined && !isText(k.symbol)) throw bad(`${at}: "symbol" must be a non-empty string`);
    if (!isTextList(k.expected) || k.expected.length === 0)
      throw bad(`${at}: "expected" must list at least one record`);
    if (k.acceptable !== undefined && !isTextList(k.acceptable))
      throw bad(`${at}: "acceptable" must be a list of paths`);
  });
  return d as unknown as DecisionLabels;
}

export type DecisionsEvalOptions = EvalWorkspaceOptions;

/**
 * Indexes the workspace like `index` does, then asks the real provider for each labelled place
 * and scores the decision items it shows. Reads the workspace only; state goes to a state folder
 * outside it.
 */
export async function runDecisionsEval(
  root: string,
  labels: DecisionLabels,
  options: DecisionsEvalOptions = {},
  logger: Logger = nullLogger,
): Promise<DecisionsEvalResult> {
  return withIndexedWorkspace(root, options, logger, async (service) => {
    const found = new Set((await service.decisions.list()).map((d) => d.path));
    const missed = labels.records.filter((r) => !found.has(r));
    const perCase: DecisionCaseResult[] = [];
    for (const c of labels.cases) {
      options.signal?.throwIfAborted();
      const s = await service.suggestions.suggestAt(
        { file: c.file, line: c.line, symbolName: c.symbol },
        { record: false, trigger: 'manual' },
      );
      const shownItems = decisionRecordsShown(s.items);
      const shown = shownItems.map((i) => i.path);
      const expected = new Set(c.expected);
      const fine = new Set([...c.expected, ...(c.acceptable ?? [])]);
      const first = shown.findIndex((p) => expected.has(p));
      perCase.push({
        file: c.file,
        line: c.line,
        symbol: c.symbol,
        shown,
        scores: shownItems.map((i) => i.score),
        rank: first + 1,
        noise: shown.filter((p) => !fine.has(p)).length,
      });
    }
    const n = perCase.length;
    return {
      cases: n,
      hitAt5: round(perCase.filter((r) => r.rank > 0 && r.rank <= 5).length / n),
      mrr: round(perCase.reduce((sum, r) => sum + (r.rank > 0 ? 1 / r.rank : 0), 0) / n),
      discovered: round((labels.records.length - missed.length) / labels.records.length),
      expectedRecords: new Set(labels.cases.flatMap((c) => c.expected)).size,
      noisePerPanel: round(perCase.reduce((sum, r) => sum + r.noise, 0) / n),
      repo: labels.repo,
      commit: labels.commit,
      missed,
      note: await commitNote(root, labels.commit, options.signal),
      perCase,
    };
  });
}

/** Decision records among the shown items, in order: decisions and warnings about retired decisions. */
function decisionRecordsShown(items: readonly SuggestionItem[]): { path: string; score: number }[] {
  const out: { path: string; score: number }[] = [];
  for (const i of items) {
    const about = i.entityId.startsWith('decision:')
      ? i.entityId.slice('decision:'.length)
      : i.entityId.startsWith('warning:decision:')
        ? i.entityId.slice('warning:decision:'.length)
        : undefined;
    // Inline DECISION: notes live in the code file itself, not in a record.
    if (about === undefined || about.includes('#note-')) continue;
    if (!out.some((o) => o.path === about)) out.push({ path: about, score: i.relevanceScore });
  }
  return out;
}

function round(n: number): number {
  return Math.round(n * 1000) / 1000;
}
