import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ContextService } from '../../../src/core/api/contextService';
import type { SnapshotSource } from '../../../src/core/api/types';
import type { ContextSuggestion } from '../../../src/core/types';
import { TempRepo } from '../git/repoFixture';

const MODULES = ['auth', 'billing', 'cart', 'orders', 'users', 'search'];

/**
 * A TypeScript repository with `commits` commits: modules that import and call each other, a decision
 * record and docs, changed a few files at a time so that history gives co-change pairs.
 */
export function buildRepo(commits: number): TempRepo {
  const repo = new TempRepo(true, 'pc-snap-', 1_700_000_000);
  repo.commit('Start', {
    'docs/adr/0001-money-in-cents.md':
      '# 1. Money in cents\n\n## Status\n\nAccepted\n\n## Decision\n\n`src/billing.ts` and `src/cart.ts` keep amounts in cents.\n',
    'README.md': '# Shop\n\n## Billing\n\nInvoices come from `src/billing.ts`.\n',
    ...Object.fromEntries(MODULES.map((m) => [`src/${m}.ts`, moduleText(m, 0)])),
    // Files no later commit touches: a snapshot spares parsing them again.
    ...Object.fromEntries(
      Array.from({ length: 12 }, (_, i) => [
        `src/lib/util${i}.ts`,
        `import { authCheck } from '../auth';\nexport function util${i}(n: number) {\n  return authCheck(n) + ${i};\n}\n`,
      ]),
    ),
  });
  for (let i = 1; i < commits; i++) {
    const a = MODULES[i % MODULES.length];
    const b = MODULES[(i * 7 + 1) % MODULES.length];
    const files: Record<string, string> = { [`src/${a}.ts`]: moduleText(a, i), [`src/${b}.ts`]: moduleText(b, i) };
    if (i % 10 === 0)
      files[`src/extra${i}.ts`] =
        `import { ${a}Run } from './${a}';\nexport function extra${i}() {\n  return ${a}Run(${i});\n}\n`;
    repo.commit(`Change ${a} and ${b} (${i})`, files);
  }
  return repo;
}

function moduleText(m: string, version: number): string {
  const next = MODULES[(MODULES.indexOf(m) + 1) % MODULES.length];
  return [
    `import { ${next}Check } from './${next}';`,
    '',
    `/** ${m} step ${version} */`,
    `export function ${m}Run(n: number): number {`,
    `  return ${next}Check(n) + ${version};`,
    '}',
    '',
    `export function ${m}Check(n: number): number {`,
    `  return n * ${version + 1};`,
    '}',
    ...(version % 3 === 0 ? ['', `export function ${m}Extra${version}() {`, `  return ${m}Run(${version});`, '}'] : []),
    '',
  ].join('\n');
}

export function tempDir(prefix: string): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

/** A second clone of `repo` (its own objects, as `git clone --no-local` makes), checked out at `rev`. */
export function cloneAt(repo: TempRepo, rev: string): string {
  const dir = tempDir('pc-snap-clone-');
  rmSync(dir, { recursive: true, force: true });
  execFileSync('git', ['clone', '-q', '--no-local', repo.dir, dir]);
  execFileSync('git', ['reset', '-q', '--hard', rev], { cwd: dir });
  return dir;
}

/** Indexes `root` fully into `stateDir` (from `snapshot` when given) and returns what refreshAll said. */
export async function indexed(
  root: string,
  stateDir: string,
  snapshot?: SnapshotSource,
): Promise<{ service: ContextService; summary: Awaited<ReturnType<ContextService['workspace']['refreshAll']>> }> {
  const service = await ContextService.open({ root, stateDir, ...(snapshot ? { snapshot } : {}) });
  const summary = await service.workspace.refreshAll();
  return { service, summary };
}

/** Suggestions for a file without what differs between two runs (ids, times). */
export async function suggestionsFor(service: ContextService, file: string): Promise<unknown> {
  const s: ContextSuggestion = await service.suggestions.complete(
    await service.suggestions.suggestAt({ file }, { trigger: 'manual' }),
  );
  return { items: s.items, notes: s.notes, status: s.status };
}
