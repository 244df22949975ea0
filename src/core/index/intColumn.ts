/**
 * A growable column of 32-bit integers, -1 where nothing was stored: a quarter of what an array of
 * numbers costs once it holds tens of thousands of values, and no per-row object.
 */
export class IntColumn {
  private data: Int32Array;
  length = 0;

  constructor(capacity = 1024) {
    this.data = new Int32Array(capacity).fill(-1);
  }

  get(i: number): number {
    return i < this.data.length ? this.data[i] : -1;
  }

  set(i: number, v: number): void {
    if (i >= this.data.length) {
      let size = this.data.length * 2;
      while (size <= i) size *= 2;
      const next = new Int32Array(size).fill(-1);
      next.set(this.data);
      this.data = next;
    }
    this.data[i] = v;
    if (i >= this.length) this.length = i + 1;
  }

  push(v: number): void {
    this.set(this.length, v);
  }
}
