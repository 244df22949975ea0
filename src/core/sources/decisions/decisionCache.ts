import type { Logger } from '../../logger';
import { createHash } from 'node:crypto';
import { all, one } from '../../store/sqlite';
import type { Store } from '../../store/store';
import { restoreLinks, storeLinks, type StoredLinks } from './adrLinks';
import type { DecisionRecord } from './decisionItems';
import type { PreparedLinkable } from './decisionLinker';
import type { PathCounts } from './repoTerms';

/**
 * Bump when the parser or the linker's word splitting changes what they make of a record: rows of
 * another version are ignored and dropped at the next save, so every record is parsed again.
 */
const VERSION = 6;
const PREFIX = `decisions.v${VERSION}:`;
/** Every key of this cache, of any version, sorts between these two. */
const ANY_FROM = 'decisions.v';
const ANY_TO = 'decisions.w';
/** The path word counts, with the digest of the path list they were counted over. */
const TERMS_KEY = `decisionTerms.v${VERSION}`;

/** A record as plain data: its links without their matchers. */
type StoredRecord = Omit<DecisionRecord, 'links' | 'entryLinks'> & { links: StoredLinks; entryLinks?: StoredLinks[] };

/** One record as kept: the parsed record (its mtime and size say which file version) and its linker words. */
interface CachedRecord {
  record: StoredRecord;
  /** By linker key: the record's path, or `path#line` for each entry of a log. */
  prepared: [string, PreparedLinkable][];
}

export interface CachedDecisions {
  records: Map<string, DecisionRecord>;
  prepared: Map<string, PreparedLinkable>;
}

/**
 * Parsed decision records and the words the linker takes from them, kept in the index database (one
 * `meta` row per record) between processes: a one-shot process, such as an agent's hook, then neither
 * reads nor splits an unchanged record again. The caller checks each file's mtime and size against the
 * cached record, as it does for its in-memory copy. Rebuildable: a row that cannot be read is skipped.
 */
export class DecisionCache {
  /** What the database holds, by record path (the JSON as written), to write only what changed. */
  private saved = new Map<string, string>();

  constructor(
    private readonly store: Store,
    private readonly logger: Logger,
  ) {}

  load(): CachedDecisions {
    const records = new Map<string, DecisionRecord>();
    const prepared = new Map<string, PreparedLinkable>();
    this.saved = new Map();
    try {
      const rows = all<{ key: string; value: string }>(
        this.store.index,
        'SELECT key, value FROM meta WHERE key >= ? AND key < ?',
        [PREFIX, `${PREFIX}\uffff`],
      );
      for (const row of rows) {
        const path = row.key.slice(PREFIX.length);
        const cached = parse(row.value);
        if (!cached || cached.record.path !== path) continue;
        const { links, entryLinks, ...rest } = cached.record;
        records.set(path, {
          ...rest,
          links: restoreLinks(links),
          ...(entryLinks ? { entryLinks: entryLinks.map(restoreLinks) } : {}),
        });
        for (const [key, p] of cached.prepared) prepared.set(key, p);
        this.saved.set(path, row.value);
      }
    } catch (err) {
      this.logger.debug(`Could not read the cached decision records: ${(err as Error).message}`);
    }
    return { records, prepared };
  }

  /** The word counts made over exactly these paths by an earlier process, if kept. */
  loadPathCounts(paths: readonly string[]): PathCounts | undefined {
    try {
      const row = one<{ value: string }>(this.store.index, 'SELECT value FROM meta WHERE key = ?', [TERMS_KEY]);
      if (!row) return undefined;
      const v = JSON.parse(row.value) as { digest?: string; counts?: PathCounts };
      return v.digest === digestOf(paths) && Array.isArray(v.counts?.df) ? v.counts : undefined;
    } catch (err) {
      this.logger.debug(`Could not read the cached path words: ${(err as Error).message}`);
      return undefined;
    }
  }

  savePathCounts(paths: readonly string[], counts: PathCounts): void {
    try {
      this.store.index.run('INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)', [
        TERMS_KEY,
        JSON.stringify({ digest: digestOf(paths), counts }),
      ]);
      this.store.markIndexDirty();
    } catch (err) {
      this.logger.debug(`Could not cache the path words: ${(err as Error).message}`);
    }
  }

  /** Writes the records that changed since the last load or save and drops those gone; marks the index dirty only then. */
  save(records: ReadonlyMap<string, DecisionRecord>, prepared: ReadonlyMap<string, PreparedLinkable>): void {
    const byPath = new Map<string, [string, PreparedLinkable][]>();
    for (const [key, p] of prepared) {
      const path = recordPathOf(key, records);
      if (!records.has(path)) continue;
      let list = byPath.get(path);
      if (!list) byPath.set(path, (list = []));
      list.push([key, p]);
    }
    const next = new Map<string, string>();
    for (const [path, { links, entryLinks, ...rest }] of records) {
      const record: StoredRecord = {
        ...rest,
        links: storeLinks(links),
        ...(entryLinks ? { entryLinks: entryLinks.map(storeLinks) } : {}),
      };
      next.set(path, JSON.stringify({ record, prepared: byPath.get(path) ?? [] } satisfies CachedRecord));
    }
    let dirty = false;
    try {
      const db = this.store.index;
      const stale = all<{ key: string }>(db, 'SELECT key FROM meta WHERE key >= ? AND key < ?', [ANY_FROM, ANY_TO])
        .map((r) => r.key)
        .filter((k) => !k.startsWith(PREFIX) || !next.has(k.slice(PREFIX.length)));
      for (const key of stale) db.run('DELETE FROM meta WHERE key = ?', [key]);
      dirty = stale.length > 0;
      for (const [path, json] of next) {
        if (this.saved.get(path) === json) continue;
        db.run('INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)', [PREFIX + path, json]);
        dirty = true;
      }
      this.saved = next;
    } catch (err) {
      this.logger.debug(`Could not cache the decision records: ${(err as Error).message}`);
    }
    if (dirty) this.store.markIndexDirty();
  }
}

/** The record a linker key names: the key itself, or a log's path before `#line`. */
export function recordPathOf(key: string, records: ReadonlyMap<string, unknown>): string {
  return records.has(key) ? key : key.slice(0, Math.max(0, key.lastIndexOf('#')));
}

function digestOf(paths: readonly string[]): string {
  const h = createHash('sha256');
  for (const p of paths) h.update(p).update('\0');
  return h.digest('hex');
}

function parse(json: string): CachedRecord | undefined {
  try {
    const v = JSON.parse(json) as CachedRecord;
    return v && typeof v.record?.path === 'string' && Array.isArray(v.record.links?.paths) && Array.isArray(v.prepared)
      ? v
      : undefined;
  } catch {
    return undefined;
  }
}
