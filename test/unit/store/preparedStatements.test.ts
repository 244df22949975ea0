import { strict as assert } from 'node:assert';
import { all, each, firstColumn, loadSqlJs, one, type Database } from '../../../src/core/store/sqlite';

/**
 * One suggestion asks the index the same few queries many times (the names defined in a file, how
 * many files define a name): each query is compiled once per database, not once per call, and the
 * answers stay those of the parameters given.
 */
describe('queries keep their prepared statements', () => {
  let db: Database;
  let prepares: string[];

  beforeEach(async () => {
    const SQL = await loadSqlJs();
    db = new SQL.Database();
    db.run('CREATE TABLE names (file TEXT NOT NULL, name TEXT NOT NULL)');
    for (let f = 0; f < 5; f++)
      for (let n = 0; n <= f; n++) db.run('INSERT INTO names VALUES (?, ?)', [`f${f}`, `n${n}`]);
    prepares = [];
    const prepare = db.prepare.bind(db);
    db.prepare = (sql, params) => {
      prepares.push(sql);
      return prepare(sql, params);
    };
  });
  afterEach(() => db.close());

  it('compiles a query once however often it is asked, with each call its own parameters', () => {
    const count = 'SELECT count(*) AS n FROM names WHERE file = ?';
    for (let round = 0; round < 10; round++)
      for (let f = 0; f < 5; f++) assert.equal(one<{ n: number }>(db, count, [`f${f}`])?.n, f + 1);
    assert.deepEqual(firstColumn(db, 'SELECT name FROM names WHERE file = ? ORDER BY name', ['f2']), [
      'n0',
      'n1',
      'n2',
    ]);
    assert.deepEqual(firstColumn(db, 'SELECT name FROM names WHERE file = ? ORDER BY name', ['f0']), ['n0']);
    assert.deepEqual(prepares.filter((s) => s === count).length, 1, 'compiled once for 50 calls');
    assert.equal(prepares.length, 2);
  });

  it('answers the same query asked inside its own rows', () => {
    const files = 'SELECT DISTINCT file FROM names WHERE name = ? ORDER BY file';
    const pairs: string[] = [];
    each<{ file: string }>(db, files, ['n3'], (row) => {
      for (const inner of all<{ file: string }>(db, files, ['n4'])) pairs.push(`${row.file}/${inner.file}`);
    });
    assert.deepEqual(pairs, ['f3/f4', 'f4/f4']);
    assert.deepEqual(
      all<{ file: string }>(db, files, ['n3']).map((r) => r.file),
      ['f3', 'f4'],
    );
  });

  it('compiles a query again after it failed', () => {
    const lookup = 'SELECT name FROM names WHERE file = ?';
    assert.throws(() =>
      each(db, lookup, ['f1'], () => {
        throw new Error('the reader failed');
      }),
    );
    assert.deepEqual(firstColumn(db, lookup, ['f0']), ['n0']);
    assert.equal(prepares.filter((s) => s === lookup).length, 2);
  });
});
