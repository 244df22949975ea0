/**
 * The use cases behind the editor's own surfaces (CodeLens, hovers, the Problems view, the empty
 * Decisions section): answered from what the sources already hold, never by a suggestion pass.
 */
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { EngineParts } from '../../engine';
import { decisionAnchors, type DecisionAnchor } from '../../sources/decisions/decisionAnchors';
import { scanInline } from '../../sources/decisions/inlineRefs';
import { locateFailures, type LocatedFailure } from '../../sources/reports/failureSites';
import type { FailedTest } from '../../sources/reports/testReportSource';
import { all, firstColumn } from '../../store/sqlite';
import type { ContextSuggestion, SuggestionItem } from '../../types';
import type { DecisionSearch, LineCommit, SymbolSpan } from '../types';

/** The setting that points decision discovery at other folders. */
export const DECISION_FOLDERS_SETTING = 'proactiveContext.decisionFolders';

export function decisionSearch(parts: EngineParts): DecisionSearch {
  const looked = parts.decisions.whereLooked();
  return {
    folders: looked.folders.map((f) => f.path),
    conventions: [...looked.conventions],
    setting: looked.setting || DECISION_FOLDERS_SETTING,
    records: parts.decisions.list().length,
  };
}

/** The decision records governing each definition of a file, from the index and the file on disk. */
export function anchorsOf(parts: EngineParts, file: string): DecisionAnchor[] {
  const records = parts.decisions.listEntries();
  if (!records.length) return [];
  let symbols;
  try {
    symbols = parts.index.symbolsIn(file);
  } catch (err) {
    parts.logger.debug(`No definitions for ${file}: ${(err as Error).message}`);
    return [];
  }
  if (!symbols.length) return [];
  const text = readBounded(join(parts.root, file), parts.config().index.maxFileBytes);
  const lines = text.split(/\r?\n/);
  return decisionAnchors({ file, symbols, records, inline: scanInline(text), lines });
}

/**
 * The failing tests of the last report run, placed at their lines; worked out once per report
 * refresh (the list the report source holds is replaced, never changed, when reports change).
 */
export class FailureLocator {
  private last: { from: readonly FailedTest[]; files: number; located: LocatedFailure[] } | undefined;

  constructor(private readonly parts: EngineParts) {}

  current(): LocatedFailure[] {
    const failures = this.parts.reports.list();
    if (!failures.length) return [];
    // Stack frames are matched against the indexed files: placed again once the index has grown.
    const files = this.indexedFileCount();
    if (this.last?.from !== failures || this.last.files !== files) {
      this.last = { from: failures, files, located: locateFailures(this.parts.root, failures, this.indexedFiles()) };
    }
    return this.last.located;
  }

  private indexedFileCount(): number {
    try {
      return all<{ n: number }>(this.parts.store.index, 'SELECT COUNT(*) AS n FROM files')[0]?.n ?? 0;
    } catch {
      return 0;
    }
  }

  private indexedFiles(): string[] {
    try {
      return firstColumn(this.parts.store.index, 'SELECT path FROM files');
    } catch {
      return [];
    }
  }
}

/**
 * The commits that changed a definition's lines, when a suggestion for that very definition already
 * lists them (its history source asks `git log -L` for the symbol's range); undefined otherwise.
 */
export function lineHistoryFrom(
  suggestion: ContextSuggestion,
  file: string,
  span: SymbolSpan,
): LineCommit[] | undefined {
  if (suggestion.query.currentFile !== file || suggestion.query.currentSymbol !== span.name) return undefined;
  return lineCommitsOf(suggestion.items, file, span);
}

/** The commits among suggestion items that changed exactly this definition's lines, newest first. */
export function lineCommitsOf(items: readonly SuggestionItem[], file: string, span: SymbolSpan): LineCommit[] {
  return items
    .filter(
      (i) =>
        i.type === 'change' &&
        i.location.path === file &&
        i.location.commit &&
        i.location.line === span.startLine &&
        i.location.endLine === span.endLine,
    )
    .map((i) => ({
      hash: i.location.commit as string,
      author: typeof i.meta?.author === 'string' ? i.meta.author : '',
      date: i.timestamp ?? 0,
      subject: i.title,
    }))
    .sort((a, b) => b.date - a.date);
}

function readBounded(abs: string, maxBytes: number): string {
  try {
    if (statSync(abs).size > maxBytes) return '';
    return readFileSync(abs, 'utf8');
  } catch {
    return '';
  }
}
