import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { brotliCompressSync, brotliDecompress, brotliDecompressSync, constants as zlib } from 'node:zlib';

/**
 * A team index snapshot: the index cache and the history cache of one commit, in one file.
 *
 *   magic (8 bytes) | header length (u32 BE) | header (JSON) | body (brotli)
 *
 * The header is readable without decompressing anything, so a newer format, a wrong product or an
 * oversized body is refused before any work. The body is the entries one after another; the header
 * gives each entry's length and SHA-256, and the SHA-256 of the whole compressed body, so that a
 * truncated or damaged file is told apart from a foreign one.
 */
export const SNAPSHOT_FORMAT = 1;
/** `\r\n` and the high byte catch a transfer in text mode, as PNG's signature does. */
const MAGIC = Buffer.from([0x89, 0x50, 0x43, 0x53, 0x4e, 0x50, 0x0d, 0x0a]); // \x89PCSNP\r\n
const MAX_HEADER_BYTES = 64 * 1024;
export const PRODUCT = 'proactive-context';

export interface SnapshotEntryInfo {
  name: string;
  bytes: number;
  sha256: string;
}

export interface SnapshotHeader {
  format: number;
  product: string;
  productVersion: string;
  /** The commit the history cache was mined to (HEAD when the snapshot was made). */
  commit: string;
  createdAt: string;
  /** The index cache's schema version (the number of index migrations it has applied). */
  indexSchema: number;
  compression: 'br';
  /** Length and SHA-256 of the compressed body. */
  bodyBytes: number;
  bodySha256: string;
  /** SHA-256 over the uncompressed entries in order: the same content gives the same hash. */
  contentSha256: string;
  entries: SnapshotEntryInfo[];
}

export type SnapshotRefusal =
  | 'not-a-snapshot'
  | 'newer-format'
  | 'truncated'
  | 'corrupted'
  | 'oversized'
  | 'hash-mismatch'
  | 'unknown-commit'
  | 'not-an-ancestor'
  | 'newer-schema'
  | 'shallow'
  | 'unreadable'
  | 'not-found'
  | 'download-failed'
  | 'unauthorized'
  | 'timeout'
  | 'insecure-url';

/** A snapshot that cannot be used, and why; the message says what to do. */
export class SnapshotError extends Error {
  constructor(
    readonly reason: SnapshotRefusal,
    message: string,
  ) {
    super(message);
  }
}

export interface SnapshotLimits {
  /** Largest snapshot file accepted. */
  maxBytes: number;
  /** Largest total of the uncompressed entries (a decompression bomb stops here). */
  maxRawBytes: number;
}

export const DEFAULT_LIMITS: SnapshotLimits = { maxBytes: 512 * 1024 * 1024, maxRawBytes: 2 * 1024 * 1024 * 1024 };

/** Bytes hashed between two turns of the event loop (a millisecond or two of work). */
const HASH_SLICE = 1 << 20;

/** A pause between slices of work: a turn of the event loop, unless a test counts them. */
export type Pause = () => Promise<void>;
export const nextTurn: Pause = () => new Promise<void>((resolve) => setImmediate(resolve));

/** As sha256, a slice at a time with a pause between: a snapshot is tens of megabytes. */
export async function sha256InTurns(data: Uint8Array, pause: Pause = nextTurn): Promise<string> {
  const h = createHash('sha256');
  for (let at = 0; at < data.length; at += HASH_SLICE) {
    if (at) await pause();
    h.update(data.subarray(at, at + HASH_SLICE));
  }
  return h.digest('hex');
}

export function sha256(data: Uint8Array | readonly Uint8Array[]): string {
  const h = createHash('sha256');
  for (const piece of data instanceof Uint8Array ? [data] : data) h.update(piece);
  return h.digest('hex');
}

