import { readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { decodeHistory } from '../cochange/fileHistoryCodec';
import { runGit } from '../git/gitExec';
import { userVersion } from '../store/migrations';
import { loadSqlJs, runEach } from '../store/sqlite';
import { writeFileAtomic } from '../store/atomicFile';
import { encodeSnapshot, sha256, type SnapshotEntryInfo } from './format';
import { encodeTerms, TERMS_ENTRY } from './snapshotTerms';
import { BROAD_FILE, COCHANGE_FILE, HISTORY_FILE, INDEX_ENTRY, type SnapshotParts } from './snapshotParts';

export interface ExportResult {
  file: string;
  /** The published hash, written beside the file as FILE.sha256 (the `sha256sum` format). */
  sha256File: string;
  commit: string;
  bytes: number;
  sha256: string;
  rawBytes: number;
  entries: SnapshotEntryInfo[];
  ms: number;
}

/** The index is not in a state worth sharing (history not mined to HEAD, a shallow clone). */
export class ExportError extends Error {}

/**
 * Writes a snapshot of the index at HEAD: the code index and the mined history, never the durable
 * data (subscriptions, feedback, memory live in another file). Call after the index is refreshed.
 */
export async function exportSnapshot(
  parts: SnapshotParts,
  file: string,
  productVersion: string,
  now: () => number = Date.now,
): Promise<ExportResult> {
  const started = performance.now();
  const rev = await runGit(['rev-parse', '--verify', '--end-of-options', 'HEAD^{commit}'], {
    cwd: parts.root,
    timeoutMs: 10_000,
  });
  const head = rev.stdout.trim();
  if (!rev.ok || !head)
    throw new ExportError(`${parts.root} has no commit to export an index of (git rev-parse HEAD failed).`);
  const state = parts.cochange.repoState;
  if (state?.shallow)
    throw new ExportError(
      `${parts.root} is a shallow clone: a snapshot of it would lack most of the history. Clone the whole history (actions/checkout with fetch-depth: 0).`,
    );
  if (parts.cochange.lastMined !== head)
    throw new ExportError(
      `The history is mined up to ${parts.cochange.lastMined?.slice(0, 12) ?? 'no commit'}, not HEAD ${head.slice(0, 12)}${state?.reason ? ` (${state.reason})` : ''}; nothing was exported.`,
    );
  // What is pending reaches the files first; the history cache is saved by each mining pass.
  parts.store.flush();
  const history = readFileSync(join(parts.stateDir, HISTORY_FILE));
  const decoded = decodeHistory(history);
  if (typeof decoded === 'string' || decoded.head !== head)
    throw new ExportError(
      `The history cache in ${parts.stateDir} is not at HEAD ${head.slice(0, 12)}${typeof decoded === 'string' ? ` (${decoded})` : ''}; nothing was exported.`,
    );
  const local = await filesNotAtHead(parts.root);
  const entries = [
    { name: INDEX_ENTRY, data: await portableIndex(parts.store.index.export(), local) },
    { name: HISTORY_FILE, data: history },
    { name: COCHANGE_FILE, data: readFileSync(join(parts.stateDir, COCHANGE_FILE)) },
    { name: BROAD_FILE, data: readFileSync(join(parts.stateDir, BROAD_FILE)) },
  ];
  const terms = parts.history?.termFiles();
  if (terms) entries.push({ name: TERMS_ENTRY, data: encodeTerms(terms.filter((f) => !local.has(f.path))) });
  const indexSchema = await schemaOf(entries[0].data);
  const data = encodeSnapshot(
    { productVersion, commit: head, createdAt: new Date(now()).toISOString(), indexSchema },
    entries,
  );
  const hash = sha256(data);
  writeFileAtomic(file, data);
  const sha256File = `${file}.sha256`;
  writeFileAtomic(sha256File, Buffer.from(`${hash}  ${basename(file)}\n`, 'utf8'));
  parts.logger.info(`Exported the index at ${head.slice(0, 12)} to ${file} (${data.length} bytes).`);
  return {
    file,
    sha256File,
    commit: head,
    bytes: data.length,
    sha256: hash,
    rawBytes: entries.reduce((n, e) => n + e.data.length, 0),
    entries: entries.map((e) => ({ name: e.name, bytes: e.data.length, sha256: sha256(e.data) })),
    ms: Math.round(performance.now() - started),
  };
}

/**
 * The index cache without what belongs to this machine: file times (a clone's differ; zero makes
 * the importer hash every file once, so its own edits are never taken for unchanged) and the time
 * each file was indexed. Vacuumed, so freed pages do not travel.
 */
async function portableIndex(data: Uint8Array, local: ReadonlySet<string>): Promise<Uint8Array> {
  const SQL = await loadSqlJs();
  const db = new SQL.Database(data);
  try {
    db.run('UPDATE files SET mtime = 0, indexed_at = 0');
    // No file has size -1: an importer never takes these for unchanged, and reads them.
    runEach(
      db,
      'UPDATE files SET size = -1 WHERE path = ?',
      [...local].map((p) => [p]),
    );
    db.exec('VACUUM');
    return db.export();
  } finally {
    db.close();
  }
}

/**
 * The files that differ here from HEAD (uncommitted edits, untracked files): they were indexed as
 * they are on this disk, which no importer can check against the commit, so they travel untrusted.
 */
async function filesNotAtHead(root: string): Promise<Set<string>> {
  const status = await runGit(['status', '--porcelain=v1', '-z', '--untracked-files=all', '--no-renames'], {
    cwd: root,
    timeoutMs: 60_000,
  });
  if (!status.ok)
    throw new ExportError(
      `Could not tell which files of ${root} differ from HEAD (git status: ${status.failure ?? status.stderr.trim()}); nothing was exported.`,
    );
  // Each entry is "XY path"; without renames there is no second path.
  return new Set(
    status.stdout
      .split('\0')
      .filter((e) => e.length > 3)
      .map((e) => e.slice(3)),
  );
}

async function schemaOf(data: Uint8Array): Promise<number> {
  const SQL = await loadSqlJs();
  const db = new SQL.Database(data);
  try {
    return userVersion(db);
  } finally {
    db.close();
  }
}
