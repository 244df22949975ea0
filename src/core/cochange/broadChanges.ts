import { MAX_CHANGE_SET } from './cochangeCounts';

/**
 * Change sets above this size are sweeps (formatting, renames, licence headers): they say nothing
 * about which files belong together, even weakly.
 */
export const MAX_BROAD_CHANGE_SET = 300;

export interface BroadChange {
  readonly files: readonly string[];
  readonly time: number;
}

/** What the ranking reads from broad change sets. */
export interface BroadChangeSource {
  /** The broad change sets that touched `path`, newest first, at most `limit`. */
  changesOf(path: string, limit: number): readonly BroadChange[];
}

/**
 * Change sets too large for pair counting (more than {@link MAX_CHANGE_SET} files) yet smaller than
 * a sweep: a feature that touches every driver, a test suite moved to a new folder. Pair counts would
 * cost the square of their size, so they are kept whole and indexed by file; a query walks the few
 * that touched its file. Add and remove are first in, first out, like {@link CoChangeCounts}.
 */
export class BroadChanges implements BroadChangeSource {
  private readonly byFile = new Map<string, BroadChange[]>();
  /** One copy of each path however many sets name it (mined paths arrive as fresh strings). */
  private readonly names = new Map<string, string>();
  private readonly sets: BroadChange[] = [];
  private head = 0;

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
    return this.sets.length - this.head;
  }

  add(files: readonly string[], time: number): boolean {
    if (!this.accepts(files.length)) return false;
    const shared = files.map((f) => this.names.get(f) ?? (this.names.set(f, f), f));
    const set: BroadChange = { files: shared, time };
    this.sets.push(set);
    for (const f of shared) {
      const list = this.byFile.get(f);
      if (list) list.push(set);
      else this.byFile.set(f, [set]);
    }
    if (this.size > this.maxSets) this.remove(this.sets[this.head].files);
    return true;
  }

  /** Removes the oldest change set when it is `files` (the window slides forward). */
  remove(files: readonly string[]): boolean {
    if (!this.accepts(files.length)) return false;
    const set = this.sets[this.head];
    if (!set || (set.files !== files && !sameFiles(set.files, files))) return false;
    this.sets[this.head++] = undefined as unknown as BroadChange;
    if (this.head > 1024 && this.head * 2 > this.sets.length) {
      this.sets.splice(0, this.head);
      this.head = 0;
    }
    for (const f of files) {
      const list = this.byFile.get(f);
      if (!list) continue;
      if (list[0] === set) list.shift();
      if (list.length === 0) {
        this.byFile.delete(f);
        this.names.delete(f);
      }
    }
    return true;
  }

  changesOf(path: string, limit: number): readonly BroadChange[] {
    const list = this.byFile.get(path);
    if (!list) return [];
    const out: BroadChange[] = [];
    for (let i = list.length - 1; i >= 0 && out.length < limit; i--) out.push(list[i]);
    return out;
  }

  /** Every change set kept, oldest first. */
  all(): readonly BroadChange[] {
    return this.sets.slice(this.head);
  }

  clear(): void {
    this.byFile.clear();
    this.names.clear();
    this.sets.length = 0;
    this.head = 0;
  }
}

function sameFiles(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((f, i) => f === b[i]);
}

const FORMAT = 1;

/** The change sets as JSON: paths once, each set as its time and path numbers, oldest first. */
export function encodeBroad(broad: BroadChanges, head: string): string {
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
export function decodeBroad(text: string, into: BroadChanges): { head: string } | string {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (err) {
    return `not JSON (${(err as Error).message})`;
  }
  const d = data as { format?: unknown; head?: unknown; limits?: unknown; paths?: unknown; sets?: unknown };
  if (!d || typeof d !== 'object') return 'not an object';
  if (d.format !== FORMAT) return `format ${String(d.format)}, expected ${FORMAT}`;
  if (typeof d.head !== 'string' || !Array.isArray(d.paths) || !Array.isArray(d.sets)) return 'missing head, paths or sets';
  if (!Array.isArray(d.limits) || d.limits[0] !== into.minSize || d.limits[1] !== into.maxSize) return 'kept with other size limits';
  const paths = d.paths as unknown[];
  if (!paths.every((p): p is string => typeof p === 'string')) return 'a path is not a string';
  const decoded: [number, string[]][] = [];
  for (const s of d.sets as unknown[]) {
    if (!Array.isArray(s) || typeof s[0] !== 'number' || !Array.isArray(s[1])) return 'a malformed change set';
    const ids = s[1] as unknown[];
    if (!ids.every((i): i is number => Number.isInteger(i) && (i as number) >= 0 && (i as number) < paths.length)) return 'a change set names an unknown path';
    decoded.push([s[0], ids.map((i) => paths[i as number] as string)]);
  }
  into.clear();
  for (const [time, files] of decoded) into.add(files, time);
  return { head: d.head };
}
