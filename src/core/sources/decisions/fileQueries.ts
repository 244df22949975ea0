import type { Logger } from '../../logger';
import type { SourceQuery } from '../sourceQuery';
import { fileQuery, type FileQuery, type FileVocabulary } from './fileTerms';
import type { FileDefinition } from './importUse';

/** Port: what the code index knows about the workspace's files (names defined and called, packages imported). */
export interface CodeVocabulary {
  vocabularyOf(path: string): FileVocabulary | undefined;
  vocabularyByFile(): { path?: string; names: string; packages: string }[];
  /** True when the code index reads the file's language, so that the workspace's counts know its words. */
  reads?(path: string): boolean;
  /** The file's definitions and their lines. */
  definitionsIn?(path: string): readonly FileDefinition[];
}

/** Queries kept: a cursor moving within a file asks for the same words again. */
const MAX_KEPT = 64;

/** The words each place is linked to records by, kept until the code index changes. */
export class FileQueries {
  private kept = new Map<string, FileQuery>();

  constructor(
    private readonly code: () => CodeVocabulary | undefined,
    private readonly logger: Logger,
  ) {}

  /** The code index changed: forget every query. */
  clear(): void {
    this.kept = new Map();
  }

  of(file: string, q: SourceQuery, text: string | undefined): FileQuery {
    const key = `${file}\u0000${q.symbol ?? ''}\u0000${q.symbolRange?.start ?? ''}\u0000${q.symbolRange?.end ?? ''}`;
    const cached = this.kept.get(key);
    if (cached && q.fileText === undefined) return cached;
    const code = this.code();
    let vocabulary: FileVocabulary | undefined;
    let definitions: readonly FileDefinition[] | undefined;
    try {
      vocabulary = code?.vocabularyOf(file);
      if (q.symbolRange) definitions = code?.definitionsIn?.(file);
    } catch (err) {
      this.logger.debug(`Could not read the code index for ${file}: ${(err as Error).message}`);
    }
    const unread = code?.reads ? !code.reads(file) : false;
    const query = fileQuery({
      path: file,
      vocabulary,
      text,
      symbol: q.symbol,
      symbolLine: q.symbolRange?.start,
      symbolEnd: q.symbolRange?.end,
      definitions,
      unread,
    });
    if (this.kept.size >= MAX_KEPT) this.kept.delete(this.kept.keys().next().value as string);
    this.kept.set(key, query);
    return query;
  }
}
