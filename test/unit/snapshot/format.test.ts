import { strict as assert } from 'node:assert';
import { createHash } from 'node:crypto';
import { brotliDecompressSync } from 'node:zlib';
import {
  decodeSnapshot,
  decodeSnapshotAsync,
  encodeSnapshot,
  readHeader,
  SNAPSHOT_FORMAT,
  SnapshotError,
  type SnapshotRefusal,
} from '../../../src/core/snapshot/format';

const META = { productVersion: '1.2.3', commit: 'a'.repeat(40), createdAt: '2026-01-01T00:00:00.000Z', indexSchema: 9 };
const ENTRIES = [
  { name: 'index.db', data: Buffer.from('SQLite format 3\0'.padEnd(4000, 'x')) },
  { name: 'history.bin', data: Buffer.from([1, 2, 3, 4, 5]) },
  { name: 'empty', data: Buffer.alloc(0) },
];

function refused(fn: () => unknown, reason: SnapshotRefusal, message?: RegExp): void {
  assert.throws(fn, (err: unknown) => {
    assert.ok(err instanceof SnapshotError, String(err));
    assert.equal(err.reason, reason, err.message);
    if (message) assert.match(err.message, message);
    return true;
  });
}

/** The file with its header replaced (the body kept), to make headers no release would write. */
function withHeader(file: Buffer, change: (h: Record<string, unknown>) => void): Buffer {
  const length = file.readUInt32BE(8);
  const header = JSON.parse(file.toString('utf8', 12, 12 + length)) as Record<string, unknown>;
  change(header);
  const json = Buffer.from(JSON.stringify(header));
  const len = Buffer.alloc(4);
  len.writeUInt32BE(json.length);
  return Buffer.concat([file.subarray(0, 8), len, json, file.subarray(12 + length)]);
}

describe('team index snapshot format', () => {
  const file = encodeSnapshot(META, ENTRIES);

  it('unpacks off the event loop to the same entries, and refuses a damaged body alike', async () => {
    const got = await decodeSnapshotAsync(file);
    assert.deepEqual(got, decodeSnapshot(file));
    // A byte changed in the compressed body, its hash updated: only unpacking can find it.
    const bad = Buffer.from(file);
    bad[bad.length - 3] ^= 0xff;
    const patched = withHeader(bad, (h) => {
      h.bodySha256 = createHash('sha256')
        .update(bad.subarray(bad.length - (h.bodyBytes as number)))
        .digest('hex');
    });
    await assert.rejects(decodeSnapshotAsync(patched), (err: unknown) => {
      assert.ok(err instanceof SnapshotError, String(err));
      assert.equal(err.reason, 'corrupted');
      return true;
    });
    refused(() => decodeSnapshot(patched), 'corrupted');
  });

  it('round-trips entries, commit, versions and hashes, and compresses', () => {
    const { header, entries } = decodeSnapshot(file);
    assert.equal(header.format, SNAPSHOT_FORMAT);
    assert.equal(header.commit, META.commit);
    assert.equal(header.productVersion, '1.2.3');
    assert.equal(header.indexSchema, 9);
    assert.match(header.contentSha256, /^[0-9a-f]{64}$/);
    assert.deepEqual([...entries.keys()], ['index.db', 'history.bin', 'empty']);
    for (const e of ENTRIES) assert.ok(entries.get(e.name)!.equals(e.data), e.name);
    assert.ok(file.length < 1000, `compressed to ${file.length} bytes`);
    // The body is plain brotli: any tool can look inside.
    assert.equal(brotliDecompressSync(file.subarray(file.length - header.bodyBytes)).length, 4005);
  });

  it('gives the same content hash for the same content', () => {
    const again = encodeSnapshot({ ...META, createdAt: '2027-01-01T00:00:00.000Z' }, ENTRIES);
    assert.equal(readHeader(again).contentSha256, readHeader(file).contentSha256);
  });

  it('refuses a file that is not a snapshot', () => {
    refused(() => decodeSnapshot(Buffer.from('SQLite format 3\0 and more bytes')), 'not-a-snapshot');
    refused(() => decodeSnapshot(Buffer.alloc(0)), 'not-a-snapshot');
    refused(() => decodeSnapshot(withHeader(file, (h) => (h.product = 'other'))), 'not-a-snapshot');
  });

  it('refuses a newer format with a message that says to update', () => {
    refused(
      () => decodeSnapshot(withHeader(file, (h) => (h.format = SNAPSHOT_FORMAT + 1))),
      'newer-format',
      /format 2 .*update Proactive Context/,
    );
  });

  it('refuses a snapshot truncated anywhere', () => {
    for (const cut of [3, 10, 40, file.length - 200, file.length - 1])
      refused(() => decodeSnapshot(file.subarray(0, cut)), 'truncated', /truncated/);
  });

  it('refuses a damaged body, header or trailing bytes', () => {
    const flipped = Buffer.from(file);
    flipped[flipped.length - 5] ^= 0xff;
    refused(() => decodeSnapshot(flipped), 'corrupted', /damaged/);
    const badJson = Buffer.from(file);
    badJson[13] = 0x7b; // '{' where the header's first key starts
    refused(() => decodeSnapshot(badJson), 'corrupted');
    refused(() => decodeSnapshot(Buffer.concat([file, Buffer.from('x')])), 'corrupted', /after its end/);
    refused(() => decodeSnapshot(withHeader(file, (h) => (h.commit = 'HEAD'))), 'corrupted');
  });

  it('refuses a body whose content hash does not match, though the body hash does', () => {
    refused(
      () => decodeSnapshot(withHeader(file, (h) => (h.contentSha256 = '0'.repeat(64)))),
      'corrupted',
      /content hash/,
    );
  });

  it('refuses oversized snapshots before unpacking them', () => {
    refused(() => decodeSnapshot(file, { maxBytes: 100, maxRawBytes: 1e9 }), 'oversized', /too large/);
    refused(() => decodeSnapshot(file, { maxBytes: 1e9, maxRawBytes: 1000 }), 'oversized', /unpacked/);
    // A header that understates the unpacked size does not let a larger body through.
    refused(
      () =>
        decodeSnapshot(
          withHeader(file, (h) => ((h.entries as { bytes: number }[])[0].bytes = 10)),
          { maxBytes: 1e9, maxRawBytes: 1e9 },
        ),
      'corrupted',
    );
  });
});