/** Builds the snapshot file from its entries. */
export function encodeSnapshot(
  meta: Pick<SnapshotHeader, 'productVersion' | 'commit' | 'createdAt' | 'indexSchema'>,
  entries: readonly { name: string; data: Uint8Array }[],
): Buffer {
  const raw = entries.map((e) => e.data);
  // A large window and a middle quality: SQLite pages compress well, and quality 11 takes minutes.
  const body = brotliCompressSync(Buffer.concat(raw), {
    params: {
      [zlib.BROTLI_PARAM_QUALITY]: 7,
      [zlib.BROTLI_PARAM_LGWIN]: 24,
      [zlib.BROTLI_PARAM_SIZE_HINT]: raw.reduce((n, d) => n + d.length, 0),
    },
  });
  const header: SnapshotHeader = {
    format: SNAPSHOT_FORMAT,
    product: PRODUCT,
    ...meta,
    compression: 'br',
    bodyBytes: body.length,
    bodySha256: sha256(body),
    contentSha256: sha256(raw),
    entries: entries.map((e) => ({ name: e.name, bytes: e.data.length, sha256: sha256(e.data) })),
  };
  const json = Buffer.from(JSON.stringify(header), 'utf8');
  const length = Buffer.alloc(4);
  length.writeUInt32BE(json.length);
  return Buffer.concat([MAGIC, length, json, body]);
}

/** Reads and checks the header alone; throws SnapshotError when the file is not one this version can use. */
export function readHeader(data: Buffer, limits: SnapshotLimits = DEFAULT_LIMITS): SnapshotHeader {
  if (data.length < MAGIC.length + 4) {
    const n = Math.min(data.length, MAGIC.length);
    if (n > 0 && MAGIC.subarray(0, n).equals(data.subarray(0, n)))
      throw new SnapshotError('truncated', `the snapshot is truncated (${data.length} bytes, its header is missing)`);
    throw new SnapshotError('not-a-snapshot', 'the file is not a Proactive Context index snapshot');
  }
  if (!data.subarray(0, MAGIC.length).equals(MAGIC))
    throw new SnapshotError('not-a-snapshot', 'the file is not a Proactive Context index snapshot');
  const length = data.readUInt32BE(MAGIC.length);
  if (length > MAX_HEADER_BYTES)
    throw new SnapshotError('corrupted', `the snapshot header claims ${length} bytes; it is damaged`);
  const start = MAGIC.length + 4;
  if (data.length < start + length)
    throw new SnapshotError('truncated', `the snapshot is truncated (${data.length} bytes, within its header)`);
  let header: SnapshotHeader;
  try {
    header = JSON.parse(data.toString('utf8', start, start + length)) as SnapshotHeader;
  } catch {
    throw new SnapshotError('corrupted', 'the snapshot header is damaged (not valid JSON)');
  }
  if (!header || typeof header !== 'object' || header.product !== PRODUCT)
    throw new SnapshotError('not-a-snapshot', 'the file is not a Proactive Context index snapshot');
  if (typeof header.format !== 'number' || header.format > SNAPSHOT_FORMAT)
    throw new SnapshotError(
      'newer-format',
      `the snapshot is in format ${String(header.format)} (made by Proactive Context ${String(header.productVersion)}); this version reads format ${SNAPSHOT_FORMAT} only: update Proactive Context`,
    );
  if (header.format < SNAPSHOT_FORMAT || !validHeader(header))
    throw new SnapshotError('corrupted', 'the snapshot header is damaged (fields missing or of the wrong type)');
  const rawBytes = header.entries.reduce((n, e) => n + e.bytes, 0);
  if (data.length > limits.maxBytes || header.bodyBytes > limits.maxBytes || rawBytes > limits.maxRawBytes)
    throw new SnapshotError(
      'oversized',
      `the snapshot is too large (${mb(Math.max(data.length, header.bodyBytes))} compressed, ${mb(rawBytes)} unpacked; the limits are ${mb(limits.maxBytes)} and ${mb(limits.maxRawBytes)})`,
    );
  const got = data.length - start - length;
  if (got < header.bodyBytes)
    throw new SnapshotError('truncated', `the snapshot is truncated (${got} of ${header.bodyBytes} body bytes)`);
  if (got > header.bodyBytes)
    throw new SnapshotError('corrupted', `the snapshot has ${got - header.bodyBytes} bytes after its end`);
  return header;
}

/** Checks every hash and unpacks the entries by name. */
export function decodeSnapshot(
  data: Buffer,
  limits: SnapshotLimits = DEFAULT_LIMITS,
): { header: SnapshotHeader; entries: Map<string, Buffer> } {
  const { header, body, rawBytes } = checkedBody(data, limits);
  let raw: Buffer;
  try {
    raw = brotliDecompressSync(body, { maxOutputLength: rawBytes });
  } catch (err) {
    throw damaged(err);
  }
  return { header, entries: checkedEntries(header, raw) };
}

/**
 * As decodeSnapshot, unpacking off the event loop and hashing a slice at a time: an editor opening a
 * repository keeps answering while tens of megabytes are unpacked and checked.
 */
