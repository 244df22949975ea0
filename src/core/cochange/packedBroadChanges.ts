import type { BroadChange, BroadChangeSource, BroadChangeStore } from './broadChanges';
import type { PathTable } from './pathTable';
import type { TimeSlice } from '../timeSlice';

/**
 * The large change sets of a model that lives as long as the editor: each set's files as path
 * numbers in one typed array, and which sets touched each file as runs of one list, rebuilt when
 * sets come or go. Answers as {@link BroadChanges} does, in a fraction of its memory.
 */
export class PackedBroadChanges implements BroadChangeSource, BroadChangeStore {
  /** Oldest first; the oldest go beyond maxSets. */
  private sets: { files: Uint32Array; time: number }[] = [];
  /** The sets of file f are setsOf[start[f]] .. setsOf[start[f + 1] - 1], oldest first. */
  private byFile: { start: Uint32Array; setsOf: Uint32Array } | undefined;

  constructor(
    private readonly paths: PathTable,
    readonly minSize: number,
    readonly maxSize: number,
    readonly maxSets: number,
  ) {}

  get size(): number {
    return this.sets.length;
  }

  get byteSize(): number {
    let n = 0;
    for (const s of this.sets) n += s.files.byteLength + 16;
    return n + (this.byFile ? this.byFile.start.byteLength + this.byFile.setsOf.byteLength : 0);
  }

  accepts(size: number): boolean {
    return size >= this.minSize && size <= this.maxSize;
  }

  add(files: readonly string[], time: number): boolean {
    if (!this.accepts(files.length)) return false;
    this.sets.push({ files: Uint32Array.from(files, (f) => this.paths.id(f)), time });
    if (this.sets.length > this.maxSets) this.sets.shift();
    this.byFile = undefined;
    return true;
  }

  /** Adds sets in order (oldest first), a slice at a time: a rebuild adds up to a thousand large ones. */
  async addInSlices(sets: readonly BroadChange[], slice: TimeSlice): Promise<void> {
    for (const b of sets) {
      this.add(b.files, b.time);
      await slice.pause();
    }
  }

  changesOf(path: string, limit: number): BroadChange[] {
    const id = this.paths.find(path);
    const index = this.index();
    if (id === undefined || id + 1 >= index.start.length) return [];
    const out: BroadChange[] = [];
    for (let k = index.start[id + 1] - 1; k >= index.start[id] && out.length < limit; k--)
      out.push(this.expand(index.setsOf[k]));
    return out;
  }

  all(): BroadChange[] {
    return this.sets.map((_, i) => this.expand(i));
  }

  clear(): void {
    this.sets = [];
    this.byFile = undefined;
  }

  private expand(i: number): BroadChange {
    const s = this.sets[i];
    return { files: Array.from(s.files, (f) => this.paths.path(f)), time: s.time };
  }

  private index(): { start: Uint32Array; setsOf: Uint32Array } {
    if (this.byFile) return this.byFile;
    const files = this.paths.size;
    const start = new Uint32Array(files + 1);
    for (const s of this.sets) for (const f of s.files) start[f + 1]++;
    for (let f = 0; f < files; f++) start[f + 1] += start[f];
    const setsOf = new Uint32Array(start[files]);
    const fill = start.slice(0, files);
    this.sets.forEach((s, i) => {
      for (const f of s.files) setsOf[fill[f]++] = i;
    });
    this.byFile = { start, setsOf };
    return this.byFile;
  }
}
