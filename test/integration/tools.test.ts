// The language-model tools as agent mode calls them (vscode.lm.invokeTool), checked through what the
// next `@context` prompt holds, what the tools answer, and what another process sees in the store.
import * as assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import {
  activateExtension,
  allText,
  ask,
  indexOfText,
  invokeTool,
  newChat,
  requireFakeModel,
  waitFor,
  workspaceRoot,
  writeWorkspaceFile,
} from './chatSupport';

const QUESTION = 'explain the subscribed code';

function idIn(text: string): string {
  const m = /\(id ([a-z0-9_-]+)\)/.exec(text);
  assert.ok(m, `no subscription id in: ${text}`);
  return m[1];
}

/** Runs the CLI built next to the extension (dist/cli.js) on the test workspace, as another process. */
function cli(...args: string[]): Promise<string> {
  const repo = path.resolve(__dirname, '..', '..', '..');
  const entry = path.join(repo, 'dist', 'cli.js');
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [entry, ...args, '--root', workspaceRoot()],
      { env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' }, timeout: 30_000 },
      (err, stdout, stderr) => {
        if (err) reject(new Error(`proactive-context ${args.join(' ')} failed: ${stderr || err.message}`));
        else resolve(stdout);
      },
    );
  });
}

suite('language-model tools', () => {
  suiteSetup(async () => {
    await activateExtension();
    await requireFakeModel();
    await invokeTool('unsubscribe_all', {});
  });

  teardown(async () => {
    await invokeTool('unsubscribe_all', {}).catch(() => undefined);
  });

  test('subscribe_file puts the file in the next @context prompt; unsubscribe takes it out', async () => {
    writeWorkspaceFile('src/toolSubject.ts', 'export const TOOL_MARK_ONE = 1;\n');
    const result = await invokeTool('subscribe_file', { path: 'src/toolSubject.ts' });
    assert.match(result, /Subscribed to src\/toolSubject\.ts/);
    const id = idIn(result);

    await newChat();
    const first = await ask(`@context ${QUESTION}`);
    const at = indexOfText(first, 'TOOL_MARK_ONE');
    assert.ok(
      at >= 0 && at < first.messages.length - 1,
      `the subscribed file is not before the question:\n${allText(first)}`,
    );
    assert.equal(first.messages[first.messages.length - 1].text.trim(), QUESTION);

    // Changed on disk by another program: the next turn reads the current content.
    writeWorkspaceFile('src/toolSubject.ts', 'export const TOOL_MARK_TWO = 2;\n');
    const second = await ask(`@context ${QUESTION}`);
    assert.ok(indexOfText(second, 'TOOL_MARK_TWO') >= 0, 'the new content is not in the prompt');
    assert.equal(indexOfText(second, 'TOOL_MARK_ONE'), -1, 'the old content is still in the prompt');

    assert.match(await invokeTool('unsubscribe', { id }), new RegExp(`Removed subscription ${id}`));
    const third = await ask(`@context ${QUESTION}`);
    assert.equal(indexOfText(third, 'TOOL_MARK'), -1, 'the file is still in the prompt after unsubscribe');
  });

  test('line ranges and patterns: only the chosen lines are subscribed', async () => {
    writeWorkspaceFile(
      'src/toolLines.ts',
      ['// a', '// TODO first', '// b', '// c', '// TODO second', '// d'].join('\n') + '\n',
    );
    assert.match(
      await invokeTool('subscribe_file', { path: 'src/toolLines.ts', startLine: 3, endLine: 4 }),
      /src\/toolLines\.ts lines 3.4/,
    );
    assert.match(
      await invokeTool('subscribe_file', { path: 'src/toolLines.ts', pattern: 'TODO' }),
      /lines matching \/TODO\//,
    );
    const list = await invokeTool('list_subscriptions', {});
    assert.match(list, /2 of 10 active subscriptions/);
    const req = await ask(`@context ${QUESTION}`);
    const text = allText(req);
    assert.ok(text.includes('// b') && text.includes('// c'), 'the line range is missing');
    assert.ok(text.includes('TODO first') && text.includes('TODO second'), 'the pattern lines are missing');
    assert.ok(!text.includes('// d'), 'a line outside both the range and the pattern reached the prompt');
  });

  test('the eleventh subscription is refused with a message naming the limit, and nothing changes', async () => {
    for (let i = 1; i <= 10; i++) {
      writeWorkspaceFile(`src/many/file${i}.ts`, `export const n${i} = ${i};\n`);
      await invokeTool('subscribe_file', { path: `src/many/file${i}.ts` });
    }
    writeWorkspaceFile('src/many/file11.ts', 'export const n11 = 11;\n');
    await assert.rejects(invokeTool('subscribe_file', { path: 'src/many/file11.ts' }), (err: Error) => {
      assert.match(err.message, /limit of 10 active subscriptions/);
      assert.match(err.message, /unsubscribe/);
      return true;
    });
    const list = await invokeTool('list_subscriptions', {});
    assert.match(list, /10 of 10 active subscriptions/);
    assert.ok(!list.includes('file11'), 'the refused subscription was added anyway');
  });

  test('a missing file is subscribed with a note, and the prompt says it is missing instead of failing', async () => {
    const result = await invokeTool('subscribe_file', { path: 'src/notThereYet.ts' });
    assert.match(result, /Note: src\/notThereYet\.ts does not exist/);
    const req = await ask(`@context ${QUESTION}`);
    assert.match(allText(req), /src\/notThereYet\.ts does not exist/);
    assert.equal(req.messages[req.messages.length - 1].text.trim(), QUESTION);
  });

  test('a large file is cut to the character limit with a notice, in the tool answer and in the prompt', async () => {
    const big =
      Array.from({ length: 400 }, (_, i) => `export const value${i} = ${i}; // filler line ${i}`).join('\n') +
      '\n// BIG_FILE_TAIL_MARK\n';
    writeWorkspaceFile('src/big.ts', big);
    const result = await invokeTool('subscribe_file', { path: 'src/big.ts' });
    assert.match(
      result,
      new RegExp(`holds ${big.length.toLocaleString('en-US')} characters; each turn includes the first 2,000`),
    );
    const req = await ask(`@context ${QUESTION}`);
    const text = allText(req);
    assert.match(text, /\[truncated: showing [\d,]+ of [\d,]+ characters/);
    assert.ok(text.includes('filler line 0'), 'the start of the file is missing');
    assert.ok(!text.includes('BIG_FILE_TAIL_MARK'), 'the end of the large file was not cut');
  });

  test('bad input is refused with messages the model can act on', async () => {
    const refused = async (name: string, input: object, pattern: RegExp) =>
      assert.rejects(invokeTool(name, input), (err: Error) => {
        assert.match(err.message, pattern);
        return true;
      });
    await refused('subscribe_file', {}, /needs "path"/);
    await refused(
      'subscribe_file',
      { path: 'src/a.ts', startLine: 9, endLine: 3 },
      /endLine \(3\) is before startLine \(9\)/,
    );
    await refused(
      'subscribe_file',
      { path: 'src/a.ts', pattern: '([' },
      /"pattern" cannot be used: Invalid regular expression \/\(\[\/: Unterminated character class/,
    );
    await refused('subscribe_file', { path: '../outside.ts' }, /outside the workspace/);
    await refused('subscribe_memory', { query: ' ' }, /needs "query"/);
    await refused('unsubscribe', { id: 'nosuchid' }, /No subscription has the id “nosuchid”/);
    await refused(
      'context_suggest',
      { path: 'src/does/not/exist.ts' },
      /src\/does\/not\/exist\.ts does not exist in the workspace; check the path/,
    );
    assert.match(await invokeTool('list_subscriptions', {}), /No active subscriptions/);
  });

  test('subscribe_memory reaches the prompt as a saved search', async () => {
    const result = await invokeTool('subscribe_memory', { query: 'ledger events' });
    assert.match(result, /memory search “ledger events”/);
    const req = await ask(`@context ${QUESTION}`);
    assert.match(allText(req), /memory search "ledger events"/);
  });

  test('context_suggest answers for the active editor when no path is given', async () => {
    const uri = writeWorkspaceFile(
      'src/suggestSubject.ts',
      'export function suggestSubject(): number {\n  return 1;\n}\n',
    );
    await vscode.window.showTextDocument(uri);
    const text = await invokeTool('context_suggest', {});
    assert.match(text, /^(Context for|No context found for) src\/suggestSubject\.ts:1/);
  });

  test('subscriptions live in the durable store: another process sees them, and the extension sees its changes', async () => {
    writeWorkspaceFile('src/shared.ts', 'export const SHARED = true;\n');
    const id = idIn(await invokeTool('subscribe_file', { path: 'src/shared.ts' }));
    await waitFor(
      async () =>
        (JSON.parse(await cli('subscriptions', '--json')) as { id: string }[]).some((s) => s.id === id) || undefined,
      20_000,
      'the CLI to list the subscription made through the tool',
    );

    writeWorkspaceFile('src/fromCli.ts', 'export const FROM_CLI_MARK = 1;\n');
    await cli('subscribe', '--kind', 'file', '--target', 'src/fromCli.ts');
    await waitFor(
      async () => (/src\/fromCli\.ts/.test(await invokeTool('list_subscriptions', {})) ? true : undefined),
      20_000,
      'the extension to see the subscription made by the CLI',
    );
    const req = await ask(`@context ${QUESTION}`);
    assert.ok(indexOfText(req, 'FROM_CLI_MARK') >= 0, 'the subscription made by another process is not in the prompt');
    assert.ok(fs.existsSync(path.join(workspaceRoot(), 'src', 'fromCli.ts')));
  });
});
