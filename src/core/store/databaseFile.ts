import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { SqlJsStatic } from 'sql.js';
import { moveAside, openChecked, type VerifiedStamps } from './recovery';
import type { Database } from './sqlite';
import type { StoreNotice } from './storeTypes';

/** What reading a database file of the state directory needs from the store. */
export interface DatabaseFileContext {
  SQL: SqlJsStatic;
  stateDir: string;
  indexStamps: VerifiedStamps;
  /** False when the state directory takes no write: a restored copy is then used from memory. */
  writable: boolean;
  save(path: string, data: Uint8Array, what: string): void;
  notify(n: StoreNotice): void;
}

/**
 * A database file as it is on disk: checked, restored from its copy (`hasBackup`) or moved aside
 * when damaged; a new empty database when there is none. Migrations are the caller's.
 */
export function readDatabase(ctx: DatabaseFileContext, name: string, hasBackup: boolean): Database {
  const path = join(ctx.stateDir, name);
  let db: Database | undefined;
  if (existsSync(path)) {
    // The durable file is small and holds what cannot be rebuilt: check every page each time. The
    // index cache is checked whole unless this machine wrote or checked exactly this file before.
    const verify = hasBackup || !ctx.indexStamps.matches(path);
    const opened = openChecked(ctx.SQL, path, verify);
    if (opened.db) {
      db = opened.db;
      if (!hasBackup && verify) ctx.indexStamps.record(path);
    } else {
      const movedTo = moveAside(path);
      db = hasBackup ? restoreFromBackup(ctx, name, `was damaged (it ${opened.reason})`, movedTo) : undefined;
      if (!hasBackup) {
        ctx.notify({
          kind: 'recovered',
          file: path,
          movedTo,
          message: `The Proactive Context index cache ${path} was damaged (it ${opened.reason}).${movedTo ? ` It was moved to ${movedTo}` : ' It'} and will be rebuilt.`,
        });
      }
    }
  } else if (hasBackup && existsSync(path + '.bak')) {
    // The file is gone but its copy is not (deleted, renamed by a sync tool): bring the data back.
    db = restoreFromBackup(ctx, name, 'was missing', undefined);
  }
  return db ?? new ctx.SQL.Database();
}

/** Brings durable data back from its copy, or starts empty and says so; a damaged copy is kept aside, never overwritten. */
function restoreFromBackup(
  ctx: DatabaseFileContext,
  name: string,
  what: string,
  movedTo: string | undefined,
): Database | undefined {
  const path = join(ctx.stateDir, name);
  const backupPath = path + '.bak';
  const aside = movedTo ? ` The damaged file was moved to ${movedTo}.` : '';
  const backup = existsSync(backupPath) ? openChecked(ctx.SQL, backupPath, true) : { reason: 'does not exist' };
  if (backup.db) {
    // Where nothing can be written the copy's data is used from memory; the file is restored on a later, writable open.
    if (ctx.writable) ctx.save(path, backup.db.export(), 'restore from its copy');
    ctx.notify({
      kind: 'restored',
      file: path,
      movedTo,
      message: `The Proactive Context data file ${path} ${what}; it was restored from its last good copy (${backupPath}).${aside}`,
    });
    return backup.db;
  }
  const backupAside = existsSync(backupPath) ? moveAside(backupPath) : undefined;
  ctx.notify({
    kind: 'recovered',
    file: path,
    movedTo,
    message:
      `The Proactive Context data file ${path} ${what} and its copy ${backupPath} ${backup.reason}; starting with empty data.${aside}` +
      (backupAside ? ` The damaged copy was moved to ${backupAside}.` : ''),
  });
  return undefined;
}
