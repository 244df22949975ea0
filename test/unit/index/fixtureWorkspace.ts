import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { defaultConfig } from '../../../src/core/config';
import { strict as assert } from 'node:assert';
import { CodeIndex } from '../../../src/core/index/codeIndex';
import { extractFacts } from '../../../src/core/index/extract';
import type { FileFacts } from '../../../src/core/index/facts';
import { parserFor, type LangId } from '../../../src/core/index/languages';
import type { SuggestionItem } from '../../../src/core/types';
import { CodeIndexSource } from '../../../src/core/sources/code/codeIndexSource';
import { Store } from '../../../src/core/store/store';

/** test/fixtures/index, found from the compiled test folder. */
export const fixturesDir = join(__dirname, '..', '..', '..', '..', 'test', 'fixtures', 'index');

/**
 * Copies a fixture workspace into a fresh temp folder. Sources are stored as `name.ts.fixture` so
 * the project's own compiler and linter leave them alone; the copy drops that suffix.
 */
export function copyFixture(name: string): string {
  const dest = mkdtempSync(join(tmpdir(), `pc-index-${name}-`));
  const copy = (from: string, to: string) => {
    for (const e of readdirSync(from, { withFileTypes: true })) {
      const target = join(to, e.name.replace(/\.fixture$/, ''));
      if (e.isDirectory()) {
        mkdirSync(target, { recursive: true });
        copy(join(from, e.name), target);
      } else copyFileSync(join(from, e.name), target);
    }
  };
  copy(join(fixturesDir, name), dest);
  return dest;
}

/** A workspace of small real files in a fresh temp folder. */
export function writeWorkspace(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'pc-index-ws-'));
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, rel)), { recursive: true });
    writeFileSync(join(root, rel), text);
  }
  return root;
}

/** A code index built over a workspace of small real files, and how to throw both away. */
export interface IndexedWorkspace {
  root: string;
  index: CodeIndex;
  dispose(): void;
}

export async function indexWorkspace(files: Record<string, string>): Promise<IndexedWorkspace> {
  const root = writeWorkspace(files);
  const stateDir = mkdtempSync(join(tmpdir(), 'pc-index-state-'));
  const store = await Store.open({ stateDir });
  const index = new CodeIndex(store, root, defaultConfig);
  await index.build();
  return {
    root,
    index,
    dispose() {
      store.dispose();
      rmSync(root, { recursive: true, force: true });
      rmSync(stateDir, { recursive: true, force: true });
    },
  };
}

/** The callers of a definition above name-only matches (resolved and likely), as `path:line confidence`, sorted. */
export function callersIn(ws: IndexedWorkspace, path: string, name: string, line: number): string[] {
  return ws.index
    .callers({ name, path, line })
    .filter((c) => c.confidence !== 'name')
    .map((c) => `${c.path}:${c.line} ${c.confidence}`)
    .sort();
}

/** What the code-index source puts in the panel for `symbol` in `file`, the cursor on its first line. */
export function panelItemsFor(
  index: CodeIndex,
  file: string,
  symbol: { name: string; startLine: number; endLine: number },
  column = 1,
): Promise<SuggestionItem[]> {
  return new CodeIndexSource(index).collect({
    query: { currentFile: file, cursorPosition: { line: symbol.startLine, column } },
    symbolRange: symbol,
    config: defaultConfig,
    now: 0,
    signal: new AbortController().signal,
    note: () => undefined,
  });
}

/** What the code-index source puts in the panel for the symbol `name` on `line` of `file`. */
export function panelItemsAt(index: CodeIndex, file: string, name: string, line: number): Promise<SuggestionItem[]> {
  return panelItemsFor(index, file, { name, startLine: line, endLine: line }, 3);
}

/** The facts extraction finds in `source`, parsed as `lang`. */
export async function factsOfSource(lang: LangId, source: string): Promise<FileFacts> {
  const tree = (await parserFor(lang)).parse(source);
  assert.ok(tree);
  try {
    return extractFacts(lang, tree);
  } finally {
    tree.delete();
  }
}
