import { strict as assert } from 'node:assert';
import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { resolveConfig } from '../../../src/core/config';
import { CodeIndex } from '../../../src/core/index/codeIndex';
import { LAST_BUILD_KEY } from '../../../src/core/index/indexBuilder';
import { languageOf } from '../../../src/core/index/languages';
import { parseFile, type ParseRequest } from '../../../src/core/index/parseFile';
import { ParserPool } from '../../../src/core/index/parserPool';
import type { Logger } from '../../../src/core/logger';
import { all } from '../../../src/core/store/sqlite';
import { Store } from '../../../src/core/store/store';
import { copyFixture } from './fixtureWorkspace';

/** Every row of every index table, ids included, in a stable order; when it was built left out. */
function dump(store: Store): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  const tables = all<{ name: string }>(
    store.index,
    "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name",
  );
  for (const { name } of tables) {
    out[name] = all<Record<string, unknown>>(store.index, `SELECT * FROM "${name}"`)
      .filter((r) => r.key !== LAST_BUILD_KEY)
      .map(({ indexed_at: _at, ...r }) => JSON.stringify(r))
      .sort();
  }
  return out;
}

function codeFiles(root: string, dir = root): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) return codeFiles(root, p);
    const rel = relative(root, p).split('\\').join('/');
    return languageOf(rel) ? [rel] : [];
  });
}

function recordingLogger(): Logger & { warnings: string[] } {
  const warnings: string[] = [];
  return { warnings, trace() {}, debug() {}, info() {}, warn: (m: string) => warnings.push(m), error() {} };
}

describe('parsing code in worker threads', () => {
  let root: string;
  const dirs: string[] = [];

  before(() => {
    root = copyFixture('ws');
  });

  after(() => {
    rmSync(root, { recursive: true, force: true });
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  const buildWith = async (workers: number) => {
    const stateDir = mkdtempSync(join(tmpdir(), 'pc-parse-workers-'));
    dirs.push(stateDir);
    const store = await Store.open({ stateDir });
    const index = new CodeIndex(store, root, resolveConfig({ index: { ...resolveConfig().index, workers } }));
    try {
      const stats = await index.build();
      return { stats, tables: dump(store) };
    } finally {
      index.dispose();
      store.dispose();
    }
  };

  it('builds the same tables as parsing on the main thread', async () => {
    const inProcess = await buildWith(0);
    const inWorkers = await buildWith(2);
    assert.ok(
      inProcess.stats.parsed > 20 && inProcess.tables.symbols.length > 40 && inProcess.tables.calls.length > 40,
    );
    assert.deepEqual(inWorkers.stats.parsed, inProcess.stats.parsed);
    assert.deepEqual(inWorkers.tables, inProcess.tables);
  });

  it('posts back the same facts for each file as a parse on this thread', async () => {
    const pool = new ParserPool({ size: 2, logger: recordingLogger() });
    try {
      const requests: ParseRequest[] = codeFiles(root).map((path) => ({
        root,
        path,
        lang: languageOf(path)!,
        maxFileBytes: 1 << 20,
      }));
      const [there, here] = await Promise.all([
        Promise.all(requests.map((r) => pool.parse(r))),
        Promise.all(requests.map((r) => parseFile(r))),
      ]);
      assert.ok(there.filter((o) => o.kind === 'parsed').length > 20);
      assert.deepEqual(there, here);
      assert.equal(pool.fallbackReason, undefined);
    } finally {
      pool.dispose();
    }
  });

  for (const [what, script, reason] of [
    ['exits', 'require("node:worker_threads").parentPort.on("message", () => process.exit(3));', /code 3/],
    ['throws as it starts', 'throw new Error("grammar missing");', /grammar missing/],
  ] as const) {
    it(`parses on this thread, and says why once, when a worker ${what}`, async () => {
      const dir = mkdtempSync(join(tmpdir(), 'pc-bad-worker-'));
      dirs.push(dir);
      const file = join(dir, 'worker.js');
      writeFileSync(file, script);
      const logger = recordingLogger();
      const pool = new ParserPool({ size: 1, logger, script: file });
      try {
        const path = codeFiles(root).find((p) => p.endsWith('.ts'))!;
        const req: ParseRequest = { root, path, lang: languageOf(path)!, maxFileBytes: 1 << 20 };
        const outcomes = await Promise.all([pool.parse(req), pool.parse(req)]);
        const later = await pool.parse(req);
        const expected = await parseFile(req);
        assert.equal(expected.kind, 'parsed');
        assert.deepEqual([...outcomes, later], [expected, expected, expected]);
        assert.match(pool.fallbackReason ?? '', reason);
        assert.equal(logger.warnings.length, 1, logger.warnings.join('\n'));
        assert.match(logger.warnings[0], /worker thread stopped .*parsing goes on in the main thread/);
      } finally {
        pool.dispose();
      }
    });
  }

  it('knows the workspace files from the scan on, before the build has written them', async () => {
    const stateDir = mkdtempSync(join(tmpdir(), 'pc-parse-workers-'));
    dirs.push(stateDir);
    const store = await Store.open({ stateDir });
    const index = new CodeIndex(store, root, resolveConfig());
    try {
      let atStart: string[] | undefined;
      await index.build({ onProgress: (p) => (atStart ??= p.done === 0 ? index.workspaceFiles() : undefined) });
      assert.deepEqual(atStart?.sort(), codeFiles(root).sort());
    } finally {
      index.dispose();
      store.dispose();
    }
  });
});
