import * as assert from 'node:assert/strict';
import { join, resolve } from 'node:path';
import { ESLint } from 'eslint';
import tseslint from 'typescript-eslint';

const REPO = resolve(__dirname, '..', '..', '..', '..');

/** Lints a few lines as if they were a file at `path` in the repository, with the project's own config. */
async function restrictedImports(path: string, code: string): Promise<string[]> {
  // Type information is beside the point here (the probe file is not on disk); the layering rules are not.
  const eslint = new ESLint({
    cwd: REPO,
    overrideConfig: [
      tseslint.configs.disableTypeChecked,
      { languageOptions: { parserOptions: { projectService: false, project: null } } },
    ],
  });
  const [result] = await eslint.lintText(code, { filePath: join(REPO, path) });
  return result.messages.filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
}

describe('layering enforced by lint', function () {
  this.timeout(60_000);

  it('refuses an adapter that reaches into the core past its front door', async () => {
    for (const path of ['src/vscode/probe.ts', 'src/mcp/probe.ts', 'src/cli/probe.ts']) {
      const messages = await restrictedImports(
        path,
        "import { openEngine } from '../core/engine';\nexport const x = openEngine;\n",
      );
      assert.equal(messages.length, 1, path);
      assert.match(messages[0], /only through src\/core\/api and src\/core\/types/);
    }
    assert.equal(
      (
        await restrictedImports(
          'src/vscode/chat/probe.ts',
          "import { SubscriptionRegistry } from '../../core/subscriptions/registry';\nexport const x = SubscriptionRegistry;\n",
        )
      ).length,
      1,
    );
  });

  it('lets adapters use the front door and the public types', async () => {
    const code =
      "import { ContextService } from '../core/api/contextService';\nimport type { SuggestionItem } from '../core/types';\nexport const x: SuggestionItem[] = [];\nexport const y = ContextService;\n";
    assert.deepEqual(await restrictedImports('src/mcp/probe.ts', code), []);
  });

  it('keeps VS Code out of the engine, and the engine and Node out of the page', async () => {
    assert.equal(
      (await restrictedImports('src/core/probe.ts', "import * as vscode from 'vscode';\nexport const x = vscode;\n"))
        .length,
      1,
    );
    assert.equal(
      (
        await restrictedImports(
          'src/webview/probe.ts',
          "import type { SuggestionItem } from '../core/types';\nexport const x: SuggestionItem[] = [];\n",
        )
      ).length,
      1,
    );
    assert.equal(
      (
        await restrictedImports(
          'src/webview/probe.ts',
          "import { readFileSync } from 'node:fs';\nexport const x = readFileSync;\n",
        )
      ).length,
      1,
    );
    assert.deepEqual(
      await restrictedImports(
        'src/webview/probe.ts',
        "import type { PanelState } from '../shared/protocol';\nexport const x: PanelState[] = [];\n",
      ),
      [],
    );
  });
});
