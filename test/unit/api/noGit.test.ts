import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { ContextService } from '../../../src/core/api/contextService';
import { TempRepo } from '../git/repoFixture';

const REASON = 'Restricted Mode: history and co-change are off until you trust this folder.';
const CALC = [
  'export function total(xs: number[]): number {',
  '  let t = 0;',
  '  for (const x of xs) t += x;',
  '  return t;',
  '}',
  '',
].join('\n');
const ADR = [
  '# 1. Totals in cents',
  '',
  '## Status',
  '',
  'Accepted',
  '',
  '## Decision',
  '',
  '`total` in `src/calc.ts` adds cents, never floats.',
  '',
].join('\n');

/**
 * A `git` first on PATH that logs every call (its working folder and arguments) and then runs the
 * real git: the proof that counts processes, whichever code path starts them.
 */
class GitSpy {
  readonly dir = mkdtempSync(join(tmpdir(), 'pc-gitspy-'));
  readonly log = join(this.dir, 'calls.log');
  private readonly savedPath = process.env.PATH;

  constructor() {
    const real = execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim();
    const script = join(this.dir, 'git');
    writeFileSync(script, `#!/bin/sh\nprintf '%s\\t%s\\n' "$PWD" "$*" >> '${this.log}'\nexec '${real}' "$@"\n`);
    chmodSync(script, 0o755);
    process.env.PATH = `${this.dir}${delimiter}${this.savedPath ?? ''}`;
  }

  /** The logged calls made from inside `root`. */
  callsIn(root: string): string[] {
    if (!existsSync(this.log)) return [];
    return readFileSync(this.log, 'utf8')
      .split('\n')
      .filter((l) => l.startsWith(root));
  }

  dispose(): void {
    process.env.PATH = this.savedPath;
    rmSync(this.dir, { recursive: true, force: true });
  }
}

describe('an engine opened with git off', function () {
  this.timeout(60000);
  let repo: TempRepo;
  let stateDir: string;
  let spy: GitSpy;
  let service: ContextService;

  beforeEach(async () => {
    repo = new TempRepo();
    repo.commit('add calc', {
      'src/calc.ts': CALC,
      'docs/adr/0001-totals-in-cents.md': ADR,
      '.gitignore': 'generated/\n',
    });
    repo.commit('guard the loop', { 'src/calc.ts': CALC.replace('t += x;', 'if (Number.isFinite(x)) t += x;') });
    repo.write('generated/big.ts', 'export function generatedOnly(): number {\n  return 1;\n}\n');
    // A repository can make git run a program of its own choosing: none may run before trust.
    repo.git('config', 'core.fsmonitor', 'true');
    stateDir = mkdtempSync(join(tmpdir(), 'pc-nogit-'));
    spy = new GitSpy();
    service = await ContextService.open({
      root: repo.dir,
      stateDir,
      noGit: { reason: REASON },
      config: { minRelevanceScore: 0, recentChangeDays: 3650 },
    });
  });

  afterEach(() => {
    service.dispose();
    spy.dispose();
    repo.dispose();
    rmSync(stateDir, { recursive: true, force: true });
  });

  it('starts no git process while it indexes, answers and explains, and still shows decisions and code', async () => {
    await service.workspace.startBackgroundWork();
    await service.workspace.refreshAll();
    service.watches.start();
    const first = await service.suggestions.suggestAt({ file: 'src/calc.ts', line: 2 });
    const answer = await service.suggestions.complete(first);
    const why = await service.suggestions.explainWhy({ file: 'src/calc.ts', line: 2 });
    service.workspace.fileChanged('src/calc.ts');
    service.workspace.fileChanged('.git/HEAD');
    const atHead = await service.workspace.fileAtRevision('HEAD', 'src/calc.ts');
    const decisions = await service.decisions.list();

    assert.deepEqual(spy.callsIn(repo.dir), []);
    assert.equal(atHead, '');
    assert.equal(service.gitAllowed, false);
    assert.deepEqual(
      decisions.map((d) => d.title),
      ['Totals in cents'],
    );
    assert.ok(
      answer.items.some((i) => i.type === 'decision'),
      'the decision record governs total',
    );
    assert.equal(answer.items.filter((i) => i.type === 'change' || i.type === 'cochange').length, 0);
    assert.ok(answer.notes?.includes(REASON), `the reason is told: ${JSON.stringify(answer.notes)}`);
    assert.deepEqual(why.lineHistory, []);
    // The code index is built from a walk of the tree that honours .gitignore.
    assert.equal(service.workspace.symbolAt('src/calc.ts', 2)?.name, 'total');
    assert.equal(service.workspace.symbolAt('generated/big.ts', 2), undefined);
  });

  it('mines history as soon as git is allowed, without opening again', async () => {
    await service.workspace.startBackgroundWork();
    assert.deepEqual(spy.callsIn(repo.dir), []);
    const mined = new Promise<void>((resolve) => {
      const sub = service.workspace.onDidChangeWorkspaceData(() => {
        if (service.workspace.historyStats().commits > 0) {
          sub.dispose();
          resolve();
        }
      });
    });
    service.allowGit();
    await mined;

    const answer = await service.suggestions.suggestAt({ file: 'src/calc.ts', line: 2 });
    assert.equal(service.gitAllowed, true);
    assert.ok(
      answer.items.some((i) => i.type === 'change' && i.title.includes('guard the loop')),
      `a recent change: ${JSON.stringify(answer.items.map((i) => i.title))}`,
    );
    assert.ok(!answer.notes?.includes(REASON));
    assert.ok(spy.callsIn(repo.dir).length > 0, 'the logging git sees the engine’s calls once allowed');
  });
});
