import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ContextService } from '../../../src/core/api/contextService';
import { script } from './processes';
import { TempRepo } from './repoFixture';

const A = (n: number) => `export function price(x: number): number {\n  return x * ${n};\n}\n`;
const B = (n: number) => `import { price } from './a';\nexport const total = price(${n});\n`;

/**
 * Every setting of a repository's configuration that can start a program, each pointing at a script
 * that leaves a marker; the engine's indexing and a suggestion (what `index` and `suggest` run) must
 * leave none.
 */
describe('what the repository configures, git does not run', function () {
  this.timeout(120_000);
  let repo: TempRepo;
  let tools: string;
  let markers: string;
  let state: string;

  before(() => {
    repo = new TempRepo(true, 'pc-git-', Math.floor(Date.now() / 1000) - 10 * 86400);
    tools = mkdtempSync(join(tmpdir(), 'pc-programs-'));
    markers = join(tools, 'ran');
    state = join(tools, 'state');
    mkdirSync(markers);
    const marker = (name: string) =>
      script(join(tools, name), `touch '${join(markers, name)}'\ncat >/dev/null 2>&1\nexit 0`);
    // A commit signed by a stand-in for gpg, so that log.showSignature has something to check.
    const sign = script(
      join(tools, 'sign'),
      `cat >/dev/null\nprintf '\\n[GNUPG:] SIG_CREATED D 1 8 00 1 ABC\\n' >&2\nprintf -- '-----BEGIN PGP SIGNATURE-----\\n\\nx\\n-----END PGP SIGNATURE-----\\n'`,
    );
    repo.write('.gitattributes', '* diff=x filter=y\n');
    for (let i = 1; i <= 4; i++) repo.commit(`price ${i}`, { 'src/a.ts': A(i), 'src/b.ts': B(i) });
    repo.git(
      '-c',
      `gpg.program=${sign}`,
      '-c',
      'user.signingkey=ABC',
      'commit',
      '-q',
      '-S',
      '--allow-empty',
      '-m',
      'signed',
    );
    const hooks = join(tools, 'hooks');
    mkdirSync(hooks);
    for (const h of [
      'post-index-change',
      'reference-transaction',
      'post-checkout',
      'pre-auto-gc',
      'post-rewrite',
      'fsmonitor-watchman',
      'pre-commit',
      'post-merge',
    ])
      script(join(hooks, h), `touch '${join(markers, `hook-${h}`)}'`);
    const config: [string, string][] = [
      ['core.fsmonitor', marker('fsmonitor')],
      ['core.hooksPath', hooks],
      ['core.pager', marker('pager')],
      ['core.askPass', marker('askpass')],
      ['core.sshCommand', marker('ssh')],
      ['core.alternateRefsCommand', marker('alternate-refs')],
      ['credential.helper', marker('credential')],
      ['diff.external', marker('external-diff')],
      ['diff.x.command', marker('diff-command')],
      ['diff.x.textconv', marker('textconv')],
      ['filter.y.clean', marker('clean')],
      ['filter.y.smudge', marker('smudge')],
      ['filter.y.process', marker('process')],
      ['filter.y.required', 'true'],
      ['gpg.program', marker('gpg')],
      ['log.showSignature', 'true'],
    ];
    for (const [k, v] of config) repo.git('config', k, v);
    // An uncommitted edit (diffed through textconv and the clean filter unless they are off), and a
    // file touched with the same size (status hashes it through the clean filter).
    writeFileSync(join(repo.dir, 'src/a.ts'), A(5) + '// more\n');
    const later = new Date(Date.now() + 5000);
    utimesSync(join(repo.dir, 'src/b.ts'), later, later);
    assert.deepEqual(readdirSync(markers), [], 'the fixture itself ran a program');
  });
  after(() => {
    repo.dispose();
    rmSync(tools, { recursive: true, force: true });
  });

  it('index and suggest read history and changes and start none of them', async () => {
    const service = await ContextService.open({
      root: repo.dir,
      stateDir: state,
      config: { minRelevanceScore: 0, recentChangeDays: 3650 },
    });
    try {
      await service.workspace.refreshAll();
      const s = await service.suggestions.complete(
        await service.suggestions.suggestAt({ file: 'src/a.ts', line: 2, symbolName: 'price' }, { trigger: 'manual' }),
      );
      assert.deepEqual(readdirSync(markers), []);
      // History and the uncommitted change were read all the same.
      assert.ok(
        s.items.some((i) => i.type === 'cochange' && i.location.path === 'src/b.ts'),
        JSON.stringify(s.items.map((i) => i.title)),
      );
      assert.ok(
        s.items.some((i) => i.type === 'change' && i.meta?.uncommitted),
        JSON.stringify(s.items.map((i) => i.title)),
      );
      assert.equal(await service.workspace.fileAtRevision('HEAD', 'src/a.ts'), A(4));
      assert.deepEqual(readdirSync(markers), []);
    } finally {
      service.dispose();
    }
  });

  it('runs a filter the configuration defines in no way: not even a filter named with "="', async () => {
    repo.git('config', 'filter.a=b.clean', join(tools, 'clean'));
    writeFileSync(join(repo.dir, '.git', 'info', 'attributes'), 'src/b.ts filter=a=b\n');
    const service = await ContextService.open({ root: repo.dir, stateDir: `${state}-2` });
    try {
      await service.workspace.refreshAll();
      await service.suggestions.complete(
        await service.suggestions.suggestAt({ file: 'src/b.ts', line: 2 }, { trigger: 'manual' }),
      );
      assert.deepEqual(readdirSync(markers), []);
      assert.equal(readFileSync(join(repo.dir, 'src/b.ts'), 'utf8'), B(4));
    } finally {
      service.dispose();
    }
  });
});
