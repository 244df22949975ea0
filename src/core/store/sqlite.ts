import initSqlJs, { type Database, type SqlJsStatic, type Statement } from 'sql.js';
import { locateAsset } from '../paths';

export type { Database } from 'sql.js';

let sqlPromise: Promise<SqlJsStatic> | undefined;

/** Loads sql.js once per process from the wasm file shipped next to the bundle. */
export function loadSqlJs(): Promise<SqlJsStatic> {
  if (!sqlPromise) {
    const wasm = locateAsset('sql-wasm.wasm', 'sql.js/dist/sql-wasm.wasm');
    sqlPromise = initSqlJs({ locateFile: () => wasm }).catch((err) => {
      sqlPromise = undefined;
      throw err;
    });
  }
  return sqlPromise;
}

export type SqlValue = string | number | null | Uint8Array;
export type Row = Record<string, SqlValue>;

/** Runs a query with bound parameters and returns all rows as objects. */
export function all<T = Row>(db: Database, sql: string, params: SqlValue[] = []): T[] {
  const rows: T[] = [];
  each<T>(db, sql, params, (r) => rows.push(r));
  return rows;
}

/** Calls `fn` with each row as it is read, so that a large result is never held whole. */
export function each<T = Row>(db: Database, sql: string, params: SqlValue[], fn: (row: T) => void): void {
  withStatement(db, sql, (stmt) => {
    stmt.bind(params);
    while (stmt.step()) fn(stmt.getAsObject() as T);
  });
}

/** The first column of every row, without an object per row. */
export function firstColumn<T extends SqlValue = string>(db: Database, sql: string, params: SqlValue[] = []): T[] {
  const out: T[] = [];
  withStatement(db, sql, (stmt) => {
    stmt.bind(params);
    while (stmt.step()) out.push(stmt.get()[0] as T);
  });
  return out;
}

/**
 * Statements kept prepared, by database and SQL text: one suggestion asks the index the same few
 * queries many times, and compiling a statement costs more than running a short one. Closing the
 * database frees them.
 */
const STATEMENTS_KEPT = 64;
const prepared = new WeakMap<Database, Map<string, Statement>>();
const inUse = new WeakSet<Statement>();

function withStatement(db: Database, sql: string, use: (stmt: Statement) => void): void {
  let kept = prepared.get(db);
  if (!kept) prepared.set(db, (kept = new Map<string, Statement>()));
  let stmt = kept.get(sql);
  if (stmt && inUse.has(stmt)) {
    // The same query asked again while its rows are being read: a statement of its own.
    const own = db.prepare(sql);
    try {
      use(own);
    } finally {
      own.free();
    }
    return;
  }
  if (stmt) kept.delete(sql);
  else stmt = db.prepare(sql);
  kept.set(sql, stmt);
  if (kept.size > STATEMENTS_KEPT) {
    const [oldest, old] = kept.entries().next().value as [string, Statement];
    if (!inUse.has(old)) {
      kept.delete(oldest);
      old.free();
    }
  }
  inUse.add(stmt);
  try {
    use(stmt);
    stmt.reset();
  } catch (err) {
    // A statement that failed is not trusted again.
    kept.delete(sql);
    stmt.free();
    throw err;
  } finally {
    inUse.delete(stmt);
  }
}

export function one<T = Row>(db: Database, sql: string, params: SqlValue[] = []): T | undefined {
  return all<T>(db, sql, params)[0];
}

export function run(db: Database, sql: string, params: SqlValue[] = []): void {
  withStatement(db, sql, (stmt) => {
    stmt.bind(params);
    stmt.step();
  });
}

/** Runs fn inside a transaction; rolls back when it throws. */
export function transaction<T>(db: Database, fn: () => T): T {
  db.run('BEGIN');
  try {
    const result = fn();
    db.run('COMMIT');
    return result;
  } catch (err) {
    db.run('ROLLBACK');
    throw err;
  }
}

/** Runs one statement once for each row of parameters, all in one transaction. */
export function runEach(db: Database, sql: string, rows: Iterable<SqlValue[]>): void {
  const stmt = db.prepare(sql);
  try {
    transaction(db, () => {
      for (const row of rows) stmt.run(row);
    });
  } finally {
    stmt.free();
  }
}
