/**
 * Numbered schema migrations. Each database keeps `PRAGMA user_version` = number of migrations
 * applied. Append new steps; never edit a released one.
 *
 * Two databases live in the state directory:
 * - `durable.db`: user data that must never be lost (subscriptions, feedback, suggestion history,
 *   watch subscriptions, chat memory, recorded decisions). Written under a lock with re-read and
 *   replay, so the extension and the MCP server can share it.
 * - `index.db`: a rebuildable cache (code index, co-change model, text search over docs and ADRs).
 */
import { one, type Database } from './sqlite';

export const durableMigrations: readonly string[] = [
  // 1: subscriptions, suggestions and feedback, watches, memory episodes, recorded decisions.
  `
  CREATE TABLE subscriptions (
    id TEXT PRIMARY KEY,
    scope TEXT NOT NULL,
    kind TEXT NOT NULL,
    target TEXT NOT NULL,
    options TEXT NOT NULL DEFAULT '{}',
    created_at INTEGER NOT NULL,
    renewed_at INTEGER NOT NULL,
    last_hash TEXT,
    UNIQUE (scope, kind, target)
  );
  CREATE TABLE suggestions (
    id TEXT PRIMARY KEY,
    created_at INTEGER NOT NULL,
    trigger_type TEXT NOT NULL,
    trigger_source TEXT NOT NULL,
    context_key TEXT NOT NULL,
    status TEXT NOT NULL,
    latency_ms REAL NOT NULL,
    item_count INTEGER NOT NULL
  );
  CREATE INDEX suggestions_created ON suggestions (created_at);
  CREATE TABLE suggestion_items (
    suggestion_id TEXT NOT NULL,
    idx INTEGER NOT NULL,
    type TEXT NOT NULL,
    entity_id TEXT NOT NULL,
    title TEXT NOT NULL,
    score REAL NOT NULL,
    status TEXT NOT NULL DEFAULT 'shown',
    PRIMARY KEY (suggestion_id, idx)
  );
  CREATE INDEX suggestion_items_entity ON suggestion_items (entity_id);
  CREATE TABLE feedback (
    id TEXT PRIMARY KEY,
    entity_id TEXT NOT NULL,
    type TEXT NOT NULL,
    context_key TEXT NOT NULL,
    action TEXT NOT NULL,
    score REAL,
    created_at INTEGER NOT NULL
  );
  CREATE INDEX feedback_entity ON feedback (entity_id, context_key);
  CREATE TABLE watches (
    id TEXT PRIMARY KEY,
    patterns TEXT NOT NULL,
    min_score REAL NOT NULL,
    max_per_trigger INTEGER NOT NULL,
    cooldown_ms INTEGER NOT NULL,
    last_triggered_at INTEGER,
    enabled INTEGER NOT NULL DEFAULT 1,
    created_at INTEGER NOT NULL
  );
  CREATE TABLE episodes (
    id TEXT PRIMARY KEY,
    conversation_id TEXT NOT NULL,
    prompt TEXT NOT NULL,
    answer TEXT NOT NULL,
    created_at INTEGER NOT NULL
  );
  CREATE VIRTUAL TABLE episodes_fts USING fts4 (id, prompt, answer, tokenize=unicode61);
  CREATE TABLE recorded_decisions (
    id TEXT PRIMARY KEY,
    path TEXT NOT NULL,
    title TEXT NOT NULL,
    created_at INTEGER NOT NULL
  );
  `,
  // 2: watches that push: scope and expiry like subscriptions, the last event they fired on, and their firings.
  `
  ALTER TABLE watches ADD COLUMN scope TEXT NOT NULL DEFAULT 'workspace';
  ALTER TABLE watches ADD COLUMN pattern_key TEXT NOT NULL DEFAULT '';
  ALTER TABLE watches ADD COLUMN renewed_at INTEGER NOT NULL DEFAULT 0;
  ALTER TABLE watches ADD COLUMN last_event TEXT;
  UPDATE watches SET renewed_at = created_at;
  CREATE TABLE watch_firings (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    watch_id TEXT NOT NULL,
    fired_at INTEGER NOT NULL,
    suggestion TEXT NOT NULL
  );
  CREATE INDEX watch_firings_watch ON watch_firings (watch_id, seq);
  `,
];

