import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TempRepo } from '../git/repoFixture';

const cli = join(__dirname, '..', '..', '..', 'src', 'cli', 'main.js');

function run(args: string[], env: NodeJS.ProcessEnv = {}) {
  const r = spawnSync(process.execPath, [cli, ...args], {
    encoding: 'utf8',
    env: { ...process.env, ...env },
    timeout: 60000,
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('CLI', () => {
  let root: string;
  let state: string;
  before(() => {
    root = mkdtempSync(join(tmpdir(), 'pc-cli-root-'));
    state = mkdtempSync(join(tmpdir(), 'pc-cli-state-'));
  });
  after(() => {
    rmSync(root, { recursive: true, force: true });
    rmSync(state, { recursive: true, force: true });
  });

  it('prints help listing every command with exit code 0', () => {
    const r = run(['--help']);
    assert.equal(r.code, 0);
    for (const c of [
      'index',
      'suggest',
      'subscribe',
      'unsubscribe',
      'subscriptions',
      'materialize',
      'eval',
      'bench',
      'mcp',
    ]) {
      assert.match(r.stdout, new RegExp(`^  ${c} `, 'm'), `help lists ${c}`);
    }
    assert.match(r.stdout, /Exit codes: 0 success, 1 failure, 2 bad usage/);
  });

  it('exits 2 with a one-line message on an unknown flag', () => {
    const r = run(['index', '--bogus']);
    assert.equal(r.code, 2);
    assert.equal(r.stderr.trim().split('\n').length, 1);
    assert.match(r.stderr, /unknown option --bogus/);
    assert.equal(r.stdout, '');
  });

  it('exits 2 on an unknown command and on a missing value', () => {
    assert.equal(run(['frobnicate']).code, 2);
    const r = run(['index', '--root']);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /--root needs a value/);
  });

  it('exits 2 when --root is not a folder', () => {
    const r = run(['index', '--root', join(root, 'missing'), '--state-dir', state]);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /is not a folder/);
  });

  it('exits 2 on a --max-watches that is not a whole number of at least 1, before opening anything', () => {
    for (const command of [['mcp'], ['watch', '--file', 'src/**']]) {
      const r = run([...command, '--root', root, '--state-dir', join(state, 'never'), '--max-watches', '0']);
      assert.equal(r.code, 2, r.stderr);
      assert.match(r.stderr, /--max-watches must be a whole number of at least 1/);
    }
    assert.ok(!existsSync(join(state, 'never')), 'no state folder made');
  });

  it('prints the store stats as JSON for index --json', () => {
    const r = run(['index', '--root', root, '--state-dir', state, '--json']);
    assert.equal(r.code, 0, r.stderr);
    const stats = JSON.parse(r.stdout) as { stateDir: string; schema: { durable: number; index: number } };
    assert.equal(stats.stateDir, state);
    assert.ok(stats.schema.durable >= 1 && stats.schema.index >= 1);
  });

  it('says in index --json how each decision folder was found', () => {
    const record = (n: number, title: string) =>
      `# ${n}. ${title}\n\n## Status\n\nAccepted\n\n## Context\n\nWhy.\n\n## Decision\n\n${title}.\n`;
    const repo = new TempRepo(true, 'pc-cli-decisions-');
    const repoState = mkdtempSync(join(tmpdir(), 'pc-cli-decisions-state-'));
    try {
      repo.commit('records', {
        'docs/adr/0001-use-queues.md': record(1, 'Use queues'),
        'docs/adr/0002-use-postgres.md': record(2, 'Use Postgres'),
        'design/0001-split-billing.md': record(1, 'Split billing'),
        'design/0002-bill-monthly.md': record(2, 'Bill monthly'),
        'src/index.ts': 'export {};\n',
      });
      const r = run(['index', '--root', repo.dir, '--state-dir', repoState, '--json']);
      assert.equal(r.code, 0, r.stderr);
      const stats = JSON.parse(r.stdout) as { decisionFolders: unknown };
      assert.deepEqual(stats.decisionFolders, [
        { path: 'docs/adr', records: 2, foundBy: 'name' },
        { path: 'design', records: 2, foundBy: 'shape' },
      ]);
      assert.match(
        run(['index', '--root', repo.dir, '--state-dir', repoState]).stdout,
        /^ {2}design: 2 records \(found by shape\)$/m,
      );
    } finally {
      repo.dispose();
      rmSync(repoState, { recursive: true, force: true });
    }
  });

  it('refuses suggest on a missing file with the words every surface uses, exit 2', () => {
    const repo = new TempRepo(true, 'pc-cli-missing-');
    try {
      repo.commit('code', { 'src/a.ts': 'export const a = 1;\n' });
      const r = run(['suggest', '--root', repo.dir, '--state-dir', join(state, 'missing'), '--file', 'src/gone.ts']);
      assert.equal(r.code, 2, r.stderr);
      assert.equal(
        r.stderr.trim(),
        'proactive-context: src/gone.ts does not exist in the workspace; check the path (relative to the workspace folder).',
      );
      assert.equal(r.stdout, '');
      const ok = run(['suggest', '--root', repo.dir, '--state-dir', join(state, 'missing'), '--file', 'src/a.ts']);
      assert.equal(ok.code, 0, ok.stderr);
    } finally {
      repo.dispose();
    }
  });
});
