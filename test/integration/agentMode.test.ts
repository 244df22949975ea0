// Agent mode without @context: a model offered the registered tools, as agent mode offers them, is
// told to call governing_decisions before an edit; when it does, the decision that governs the file
// reaches the next request the model receives, fenced as repository data.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import {
  activateExtension,
  requests,
  requireFakeModel,
  waitFor,
  workspaceRoot,
  type RecordedRequest,
} from './chatSupport';

const TOOL = 'governing_decisions';
const GOVERNED = 'src/pricing.ts';
const INSTRUCTIONS = '.github/instructions/proactive-context.instructions.md';

/** The requests the fake model received since `at` (its clock is this process's). */
async function requestsAfter(at: number): Promise<(RecordedRequest & { options?: unknown })[]> {
  return (await requests()).filter((r) => r.at >= at);
}

interface ToolOptions {
  tools?: string[];
  toolDescriptions?: Record<string, string>;
}

/** Sends one request to the tool-calling fake model and returns what it streamed back. */
async function send(
  model: vscode.LanguageModelChat,
  messages: vscode.LanguageModelChatMessage[],
  tools: vscode.LanguageModelChatTool[],
): Promise<(vscode.LanguageModelTextPart | vscode.LanguageModelToolCallPart)[]> {
  const response = await model.sendRequest(messages, { tools });
  const parts: (vscode.LanguageModelTextPart | vscode.LanguageModelToolCallPart)[] = [];
  for await (const part of response.stream)
    if (part instanceof vscode.LanguageModelTextPart || part instanceof vscode.LanguageModelToolCallPart)
      parts.push(part);
  return parts;
}

suite('agent mode', () => {
  let model: vscode.LanguageModelChat;

  suiteSetup(async () => {
    await activateExtension();
    await requireFakeModel();
    model = await waitFor(
      async () => (await vscode.lm.selectChatModels({ vendor: 'fake-lm', id: 'fake-lm-tools' }))[0],
      15_000,
      'the tool-calling fake model',
    );
  });

  teardown(() => vscode.commands.executeCommand('fakeLm.reset'));

  test('an edit of a governed file brings its decision into the prompt through governing_decisions', async () => {
    // What agent mode offers the model: every registered tool, with its model description.
    const tools: vscode.LanguageModelChatTool[] = vscode.lm.tools.map((t) => ({
      name: t.name,
      description: t.description,
      inputSchema: t.inputSchema,
    }));
    assert.ok(
      tools.some((t) => t.name === TOOL),
      `${TOOL} is not among the registered tools: ${tools.map((t) => t.name).join(', ')}`,
    );

    const ask = vscode.LanguageModelChatMessage.User(`Raise the discount limit in ${GOVERNED} to 80%.`);
    const before = Date.now();
    await vscode.commands.executeCommand('fakeLm.callToolNext', TOOL, { paths: [GOVERNED] });
    const first = await send(model, [ask], tools);
    const call = first.find(
      (p): p is vscode.LanguageModelToolCallPart => p instanceof vscode.LanguageModelToolCallPart,
    );
    assert.ok(call, 'the model did not call a tool');

    const [offered] = await requestsAfter(before);
    const description = (offered.options as ToolOptions | undefined)?.toolDescriptions?.[TOOL] ?? '';
    assert.match(description, /before you edit/i, `the model is not told when to call ${TOOL}: ${description}`);

    // The agent runs the tool the model asked for and sends its result back, as agent mode does.
    const result = await vscode.lm.invokeTool(call.name, { input: call.input, toolInvocationToken: undefined });
    await send(
      model,
      [
        ask,
        vscode.LanguageModelChatMessage.Assistant([call]),
        vscode.LanguageModelChatMessage.User([new vscode.LanguageModelToolResultPart(call.callId, result.content)]),
      ],
      tools,
    );
    const requests = await requestsAfter(before);
    assert.equal(requests.length, 2);
    const prompt = requests[1].messages.map((m) => m.text).join('\n');
    assert.match(prompt, /<proactive-context-data source="repository" trust="untrusted">/);
    assert.match(prompt, /Decision ADR 0003: Cap discounts at fifty percent \(accepted\): [^\n]*50%/);
    assert.match(prompt, /\(read docs\/adr\/0003-cap-discounts-at-fifty-percent\.md/);
    assert.ok(
      prompt.indexOf('Cap discounts at fifty percent') > prompt.indexOf(`[tool result ${call.callId}]`),
      'the decision is not inside the tool result',
    );
  });

  test('a file nothing governs gets a one-line answer, and a path outside the workspace a clear error', async () => {
    const answer = (
      await vscode.lm.invokeTool(TOOL, { input: { paths: ['README.md'] }, toolInvocationToken: undefined })
    ).content
      .map((p) => (p instanceof vscode.LanguageModelTextPart ? p.value : ''))
      .join('');
    assert.match(answer, /^No recorded decision, warning or co-changing file applies to README\.md\.$/);
    await assert.rejects(
      Promise.resolve(
        vscode.lm.invokeTool(TOOL, { input: { paths: ['../outside.ts'] }, toolInvocationToken: undefined }),
      ),
      /outside/i,
    );
  });

  test('agent instructions are written only by the command, and never over an existing file', async () => {
    const file = path.join(workspaceRoot(), ...INSTRUCTIONS.split('/'));
    assert.ok(!fs.existsSync(file), 'the instructions file exists before anyone asked for it');
    try {
      assert.equal(
        await vscode.commands.executeCommand('proactiveContext.addAgentInstructions', { confirmed: true }),
        'written',
      );
      const text = fs.readFileSync(file, 'utf8');
      assert.match(text, /^---\ndescription: .*\napplyTo: '\*\*'\n---\n/);
      assert.match(text, /call the `governing_decisions`\ntool \(#governingDecisions/);

      fs.writeFileSync(file, '# our own rules\n');
      assert.equal(
        await vscode.commands.executeCommand('proactiveContext.addAgentInstructions', { confirmed: true }),
        'exists',
      );
      assert.equal(fs.readFileSync(file, 'utf8'), '# our own rules\n', 'an existing file was overwritten');
    } finally {
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
      fs.rmSync(file, { force: true });
    }
  });
});
