import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { resolveConfig } from '../../../src/core/config';
import { scanWorkspace } from '../../../src/core/scan/scanner';

function workspace(files: Record<string, string | Buffer>): string {
  const root = mkdtempSync(join(tmpdir(), 'pc-scan-'));
  for (const [rel, content] of Object.entries(files)) {
    mkdirSync(dirname(join(root, rel)), { recursive: true });
    writeFileSync(join(root, rel), content);
  }
  return root;
}

const sample = {
  '.gitignore': 'dist/\n*.log\n',
  'src/a.ts': 'export const a = 1;\n',
  'src/b.ts': 'export const b = 2;\n',
  'src/debug.log': 'noise\n',
  'dist/bundle.js': 'built\n',
  'sub/.gitignore': 'secret.txt\n/local-only/\n',
  'sub/secret.txt': 'x\n',
  'sub/keep.txt': 'kept\n',
  'sub/local-only/x.ts': 'x\n',
  'node_modules/dep/index.js': 'dep\n',
  'image.png': Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x00, 0x01]),
  'big.txt': 'y'.repeat(5000),
  'odd name - ü.ts': 'export {};\n',
};
const expected = ['.gitignore', 'odd name - ü.ts', 'src/a.ts', 'src/b.ts', 'sub/.gitignore', 'sub/keep.txt'];
const config = resolveConfig({ index: { maxFiles: 1000, maxFileBytes: 4096, timeBudgetMs: 60000 } });

describe('scanWorkspace', () => {
  const roots: string[] = [];
  after(() => {
    for (const r of roots) rmSync(r, { recursive: true, force: true });
  });

  it('outside git: honours nested .gitignore files, skips node_modules, binaries and oversized files', async () => {
    const root = workspace(sample);
    roots.push(root);
    const result = await scanWorkspace(root, config);
    assert.equal(result.source, 'walk');
    assert.deepEqual(result.files.map((f) => f.path).sort(), expected);
    assert.deepEqual(result.skipped, { binary: 1, tooLarge: 1 });
    assert.equal(result.capped, undefined);
    const a = result.files.find((f) => f.path === 'src/a.ts')!;
    assert.equal(a.size, 20);
    assert.ok(a.mtime > 0);
  });

  it('does not open a file that was read before at the same size and time', async () => {
    const root = workspace({ 'a.dat': Buffer.from([0x41, 0x00, 0x42]), 'b.dat': Buffer.from([0x41, 0x00, 0x43]) });
    roots.push(root);
    assert.equal((await scanWorkspace(root, config)).skipped.binary, 2);
    const stamps = new Map((await scanWorkspace(root, config, { seen: () => true })).files.map((f) => [f.path, f]));
    const again = await scanWorkspace(root, config, {
      seen: (f) => f.path === 'a.dat' && f.size === 3 && f.mtime === stamps.get('a.dat')?.mtime,
    });
    // Listed with its stamp rather than sniffed: opened, its NUL byte would have left it out.
    assert.deepEqual(
      again.files.map((f) => f.path),
      ['a.dat'],
    );
    assert.equal(again.skipped.binary, 1);
  });

  it('inside git: lists tracked and untracked files that git does not ignore', async () => {
    const root = workspace(sample);
    roots.push(root);
    const git = (...args: string[]) =>
      execFileSync('git', ['-c', 'user.name=T', '-c', 'user.email=t@example.com', ...args], { cwd: root });
    git('init', '-q');
    git('add', '.gitignore', 'src/a.ts');
    git('add', '-f', 'dist/bundle.js');
    git('commit', '-q', '-m', 'init');
    // Untracked and excluded locally: not part of the workspace.
    writeFileSync(join(root, '.git', 'info', 'exclude'), 'src/b.ts\n');
    const result = await scanWorkspace(root, config);
    assert.equal(result.source, 'git');
    // dist/bundle.js is ignored but tracked, so git (and the scan) still count it.
    assert.deepEqual(
      result.files.map((f) => f.path).sort(),
      ['dist/bundle.js', ...expected.filter((p) => p !== 'src/b.ts')].sort(),
    );
    assert.deepEqual(result.skipped, { binary: 1, tooLarge: 1 });
  });

  it('with git off: walks a repository like a plain folder, honouring its .gitignore files', async () => {
    const root = workspace(sample);
    roots.push(root);
    execFileSync('git', ['init', '-q'], { cwd: root });
    // A repository, yet listed without asking git (Restricted Mode).
    const result = await scanWorkspace(root, config, { noGit: true });
    assert.equal(result.source, 'walk');
    assert.deepEqual(result.files.map((f) => f.path).sort(), expected);
  });

  it('stops at maxFiles and reports the cap', async () => {
    const many: Record<string, string> = {};
    for (let i = 0; i < 12; i++) many[`f${i}.ts`] = `export const x${i} = ${i};\n`;
    const root = workspace(many);
    roots.push(root);
    const result = await scanWorkspace(
      root,
      resolveConfig({ index: { maxFiles: 5, maxFileBytes: 4096, timeBudgetMs: 60000 } }),
    );
    assert.equal(result.files.length, 5);
    assert.deepEqual(result.capped, { reason: 'files', limit: 5 });
  });

  it('stops at the time budget and reports the cap', async () => {
    const root = workspace({ 'a.ts': 'a\n' });
    roots.push(root);
    const result = await scanWorkspace(
      root,
      resolveConfig({ index: { maxFiles: 100, maxFileBytes: 4096, timeBudgetMs: 0 } }),
    );
    assert.deepEqual(result.capped, { reason: 'time', limit: 0 });
  });

  it('can be cancelled', async () => {
    const root = workspace({ 'a.ts': 'a\n' });
    roots.push(root);
    const controller = new AbortController();
    controller.abort();
    await assert.rejects(scanWorkspace(root, config, { signal: controller.signal }));
  });
});
