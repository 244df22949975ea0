import type { Database, Statement } from 'sql.js';

/** Counts the runs of the statements whose SQL contains `marker`, however the helpers keep them prepared. */
export function countRuns(db: Database, marker: string): () => number {
  let runs = 0;
  const prepare = db.prepare.bind(db);
  db.prepare = (sql: string, params?: Parameters<Database['prepare']>[1]): Statement => {
    const stmt = prepare(sql, params);
    if (sql.includes(marker)) {
      const bind = stmt.bind.bind(stmt);
      stmt.bind = (values?: Parameters<Statement['bind']>[0]) => {
        runs++;
        return bind(values);
      };
    }
    return stmt;
  };
  return () => runs;
}
