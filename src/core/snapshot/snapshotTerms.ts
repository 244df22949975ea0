import { nextTurn, type Pause } from './format';
import type { SnapshotParts } from './snapshotParts';
import type { TrustedFile } from './trustUnchanged';

/**
 * The words of each code file (the related-files ranking's term index) as a snapshot entry: without
 * them, a clone that loads a snapshot still reads every code file once to find its words.
 *
 *   { "format": 1, "terms": [word, …], "files": [[path, size, [term index, …]], …] }
 *
 * Each word is written once; a file lists the indexes of its words.
 */
export const TERMS_ENTRY = 'terms.json';
const TERMS_FORMAT = 1;
/** Files whose words are decoded, or given to the ranking, between two turns of the event loop. */
const SEED_SLICE = 500;

export interface FileTerms {
  path: string;
  /** The size of the file the words were read from. */
  size: number;
  terms: readonly string[];
}

export function encodeTerms(files: Iterable<FileTerms>): Buffer {
  const ids = new Map<string, number>();
  const terms: string[] = [];
  const rows: [string, number, number[]][] = [];
  for (const f of files) {
    const list: number[] = [];
    for (const t of f.terms) {
      let id = ids.get(t);
      if (id === undefined) {
        id = terms.length;
        ids.set(t, id);
        terms.push(t);
      }
      list.push(id);
    }
    rows.push([f.path, f.size, list]);
  }
  return Buffer.from(JSON.stringify({ format: TERMS_FORMAT, terms, files: rows }), 'utf8');
}

/**
 * The files' words by path, or why they cannot be read (then every file is read, as without them).
 * The rows are turned into lists a slice of files at a time with a pause between: six thousand
 * files' words held the editor's thread for 100–350 ms in one step (the JSON parse stays one step).
 */
async function decodeTerms(data: Uint8Array, pause: Pause): Promise<Map<string, FileTerms> | string> {
  let parsed: { format?: unknown; terms?: unknown; files?: unknown };
  try {
    parsed = JSON.parse(Buffer.from(data.buffer, data.byteOffset, data.byteLength).toString('utf8')) as typeof parsed;
  } catch {
    return 'not valid JSON';
  }
  if (parsed?.format !== TERMS_FORMAT) return `format ${String(parsed?.format)}`;
  const { terms, files } = parsed;
  if (!Array.isArray(terms) || !Array.isArray(files) || !terms.every((t) => typeof t === 'string'))
    return 'fields missing or of the wrong type';
  const out = new Map<string, FileTerms>();
  let n = 0;
  for (const row of files as unknown[]) {
    if (++n % SEED_SLICE === 0) await pause();
    if (!Array.isArray(row) || row.length !== 3) return 'a file entry of the wrong shape';
    const [path, size, list] = row as [unknown, unknown, unknown];
    if (typeof path !== 'string' || typeof size !== 'number' || !Array.isArray(list))
      return 'a file entry of the wrong type';
    const words: string[] = [];
    for (const id of list as unknown[]) {
      const t = typeof id === 'number' ? terms[id] : undefined;
      if (t === undefined) return `a word index out of range in ${path}`;
      words.push(t);
    }
    out.set(path, { path, size, terms: words });
  }
  return out;
}

/**
 * Gives the ranking the snapshot's words of the files git says are unchanged since its commit (and
 * still of the size they were read at); it then reads only the others. Returns how many were given.
 */
export async function seedTermsFromSnapshot(
  parts: Pick<SnapshotParts, 'history' | 'logger'>,
  entry: Uint8Array | undefined,
  trusted: readonly TrustedFile[],
  pause: Pause = nextTurn,
): Promise<number> {
  if (!entry || !parts.history || !trusted.length) return 0;
  const known = await decodeTerms(entry, pause);
  if (typeof known === 'string') {
    parts.logger.debug(`The snapshot's words of each file are not used (${known}); the files are read.`);
    return 0;
  }
  let seeded = 0;
  // A slice of files at a time: indexing six thousand files' words takes a few hundred ms.
  for (let i = 0; i < trusted.length; i += SEED_SLICE) {
    if (i) await pause();
    const seeds = [];
    for (const f of trusted.slice(i, i + SEED_SLICE)) {
      const t = known.get(f.path);
      if (t && t.size === f.size)
        seeds.push({ path: f.path, terms: t.terms, stamp: { mtimeMs: f.mtimeMs, size: f.size } });
    }
    parts.history.seedTerms(seeds);
    seeded += seeds.length;
  }
  return seeded;
}
