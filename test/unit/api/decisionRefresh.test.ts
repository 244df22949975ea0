import { strict as assert } from 'node:assert';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ContextService } from '../../../src/core/api/contextService';
import { GitRunLog } from '../git/gitRuns';
import { TempRepo } from '../git/repoFixture';

const ADR = 'docs/adr/0001-cap-discounts.md';

/**
 * A long-lived process (an MCP server answering hooks) asks for the same file again and again: the
 * decision records are looked for once, and again only when one changed. Discovery is counted by
 * the `git ls-files` runs of the real git, through a wrapper on PATH that logs each call.
 */
describe('decision records in a long-lived service', () => {
  let repo: TempRepo;
  let stateDir: string;
  let gitLog: GitRunLog;
  let service: ContextService;

  const gitRuns = (): string[] => gitLog.runs();
  const listings = (): number => gitRuns().filter((l) => / ls-files /.test(` ${l} `)).length;
  const decisionText = async (): Promise<string> => {
    const s = await service.suggestions.suggestForInput({ file: 'src/a.ts' }, { record: false });
    return s.items
      .filter((i) => i.type === 'decision')
      .map((i) => JSON.stringify(i))
      .join('\n');
  };

  before(async () => {
    repo = new TempRepo(true, 'pc-decision-refresh-');
    repo.commit('Add pricing', {
      'src/a.ts': 'export function price(x: number): number {\n  return x * 0.5;\n}\n',
      [ADR]:
        '# 1. Cap discounts at fifty percent\n\n## Status\n\nAccepted\n\n## Context\n\nDiscounts lost money.\n\n' +
        '## Decision\n\nDiscounts are capped in `src/a.ts`; never compute a price below half.\n',
    });
    stateDir = mkdtempSync(join(tmpdir(), 'pc-decision-refresh-state-'));
    gitLog = new GitRunLog();
    service = await ContextService.open({ root: repo.dir, stateDir, config: { minRelevanceScore: 0 } });
  });

  after(() => {
    gitLog.dispose();
    service.dispose();
    repo.dispose();
    rmSync(stateDir, { recursive: true, force: true });
  });

  it('looks for records once while nothing changes, and again once a record changed', async () => {
    assert.match(await decisionText(), /never compute a price below half/);
    const first = listings();
    assert.ok(first >= 1, 'the first question lists the workspace');
    const runs = gitRuns().length;
    assert.match(await decisionText(), /never compute a price below half/);
    assert.match(await decisionText(), /never compute a price below half/);
    assert.equal(listings(), first, 'no listing while nothing changed');
    assert.deepEqual(gitRuns().slice(runs), [], 'no git process at all while nothing changed');

    const before = readFileSync(join(repo.dir, ADR), 'utf8');
    writeFileSync(join(repo.dir, ADR), before.replace('below half', 'below forty percent of the list price'));
    assert.match(await decisionText(), /below forty percent of the list price/);
    assert.ok(listings() > first, 'a changed record is read again');
  });

  it('finds a record added beside the others without a commit', async () => {
    const seen = listings();
    repo.write(
      'docs/adr/0002-round-prices.md',
      '# 2. Round prices to cents\n\n## Status\n\nAccepted\n\n## Decision\n\nPrices in `src/a.ts` are rounded to whole cents.\n',
    );
    assert.match(await decisionText(), /rounded to whole cents/);
    assert.ok(listings() > seen);
    const after = listings();
    await decisionText();
    assert.equal(listings(), after);
  });
});
