import { runGit } from '../git/gitExec';
import { DEFAULT_LIMITS, readHeader, SnapshotError, type SnapshotLimits, type SnapshotRefusal } from './format';
import { isUrl, readSource } from './fetchSnapshot';
import { applySnapshot, verifySnapshot } from './importSnapshot';
import type { SnapshotParts } from './snapshotParts';
import { seedTermsFromSnapshot, TERMS_ENTRY } from './snapshotTerms';
import { trustUnchangedFiles } from './trustUnchanged';

/** Where a team index snapshot comes from, as the user configured it. */
export interface SnapshotSource {
  /**
   * A path or an http(s) URL. `{commit}` in it stands for a commit: HEAD's ancestors, newest first,
   * are tried until one has a snapshot (the nearest ancestor that CI indexed).
   */
  location: string;
  /** The SHA-256 the snapshot must have; otherwise the one published beside it (FILE.sha256), if any. */
  sha256?: string;
  /** The bearer token for a URL, asked for only when one is downloaded. */
  token?: () => Promise<string | undefined>;
  maxBytes?: number;
  timeoutMs?: number;
  /** Hears what came of it (an editor shows a refusal once). */
  onOutcome?: (outcome: SnapshotOutcome) => void;
}

export interface SnapshotOutcome {
  /** applied: the caches came from the snapshot; skipped: the local index was as new; refused: unusable, indexed locally. */
  status: 'applied' | 'skipped' | 'refused';
  /** The location, without query or credentials. */
  source: string;
  commit?: string;
  reason?: SnapshotRefusal;
  message: string;
  bytes?: number;
  ms: number;
}

/** Bytes of the snapshot downloaded so far, of the total when known. */
export interface SnapshotProgress {
  received: number;
  total?: number;
}

const DEFAULT_TIMEOUT_MS = 120_000;
/** How many of HEAD's ancestors a `{commit}` location is tried for. */
const MAX_CANDIDATES = 64;

/**
 * Loads the index caches from a team snapshot before the workspace is indexed, so that indexing and
 * mining only catch up from the snapshot's commit. Never throws: a snapshot that cannot be used is
 * told in the outcome, and local indexing then runs as it would have without one.
 */
export async function seedFromSnapshot(
  parts: SnapshotParts & { gitAllowed: () => boolean },
  source: SnapshotSource,
  signal?: AbortSignal,
  onProgress?: (p: SnapshotProgress) => void,
): Promise<SnapshotOutcome> {
  const started = performance.now();
  const shown = displayed(source.location);
  const outcome = (o: Omit<SnapshotOutcome, 'source' | 'ms'>): SnapshotOutcome => {
    const out = { ...o, source: shown, ms: Math.round(performance.now() - started) };
    const say = `Team index ${shown}: ${out.message}`;
    if (out.status === 'refused') parts.logger.warn(`${say}; indexing locally.`);
    else parts.logger.info(say);
    source.onOutcome?.(out);
    return out;
  };
  if (!parts.gitAllowed()) return outcome({ status: 'skipped', message: 'not used while git is off for this folder' });
  const limits: SnapshotLimits = { ...DEFAULT_LIMITS, ...(source.maxBytes ? { maxBytes: source.maxBytes } : {}) };
  const local = parts.cochange.lastMined;
  try {
    const token = isUrl(source.location) && source.token ? await source.token() : undefined;
    const read = await readFirst(parts.root, source.location, {
      token,
      timeoutMs: source.timeoutMs ?? DEFAULT_TIMEOUT_MS,
      maxBytes: limits.maxBytes,
      signal,
      onProgress: onProgress && ((received, total) => onProgress({ received, total })),
    });
    const header = readHeader(read.data, limits);
    if (local && (local === header.commit || (await isAncestor(parts.root, header.commit, local, signal))))
      return outcome({
        status: 'skipped',
        commit: header.commit,
        message: `the local index (at ${local.slice(0, 12)}) is as new as the snapshot (at ${header.commit.slice(0, 12)})`,
      });
    const verified = await verifySnapshot(read.data, parts.root, {
      published: source.sha256 ?? read.published,
      limits,
      signal,
    });
    if (signal?.aborted) {
      verified.index.close();
      throw new SnapshotError('download-failed', 'cancelled');
    }
    await applySnapshot(parts, verified);
    const trusted = await trustUnchangedFiles(parts, verified.header.commit, signal).catch((err: Error) => {
      parts.logger.debug(`Every file of the snapshot will be hashed again: ${err.message}`);
      return [];
    });
    const unchanged = trusted.length;
    const words = await seedTermsFromSnapshot(parts, verified.entries.get(TERMS_ENTRY), trusted);
    return outcome({
      status: 'applied',
      commit: verified.header.commit,
      bytes: read.data.length,
      message: `loaded the index of ${verified.header.commit.slice(0, 12)} (${read.data.length} bytes, made by ${verified.header.productVersion}; ${unchanged} files unchanged since${words ? `, ${words} with their words` : ''}); catching up to HEAD`,
    });
  } catch (err) {
    const e = err instanceof SnapshotError ? err : new SnapshotError('unreadable', (err as Error).message);
    // With a local index of its own, a snapshot of a commit this clone lacks is simply not needed.
    const quiet = local !== undefined && (e.reason === 'unknown-commit' || e.reason === 'not-an-ancestor');
    return outcome({ status: quiet ? 'skipped' : 'refused', reason: e.reason, message: `not used: ${e.message}` });
  }
}

/** Reads the snapshot at the location, or at the first of HEAD's ancestors that has one for a `{commit}` location. */
async function readFirst(
  root: string,
  location: string,
  o: Parameters<typeof readSource>[1],
): Promise<Awaited<ReturnType<typeof readSource>>> {
  if (!location.includes('{commit}')) return readSource(location, o);
  const list = await runGit(['rev-list', `--max-count=${MAX_CANDIDATES}`, 'HEAD', '--'], {
    cwd: root,
    timeoutMs: 10_000,
    signal: o.signal,
  });
  const commits = list.ok ? list.stdout.split('\n').filter(Boolean) : [];
  for (const commit of commits) {
    try {
      return await readSource(location.replaceAll('{commit}', commit), o);
    } catch (err) {
      // A commit CI did not index (yet): try its parent.
      if (err instanceof SnapshotError && (err.reason === 'not-found' || err.reason === 'unreadable')) continue;
      throw err;
    }
  }
  throw new SnapshotError(
    'unreadable',
    `no snapshot found for HEAD or its ${Math.max(0, commits.length - 1)} nearest ancestors`,
  );
}

async function isAncestor(root: string, a: string, b: string, signal?: AbortSignal): Promise<boolean> {
  const r = await runGit(['merge-base', '--is-ancestor', a, b], { cwd: root, timeoutMs: 10_000, signal });
  return r.ok;
}

/** A location fit for logs: a URL without its query, fragment or credentials. */
function displayed(location: string): string {
  if (!isUrl(location)) return location;
  try {
    const u = new URL(location);
    return `${u.origin}${u.pathname}`;
  } catch {
    return '(invalid URL)';
  }
}
