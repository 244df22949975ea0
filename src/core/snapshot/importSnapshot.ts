import { join } from 'node:path';
import { decodeHistory, type DecodedHistory } from '../cochange/fileHistoryCodec';
import { runGit } from '../git/gitExec';
import { writeFileAtomicAsync } from '../store/atomicFile';
import { indexMigrations, userVersion } from '../store/migrations';
import { loadSqlJs, type Database } from '../store/sqlite';
import {
  decodeSnapshotAsync,
  nextTurn,
  sha256InTurns,
  SnapshotError,
  type Pause,
  type SnapshotHeader,
  type SnapshotLimits,
} from './format';
import { BROAD_FILE, COCHANGE_FILE, HISTORY_FILE, INDEX_ENTRY, type SnapshotParts } from './snapshotParts';

/** A snapshot that passed every check, ready to be put in place. */
export interface VerifiedSnapshot {
  header: SnapshotHeader;
  entries: Map<string, Buffer>;
  sha256: string;
  /** The index as checked, open: the store takes it rather than reading and checking the file again. */
  index: Database;
  /** The history as checked, decoded once. */
  history: DecodedHistory;
}

const GIT_TIMEOUT_MS = 10_000;

/**
 * Checks a snapshot before anything is written: the published hash, the format, every hash inside,
 * the index schema, the history cache, and that its commit is in the history of this clone's HEAD.
 * Throws SnapshotError with a reason a user can act on.
 */
export async function verifySnapshot(
  data: Buffer,
  root: string,
  options: { published?: string; limits: SnapshotLimits; signal?: AbortSignal; pause?: Pause },
): Promise<VerifiedSnapshot> {
  const pause = options.pause ?? nextTurn;
  const hash = await sha256InTurns(data, pause);
  if (options.published && options.published.toLowerCase() !== hash)
    throw new SnapshotError(
      'hash-mismatch',
      `the snapshot's SHA-256 ${hash.slice(0, 16)}… does not match the published ${options.published.slice(0, 16)}…; it was changed or damaged on the way`,
    );
  const { header, entries } = await decodeSnapshotAsync(data, options.limits, pause);
  for (const name of [INDEX_ENTRY, HISTORY_FILE, COCHANGE_FILE, BROAD_FILE])
    if (!entries.has(name)) throw new SnapshotError('corrupted', `the snapshot has no ${name}`);
  if (header.indexSchema > indexMigrations.length)
    throw new SnapshotError(
      'newer-schema',
      `the snapshot's index is in schema ${header.indexSchema} (made by Proactive Context ${header.productVersion}); this version knows up to ${indexMigrations.length}: update Proactive Context`,
    );
  const index = await checkIndex(entries.get(INDEX_ENTRY)!, header.indexSchema);
  try {
    const history = await checkHistory(entries.get(HISTORY_FILE)!, header);
    await checkCommit(root, header.commit, options.signal);
    return { header, entries, sha256: hash, index, history };
  } catch (err) {
    index.close();
    throw err;
  }
}

async function checkHistory(data: Buffer, header: SnapshotHeader): Promise<DecodedHistory> {
  await nextTurn();
  const history = decodeHistory(data);
  if (typeof history === 'string')
    throw new SnapshotError(
      history.startsWith('format ') ? 'newer-format' : 'corrupted',
      `the snapshot's history cannot be read by this version (${history})`,
    );
  if (history.head !== header.commit)
    throw new SnapshotError(
      'corrupted',
      `the snapshot's history is at ${history.head.slice(0, 12)}, its header says ${header.commit.slice(0, 12)}`,
    );
  if (history.shallow)
    throw new SnapshotError('shallow', 'the snapshot was made from a shallow clone and lacks most of the history');
  return history;
}

/** The snapshot's index, opened and checked whole; closed when it is not sound. */
async function checkIndex(data: Buffer, schema: number): Promise<Database> {
  const SQL = await loadSqlJs();
  let db;
  try {
    db = new SQL.Database(data);
    const rows = db.exec('PRAGMA quick_check(5)');
    const first = String(rows[0]?.values[0]?.[0] ?? '');
    if (first !== 'ok') throw new Error(`integrity check: ${first || 'no answer'}`);
    const version = userVersion(db);
    if (version !== schema) throw new Error(`schema ${version}, the header says ${schema}`);
    return db;
  } catch (err) {
    db?.close();
    throw new SnapshotError('corrupted', `the snapshot's index is damaged (${(err as Error).message})`);
  }
}

/** The commit must be this clone's HEAD or one of its ancestors: history is caught up from there. */
async function checkCommit(root: string, commit: string, signal?: AbortSignal): Promise<void> {
  const short = commit.slice(0, 12);
  const known = await runGit(['cat-file', '-e', '--end-of-options', `${commit}^{commit}`], {
    cwd: root,
    timeoutMs: GIT_TIMEOUT_MS,
    signal,
  });
  if (known.failure === 'timeout' || known.failure === 'aborted' || known.failure === 'git-missing')
    throw new SnapshotError(
      'unknown-commit',
      `could not ask git about the snapshot's commit ${short} (${known.failure})`,
    );
  if (!known.ok)
    throw new SnapshotError(
      'unknown-commit',
      `the snapshot's commit ${short} is not in this clone's history: fetch it (git fetch), or use a snapshot of a commit this clone has`,
    );
  const anc = await runGit(['merge-base', '--is-ancestor', commit, 'HEAD'], {
    cwd: root,
    timeoutMs: GIT_TIMEOUT_MS,
    signal,
  });
  if (!anc.ok)
    throw new SnapshotError(
      'not-an-ancestor',
      anc.code === 1
        ? `the snapshot's commit ${short} is not an ancestor of HEAD (another branch, or a rewritten history): use the snapshot of the nearest ancestor`
        : `could not check that the snapshot's commit ${short} is an ancestor of HEAD (${anc.failure ?? anc.stderr.trim()})`,
    );
}

/**
 * Puts a verified snapshot in place of the index and history caches (written off the event loop), and
 * hands the store and the co-change model what verifying it already opened and decoded. Only the
 * rebuildable caches are written: the durable database (subscriptions, feedback, memory) is never
 * touched. The caller makes sure no index build or mining pass runs meanwhile.
 */
export async function applySnapshot(parts: SnapshotParts, snapshot: VerifiedSnapshot): Promise<void> {
  const entry = (name: string) => snapshot.entries.get(name)!;
  const put = (name: string) => writeFileAtomicAsync(join(parts.stateDir, name), entry(name));
  try {
    // Written as the history cache writes itself: history.bin last, so a stop between leaves files that
    // disagree, and disagreeing files are mined again rather than used.
    await put(BROAD_FILE);
    await put(COCHANGE_FILE);
    await put(HISTORY_FILE);
    // Last, and taken at once: a save of the cache loaded before, due meanwhile, cannot land after it.
    await put(INDEX_ENTRY);
  } catch (err) {
    snapshot.index.close();
    throw err;
  }
  const adopted = parts.store.adoptIndex(snapshot.index);
  parts.cochange.reload({ history: snapshot.history, counts: entry(COCHANGE_FILE), broad: entry(BROAD_FILE) });
  await adopted;
}
