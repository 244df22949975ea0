/** A typed array that grows as values are pushed; view() is the filled part. */
class TypedBuilder<T extends Uint32Array | Float64Array> {
  private data: T;
  length = 0;

  constructor(private readonly make: (size: number) => T) {
    this.data = make(256);
  }

  push(v: number): void {
    if (this.length === this.data.length) {
      const next = this.make(this.data.length * 2);
      next.set(this.data);
      this.data = next;
    }
    this.data[this.length++] = v;
  }

  at(i: number): number {
    return this.data[i];
  }

  view(): T {
    return this.data.subarray(0, this.length) as T;
  }
}

export class U32Builder extends TypedBuilder<Uint32Array> {
  constructor() {
    super((n) => new Uint32Array(n));
  }
}

export class F64Builder extends TypedBuilder<Float64Array> {
  constructor() {
    super((n) => new Float64Array(n));
  }
}

/** Bytes appended one piece at a time. */
export class ByteBuilder {
  private data = Buffer.alloc(4096);
  length = 0;

  /** Appends a string as UTF-8 or raw bytes; returns the length after it. */
  append(value: string | Uint8Array): number {
    const bytes = typeof value === 'string' ? Buffer.byteLength(value, 'utf8') : value.length;
    if (this.length + bytes > this.data.length) {
      const next = Buffer.alloc(Math.max(this.length + bytes, this.data.length * 2));
      this.data.copy(next, 0, 0, this.length);
      this.data = next;
    }
    if (typeof value === 'string') this.data.write(value, this.length, 'utf8');
    else this.data.set(value, this.length);
    this.length += bytes;
    return this.length;
  }

  view(): Buffer {
    return this.data.subarray(0, this.length);
  }
}
