import { BinaryWriter, CorruptFile, openBinary } from './binaryFile';
import { MAX_CHANGE_SET } from './cochangeCounts';
import { PackedCounts } from './packedCounts';
import type { PathTable } from './pathTable';

/*
 * The co-change cache file: a header of u32 (magic, format, largest change set counted, commits
 * counted, files, pairs), the commit mined up to, per file (u32 commits, f64 last time) by path
 * number, per pair (u32 a, u32 b, u32 count, f64 last time) as columns, then a SHA-1 (see BinaryWriter).
 * Paths are numbers in the path table that the file history's cache holds; both name the same commit.
 */
const MAGIC = 0x50434343;
const FORMAT = 2;

export function encodeCounts(counts: PackedCounts, head: string): Buffer[] {
  const c = counts.columns();
  return new BinaryWriter()
    .u32(MAGIC, FORMAT, counts.maxChangeSet, counts.commitCount, counts.fileCount, counts.pairSize)
    .text(head)
    .u32s(c.commits)
    .f64s(c.last)
    .u32s(c.pairA)
    .u32s(c.pairB)
    .u32s(c.pairCount)
    .f64s(c.pairLast)
    .finish();
}

/** Reads a cache file against the path table it was saved with, or says why it cannot be used. */
export function decodeCounts(
  data: Buffer,
  paths: PathTable,
  maxChangeSet = MAX_CHANGE_SET,
): { counts: PackedCounts; head: string } | string {
  try {
    const r = openBinary(data, MAGIC, FORMAT, 'co-change cache');
    if (typeof r === 'string') return r;
    const counted = r.u32();
    if (counted !== maxChangeSet) return `counted change sets up to ${counted} files, now ${maxChangeSet}`;
    const commitCount = r.u32();
    const fileCount = r.u32();
    const pairCount = r.u32();
    const head = r.text();
    if (fileCount > paths.size) return `${fileCount} files, the path table has ${paths.size}`;
    const commits = r.u32s(fileCount);
    const last = r.f64s(fileCount);
    const pairA = new Int32Array(r.u32s(pairCount).buffer);
    const pairB = new Int32Array(r.u32s(pairCount).buffer);
    const pairCounts = new Int32Array(r.u32s(pairCount).buffer);
    const pairLast = r.f64s(pairCount);
    if (!r.done) return 'bytes after the last pair';
    for (let i = 0; i < pairCount; i++) {
      const a = pairA[i];
      const b = pairB[i];
      if (a < 0 || b < 0 || a >= fileCount || b >= fileCount || a === b)
        return `pair ${i} names file ${Math.max(a, b)} of ${fileCount}`;
    }
    return {
      counts: PackedCounts.fromColumns(maxChangeSet, paths, commitCount, {
        commits,
        last,
        pairA,
        pairB,
        pairCount: pairCounts,
        pairLast,
      }),
      head,
    };
  } catch (err) {
    if (err instanceof CorruptFile) return err.message;
    throw err;
  }
}
