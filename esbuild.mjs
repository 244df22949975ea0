// Builds the bundles (extension host, CLI, MCP server, webview) and copies the wasm and codicon assets
// next to them, so the packaged extension never loads anything from node_modules at run time.
import * as esbuild from 'esbuild';
import { cpSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');
const out = 'dist';

function copyAssets() {
  mkdirSync(join(out, 'media'), { recursive: true });
  cpSync('node_modules/sql.js/dist/sql-wasm.wasm', join(out, 'sql-wasm.wasm'));
  const ts = 'node_modules/@vscode/tree-sitter-wasm/wasm';
  // The grammars of the indexed languages, from the table the index itself reads.
  /** @type {Record<string, { grammar: string }>} */
  const languages = JSON.parse(readFileSync('src/core/index/languages.json', 'utf8'));
  for (const f of ['tree-sitter.wasm', ...Object.values(languages).map((l) => l.grammar)])
    cpSync(join(ts, f), join(out, f));
  cpSync('node_modules/@vscode/codicons/dist/codicon.css', join(out, 'media', 'codicon.css'));
  cpSync('node_modules/@vscode/codicons/dist/codicon.ttf', join(out, 'media', 'codicon.ttf'));
}

const common = {
  bundle: true,
  minify: production,
  // --sourcemap: a map beside a production bundle, to name the frames of its CPU profiles.
  sourcemap: production ? (process.argv.includes('--sourcemap') ? 'external' : false) : 'linked',
  logLevel: 'warning',
  legalComments: 'none',
};

// The MCP server (its SDK and schema libraries are half the CLI's code) is a bundle of its own, which
// the CLI imports only for the `mcp` command: every other command starts without reading it.
const mcpApart = {
  name: 'mcp-apart',
  setup(build) {
    build.onResolve({ filter: /^\.\/mcpRun(\.js)?$/ }, () => ({ path: './mcp.js', external: true }));
  },
};

// The hook launcher answers from a running server without the CLI: the CLI bundle is loaded (as it is,
// from beside it) only for a one-shot answer.
const cliApart = {
  name: 'cli-apart',
  setup(build) {
    build.onResolve({ filter: /^\.\/main(\.js)?$/ }, () => ({ path: './cli.js', external: true }));
  },
};

const builds = [
  {
    ...common,
    entryPoints: ['src/extension.ts'],
    outfile: join(out, 'extension.js'),
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    external: ['vscode'],
  },
  {
    ...common,
    entryPoints: ['src/cli/main.ts'],
    outfile: join(out, 'cli.js'),
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    external: ['vscode'],
    banner: { js: '#!/usr/bin/env node' },
    plugins: [mcpApart],
  },
  {
    ...common,
    entryPoints: ['src/cli/hookMain.ts'],
    outfile: join(out, 'hook.js'),
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    external: ['vscode'],
    banner: { js: '#!/usr/bin/env node' },
    plugins: [cliApart],
  },
  {
    ...common,
    entryPoints: ['src/cli/commands/mcpRun.ts'],
    outfile: join(out, 'mcp.js'),
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    external: ['vscode'],
  },
  {
    // Parses code off the main thread; the core finds it next to the bundle that started it.
    ...common,
    entryPoints: ['src/core/index/parseWorker.ts'],
    outfile: join(out, 'parseWorker.js'),
    platform: 'node',
    format: 'cjs',
    target: 'node20',
  },
  {
    ...common,
    entryPoints: ['src/webview/main.ts'],
    outfile: join(out, 'webview.js'),
    platform: 'browser',
    format: 'iife',
    target: 'es2022',
  },
];

copyAssets();
if (watch) {
  // The lines the watch task's problem matcher waits for (.vscode/tasks.json): one pair however
  // many of the bundles a save rebuilds.
  let building = 0;
  let errors = 0;
  const announce = {
    name: 'announce',
    setup(build) {
      build.onStart(() => {
        if (building++ === 0) {
          errors = 0;
          console.log('[watch] build started');
        }
      });
      build.onEnd((r) => {
        errors += r.errors.length;
        if (--building === 0) console.log(`[watch] build finished${errors ? ` with ${errors} errors` : ''}`);
      });
    },
  };
  for (const b of builds) await (await esbuild.context({ ...b, plugins: [...(b.plugins ?? []), announce] })).watch();
} else {
  await Promise.all(builds.map((b) => esbuild.build(b)));
}
