import type { CoreConfig } from '../config';
import type { Logger } from '../logger';
import type { Store } from '../store/store';
import type { ProactiveQuery, SuggestionItem, SuggestionType } from '../types';

/** What the provider asks a signal source about: the code under the cursor, root-relative. */
export interface SourceQuery {
  /** The active file, relative to the root, forward slashes. */
  file?: string;
  /** 1-based cursor line in `file`. */
  line?: number;
  /** Name of the symbol under the cursor. */
  symbol?: string;
  /** 1-based, inclusive line range of that symbol in `file`. */
  symbolRange?: { start: number; end: number };
  /** Root-relative paths that `file` imports (resolved by the code index). */
  importsOfFile?: string[];
  /** Root-relative paths of recently active files, most recent first. */
  recentFiles?: string[];
  /** The editor's current text of `file` when it has unsaved changes; read from disk otherwise. */
  fileText?: string;
}

/** Shared wiring of every signal source. */
export interface SourceWiring {
  /** Absolute path of the workspace root. */
  root: string;
  /** The workspace store, for sources that keep rebuildable data there. */
  store?: Store;
  config?: CoreConfig;
  logger?: Logger;
  /** Clock, injectable for tests. */
  now?: () => number;
  /** Root-relative paths a file imports (the code index), for links through imported packages. */
  importsOf?: (file: string) => string[];
  /** How many files define a name (the code index); a name many files define links no document by itself. */
  definitionFiles?: (name: string) => number;
  /** False while git may not run: the workspace is listed by walking it (default: git may run). */
  gitAllowed?: () => boolean;
}

export interface RefreshStats {
  /** Files looked at. */
  files: number;
  /** Files (re)parsed because they were new or changed. */
  parsed: number;
  /** Files skipped (binary, too large, unreadable, malformed). */
  skipped: number;
  /** Items now held in memory (decisions, failed tests, doc sections). */
  entries: number;
  ms: number;
}

/** The provider's question about the cursor, in the terms of the sources that read the workspace. */
export function sourceQueryOf(ctx: QueryContext, importsOf?: (file: string) => string[]): SourceQuery {
  const q = ctx.query;
  return {
    file: q.currentFile,
    line: q.cursorPosition?.line,
    symbol: q.currentSymbol,
    symbolRange: ctx.symbolRange ? { start: ctx.symbolRange.startLine, end: ctx.symbolRange.endLine } : undefined,
    importsOfFile: q.currentFile && importsOf ? importsOf(q.currentFile) : undefined,
    recentFiles: q.recentFiles,
  };
}

/** Clamps a score into 0..1 with two decimals, so equal links compare equal. */
export function score(n: number): number {
  return Math.round(Math.min(1, Math.max(0, n)) * 100) / 100;
}

/** How long ago, in the same words everywhere (panel, chat, reasons). */
export { formatAge } from '../../shared/text';

/** What a source needs to know about the code at the cursor. */
export interface QueryContext {
  query: ProactiveQuery;
  /** The definition enclosing the cursor, when known. */
  symbolRange?: { name: string; startLine: number; endLine: number };
  config: CoreConfig;
  now: number;
  signal: AbortSignal;
  /** Sources add a line here when they could not contribute (not a git repo, index building…). */
  note(text: string): void;
}

/** One producer of suggestion candidates (decisions, git, index, reports, docs…). */
export interface SuggestionSource {
  readonly name: string;
  readonly kinds: readonly SuggestionType[];
  /**
   * Slow sources (language servers, line history) never hold back the first answer: they run once,
   * afterwards, as an enrichment of it (`enrich`).
   */
  readonly slow?: boolean;
  /** Answers from what the source holds; called on every cursor stop, so it reads no files. */
  collect(ctx: QueryContext): Promise<SuggestionItem[]>;
  /**
   * For sources that read the workspace (decisions, docs, reports): does the reading and indexing
   * (startup, file changes) that `collect` then answers from.
   */
  refresh?(signal?: AbortSignal): Promise<RefreshStats>;
}

/** A source that reads the workspace, refreshed by the indexer. */
export type WorkspaceSource = SuggestionSource & Required<Pick<SuggestionSource, 'refresh'>>;
