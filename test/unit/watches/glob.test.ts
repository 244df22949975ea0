import * as assert from 'node:assert/strict';
import { compileGlob, GlobError } from '../../../src/core/watches/glob';

describe('watch globs', () => {
  it('matches the usual shapes of workspace globs', () => {
    const yes: [string, string][] = [
      ['src/auth/**', 'src/auth/session.ts'],
      ['src/auth/**', 'src/auth/deep/er/x.ts'],
      ['src/**/*.test.ts', 'src/a/b/c.test.ts'],
      ['src/**/*.test.ts', 'src/c.test.ts'],
      ['*.md', 'docs/adr/0001-x.md'],
      ['src/{auth,billing}/*.ts', 'src/billing/invoice.ts'],
      ['src/file?.ts', 'src/file1.ts'],
      ['src/[a-c]*.ts', 'src/beta.ts'],
      ['src/[!a-c]*.ts', 'src/delta.ts'],
      ['src/auth', 'src/auth/session.ts'],
      ['src/auth/session.ts', 'src/auth/session.ts'],
      ['.github/**', '.github/workflows/ci.yml'],
    ];
    for (const [glob, path] of yes) assert.equal(compileGlob(glob).matches(path), true, `${glob} ~ ${path}`);
    const no: [string, string][] = [
      ['src/auth/**', 'src/billing/invoice.ts'],
      ['src/*.ts', 'src/a/b.ts'],
      ['src/{auth,billing}/*.ts', 'src/core/x.ts'],
      ['src/[!a-c]*.ts', 'src/beta.ts'],
      ['src/auth/session.ts', 'src/auth/session.tsx'],
    ];
    for (const [glob, path] of no) assert.equal(compileGlob(glob).matches(path), false, `${glob} !~ ${path}`);
  });

  it('refuses globs that leave the workspace, are empty or too long', () => {
    for (const bad of ['', '   ', '../x/**', 'src/../../x', '/etc/**', 'C:/x', 'x'.repeat(501), 'src/{a,b'])
      assert.throws(() => compileGlob(bad), GlobError, JSON.stringify(bad.slice(0, 20)));
    assert.throws(() => compileGlob(`src/${'{a,b}'.repeat(8)}`), /more than 64 alternatives/);
  });

  it('matches pathological globs against long paths without backtracking', () => {
    // A regular expression built from such a glob backtracks exponentially; the matcher is polynomial.
    const glob = `${'**/'.repeat(40)}${'*a'.repeat(60)}b`;
    const path = `${'d/'.repeat(60)}${'a'.repeat(200)}`;
    assert.equal(compileGlob(glob).matches(path), false);
    assert.equal(compileGlob(glob).matches(`${path}b`), true);
  });
});
