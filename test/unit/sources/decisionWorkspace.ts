import { openEngine, type EngineParts } from '../../../src/core/engine';
import type { SuggestionItem } from '../../../src/core/types';
import { TempRepo } from '../git/repoFixture';

/** The decision items the panel lists first for a place: a file, and the definition of `symbol` at `line` spanning `span` lines more. */
export type DecisionQuery = (file: string, symbol?: string, line?: number) => SuggestionItem[];

/**
 * A real engine on a repository of one commit with `files`, indexed before the suite's tests and
 * disposed after them. Returns the query the tests ask.
 */
export function decisionWorkspace(files: () => Record<string, string>, span = 2): DecisionQuery {
  let repo: TempRepo | undefined;
  let engine: EngineParts | undefined;
  before(async () => {
    repo = new TempRepo();
    repo.commit('workspace', files());
    engine = await openEngine({ root: repo.dir, stateDir: repo.stateDir });
    await engine.indexer.refreshAll();
  });
  after(() => {
    engine?.dispose();
    repo?.dispose();
  });
  // The records the panel lists before "Show more": folded ones wait below them.
  return (file, symbol, line) =>
    engine!.decisions
      .query({ file, symbol, symbolRange: line ? { start: line, end: line + span } : undefined, line })
      .filter((i) => i.type === 'decision' && i.meta?.folded !== true);
}

/** A numbered record in the Nygard style, accepted, whose decision is `body`. */
export const acceptedRecord = (n: number, title: string, body: string): string =>
  `# ${n}. ${title}\n\n## Status\n\nAccepted\n\n## Decision\n\n${body}\n`;
