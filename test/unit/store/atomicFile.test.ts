import { strict as assert } from 'node:assert';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BinaryReader, BinaryWriter, CorruptFile } from '../../../src/core/cochange/binaryFile';
import { writeFileAtomic } from '../../../src/core/store/atomicFile';

describe('writeFileAtomic', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'pc-atomic-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('writes pieces one after another as one file, and leaves no temp file', () => {
    const path = join(dir, 'cache.bin');
    writeFileAtomic(path, [Buffer.from('ab'), new Uint8Array(0), Buffer.from('cde')]);
    assert.equal(readFileSync(path, 'utf8'), 'abcde');
    writeFileAtomic(path, Buffer.from('xyz'));
    assert.equal(readFileSync(path, 'utf8'), 'xyz');
    assert.deepEqual(readdirSync(dir), ['cache.bin']);
  });

  it('saves a cache written in pieces that reads back whole, and a torn one is refused', () => {
    const path = join(dir, 'cache.bin');
    const values = Uint32Array.from([1, 2, 3, 0xffffffff]);
    const times = Float64Array.from([0.5, 1e12]);
    writeFileAtomic(path, new BinaryWriter().u32(7).text('héad').u32s(values).f64s(times).finish());
    const data = readFileSync(path);
    const r = new BinaryReader(data);
    assert.equal(r.u32(), 7);
    assert.equal(r.text(), 'héad');
    assert.deepEqual(r.u32s(4), values);
    assert.deepEqual(r.f64s(2), times);
    assert.ok(r.done);
    assert.throws(() => new BinaryReader(data.subarray(0, data.length - 1)), CorruptFile);
  });
});
