import * as assert from 'node:assert/strict';
import { join } from 'node:path';
import { build, type Plugin } from 'esbuild';

const ROOT = join(__dirname, '..', '..', '..', '..', '..');

/** As esbuild.mjs bundles it: the CLI is loaded from beside the launcher, never bundled into it. */
const cliApart: Plugin = {
  name: 'cli-apart',
  setup(b) {
    b.onResolve({ filter: /^\.\/main(\.js)?$/ }, () => ({ path: './cli.js', external: true }));
  },
};

describe('the hook launcher bundle', function () {
  this.timeout(60_000);

  it('holds only what a warm hook needs: no database, no parser, no MCP SDK', async () => {
    const result = await build({
      absWorkingDir: ROOT,
      entryPoints: ['src/cli/hookMain.ts'],
      bundle: true,
      platform: 'node',
      format: 'cjs',
      target: 'node20',
      external: ['vscode'],
      plugins: [cliApart],
      metafile: true,
      write: false,
      logLevel: 'silent',
    });
    const inputs = Object.keys(result.metafile.inputs);
    assert.ok(inputs.includes('src/cli/hookMain.ts'), `the launcher itself is bundled: ${inputs.join(', ')}`);
    const heavy = inputs.filter((p) =>
      /node_modules\/(sql\.js|@vscode\/tree-sitter-wasm|@modelcontextprotocol|zod)\/|src\/core\/(store|index)\/|src\/core\/api\/(?!hookLauncher\.ts)/.test(
        p,
      ),
    );
    assert.deepEqual(heavy, [], 'every agent edit starts this bundle; the heavy parts load only for a one-shot answer');
    const bytes = result.outputFiles.reduce((n, f) => n + f.contents.length, 0);
    assert.ok(bytes < 100_000, `the launcher is ${bytes} bytes`);
  });
});
