import * as assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import * as prettier from 'prettier';
import { ESLint } from 'eslint';
import tseslint from 'typescript-eslint';

const REPO = resolve(__dirname, '..', '..', '..', '..');

/** Lints a few lines as if they were a file at `path` in the repository, with the project's own config. */
async function lintMessages(path: string, code: string, ruleId: string): Promise<string[]> {
  // Type information is beside the point here (the probe file is not on disk); the layering rules are not.
  const eslint = new ESLint({
    cwd: REPO,
    overrideConfig: [
      tseslint.configs.disableTypeChecked,
      { languageOptions: { parserOptions: { projectService: false, project: null } } },
    ],
  });
  const [result] = await eslint.lintText(code, { filePath: join(REPO, path) });
  return result.messages.filter((m) => m.ruleId === ruleId).map((m) => m.message);
}

const restrictedImports = (path: string, code: string) => lintMessages(path, code, 'no-restricted-imports');
const tierMessages = (path: string, code: string) => lintMessages(path, code, 'pc/core-tiers');

describe('layering enforced by lint', function () {
  this.timeout(60_000);

  it('refuses an adapter that reaches into the core past its front door', async () => {
    for (const path of ['src/vscode/probe.ts', 'src/mcp/probe.ts', 'src/cli/probe.ts']) {
      const messages = await restrictedImports(
        path,
        "import { openEngine } from '../core/engine';\nexport const x = openEngine;\n",
      );
      assert.equal(messages.length, 1, path);
      assert.match(messages[0], /only through its door: src\/core\/api\/contextService, types, messages and errors/);
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

  it('refuses an adapter that imports past the narrowed door: the internals of a concern, or the core types', async () => {
    const past: [path: string, code: string][] = [
      [
        'src/vscode/probe.ts',
        "import { WatchUseCases } from '../core/api/service/watches';\nexport const x = WatchUseCases;\n",
      ],
      ['src/mcp/probe.ts', "import { Watching } from '../core/api/service/watching';\nexport const x = Watching;\n"],
      [
        'src/cli/commands/probe.ts',
        "import type { SuggestionItem } from '../../core/types';\nexport const x: SuggestionItem[] = [];\n",
      ],
      [
        'src/vscode/editor/probe.ts',
        "import * as api from '../../core/api/service/suggestions';\nexport const x = api;\n",
      ],
    ];
    for (const [path, code] of past) assert.equal((await restrictedImports(path, code)).length, 1, `${path}: ${code}`);
  });

  it('lets adapters use the door: the service, its types, its messages and its errors', async () => {
    const code = [
      "import { ContextService } from '../core/api/contextService';",
      "import type { SuggestionItem } from '../core/api/types';",
      "import { renderSuggestionList } from '../core/api/messages';",
      "import { ContextError } from '../core/api/errors';",
      'export const x: SuggestionItem[] = [];',
      'export const y = [ContextService, renderSuggestionList, ContextError];',
      '',
    ].join('\n');
    for (const path of ['src/mcp/probe.ts', 'src/cli/probe.ts', 'src/vscode/probe.ts'])
      assert.deepEqual(await restrictedImports(path, code), [], path);
  });

  it('keeps the shared helpers below the engine and every adapter', async () => {
    for (const code of [
      "import type { SuggestionItem } from '../core/types';\nexport const x: SuggestionItem[] = [];\n",
      "import { ids } from '../vscode/ids';\nexport const x = ids;\n",
    ])
      assert.equal((await restrictedImports('src/shared/probe.ts', code)).length, 1, code);
    assert.deepEqual(
      await restrictedImports('src/shared/probe.ts', "import { clip } from './text';\nexport const x = clip;\n"),
      [],
    );
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

/** The graph script's own functions, as `npm run lint` runs them. */
interface ImportGraph {
  graphOf: (srcDir?: string) => Map<string, string[]>;
  cycles: (graph: Map<string, string[]>) => string[][];
  upwardEdges: (graph: Map<string, string[]>) => { from: string; to: string }[];
}
const importGraph = async (): Promise<ImportGraph> =>
  (await import(pathToFileURL(join(REPO, 'scripts', 'importGraph.mjs')).href)) as ImportGraph;

describe('the core tiers, the import graph and the formatting, enforced by lint', function () {
  this.timeout(60_000);

  // One probe per tier: a module importing the tier above it.
  const upward: [path: string, code: string][] = [
    ['src/core/paths.ts', "import { GitService } from './git/gitService';\nexport const x = GitService;\n"],
    ['src/core/git/probe.ts', "import { CodeIndex } from '../index/codeIndex';\nexport const x = CodeIndex;\n"],
    [
      'src/core/index/probe.ts',
      "import type { QueryContext } from '../sources/sourceQuery';\nexport type X = QueryContext;\n",
    ],
    ['src/core/provider/probe.ts', "import { openEngine } from '../engine';\nexport const x = openEngine;\n"],
    [
      'src/core/indexer.ts',
      "export { ContextService } from './api/contextService';\nexport const x = import('./api/contextService');\n",
    ],
  ];

  it('refuses an import that points up a tier, type-only, re-export and dynamic ones included', async () => {
    for (const [path, code] of upward) {
      const messages = await tierMessages(path, code);
      assert.ok(messages.length >= 1, `${path} should be refused: ${code}`);
      assert.match(messages[0], /must not import .* the core tiers are common < platform/);
    }
  });

  it('lets a module import its own tier and the tiers below', async () => {
    const code =
      "import { oneLine } from '../text';\nimport { runGit } from '../git/gitExec';\nimport { CodeIndex } from '../index/codeIndex';\nimport { score } from './sourceQuery';\nexport const x = [oneLine, runGit, CodeIndex, score];\n";
    assert.deepEqual(await tierMessages('src/core/sources/probe.ts', code), []);
  });

  it('names a new top-level core module that is in no tier', async () => {
    const messages = await tierMessages(
      'src/core/newThing.ts',
      "import { oneLine } from './text';\nexport const x = oneLine;\n",
    );
    assert.equal(messages.length, 1);
    assert.match(messages[0], /src\/core\/newThing\.ts is in no tier/);
  });

  it('finds a cycle, type-only imports included, and none in the source tree', async () => {
    const { graphOf, cycles, upwardEdges } = await importGraph();
    const dir = mkdtempSync(join(tmpdir(), 'pc-graph-'));
    try {
      writeFileSync(join(dir, 'a.ts'), "import type { B } from './b';\nexport interface A { b?: B }\n");
      writeFileSync(join(dir, 'b.ts'), "import type { A } from './a.js';\nexport interface B { a?: A }\n");
      writeFileSync(join(dir, 'c.ts'), "import type { A } from './a';\nexport type C = A;\n");
      const found = cycles(graphOf(dir));
      assert.equal(found.length, 1);
      assert.deepEqual(found[0].map((f) => basename(f)).sort(), ['a.ts', 'b.ts']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    const graph = graphOf();
    assert.deepEqual(cycles(graph), []);
    assert.deepEqual(upwardEdges(graph), []);
  });

  it('fails a file Prettier would change, with the project configuration', async () => {
    const file = join(REPO, 'src', 'core', 'probe.ts');
    const options = { ...(await prettier.resolveConfig(file)), filepath: file };
    assert.equal(await prettier.check('export const x = {a:1,\n  b:2}\n', options), false);
    assert.equal(await prettier.check('export const x = { a: 1, b: 2 };\n', options), true);
  });
});
