// A language model for tests: registered through the stable
// `vscode.lm.registerLanguageModelChatProvider` API, it records exactly what it is sent and answers
// with a short canned text, so a real chat turn runs offline and a test can inspect the prompt.
//
// Commands (for tests; executeCommand returns plain JSON):
//   fakeLm.requests     -> every recorded request, oldest first
//   fakeLm.lastRequest  -> the last recorded request, or null
//   fakeLm.reset        -> forgets the recorded requests and any reply override
//   fakeLm.setReply     -> (text | null) answer this instead of the canned text; (null) back to canned
//   fakeLm.failNext     -> (message) the next request fails with that message
//   fakeLm.callToolNext -> (name, input) the next request to the tool-calling model answers with a
//                          call of that tool, as an agent's model does; later ones answer with text
// A recorded request: { at, model, messages: [{ role: 'user'|'assistant', text }], options }; tool
// calls and tool results in a message are recorded in its text, and options.toolDescriptions holds
// what the model is told about each tool it may call.
// With FAKE_LM_RECORD_FILE set (in the VS Code server's environment), each request is also appended
// to that file as one JSON line, for reading a run's prompts afterwards.
'use strict';
const fs = require('node:fs');
const vscode = require('vscode');

const VENDOR = 'fake-lm';
const MODEL = {
  id: 'fake-lm-1',
  name: 'Fake LM',
  family: 'fake',
  version: '1.0.0',
  maxInputTokens: 200000,
  maxOutputTokens: 4096,
  tooltip: 'A test model that records its requests',
  // Without this the chat view's model picker does not offer it, and chat requests get no model.
  isUserSelectable: true,
  capabilities: { toolCalling: false, imageInput: false },
};
// A second model with a small input budget, for tests of what gets cut to fit.
const SMALL_MODEL = { ...MODEL, id: 'fake-lm-small', name: 'Fake LM (small)', maxInputTokens: 700 };
// A model that calls tools, for requests made the way agent mode makes them (tools offered, results sent back).
const TOOL_MODEL = {
  ...MODEL,
  id: 'fake-lm-tools',
  name: 'Fake LM (tools)',
  isUserSelectable: false,
  capabilities: { toolCalling: true, imageInput: false },
};
const CANNED = 'This is the fake model answering.';
const MAX_RECORDED = 200;

/** @type {{ at: number, model: string, messages: { role: string, text: string }[], options: unknown }[]} */
let recorded = [];
/** @type {string | undefined} */
let replyOverride;
/** @type {string | undefined} */
let failNext;
/** @type {{ name: string, input: object } | undefined} */
let toolCallNext;
let callIds = 0;

function roleName(role) {
  if (role === vscode.LanguageModelChatMessageRole.Assistant) return 'assistant';
  if (role === vscode.LanguageModelChatMessageRole.User) return 'user';
  return String(role);
}

function textOf(message) {
  const parts = Array.isArray(message.content) ? message.content : [message.content];
  return parts
    .map((p) => {
      if (typeof p === 'string') return p;
      if (p instanceof vscode.LanguageModelTextPart) return p.value;
      if (p instanceof vscode.LanguageModelToolCallPart) return `[tool call ${p.name} ${JSON.stringify(p.input)}]`;
      if (p instanceof vscode.LanguageModelToolResultPart)
        return `[tool result ${p.callId}]\n${textOf({ content: p.content })}\n[/tool result]`;
      if (p && typeof p.value === 'string') return p.value;
      return '';
    })
    .join('');
}

function safeOptions(options) {
  try {
    return JSON.parse(
      JSON.stringify({
        modelOptions: options?.modelOptions,
        toolMode: options?.toolMode,
        tools: options?.tools?.map((t) => t.name),
        toolDescriptions: Object.fromEntries((options?.tools ?? []).map((t) => [t.name, t.description])),
      }),
    );
  } catch {
    return {};
  }
}

function activate(context) {
  const provider = {
    provideLanguageModelChatInformation() {
      return [MODEL, SMALL_MODEL, TOOL_MODEL];
    },
    async provideLanguageModelChatResponse(model, messages, options, progress, token) {
      recorded.push({
        at: Date.now(),
        model: model.id,
        messages: messages.map((m) => ({ role: roleName(m.role), text: textOf(m) })),
        options: safeOptions(options),
      });
      if (recorded.length > MAX_RECORDED) recorded.shift();
      if (process.env.FAKE_LM_RECORD_FILE) {
        try {
          fs.appendFileSync(process.env.FAKE_LM_RECORD_FILE, JSON.stringify(recorded[recorded.length - 1]) + '\n');
        } catch {
          // Recording to a file is a debugging aid; the command API still has every request.
        }
      }
      if (failNext !== undefined) {
        const message = failNext;
        failNext = undefined;
        throw new Error(message);
      }
      if (toolCallNext && model.id === TOOL_MODEL.id) {
        const call = toolCallNext;
        toolCallNext = undefined;
        progress.report(new vscode.LanguageModelToolCallPart(`call-${++callIds}`, call.name, call.input));
        return;
      }
      const reply = replyOverride ?? CANNED;
      // Two fragments, so streaming is exercised.
      const half = Math.ceil(reply.length / 2);
      for (const piece of [reply.slice(0, half), reply.slice(half)]) {
        if (token.isCancellationRequested) return;
        if (piece) progress.report(new vscode.LanguageModelTextPart(piece));
      }
    },
    provideTokenCount(_model, text) {
      const s = typeof text === 'string' ? text : textOf(text);
      return Math.ceil(s.length / 4);
    },
  };
  context.subscriptions.push(
    vscode.lm.registerLanguageModelChatProvider(VENDOR, provider),
    vscode.commands.registerCommand('fakeLm.requests', () => recorded),
    vscode.commands.registerCommand('fakeLm.lastRequest', () => recorded[recorded.length - 1] ?? null),
    vscode.commands.registerCommand('fakeLm.reset', () => {
      recorded = [];
      replyOverride = undefined;
      failNext = undefined;
      toolCallNext = undefined;
    }),
    vscode.commands.registerCommand('fakeLm.setReply', (text) => {
      replyOverride = typeof text === 'string' ? text : undefined;
    }),
    vscode.commands.registerCommand('fakeLm.failNext', (message) => {
      failNext = typeof message === 'string' ? message : 'fake failure';
    }),
    vscode.commands.registerCommand('fakeLm.callToolNext', (name, input) => {
      toolCallNext = typeof name === 'string' ? { name, input: input ?? {} } : undefined;
    }),
  );
}

function deactivate() {}

module.exports = { activate, deactivate };
