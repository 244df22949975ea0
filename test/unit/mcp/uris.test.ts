import * as assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  confineRelativePath,
  fileUri,
  parseResourceUri,
  suggestionsUri,
  workspacePathFromInput,
} from '../../../src/mcp/uris';

describe('MCP resource URIs', () => {
  let base: string;
  let root: string;

  before(() => {
    base = mkdtempSync(join(tmpdir(), 'pc-uris-'));
    root = join(base, 'root');
    mkdirSync(root);
  });

  after(() => rmSync(base, { recursive: true, force: true }));

  it('names every resource the server serves', () => {
    assert.deepEqual(parseResourceUri('context://subscriptions', root), { kind: 'subscriptions' });
    assert.deepEqual(parseResourceUri('context://decisions', root), { kind: 'decisions' });
    assert.deepEqual(parseResourceUri('context://subscription/sub_12', root), { kind: 'subscription', id: 'sub_12' });
    assert.deepEqual(parseResourceUri('context://decision/7', root), { kind: 'decision', number: 7 });
    assert.deepEqual(parseResourceUri('context://suggestions/src/a.ts', root), {
      kind: 'suggestions',
      path: 'src/a.ts',
    });
    assert.deepEqual(parseResourceUri('context://file/./src//a.ts', root), { kind: 'file', path: 'src/a.ts' });
    assert.deepEqual(parseResourceUri(pathToFileURL(join(root, 'src', 'a b.ts')).href, root), {
      kind: 'file',
      path: 'src/a b.ts',
    });
  });

  it('round-trips paths with spaces, unicode and reserved characters', () => {
    for (const p of ['src/a b.ts', 'docs/ü/ß.md', 'x/#hash?.ts', 'odd/%41.txt']) {
      assert.deepEqual(parseResourceUri(fileUri(p), root), { kind: 'file', path: p });
      assert.deepEqual(parseResourceUri(suggestionsUri(p), root), { kind: 'suggestions', path: p });
    }
  });

  it('refuses every spelling of a path that leaves the root, with code -32602', () => {
    const outside = [
      'context://file/../x',
      'context://file/a/../../x',
      'context://file/%2e%2e/x',
      'context://file/%2E%2E%2Fx',
      'context://file/src/..%5C..%5Cx',
      'context://file//etc/passwd',
      'context://file/%2Fetc%2Fpasswd',
      'context://file/C:%5Cwindows',
      'context://file/a%00b',
      'context://suggestions/../x',
      pathToFileURL(join(base, 'x')).href,
      pathToFileURL(root).href + '/%2e%2e/x',
      pathToFileURL(root).href + '/..%2Fx',
      'file://evil.example.com/etc/passwd',
      'file:///etc/passwd',
    ];
    for (const uri of outside) {
      assert.throws(
        () => parseResourceUri(uri, root),
        (err: Error & { code?: number }) => err.code === -32602,
        uri,
      );
    }
  });

  it('refuses URIs it does not serve and malformed ones', () => {
    for (const uri of [
      '',
      'context://nope',
      'https://example.com/a',
      'context://decision/one',
      'context://subscription/a/b',
      'context://file/%zz',
      'context://file/',
    ]) {
      assert.throws(
        () => parseResourceUri(uri, root),
        (err: Error & { code?: number }) => err.code === -32602,
        JSON.stringify(uri),
      );
    }
  });

  it('accepts absolute tool paths only inside the root', () => {
    assert.equal(workspacePathFromInput(join(root, 'src', 'a.ts'), root), 'src/a.ts');
    assert.equal(workspacePathFromInput('src/a.ts', root), 'src/a.ts');
    assert.throws(() => workspacePathFromInput(join(base, 'a.ts'), root), /outside the workspace root/);
    assert.throws(() => workspacePathFromInput(root, root), /root itself/);
    assert.throws(() => confineRelativePath('src/../a.ts'), /outside the workspace root/);
  });
});
