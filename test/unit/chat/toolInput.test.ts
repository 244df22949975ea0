import * as assert from 'node:assert/strict';
import {
  editPathsInput,
  noInput,
  subscribeFileRequest,
  subscribeMemoryRequest,
  suggestInput,
  ToolInputError,
  unsubscribeId,
} from '../../../src/vscode/tools/toolInput';

const refused = (fn: () => unknown, pattern: RegExp) =>
  assert.throws(fn, (err: Error) => {
    assert.ok(err instanceof ToolInputError, `expected a ToolInputError, got ${err}`);
    assert.match(err.message, pattern);
    return true;
  });

describe('language-model tool input', () => {
  describe('subscribe_file', () => {
    it('maps path, range and pattern to file, lines and pattern subscriptions', () => {
      assert.deepEqual(subscribeFileRequest({ path: ' src/a.ts ' }), { kind: 'file', target: 'src/a.ts' });
      assert.deepEqual(subscribeFileRequest({ path: 'src/a.ts', startLine: 3, endLine: 9 }), {
        kind: 'lines',
        target: 'src/a.ts',
        lines: { start: 3, end: 9 },
      });
      assert.deepEqual(subscribeFileRequest({ path: 'src/a.ts', startLine: 3 }), {
        kind: 'lines',
        target: 'src/a.ts',
        lines: { start: 3, end: 3 },
      });
      assert.deepEqual(subscribeFileRequest({ path: 'src/a.ts', endLine: 4 }), {
        kind: 'lines',
        target: 'src/a.ts',
        lines: { start: 1, end: 4 },
      });
      assert.deepEqual(subscribeFileRequest({ path: 'src/a.ts', pattern: 'TODO' }), {
        kind: 'pattern',
        target: 'src/a.ts',
        pattern: 'TODO',
      });
      assert.deepEqual(subscribeFileRequest({ path: 'src/a.ts', startLine: '5' }), {
        kind: 'lines',
        target: 'src/a.ts',
        lines: { start: 5, end: 5 },
      });
    });

    it('says what is wrong and what a right call looks like', () => {
      refused(() => subscribeFileRequest({}), /subscribe_file needs "path", e\.g\. \{"path": "src\/app\.ts"\}/);
      refused(() => subscribeFileRequest('src/a.ts'), /takes a JSON object/);
      refused(() => subscribeFileRequest({ path: 42 }), /"path" must be a string \(got number\)/);
      refused(
        () => subscribeFileRequest({ path: 'a', startLine: 0 }),
        /"startLine" must be a whole line number, 1 or more \(got 0\)/,
      );
      refused(() => subscribeFileRequest({ path: 'a', startLine: 2.5 }), /whole line number/);
      refused(
        () => subscribeFileRequest({ path: 'a', startLine: 9, endLine: 3 }),
        /endLine \(3\) is before startLine \(9\)/,
      );
      refused(
        () => subscribeFileRequest({ path: 'a', startLine: 1, pattern: 'x' }),
        /either a line range .* or a pattern, not both/,
      );
      refused(
        () => subscribeFileRequest({ path: 'a', pattern: '([' }),
        /"pattern" cannot be used: Invalid regular expression/,
      );
      refused(() => subscribeFileRequest({ path: 'a'.repeat(1001) }), /limit is 1000/);
    });
  });

  it('subscribe_memory wants a query of two characters or more', () => {
    assert.deepEqual(subscribeMemoryRequest({ query: ' retry\n policy ' }), { kind: 'memory', target: 'retry policy' });
    refused(() => subscribeMemoryRequest({}), /needs "query"/);
    refused(() => subscribeMemoryRequest({ query: 'x' }), /at least two characters/);
  });

  it('unsubscribe wants an id as list_subscriptions shows it', () => {
    assert.equal(unsubscribeId({ id: ' AB12cd ' }), 'ab12cd');
    refused(() => unsubscribeId({}), /needs "id".*list_subscriptions/);
    refused(() => unsubscribeId({ id: 'src/a.ts' }), /not a subscription id; call list_subscriptions/);
  });

  it('context_suggest takes an optional path, line and symbol', () => {
    assert.deepEqual(suggestInput(undefined), { path: undefined, line: undefined, symbol: undefined });
    assert.deepEqual(suggestInput({ path: 'src/a.ts', line: 4, symbol: 'Cart.total' }), {
      path: 'src/a.ts',
      line: 4,
      symbol: 'Cart.total',
    });
    refused(() => suggestInput({ symbol: 'not a name' }), /not a symbol name/);
    refused(() => suggestInput({ line: -1 }), /"line" must be a whole line number/);
  });

  it('tools without input refuse unexpected fields', () => {
    noInput({}, 'unsubscribe_all');
    noInput(undefined, 'unsubscribe_all');
    refused(() => noInput({ all: true }, 'unsubscribe_all'), /unsubscribe_all takes no input \(got "all"\)/);
  });

  describe('governing_decisions', () => {
    it('takes one path or a list, trimmed and without repeats', () => {
      assert.deepEqual(editPathsInput({ paths: [' src/a.ts ', 'src/b.ts', 'src/a.ts'] }), ['src/a.ts', 'src/b.ts']);
      assert.deepEqual(editPathsInput({ paths: 'src/a.ts' }), ['src/a.ts']);
    });

    it('refuses no paths, empty or non-text paths, and more than ten, saying what a call looks like', () => {
      refused(() => editPathsInput({}), /needs "paths".*\{"paths": \["src\/app\.ts"\]\}/);
      refused(() => editPathsInput({ paths: [] }), /needs "paths"/);
      refused(() => editPathsInput({ paths: ['src/a.ts', 3] }), /each path must be a non-empty string \(got 3\)/);
      refused(() => editPathsInput({ paths: [' '] }), /non-empty string/);
      const many = Array.from({ length: 11 }, (_, i) => `src/f${i}.ts`);
      refused(() => editPathsInput({ paths: many }), /at most 10 paths per call \(got 11\)/);
    });
  });
});
