import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ContextService } from '../../../src/core/api/contextService';
import { GitService } from '../../../src/core/git/gitService';
import { dubiousOwnership } from '../../../src/core/git/repoState';
import { gitEnv, parseProfile } from '../../../src/core/git/repoConfig';
import { checkRevision } from '../../../src/core/git/revisions';
import { PartialClone } from './partialClone';
import { TempRepo } from './repoFixture';

describe('repositories git must be careful with', function () {
  this.timeout(120_000);
  const cleanup: (() => void)[] = [];
  afterEach(() => {
    for (const c of cleanup.splice(0).reverse()) c();
  });

  function stateDir(): string {
    const dir = mkdtempSync(join(tmpdir(), 'pc-untrusted-state-'));
    cleanup.push(() => rmSync(dir, { recursive: true, force: true }));
    return dir;
  }

  it('a partial clone: indexing and a suggestion fetch nothing, and the answer says line counts are off', async () => {
    const clone = new PartialClone();
    cleanup.push(() => clone.dispose());
    const service = await ContextService.open({
      root: clone.dir,
      stateDir: stateDir(),
      config: { minRelevanceScore: 0 },
    });
    cleanup.push(() => service.dispose());
    await service.workspace.refreshAll();
    const s = await service.suggestions.complete(
      await service.suggestions.suggestAt({ file: 'src/a.ts', line: 1 }, { trigger: 'manual' }),
    );
    assert.deepEqual(clone.fetches(), [], 'the remote was asked for objects');
    assert.ok(
      s.notes?.some((n) => n.startsWith('Partial clone: line counts are off')),
      JSON.stringify(s.notes),
    );
    // History itself (trees and commits) is all there.
    assert.ok(
      s.items.some((i) => i.type === 'change' && i.location.commit),
      JSON.stringify(s.items.map((i) => i.title)),
    );
    assert.equal((await new GitService(clone.dir).state()).partialClone, true);
  });

  it("a repository another user owns: the reason is git's, with the command that trusts it", async () => {
    const repo = new TempRepo();
    cleanup.push(() => repo.dispose());
    repo.commit('first', { 'a.ts': 'export const a = 1;\n' });
    // As root, git refuses a folder another uid owns; otherwise git's own test switch says the same.
    const root = process.getuid?.() === 0;
    if (root) execFileSync('chown', ['-R', '12345', repo.dir]);
    else process.env.GIT_TEST_ASSUME_DIFFERENT_OWNER = '1';
    cleanup.push(() => {
      if (root) execFileSync('chown', ['-R', String(process.getuid!()), repo.dir]);
      else delete process.env.GIT_TEST_ASSUME_DIFFERENT_OWNER;
    });
    const state = await new GitService(repo.dir).state();
    assert.equal(state.reason, 'dubious-ownership');
    assert.match(state.detail ?? '', /dubious ownership/);
    assert.ok(state.detail?.includes(`git config --global --add safe.directory ${repo.dir}`), state.detail);
    const service = await ContextService.open({ root: repo.dir, stateDir: stateDir() });
    cleanup.push(() => service.dispose());
    await service.workspace.refreshAll();
    const s = await service.suggestions.suggestAt({ file: 'a.ts', line: 1 }, { trigger: 'manual' });
    const note = s.notes?.find((n) => n.includes('another user owns it'));
    assert.ok(note?.includes(`safe.directory ${repo.dir}`), JSON.stringify(s.notes));
    assert.ok(!s.notes?.some((n) => n.startsWith('Not a git repository')), JSON.stringify(s.notes));
  });

  it("tells dubious ownership from other failures by git's words, and adds the fix when git does not give it", () => {
    const path = '/srv/shared repo';
    const modern = `fatal: detected dubious ownership in repository at '${path}'\nTo add an exception for this directory, call:\n\n\tgit config --global --add safe.directory '${path}'\n`;
    assert.equal(
      dubiousOwnership(modern),
      `detected dubious ownership in repository at '${path}' To add an exception for this directory, call: git config --global --add safe.directory '${path}'`,
    );
    assert.equal(
      dubiousOwnership(`fatal: detected dubious ownership in repository at '${path}'\n`),
      `detected dubious ownership in repository at '${path}' To trust it: git config --global --add safe.directory ${path}`,
    );
    assert.equal(dubiousOwnership('fatal: not a git repository (or any of the parent directories): .git\n'), undefined);
  });

  it('takes a revision from outside only as a commit id or HEAD: an option is refused before git runs', async () => {
    const repo = new TempRepo();
    cleanup.push(() => repo.dispose());
    const first = repo.commit('first', { 'a.ts': 'one\n' });
    repo.commit('second', { 'a.ts': 'two\n' });
    const out = join(repo.dir, '..', `${repo.dir.split('/').pop()}-written`);
    cleanup.push(() => {
      rmSync(out, { force: true });
      rmSync(`${out}:a.ts`, { force: true });
    });
    const git = new GitService(repo.dir);
    const service = await ContextService.open({ root: repo.dir, stateDir: stateDir() });
    cleanup.push(() => service.dispose());
    for (const ref of [`--output=${out}`, '-p', 'main', 'HEAD@{1}', 'HEAD:a.ts', `${first}..HEAD`, '']) {
      await assert.rejects(git.fileAtRevision(ref, 'a.ts'), /Invalid revision/, ref);
      await assert.rejects(
        service.workspace.fileAtRevision(ref, 'a.ts'),
        (e: Error & { code?: string }) => /Invalid revision .*expected a commit id/.test(e.message),
        ref,
      );
    }
    assert.equal(existsSync(out) || existsSync(`${out}:a.ts`), false);
    assert.equal(await service.workspace.fileAtRevision('HEAD', 'a.ts'), 'two\n');
    assert.equal(await service.workspace.fileAtRevision('HEAD~1', 'a.ts'), 'one\n');
    assert.equal(await service.workspace.fileAtRevision(`${repo.head()}^`, 'a.ts'), 'one\n');
    assert.equal(await service.workspace.fileAtRevision(first.slice(0, 8), 'a.ts'), 'one\n');
    assert.equal(
      await service.workspace.fileAtRevision(`${first}^`, 'a.ts'),
      '',
      'before the first commit the file did not exist',
    );
  });

  it('checks revisions and reads the drivers and partial clone settings of a configuration', () => {
    for (const ok of ['HEAD', 'HEAD~3', 'HEAD^', 'HEAD^2~1', 'abcd', 'a'.repeat(40), `${'b'.repeat(64)}^`])
      assert.equal(checkRevision(ok), undefined, ok);
    for (const bad of [
      'abc',
      'head',
      '--output=x',
      'HEAD~',
      'HEAD^3',
      'g'.repeat(40),
      'a'.repeat(65),
      'HEAD -- x',
      'HEAD\n',
    ])
      assert.match(checkRevision(bad) ?? '', /^Invalid revision/, bad);
    const p = parseProfile(
      [
        'filter.lfs.clean\ngit-lfs clean -- %f',
        'filter.a.b=c.process\nx',
        'diff.external\nx',
        'diff.img.textconv\nexif',
        'remote.origin.url\nx',
        'remote.origin.promisor\nfalse',
        '',
      ].join('\0'),
    );
    assert.equal(p.partialClone, false);
    assert.deepEqual(
      p.overrides.map(([k]) => k).filter((k) => k.endsWith('.clean') || k.endsWith('.textconv')),
      ['filter.lfs.clean', 'filter.a.b=c.clean', 'diff.img.textconv'],
    );
    assert.equal(parseProfile('remote.origin.promisor\ntrue\0').partialClone, true);
    assert.equal(parseProfile('extensions.partialclone\norigin\0').partialClone, true);
  });

  it('gives git an environment without askpass, external diff or ssh programs, with the driver overrides after any given', () => {
    const env = gitEnv(parseProfile('filter.lfs.clean\nx\0'), {
      PATH: '/bin',
      GIT_ASKPASS: 'a',
      SSH_ASKPASS: 'b',
      GIT_EXTERNAL_DIFF: 'c',
      GIT_SSH_COMMAND: 'd',
      GIT_CONFIG_COUNT: '1',
      GIT_CONFIG_KEY_0: 'user.name',
      GIT_CONFIG_VALUE_0: 'Ada',
    });
    for (const gone of ['GIT_ASKPASS', 'SSH_ASKPASS', 'GIT_EXTERNAL_DIFF', 'GIT_SSH_COMMAND'])
      assert.equal(env[gone], undefined, gone);
    assert.equal(env.GIT_NO_LAZY_FETCH, '1');
    assert.equal(env.GIT_TERMINAL_PROMPT, '0');
    assert.equal(env.GIT_CONFIG_COUNT, '5');
    assert.deepEqual([env.GIT_CONFIG_KEY_0, env.GIT_CONFIG_VALUE_0], ['user.name', 'Ada']);
    assert.deepEqual([env.GIT_CONFIG_KEY_1, env.GIT_CONFIG_VALUE_1], ['filter.lfs.clean', '']);
    assert.deepEqual([env.GIT_CONFIG_KEY_4, env.GIT_CONFIG_VALUE_4], ['filter.lfs.required', 'false']);
  });
});
