import type { Logger } from '../../logger';
import type { DecisionLinker } from './decisionLinker';
import type { CodeVocabulary } from './fileQueries';
import { fileQuery } from './fileTerms';
import type { FileTexts } from './fileTexts';
import { TimeSlice } from '../../timeSlice';

/** Files read to tell how broad each record is: enough to tell one in eight, bounded for large workspaces. */
export const BREADTH_SAMPLE = 240;

/** A link of one sampled file, as the linker gives it. */
export interface SampledLink {
  /** The record's linker key (its path, or `path#line` for an entry of a log). */
  path: string;
  /** Linked by common words only: not shown, so it does not make the record broad. */
  unspecific?: boolean;
}

export interface BreadthInput {
  /** The workspace's code files, in any order. */
  paths: readonly string[];
  /** The records the linker links one file to by its words (what the panel would show for it). */
  link(path: string): Promise<readonly SampledLink[]> | readonly SampledLink[];
  /** Files sampled at most (default BREADTH_SAMPLE). */
  sample?: number;
  slice?: TimeSlice;
  /** True once the answer would no longer be used: stop reading files. */
  stale?: () => boolean;
}

/** How broad each record is, and over how many files that was told. */
export interface RecordBreadth {
  /** Share of the sampled files each record's words link it to, by linker key; records linked to none are absent. */
  shares: ReadonlyMap<string, number>;
  sampled: number;
}

/**
 * Every n-th file of the sorted paths, up to `size` of them: the same sample for the same workspace,
 * spread over all its folders.
 */
export function sampleOf(paths: readonly string[], size: number): string[] {
  const sorted = [...paths].sort();
  if (sorted.length <= size) return sorted;
  const step = sorted.length / size;
  const out: string[] = [];
  for (let i = 0; i < size; i++) out.push(sorted[Math.floor(i * step)]);
  return out;
}

/**
 * How broad each record is: the share of a sample of the workspace's code files that its words link it
 * to. A record words link to a large share of the files (an architecture overview that speaks of the
 * service's own domain, a front-end stack that names every package the app imports) is not about any one
 * of them, however specific each link looks on its own.
 */
export async function measureBreadth(input: BreadthInput): Promise<RecordBreadth> {
  const files = sampleOf(input.paths, input.sample ?? BREADTH_SAMPLE);
  const slice = input.slice ?? new TimeSlice();
  const counts = new Map<string, number>();
  let sampled = 0;
  for (const file of files) {
    if (input.stale?.()) break;
    await slice.pause();
    const linked = new Set<string>();
    for (const l of await input.link(file)) if (!l.unspecific) linked.add(l.path);
    for (const key of linked) counts.set(key, (counts.get(key) ?? 0) + 1);
    sampled++;
  }
  const shares = new Map<string, number>();
  if (sampled) for (const [key, n] of counts) shares.set(key, n / sampled);
  return { shares, sampled };
}

/** What measuring breadth needs of the decision source. */
export interface BreadthWiring<L> {
  /** The linker now, or undefined while there is nothing to measure (no records, no code index yet). */
  linker(): L | undefined;
  /** The workspace's code files to sample. */
  paths(): readonly string[];
  /** The records one file's words link it to. */
  link(linker: L, path: string): Promise<readonly SampledLink[]>;
  logger: Logger;
}

/**
 * The breadth of each record, measured again when asked (the records or the workspace's words
 * changed). Until a measure is done the previous one stands (none at first: no record is broad).
 */
export class RecordBreadths<L> {
  private shares: ReadonlyMap<string, number> = new Map();
  /** Counts measures begun: only the latest one's answer is kept. */
  private runs = 0;
  private work: Promise<void> | undefined;
  private stopped = false;

  constructor(private readonly wiring: BreadthWiring<L>) {}

  /** Share of the workspace's code files the record's words link it to, by linker key. */
  of(key: string): number {
    return this.shares.get(key) ?? 0;
  }

  start(): void {
    if (this.stopped) return;
    this.work = this.measure();
  }

  /** The workspace closed: the measure running reads no more files, and none begins. */
  stop(): void {
    this.stopped = true;
    this.runs++;
  }

  /** Resolves once the latest measure is done, including one begun while waiting. */
  async settled(): Promise<void> {
    for (let work = this.work; work; work = this.work) {
      await work;
      if (this.work === work) this.work = undefined;
    }
  }

  private async measure(): Promise<void> {
    const linker = this.wiring.linker();
    if (!linker) return;
    const run = ++this.runs;
    const started = performance.now();
    try {
      const { shares, sampled } = await measureBreadth({
        paths: this.wiring.paths(),
        link: (path) => this.wiring.link(linker, path),
        // A newer measure has begun: this one's answer would be dropped.
        stale: () => run !== this.runs,
      });
      if (run !== this.runs || linker !== this.wiring.linker()) return;
      this.shares = shares;
      this.wiring.logger.debug(
        `Measured how broad ${shares.size} decision records are over ${sampled} files in ${(performance.now() - started).toFixed(0)} ms`,
      );
    } catch (err) {
      this.wiring.logger.debug(`Could not measure how broad decision records are: ${(err as Error).message}`);
    }
  }
}

/** The records one file's words link it to, as the panel would link them with the cursor at its top. */
export async function linksOfFile(
  linker: DecisionLinker,
  path: string,
  texts: FileTexts,
  code: CodeVocabulary | undefined,
): Promise<readonly SampledLink[]> {
  const text = await texts.read(path);
  let vocabulary;
  try {
    vocabulary = code?.vocabularyOf(path);
  } catch {
    vocabulary = undefined;
  }
  const unread = code?.reads ? !code.reads(path) : false;
  return linker.link(path, fileQuery({ path, vocabulary, text, unread }));
}