export const indexMigrations: readonly string[] = [
  // 1: files, symbols, calls, imports, co-change, text search.
  `
  CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
  CREATE TABLE files (
    path TEXT PRIMARY KEY,
    hash TEXT NOT NULL,
    lang TEXT,
    size INTEGER NOT NULL,
    mtime INTEGER NOT NULL,
    indexed_at INTEGER NOT NULL
  );
  CREATE TABLE symbols (
    id INTEGER PRIMARY KEY,
    path TEXT NOT NULL,
    name TEXT NOT NULL,
    kind TEXT NOT NULL,
    start_line INTEGER NOT NULL,
    end_line INTEGER NOT NULL,
    container TEXT,
    exported INTEGER NOT NULL DEFAULT 0,
    deprecated INTEGER NOT NULL DEFAULT 0
  );
  CREATE INDEX symbols_name ON symbols (name);
  CREATE INDEX symbols_path ON symbols (path);
  CREATE TABLE calls (
    path TEXT NOT NULL,
    name TEXT NOT NULL,
    qualifier TEXT,
    line INTEGER NOT NULL,
    col INTEGER NOT NULL,
    enclosing TEXT
  );
  CREATE INDEX calls_name ON calls (name);
  CREATE INDEX calls_path ON calls (path);
  CREATE TABLE imports (
    path TEXT NOT NULL,
    spec TEXT NOT NULL,
    resolved TEXT,
    names TEXT NOT NULL DEFAULT '[]',
    line INTEGER NOT NULL DEFAULT 0
  );
  CREATE INDEX imports_path ON imports (path);
  CREATE INDEX imports_resolved ON imports (resolved);
  CREATE TABLE cochange_files (path TEXT PRIMARY KEY, commits INTEGER NOT NULL, last_time INTEGER NOT NULL);
  CREATE TABLE cochange_pairs (a TEXT NOT NULL, b TEXT NOT NULL, count INTEGER NOT NULL, last_time INTEGER NOT NULL, PRIMARY KEY (a, b));
  CREATE INDEX cochange_pairs_b ON cochange_pairs (b);
  CREATE VIRTUAL TABLE docs_fts USING fts4 (path, heading, line, body, tokenize=unicode61);
  CREATE VIRTUAL TABLE decisions_fts USING fts4 (path, title, body, tokenize=unicode61);
  `,
  // 2: the code index keys its rows by a file id instead of repeating the path text in every row and
  // index (a third of the cache on a large repository). The code tables start empty: the next build
  // parses every file again.
  `
  DROP TABLE symbols;
  DROP TABLE calls;
  DROP TABLE imports;
  DROP TABLE files;
  CREATE TABLE files (
    id INTEGER PRIMARY KEY,
    path TEXT NOT NULL UNIQUE,
    hash TEXT NOT NULL,
    lang TEXT,
    size INTEGER NOT NULL,
    mtime INTEGER NOT NULL,
    indexed_at INTEGER NOT NULL
  );
  CREATE TABLE symbols (
    id INTEGER PRIMARY KEY,
    file INTEGER NOT NULL,
    name TEXT NOT NULL,
    kind TEXT NOT NULL,
    start_line INTEGER NOT NULL,
    end_line INTEGER NOT NULL,
    container TEXT,
    exported INTEGER NOT NULL DEFAULT 0,
    deprecated INTEGER NOT NULL DEFAULT 0
  );
  CREATE INDEX symbols_name ON symbols (name);
  CREATE INDEX symbols_file ON symbols (file);
  CREATE TABLE calls (
    file INTEGER NOT NULL,
    name TEXT NOT NULL,
    qualifier TEXT,
    line INTEGER NOT NULL,
    col INTEGER NOT NULL,
    enclosing TEXT
  );
  CREATE INDEX calls_name ON calls (name);
  CREATE INDEX calls_file ON calls (file);
  CREATE TABLE imports (
    file INTEGER NOT NULL,
    spec TEXT NOT NULL,
    resolved TEXT,
    names TEXT NOT NULL DEFAULT '[]',
    line INTEGER NOT NULL DEFAULT 0
  );
  CREATE INDEX imports_file ON imports (file);
  CREATE INDEX imports_resolved ON imports (resolved);
  DELETE FROM meta WHERE key LIKE 'codeIndex.%';
  `,
  // 3: co-change pairs are read whole into memory and written by primary key; nothing looks them up
  // by their second file, so that index only cost space (a tenth of the cache on a large repository).
  `
  DROP INDEX cochange_pairs_b;
  `,
  // 4: the co-change model keeps its counts in a compact file of its own (cochange.bin): as rows they
  // repeated two paths per pair and grew the in-memory database by tens of megabytes.
  `
  DROP TABLE cochange_pairs;
  DROP TABLE cochange_files;
  DELETE FROM meta WHERE key LIKE 'cochange.%';
  `,
  // 5: the code index stores a call only when a workspace definition or import could answer it; for
  // the others (library and runtime calls, a third of all) a file notes just the names, so it can be
  // parsed again once one of them is defined. The import graph is read whole, so nothing looks imports
  // up by target. Type aliases, enums, React components and JSX call sites are new: every file is
  // parsed again.
  `
  CREATE TABLE unresolved_calls (name TEXT NOT NULL, file INTEGER NOT NULL, PRIMARY KEY (name, file)) WITHOUT ROWID;
  CREATE INDEX unresolved_calls_file ON unresolved_calls (file);
  DROP INDEX imports_resolved;
  DELETE FROM calls;
  DELETE FROM symbols;
  DELETE FROM imports;
  DELETE FROM files;
  `,
  // 6: a Go function's or method's result type, so that a variable assigned from a call (`r :=
  // NewRouter()`) knows its type and its method calls resolve. Code files are parsed again.
  `
  ALTER TABLE symbols ADD COLUMN returns TEXT;
  `,
  // 7: what a JavaScript or TypeScript class extends and implements (and an interface extends), so a
  // call through a base class or interface reaches the methods that implement it. Code files are
  // parsed again.
  `
  ALTER TABLE symbols ADD COLUMN supers TEXT;
  `,
  // 8: the types a JavaScript or TypeScript class gives its fields (an interface its properties), so a
  // call on a field a base class declares, or on a field of a typed value, knows its receiver's type.
  // Code files are parsed again.
  `
  ALTER TABLE symbols ADD COLUMN fields TEXT;
  `,
  // 9: the JavaScript and TypeScript parameters and variables whose declarations name their type, a
  // row per name, type and file, so that a value of a name nothing types here (a callback's \`c\`)
  // takes the type the workspace usually declares for it. Code files are parsed again.
  `
  CREATE TABLE typed_names (name TEXT NOT NULL, type TEXT NOT NULL, file INTEGER NOT NULL, PRIMARY KEY (name, type, file)) WITHOUT ROWID;
  CREATE INDEX typed_names_file ON typed_names (file);
  `,
];

/** Applies the migrations after `from`, each in its own transaction. */
export function migrate(db: Database, migrations: readonly string[], from: number): void {
  for (let v = from; v < migrations.length; v++) {
    db.exec('BEGIN');
    try {
      db.exec(migrations[v]);
      db.exec(`PRAGMA user_version = ${v + 1}`);
      db.exec('COMMIT');
    } catch (err) {
      db.exec('ROLLBACK');
      throw new Error(`Schema migration ${v + 1} failed: ${(err as Error).message}`);
    }
  }
}

/**
 * As migrate, with a turn of the event loop after each migration, while `wanted()` holds: a fresh
 * cache runs every migration, seconds of work on a loaded machine that would otherwise hold the loop.
 */
export async function migrateInTurns(
  db: Database,
  migrations: readonly string[],
  from: number,
  wanted: () => boolean,
): Promise<void> {
  for (let v = from; v < migrations.length && wanted(); v++) {
    migrate(db, migrations.slice(0, v + 1), v);
    await new Promise<void>((r) => setImmediate(r));
  }
}

/** The number of migrations a database has applied. */
export function userVersion(db: Database): number {
  const row = one<{ user_version: number }>(db, 'PRAGMA user_version');
  return Number(row?.user_version ?? 0);
}
