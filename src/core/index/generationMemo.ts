/**
 * Answers kept between queries while the index stays as it was. The caller passes the index's
 * generation (IndexState.generation) with each use: when it moved, everything kept is dropped,
 * since a write may have changed any answer (the import graph and the file list change in place).
 * Bounded by a total size, the oldest answer leaving first.
 */
export class GenerationMemo<V> {
  private generation = -1;
  private readonly entries = new Map<string, { value: V; size: number }>();
  private held = 0;

  /** `sizeOf`: what an answer counts against `maxSize` (its bindings, say); 1 by default. */
  constructor(
    private readonly maxSize: number,
    private readonly sizeOf: (value: V) => number = () => 1,
  ) {}

  /** The answer for `key` in this generation: kept, or computed now and kept. */
  get(generation: number, key: string, compute: () => V): V {
    if (generation !== this.generation) {
      this.entries.clear();
      this.held = 0;
      this.generation = generation;
    }
    const hit = this.entries.get(key);
    if (hit) {
      // Used again: the last to leave.
      this.entries.delete(key);
      this.entries.set(key, hit);
      return hit.value;
    }
    const value = compute();
    const size = this.sizeOf(value);
    if (size > this.maxSize) return value;
    for (const [k, e] of this.entries) {
      if (this.held + size <= this.maxSize) break;
      this.entries.delete(k);
      this.held -= e.size;
    }
    this.entries.set(key, { value, size });
    this.held += size;
    return value;
  }

  /** How many answers are kept (for tests). */
  get size(): number {
    return this.entries.size;
  }
}
