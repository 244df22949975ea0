import { readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import type { SqlJsStatic } from 'sql.js';
import type { Database } from './sqlite';

const SQLITE_HEADER = 'SQLite format 3\0';

/** A database file opened and checked, or why it cannot be used. */
export type CheckedOpen = { db: Database; reason?: undefined } | { db?: undefined; reason: string };

/**
 * Opens a database file and checks it. `verify` runs `PRAGMA quick_check` over every page (a page
 * of garbage behind a valid header passes a plain query and fails later with "database disk image
 * is malformed"); without it only the header and the schema are read.
 */
export function openChecked(SQL: SqlJsStatic, path: string, verify: boolean): CheckedOpen {
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch (err) {
    return { reason: `cannot be read (${(err as Error).message})` };
  }
  if (bytes.length === 0) return { reason: 'is empty (0 bytes)' };
  if (bytes.length < 100 || bytes.toString('latin1', 0, SQLITE_HEADER.length) !== SQLITE_HEADER)
    return { reason: 'is not a SQLite database' };
  let db: Database | undefined;
  try {
    db = new SQL.Database(bytes);
    db.exec('SELECT count(*) FROM sqlite_master');
    if (verify) {
      const rows = db.exec('PRAGMA quick_check(5)');
      const first = String(rows[0]?.values[0]?.[0] ?? '');
      if (first !== 'ok') {
        const problems = (rows[0]?.values ?? []).map((v) => String(v[0])).join('; ');
        db.close();
        return { reason: `failed its integrity check (${problems || 'no answer'})` };
      }
    }
    return { db };
  } catch (err) {
    db?.close();
    return { reason: `cannot be opened (${(err as Error).message})` };
  }
}

/** Moves a damaged file aside under a dated name; returns the new path, or undefined when it could not be moved. */
export function moveAside(path: string, now = new Date()): string | undefined {
  const movedTo = `${path}.corrupt-${now.toISOString().replace(/[:.]/g, '-')}`;
  try {
    renameSync(path, movedTo);
    return movedTo;
  } catch {
    return undefined;
  }
}

/** True when the error is SQLite's report of a damaged file. */
export function isCorruptionError(err: unknown): boolean {
  const message = err instanceof Error ? err.message : String(err);
  return /database disk image is malformed|file is not a database|SQLITE_CORRUPT|SQLITE_NOTADB/i.test(message);
}

/**
 * Wraps a database's exec, run, prepare and its statements' step and run: a corruption error is
 * handed to `onCorruption`, which deals with it and returns the error to throw instead (undefined
 * rethrows it as is). A damaged page that no check found only shows when it is read.
 */
export function guardCorruption(db: Database, onCorruption: (err: Error) => Error | undefined): Database {
  const wrap =
    <A extends unknown[], R>(fn: (...args: A) => R): ((...args: A) => R) =>
    (...args: A) => {
      try {
        return fn(...args);
      } catch (err) {
        if (!isCorruptionError(err)) throw err;
        throw onCorruption(err as Error) ?? err;
      }
    };
  db.exec = wrap(db.exec.bind(db));
  db.run = wrap<Parameters<Database['run']>, ReturnType<Database['run']>>(db.run.bind(db));
  const prepare = wrap(db.prepare.bind(db));
  db.prepare = (...args: Parameters<Database['prepare']>) => {
    const stmt = prepare(...args);
    stmt.step = wrap(stmt.step.bind(stmt));
    stmt.run = wrap(stmt.run.bind(stmt));
    return stmt;
  };
  return db;
}

interface VerifiedStamp {
  size: number;
  mtimeMs: number;
  ino: number;
}

/**
 * A record of the last index file this machine wrote or fully checked. A whole-file check of a
 * large index costs hundreds of milliseconds; a file whose size, mtime and inode are unchanged
 * since then is trusted, and anything else is checked again.
 */
export class VerifiedStamps {
  constructor(private readonly stampPath: string) {}

  matches(path: string): boolean {
    const now = stampOf(path);
    if (!now) return false;
    try {
      const saved = JSON.parse(readFileSync(this.stampPath, 'utf8')) as VerifiedStamp;
      return saved.size === now.size && saved.mtimeMs === now.mtimeMs && saved.ino === now.ino;
    } catch {
      return false;
    }
  }

  record(path: string): void {
    const now = stampOf(path);
    if (!now) return;
    try {
      writeFileSync(this.stampPath, JSON.stringify(now), { mode: 0o600 });
    } catch {
      // Only costs a check at the next start.
    }
  }
}

function stampOf(path: string): VerifiedStamp | undefined {
  try {
    const s = statSync(path);
    return { size: s.size, mtimeMs: s.mtimeMs, ino: s.ino };
  } catch {
    return undefined;
  }
}
