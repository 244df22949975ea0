import { strict as assert } from 'node:assert';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ContextService } from '../../../src/core/api/contextService';
import { ContextError } from '../../../src/core/api/errors';
import { fileIsFolder, noSuchFileToSuggest } from '../../../src/core/api/messages';
import { TempRepo } from '../git/repoFixture';

/** The use case the CLI, MCP and the language-model tool call for a typed path (each has its own test of the words). */
describe('ContextService.suggestForPath', () => {
  let repo: TempRepo;
  let stateDir: string;
  let service: ContextService;

  before(async () => {
    repo = new TempRepo(true, 'pc-suggest-path-');
    repo.commit('code', {
      'src/cart.ts': 'export function total(xs: number[]): number {\n  return xs.length;\n}\n',
      'docs/adr/0001-cents.md':
        '# 1. Totals in cents\n\n## Status\n\nAccepted\n\n## Decision\n\n`total` in `src/cart.ts` adds cents.\n',
    });
    stateDir = mkdtempSync(join(tmpdir(), 'pc-suggest-path-state-'));
    service = await ContextService.open({ root: repo.dir, stateDir, config: { minRelevanceScore: 0 } });
    await service.workspace.refreshAll();
  });

  after(() => {
    service.dispose();
    repo.dispose();
    rmSync(stateDir, { recursive: true, force: true });
  });

  it('refuses a missing file with one message, and a folder with another', async () => {
    await assert.rejects(service.suggestions.suggestForPath({ file: './src/gone.ts', line: 3 }), (err: unknown) => {
      assert.ok(err instanceof ContextError);
      assert.equal(err.reason, 'not_found');
      assert.equal(err.message, noSuchFileToSuggest('src/gone.ts'));
      return true;
    });
    await assert.rejects(service.suggestions.suggestForPath({ file: 'src' }), (err: unknown) => {
      assert.ok(err instanceof ContextError);
      assert.equal(err.message, fileIsFolder('src'));
      return true;
    });
  });

  it('answers an existing file, typed absolute or relative, with the record that governs it', async () => {
    for (const file of ['src/cart.ts', join(repo.dir, 'src', 'cart.ts')]) {
      const s = await service.suggestions.suggestForPath({ file, line: 2 });
      assert.equal(s.query.currentFile, 'src/cart.ts');
      assert.ok(
        s.items.some((i) => i.type === 'decision' && /Totals in cents/.test(i.title)),
        JSON.stringify(s.items.map((i) => i.title)),
      );
    }
  });
});
