import initSqlJs, { type Database, type SqlJsStatic } from 'sql.js';
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
  const stmt = db.prepare(sql);
  try {
    stmt.bind(params);
    while (stmt.step()) fn(stmt.getAsObject() as T);
  } finally {
    stmt.free();
  }
}

/** The first column of every row, without an object per row. */
export function firstColumn<T extends SqlValue = string>(db: Database, sql: string, params: SqlValue[] = []): T[] {
  const out: T[] = [];
  const stmt = db.prepare(sql);
  try {
    stmt.bind(params);
    while (stmt.step()) out.push(stmt.get()[0] as T);
  } finally {
    stmt.free();
  }
  return out;
}

export function one<T = Row>(db: Database, sql: string, params: SqlValue[] = []): T | undefined {
  return all<T>(db, sql, params)[0];
}

export function run(db: Database, sql: string, params: SqlValue[] = []): void {
  db.run(sql, params);
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
