import { createHash } from 'node:crypto';
import { endianness } from 'node:os';

const DIGEST_BYTES = 20;
/** Typed arrays in the file start on multiples of 8, so a little-endian reader copies them whole. */
const ALIGN = 8;
const LITTLE_ENDIAN = endianness() === 'LE';

/**
 * Builds a cache file: little-endian numbers, arrays aligned to 8 bytes, and the SHA-1 of everything
 * before it at the end, so that a torn or edited file is recognised as such.
 */
export class BinaryWriter {
  private readonly parts: Buffer[] = [];
  private size = 0;

  u32(...values: number[]): this {
    const b = Buffer.alloc(4 * values.length);
    values.forEach((v, i) => b.writeUInt32LE(v, 4 * i));
    return this.push(b);
  }

  /** A string as its byte length then its UTF-8 bytes. */
  text(value: string): this {
    const bytes = Buffer.from(value, 'utf8');
    return this.u32(bytes.length).push(bytes);
  }

  /** Raw bytes, preceded by their length. */
  bytes(value: Uint8Array): this {
    return this.u32(value.length).push(Buffer.from(value.buffer, value.byteOffset, value.length));
  }

  u32s(values: Uint32Array | Int32Array): this {
    this.pad();
    if (LITTLE_ENDIAN) return this.push(Buffer.from(values.buffer, values.byteOffset, values.byteLength));
    const b = Buffer.alloc(values.byteLength);
    values.forEach((v, i) => b.writeUInt32LE(v >>> 0, 4 * i));
    return this.push(b);
  }

  f64s(values: Float64Array): this {
    this.pad();
    if (LITTLE_ENDIAN) return this.push(Buffer.from(values.buffer, values.byteOffset, values.byteLength));
    const b = Buffer.alloc(values.byteLength);
    values.forEach((v, i) => b.writeDoubleLE(v, 8 * i));
    return this.push(b);
  }

  /**
   * The file as the pieces written and then the digest, to be written one after another: typed
   * arrays are in it as views, so a large cache is never copied whole while it is saved.
   */
  finish(): Buffer[] {
    const hash = createHash('sha1');
    for (const part of this.parts) hash.update(part);
    return [...this.parts, hash.digest()];
  }

  private pad(): void {
    const gap = (ALIGN - (this.size % ALIGN)) % ALIGN;
    if (gap) this.push(Buffer.alloc(gap));
  }

  private push(b: Buffer): this {
    this.parts.push(b);
    this.size += b.length;
    return this;
  }
}

/** Thrown by BinaryReader when the file is not what its header says; the message says why. */
export class CorruptFile extends Error {}

/**
 * A reader past the first two numbers of a file that starts with `magic` and `format`, or why the file
 * is not one to read (another kind of file, another format). A damaged file throws CorruptFile.
 */
export function openBinary(data: Buffer, magic: number, format: number, kind: string): BinaryReader | string {
  if (data.length >= 4 && data.readUInt32LE(0) !== magic) return `not a ${kind}`;
  const r = new BinaryReader(data);
  r.u32();
  const found = r.u32();
  return found === format ? r : `format ${found}, expected ${format}`;
}

/** Reads what BinaryWriter wrote, in the same order; every read is bounds-checked. */
export class BinaryReader {
  private offset = 0;
  private readonly end: number;

  /** Checks the digest first: a reader only ever sees a whole, unedited file. */
  constructor(private readonly data: Buffer) {
    if (data.length < DIGEST_BYTES) throw new CorruptFile('too short');
    this.end = data.length - DIGEST_BYTES;
    const digest = createHash('sha1').update(data.subarray(0, this.end)).digest();
    if (!digest.equals(data.subarray(this.end))) throw new CorruptFile('checksum mismatch');
  }

  get done(): boolean {
    return this.offset === this.end;
  }

  u32(): number {
    this.need(4);
    const v = this.data.readUInt32LE(this.offset);
    this.offset += 4;
    return v;
  }

  text(): string {
    const n = this.u32();
    this.need(n);
    const s = this.data.toString('utf8', this.offset, this.offset + n);
    this.offset += n;
    return s;
  }

  /** A copy of the bytes, so that the file's buffer can be let go. */
  bytes(): Buffer {
    const n = this.u32();
    this.need(n);
    const b = Buffer.from(this.data.subarray(this.offset, this.offset + n));
    this.offset += n;
    return b;
  }

  u32s(count: number): Uint32Array {
    return this.numbers(new Uint32Array(count), 4, (at) => this.data.readUInt32LE(at));
  }

  f64s(count: number): Float64Array {
    return this.numbers(new Float64Array(count), 8, (at) => this.data.readDoubleLE(at));
  }

  /** Fills `out` from the next aligned array: one copy when the bytes are in place, else number by number. */
  private numbers<T extends Uint32Array | Float64Array>(out: T, width: number, read: (at: number) => number): T {
    const at = this.array(out.length * width);
    if (LITTLE_ENDIAN && (this.data.byteOffset + at) % width === 0)
      out.set(
        new (out.constructor as new (b: ArrayBufferLike, o: number, n: number) => T)(
          this.data.buffer,
          this.data.byteOffset + at,
          out.length,
        ),
      );
    else for (let i = 0; i < out.length; i++) out[i] = read(at + width * i);
    return out;
  }

  private array(bytes: number): number {
    this.offset += (ALIGN - (this.offset % ALIGN)) % ALIGN;
    this.need(bytes);
    const at = this.offset;
    this.offset += bytes;
    return at;
  }

  private need(bytes: number): void {
    if (!Number.isSafeInteger(bytes) || bytes < 0 || this.offset + bytes > this.end)
      throw new CorruptFile(`ends before byte ${this.offset + bytes} of ${this.end}`);
  }
}
