import { ChangeLog, type LoggedChange } from './changeLog';
import { MAX_CHANGE_SET } from './cochangeCounts';

/**
 * Change sets above this size are sweeps (formatting, renames, licence headers): they say nothing
 * about which files belong together, even weakly.
 */
export const MAX_BROAD_CHANGE_SET = 300;

export type BroadChange = LoggedChange;

/** What the ranking reads from broad change sets. */
export interface BroadChangeSource {
  /** The broad change sets that touched `path`, newest first, at most `limit`. */
  changesOf(path: string, limit: number): readonly BroadChange[];
}

/** What the cache file is written from and read into. */
export interface BroadChangeStore {
  readonly minSize: number;
  readonly maxSize: number;
  add(files: readonly string[], time: number): boolean;
  /** Every change set kept, oldest first. */
  all(): readonly BroadChange[];
  clear(): void;
}

/**
 * Change sets too large for pair counting (more than {@link MAX_CHANGE_SET} files) yet smaller than
 * a sweep: a feature that touches every driver, a test suite moved to a new folder. Pair counts would
 * cost the square of their size, so they are kept whole and indexed by file; a query walks the few
 * that touched its file. Add and remove are first in, first out, like {@link CoChangeCounts}.
 */
export class BroadChanges implements BroadChangeSource, BroadChangeStore {
  private readonly log = new ChangeLog();

  /**
   * @param maxSets the most sets kept; beyond it the oldest go (the ranking reads the newest few per file)
   */
  constructor(
    readonly minSize = MAX_CHANGE_SET + 1,
    readonly maxSize = MAX_BROAD_CHANGE_SET,
    readonly maxSets = Number.POSITIVE_INFINITY,
  ) {}

  /** True when a change set of this many files is kept here. */
  accepts(size: number): boolean {
    return size >= this.minSize && size <= this.maxSize;
  }

  get size(): number {
    return this.log.size;
  }

  add(files: readonly string[], time: number): boolean {
    if (!this.accepts(files.length)) return false;
    this.log.add(files, time);
    if (this.log.size > this.maxSets) this.log.removeOldest(this.log.oldest()!.files);
    return true;
  }

  /** Removes the oldest change set when it is `files` (the window slides forward). */
  remove(files: readonly string[]): boolean {
    return this.accepts(files.length) && this.log.removeOldest(files);
  }

  changesOf(path: string, limit: number): readonly BroadChange[] {
    return this.log.of(path, limit);
  }

  /** Every change set kept, oldest first. */
  all(): readonly BroadChange[] {
    return this.log.all();
  }

  clear(): void {
    this.log.clear();
  }
}

const FORMAT = 1;

/** The change sets as JSON: paths once, each set as its time and path numbers, oldest first. */
export function encodeBroad(broad: BroadChangeStore, head: string): string {
  const ids = new Map<string, number>();
  const paths: string[] = [];
  const sets = broad.all().map((s) => [
    s.time,
    s.files.map((f) => {
      let id = ids.get(f);
      if (id === undefined) {
        id = paths.length;
        ids.set(f, id);
        paths.push(f);
      }
      return id;
    }),
  ]);
  return JSON.stringify({ format: FORMAT, head, limits: [broad.minSize, broad.maxSize], paths, sets });
}

/** Fills `into` from encodeBroad's output, or says why it cannot be used. */
export function decodeBroad(text: string, into: BroadChangeStore): { head: string } | string {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (err) {
    return `not JSON (${(err as Error).message})`;
  }
  const d = data as { format?: unknown; head?: unknown; limits?: unknown; paths?: unknown; sets?: unknown };
  if (!d || typeof d !== 'object') return 'not an object';
  if (d.format !== FORMAT) return `format ${String(d.format)}, expected ${FORMAT}`;
  if (typeof d.head !== 'string' || !Array.isArray(d.paths) || !Array.isArray(d.sets))
    return 'missing head, paths or sets';
  if (!Array.isArray(d.limits) || d.limits[0] !== into.minSize || d.limits[1] !== into.maxSize)
    return 'kept with other size limits';
  const paths = d.paths as unknown[];
  if (!paths.every((p): p is string => typeof p === 'string')) return 'a path is not a string';
  const decoded: [number, string[]][] = [];
  for (const s of d.sets as unknown[]) {
    if (!Array.isArray(s) || typeof s[0] !== 'number' || !Array.isArray(s[1])) return 'a malformed change set';
    const ids = s[1] as unknown[];
    if (!ids.every((i): i is number => Number.isInteger(i) && (i as number) >= 0 && (i as number) < paths.length))
      return 'a change set names an unknown path';
    decoded.push([s[0], ids.map((i) => paths[i])]);
  }
  into.clear();
  for (const [time, files] of decoded) into.add(files, time);
  return { head: d.head };
}
