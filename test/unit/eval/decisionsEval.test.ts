import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readDecisionLabels, runDecisionsEval, type DecisionLabels } from '../../../src/measure/eval/decisionsEval';
import { LabelsError } from '../../../src/measure/eval/labelFile';
import { TempRepo } from '../git/repoFixture';

const cli = join(__dirname, '..', '..', '..', 'src', 'cli', 'main.js');

describe('decision linking evaluation', function () {
  this.timeout(60000);
  let repo: TempRepo;
  let labelsDir: string;
  let labels: DecisionLabels;

  before(() => {
    repo = new TempRepo();
    repo.commit('workspace', {
      'docs/adr/0001-use-knex.md':
        '# 1. Use Knex for SQL\n\n## Status\n\nAccepted\n\n## Decision\n\nQueries in `src/db/` go through knex.\n',
      'docs/adr/0002-validate-with-zod.md':
        '# 2. Validate input with zod\n\n## Status\n\nAccepted\n\n## Decision\n\nRequests are parsed with zod.\n',
      'docs/adr/0003-log-as-json.md':
        '# 3. Log as JSON\n\n## Status\n\nAccepted\n\n## Decision\n\nOne JSON line per event.\n',
      'src/db/users.ts': "import knex from 'knex';\nexport const users = () => knex('users');\n",
      'src/http/validate.ts':
        "import { z } from 'zod';\nexport const validateInput = (x: unknown) => z.string().parse(x);\n",
      'src/report.ts': 'export const report = 1;\n',
    });
    labels = {
      repo: 'example/shop',
      commit: repo.head(),
      language: 'TypeScript',
      layout: 'docs/adr/NNNN-title.md',
      records: [
        'docs/adr/0001-use-knex.md',
        'docs/adr/0002-validate-with-zod.md',
        'docs/adr/0003-log-as-json.md',
        'docs/adr/0004-gone.md',
      ],
      cases: [
        { file: 'src/db/users.ts', expected: ['docs/adr/0001-use-knex.md'], why: 'names src/db/' },
        {
          file: 'src/http/validate.ts',
          line: 2,
          symbol: 'validateInput',
          expected: ['docs/adr/0002-validate-with-zod.md'],
          why: 'zod',
        },
        { file: 'src/report.ts', expected: ['docs/adr/0003-log-as-json.md'], why: 'nothing links it' },
      ],
    };
    labelsDir = mkdtempSync(join(tmpdir(), 'pc-labels-'));
    writeFileSync(join(labelsDir, 'labels.json'), JSON.stringify(labels));
  });
  after(() => {
    repo.dispose();
    rmSync(labelsDir, { recursive: true, force: true });
  });

  it('scores the decision items the provider shows against the labels, reading the workspace only', async () => {
    const before = repo.git('status', '--porcelain', '--ignored');
    const filesBefore = readdirSync(repo.dir).sort();
    const r = await runDecisionsEval(repo.dir, labels);
    assert.equal(r.cases, 3);
    assert.deepEqual(
      r.perCase.map((c) => c.rank),
      [1, 1, 0],
    );
    assert.equal(r.hitAt5, 0.667);
    assert.equal(r.mrr, 0.667);
    assert.equal(r.discovered, 0.75, 'three of the four labelled records exist and are found');
    assert.deepEqual(r.missed, ['docs/adr/0004-gone.md']);
    assert.equal(r.expectedRecords, 3);
    assert.equal(r.noisePerPanel, Number((r.perCase.reduce((n, c) => n + c.noise, 0) / 3).toFixed(3)));
    assert.equal(r.note, undefined, 'the workspace is at the labelled commit');
    assert.equal(repo.git('status', '--porcelain', '--ignored'), before, 'nothing was written into the workspace');
    assert.deepEqual(readdirSync(repo.dir).sort(), filesBefore);
  });

  it('counts shown records that are neither expected nor acceptable as noise', async () => {
    const accepting = {
      ...labels,
      cases: [
        {
          file: 'src/db/users.ts',
          expected: ['docs/adr/0003-log-as-json.md'],
          acceptable: ['docs/adr/0001-use-knex.md'],
          why: 'x',
        },
      ],
    };
    const strict = {
      ...labels,
      cases: [{ file: 'src/db/users.ts', expected: ['docs/adr/0003-log-as-json.md'], why: 'x' }],
    };
    const [a, s] = [await runDecisionsEval(repo.dir, accepting), await runDecisionsEval(repo.dir, strict)];
    assert.ok(s.perCase[0].shown.includes('docs/adr/0001-use-knex.md'));
    assert.equal(s.noisePerPanel - a.noisePerPanel, 1);
  });

  it('refuses a malformed label file with an error naming the field', () => {
    const bad = join(labelsDir, 'bad.json');
    writeFileSync(bad, JSON.stringify({ ...labels, cases: [{ file: 'x.ts', expected: [] }] }));
    assert.throws(
      () => readDecisionLabels(bad),
      (e: Error) => e instanceof LabelsError && /case 0: "expected" must list at least one record/.test(e.message),
    );
    writeFileSync(bad, '{ not json');
    assert.throws(() => readDecisionLabels(bad), /cannot read labels/);
  });

  it('runs as `eval decisions --json` and exits 2 on bad usage', () => {
    const ok = spawnSync(
      process.execPath,
      [cli, 'eval', 'decisions', '--root', repo.dir, '--labels', join(labelsDir, 'labels.json'), '--json'],
      { encoding: 'utf8', timeout: 60000 },
    );
    assert.equal(ok.status, 0, ok.stderr);
    const out = JSON.parse(ok.stdout) as Record<string, unknown>;
    for (const key of ['cases', 'hitAt5', 'mrr', 'discovered', 'expectedRecords', 'noisePerPanel'])
      assert.equal(typeof out[key], 'number', key);
    const missing = spawnSync(process.execPath, [cli, 'eval', 'decisions', '--root', repo.dir], { encoding: 'utf8' });
    assert.equal(missing.status, 2);
    assert.match(missing.stderr, /eval decisions needs --labels FILE/);
    const mixed = spawnSync(
      process.execPath,
      [cli, 'eval', 'decisions', '--root', repo.dir, '--labels', 'x.json', '--replay', '3'],
      { encoding: 'utf8' },
    );
    assert.equal(mixed.status, 2);
    assert.match(mixed.stderr, /--replay is for eval cochange/);
  });
});
