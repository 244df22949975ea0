import { BinaryWriter, CorruptFile, openBinary } from './binaryFile';
import { FileHistory } from './fileHistory';
import { PathTable } from './pathTable';

/*
 * The file-history cache: a header of u32 (magic, format, flags, bytes per commit id, commits,
 * authors, paths, entries), the commit mined up to and the first parent of the oldest commit, the
 * paths and the authors (name, email) joined by NUL (neither can hold one), then the columns of
 * FileHistory, the first commit with line counts, then a SHA-1 (see BinaryWriter). The path table
 * is the one the co-change cache uses.
 */
const MAGIC = 0x48464350;
// 2: merges made by a forge carry the title of what they merged.
const FORMAT = 2;
const SHALLOW = 1;

export interface DecodedHistory {
  history: FileHistory;
  head: string;
  shallow: boolean;
}

export function encodeHistory(history: FileHistory, head: string, shallow: boolean): Buffer[] {
  const c = history.columns;
  const paths = history.paths.all();
  const people = c.authors.flatMap((a, i) => [a, c.emails[i]]);
  return new BinaryWriter()
    .u32(
      MAGIC,
      FORMAT,
      shallow ? SHALLOW : 0,
      c.hashBytes,
      c.times.length,
      c.authors.length,
      paths.length,
      c.entryCommit.length,
    )
    .text(head)
    .text(c.baseParent ?? '')
    .text(paths.join('\0'))
    .text(people.join('\0'))
    .bytes(c.hashes)
    .f64s(c.times)
    .u32s(c.authorOf)
    .u32s(c.subjectStart)
    .bytes(c.subjects)
    .u32s(c.fileStart)
    .u32s(c.entryCommit)
    .u32s(c.entryAdded)
    .u32s(c.entryRemoved)
    .u32(c.countedFrom)
    .finish();
}

/** Reads a cache file, or says why it cannot be used. */
export function decodeHistory(data: Buffer): DecodedHistory | string {
  try {
    const r = openBinary(data, MAGIC, FORMAT, 'file-history cache');
    if (typeof r === 'string') return r;
    const flags = r.u32();
    const hashBytes = r.u32();
    const commits = r.u32();
    const authorCount = r.u32();
    const pathCount = r.u32();
    const entries = r.u32();
    if (hashBytes !== 20 && hashBytes !== 32) return `commit ids of ${hashBytes} bytes`;
    const head = r.text();
    const baseParent = r.text() || undefined;
    const names = r.text();
    const paths = new PathTable();
    if (pathCount) for (const p of names.split('\0')) paths.id(p);
    if (paths.size !== pathCount) return `${paths.size} distinct paths, the header says ${pathCount}`;
    const peopleText = r.text();
    const people = authorCount ? peopleText.split('\0') : [];
    if (people.length !== authorCount * 2) return `${people.length / 2} authors, the header says ${authorCount}`;
    const authors = people.filter((_, i) => i % 2 === 0);
    const emails = people.filter((_, i) => i % 2 === 1);
    const hashes = r.bytes();
    if (hashes.length !== commits * hashBytes) return `${hashes.length} bytes of commit ids for ${commits} commits`;
    const times = r.f64s(commits);
    const authorOf = r.u32s(commits);
    const subjectStart = r.u32s(commits + 1);
    const subjects = r.bytes();
    const fileStart = r.u32s(pathCount + 1);
    const entryCommit = r.u32s(entries);
    const entryAdded = r.u32s(entries);
    const entryRemoved = r.u32s(entries);
    const countedFrom = r.u32();
    if (!r.done) return 'bytes after the last column';
    if (countedFrom > commits) return `line counts from commit ${countedFrom} of ${commits}`;
    const problem = checkColumns(commits, authorCount, subjects.length, {
      authorOf,
      subjectStart,
      fileStart,
      entryCommit,
    });
    if (problem) return problem;
    const history = new FileHistory(paths, {
      hashBytes,
      hashes,
      times,
      authorOf,
      authors,
      emails,
      subjectStart,
      subjects,
      fileStart,
      entryCommit,
      entryAdded,
      entryRemoved,
      baseParent,
      countedFrom,
    });
    if (commits && history.head !== head) return `the newest commit is ${history.head}, the header says ${head}`;
    return { history, head, shallow: (flags & SHALLOW) !== 0 };
  } catch (err) {
    if (err instanceof CorruptFile) return err.message;
    throw err;
  }
}

/** Every number points where it may, so that no query reads past an array. */
function checkColumns(
  commits: number,
  authors: number,
  subjectBytes: number,
  c: { authorOf: Uint32Array; subjectStart: Uint32Array; fileStart: Uint32Array; entryCommit: Uint32Array },
): string | undefined {
  for (let i = 0; i < commits; i++)
    if (c.authorOf[i] >= authors) return `commit ${i} names author ${c.authorOf[i]} of ${authors}`;
  if (c.subjectStart[0] !== 0 || c.subjectStart[commits] !== subjectBytes)
    return 'subject offsets do not cover the subjects';
  for (let i = 0; i < commits; i++)
    if (c.subjectStart[i + 1] < c.subjectStart[i]) return `subject ${i} ends before it starts`;
  const files = c.fileStart.length - 1;
  if (c.fileStart[0] !== 0 || c.fileStart[files] !== c.entryCommit.length) return 'file runs do not cover the entries';
  for (let f = 0; f < files; f++) {
    if (c.fileStart[f + 1] < c.fileStart[f]) return `the run of file ${f} ends before it starts`;
    for (let k = c.fileStart[f]; k < c.fileStart[f + 1]; k++) {
      if (c.entryCommit[k] >= commits) return `an entry names commit ${c.entryCommit[k]} of ${commits}`;
      if (k > c.fileStart[f] && c.entryCommit[k] <= c.entryCommit[k - 1])
        return `the commits of file ${f} are out of order`;
    }
  }
  return undefined;
}
