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
  const stmt = db.prepare(sql);
  try {
    stmt.bind(params);
    const rows: T[] = [];
    while (stmt.step()) rows.push(stmt.getAsObject() as T);
    return rows;
  } finally {
    stmt.free();
  }
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
