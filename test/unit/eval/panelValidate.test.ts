import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TempRepo } from '../git/repoFixture';

const repoRoot = join(__dirname, '..', '..', '..', '..');
const VALIDATE = join(repoRoot, 'bench', 'panel', 'validate.mjs');

/** The label validator on a real checkout: a file named with `#` is a file, not a section of one. */
describe('bench/panel/validate.mjs', function () {
  this.timeout(60000);
  let repos: string;
  let labels: string;
  let repo: TempRepo;

  beforeEach(() => {
    repos = mkdtempSync(join(tmpdir(), 'pc-validate-repos-'));
    labels = mkdtempSync(join(tmpdir(), 'pc-validate-labels-'));
    repo = new TempRepo();
    // The validator reads each checkout at `<repos>/<owner>__<name>`.
    symlinkSync(repo.dir, join(repos, 'acme__identity'));
  });
  afterEach(() => {
    repo.dispose();
    rmSync(repos, { recursive: true, force: true });
    rmSync(labels, { recursive: true, force: true });
  });

  const run = (decisions: string[], docs: string[]) => {
    const commit = repo.commit('workspace', {
      'docs/adr/0005-use-dotNet-C#-for-the-server.md': '# 5. Use .NET\n\nWe use C#.\n',
      'docs/guide.md': '# Guide\n\n## Sign in\n\nHow to sign in.\n',
      'src/Server.cs': 'public class Server {\n  public void Start() {}\n}\n',
    });
    writeFileSync(
      join(labels, 'acme__identity.json'),
      JSON.stringify({
        repo: 'acme/identity',
        commit,
        set: 'check',
        cases: [{ file: 'src/Server.cs', line: 2, symbol: 'Start', decisions, docs, callers: [], cochange: [] }],
      }),
    );
    return spawnSync(process.execPath, [VALIDATE, '--repos', repos, '--labels', labels], { encoding: 'utf8' });
  };

  it('takes a record whose file name has a `#` for that file', () => {
    const r = run(['docs/adr/0005-use-dotNet-C#-for-the-server.md'], ['docs/guide.md#Sign in']);
    assert.equal(r.status, 0, r.stdout + r.stderr);
    assert.match(r.stdout, /1 cases, 0 problems/);
  });

  it('still reports a heading a document does not have, and a file that does not exist', () => {
    const r = run(['docs/adr/0006-missing.md'], ['docs/guide.md#Sign out']);
    assert.equal(r.status, 1, r.stdout);
    assert.match(r.stdout, /0006-missing\.md: no such file/);
    assert.match(r.stdout, /guide\.md#Sign out: no such heading/);
  });
});