export async function decodeSnapshotAsync(
  data: Buffer,
  limits: SnapshotLimits = DEFAULT_LIMITS,
  pause: Pause = nextTurn,
): Promise<{ header: SnapshotHeader; entries: Map<string, Buffer> }> {
  const header = readHeader(data, limits);
  const body = data.subarray(data.length - header.bodyBytes);
  if ((await sha256InTurns(body, pause)) !== header.bodySha256) throw bodyMismatch();
  const rawBytes = Math.max(
    1,
    header.entries.reduce((n, e) => n + e.bytes, 0),
  );
  let raw: Buffer;
  try {
    raw = await brotliDecompressAsync(body, { maxOutputLength: rawBytes });
  } catch (err) {
    throw damaged(err);
  }
  checkLength(header, raw);
  // The content's hash and each entry's in one pass over the unpacked bytes.
  const content = createHash('sha256');
  const entries = new Map<string, Buffer>();
  let at = 0;
  for (const e of header.entries) {
    const piece = raw.subarray(at, at + e.bytes);
    at += e.bytes;
    const own = createHash('sha256');
    for (let i = 0; i < piece.length; i += HASH_SLICE) {
      const slice = piece.subarray(i, i + HASH_SLICE);
      content.update(slice);
      own.update(slice);
      await pause();
    }
    if (own.digest('hex') !== e.sha256) throw entryMismatch(e.name);
    entries.set(e.name, piece);
  }
  if (content.digest('hex') !== header.contentSha256) throw contentMismatch();
  return { header, entries };
}

const brotliDecompressAsync = promisify(brotliDecompress);

function damaged(err: unknown): SnapshotError {
  return new SnapshotError('corrupted', `the snapshot is damaged (${(err as Error).message})`);
}

/** The header, checked, and the compressed body once it matches its hash. */
function checkedBody(data: Buffer, limits: SnapshotLimits): { header: SnapshotHeader; body: Buffer; rawBytes: number } {
  const header = readHeader(data, limits);
  const body = data.subarray(data.length - header.bodyBytes);
  if (sha256(body) !== header.bodySha256) throw bodyMismatch();
  const rawBytes = header.entries.reduce((n, e) => n + e.bytes, 0);
  return { header, body, rawBytes: Math.max(1, rawBytes) };
}

/** The unpacked content split into its entries, each checked against its hash. */
function checkedEntries(header: SnapshotHeader, raw: Buffer): Map<string, Buffer> {
  checkLength(header, raw);
  if (sha256(raw) !== header.contentSha256) throw contentMismatch();
  const entries = new Map<string, Buffer>();
  let at = 0;
  for (const e of header.entries) {
    const piece = raw.subarray(at, at + e.bytes);
    at += e.bytes;
    if (sha256(piece) !== e.sha256) throw entryMismatch(e.name);
    entries.set(e.name, piece);
  }
  return entries;
}

function checkLength(header: SnapshotHeader, raw: Buffer): void {
  const rawBytes = header.entries.reduce((n, e) => n + e.bytes, 0);
  if (raw.length !== rawBytes)
    throw new SnapshotError('corrupted', `the snapshot is damaged (${raw.length} of ${rawBytes} bytes unpacked)`);
}

const bodyMismatch = () =>
  new SnapshotError('corrupted', 'the snapshot is damaged (its body does not match the hash in its header)');
const contentMismatch = () =>
  new SnapshotError('corrupted', 'the snapshot is damaged (its content does not match its content hash)');
const entryMismatch = (name: string) =>
  new SnapshotError('corrupted', `the snapshot is damaged (${name} does not match its hash)`);

function validHeader(h: SnapshotHeader): boolean {
  return (
    typeof h.commit === 'string' &&
    /^[0-9a-f]{40}([0-9a-f]{24})?$/.test(h.commit) &&
    typeof h.productVersion === 'string' &&
    typeof h.indexSchema === 'number' &&
    h.compression === 'br' &&
    Number.isSafeInteger(h.bodyBytes) &&
    h.bodyBytes >= 0 &&
    typeof h.bodySha256 === 'string' &&
    typeof h.contentSha256 === 'string' &&
    Array.isArray(h.entries) &&
    h.entries.every(
      (e) =>
        e &&
        typeof e.name === 'string' &&
        Number.isSafeInteger(e.bytes) &&
        e.bytes >= 0 &&
        typeof e.sha256 === 'string',
    )
  );
}

export function mb(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}
