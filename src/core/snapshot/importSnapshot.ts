import { join } from 'node:path';
import { decodeHistory } from '../cochange/fileHistoryCodec';
import { runGit } from '../git/gitExec';
import { writeFileAtomic } from '../store/atomicFile';
import { indexMigrations, userVersion } from '../store/migrations';
import { loadSqlJs } from '../store/sqlite';
import { decodeSnapshotAsync, sha256, SnapshotError, type SnapshotHeader, type SnapshotLimits } from './format';
import { BROAD_FILE, COCHANGE_FILE, HISTORY_FILE, INDEX_ENTRY, type SnapshotParts } from './snapshotParts';

/** A snapshot that passed every check, ready to be put in place. */
export interface VerifiedSnapshot {
  header: SnapshotHeader;
  entries: Map<string, Buffer>;
  sha256: string;
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
  options: { published?: string; limits: SnapshotLimits; signal?: AbortSignal },
): Promise<VerifiedSnapshot> {
  const hash = sha256(data);
  if (options.published && options.published.toLowerCase() !== hash)
    throw new SnapshotError(
      'hash-mismatch',
      `the snapshot's SHA-256 ${hash.slice(0, 16)}… does not match the published ${options.published.slice(0, 16)}…; it was changed or damaged on the way`,
    );
  const { header, entries } = await decodeSnapshotAsync(data, options.limits);
  for (const name of [INDEX_ENTRY, HISTORY_FILE, COCHANGE_FILE, BROAD_FILE])
    if (!entries.has(name)) throw new SnapshotError('corrupted', `the snapshot has no ${name}`);
  if (header.indexSchema > indexMigrations.length)
    throw new SnapshotError(
      'newer-schema',
      `the snapshot's index is in schema ${header.indexSchema} (made by Proactive Context ${header.productVersion}); this version knows up to ${indexMigrations.length}: update Proactive Context`,
    );
  await checkIndex(entries.get(INDEX_ENTRY)!, header.indexSchema);
  const history = decodeHistory(entries.get(HISTORY_FILE)!);
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
  await checkCommit(root, header.commit, options.signal);
  return { header, entries, sha256: hash };
}

async function checkIndex(data: Buffer, schema: number): Promise<void> {
  const SQL = await loadSqlJs();
  let db;
  try {
    db = new SQL.Database(data);
    const rows = db.exec('PRAGMA quick_check(5)');
    const first = String(rows[0]?.values[0]?.[0] ?? '');
    if (first !== 'ok') throw new Error(`integrity check: ${first || 'no answer'}`);
    const version = userVersion(db);
    if (version !== schema) throw new Error(`schema ${version}, the header says ${schema}`);
  } catch (err) {
    throw new SnapshotError('corrupted', `the snapshot's index is damaged (${(err as Error).message})`);
  } finally {
    db?.close();
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
 * Puts a verified snapshot in place of the index and history caches, and has the store and the
 * co-change model read them on next use. Only the rebuildable caches are written: the durable
 * database (subscriptions, feedback, memory) is never touched. The caller makes sure no index build
 * or mining pass runs meanwhile.
 */
export function applySnapshot(parts: SnapshotParts, snapshot: VerifiedSnapshot): void {
  const put = (name: string) => writeFileAtomic(join(parts.stateDir, name), snapshot.entries.get(name)!);
  put(INDEX_ENTRY);
  // Written as the history cache writes itself: history.bin last, so a stop between leaves files that
  // disagree, and disagreeing files are mined again rather than used.
  put(BROAD_FILE);
  put(COCHANGE_FILE);
  put(HISTORY_FILE);
  parts.store.reloadIndex();
  parts.cochange.reload();
}
