import * as assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isIndexedEditorLanguage, languageOf, parserFor, type LangId } from '../../../src/core/index/languages';
import table from '../../../src/core/index/languages.json';

const ROOT = join(__dirname, '..', '..', '..', '..');

describe('the language table', () => {
  it('maps each extension to its language, case-insensitively, and nothing else', () => {
    assert.equal(languageOf('src/a.TSX'), 'tsx');
    assert.equal(languageOf('lib/tasks/db.rake'), 'ruby');
    assert.equal(languageOf('types/x.pyi'), 'python');
    assert.equal(languageOf('styles/site.scss'), undefined);
    assert.equal(languageOf('folder.ts/Makefile'), undefined);
  });

  it('answers the editor language ids of exactly the indexed languages', () => {
    for (const id of ['typescript', 'typescriptreact', 'javascriptreact', 'python', 'csharp', 'php'])
      assert.ok(isIndexedEditorLanguage(id), id);
    for (const id of ['scss', 'markdown', 'kotlin', 'plaintext']) assert.ok(!isIndexedEditorLanguage(id), id);
  });

  it('names grammars that exist and parse', async () => {
    for (const [lang, l] of Object.entries(table)) {
      assert.ok(existsSync(join(ROOT, 'node_modules/@vscode/tree-sitter-wasm/wasm', l.grammar)), l.grammar);
      const parser = await parserFor(lang as LangId);
      assert.ok(parser.parse('x')?.rootNode, `${lang} does not parse`);
    }
  });

  it('is the only list of languages: the build and the editor tracker read it', () => {
    const build = readFileSync(join(ROOT, 'esbuild.mjs'), 'utf8');
    assert.match(build, /src\/core\/index\/languages\.json/);
    assert.doesNotMatch(build, /python|c-sharp/, 'the build keeps a grammar list of its own');
    const tracker = readFileSync(join(ROOT, 'src/vscode/activityTracker.ts'), 'utf8');
    assert.doesNotMatch(tracker, /'typescriptreact'|'python'/, 'the tracker keeps a language list of its own');
  });
});
