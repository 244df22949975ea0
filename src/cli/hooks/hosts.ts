/**
 * The wire formats of the hosts that run `proactive-context hook`: what each sends on stdin and
 * what it reads back on stdout, as their public documentation describes it (sources in
 * docs/agent-hooks.md and test/fixtures/hooks/<host>/README.md). Only events whose documented
 * output reaches the model are answered; every other event gets the host's no-op.
 */

/** What the engine is asked for: files about to be edited, files a prompt names, or a session's start. */
export type HookKind = 'edit' | 'prompt' | 'sessionStart' | 'none';

export interface HookEvent {
  kind: HookKind;
  /** The host's own event name, echoed in its output where the format asks for it. */
  event: string;
  sessionId?: string;
  /** The folder the host says it runs in (a fallback for --root). */
  cwd?: string;
  /** Paths as the tool input gave them (relative or absolute), for 'edit'. */
  files: string[];
  prompt?: string;
}

export interface HostAdapter {
  id: HostId;
  /** Reads the host's stdin JSON; `event` is the --event flag, for hosts whose input does not name it. */
  parse(input: Record<string, unknown>, event?: string): HookEvent;
  /** What to print: the context in the host's format, its no-op, or undefined for no output at all. */
  output(event: HookEvent, text: string | undefined): string | undefined;
}

export const HOST_IDS = ['claude-code', 'vscode', 'copilot-cli', 'cline', 'kiro'] as const;
export type HostId = (typeof HOST_IDS)[number];
/** Hosts named in requests that have no documented hook contract we could find. */
export const UNDOCUMENTED_HOSTS: Record<string, string> = {
  continue:
    'Continue documents no hook that runs a command and passes its output to the model; use its MCP support (proactive-context mcp) instead.',
};

const CLAUDE_EDIT_TOOLS = new Set(['Edit', 'Write', 'MultiEdit', 'NotebookEdit']);
/** VS Code names its editing tools by what they do (editFiles, createFile, replace_string_in_file...). */
const VSCODE_EDIT_TOOL = /edit|write|create|replace|insert|patch/i;
const CLINE_EDIT_TOOLS = new Set(['write_to_file', 'replace_in_file']);

const claudeCode: HostAdapter = {
  id: 'claude-code',
  parse(input) {
    // VS Code runs hooks from .claude/settings.json too, with its own camelCase common fields.
    const base = commonFields(input, false);
    const event = base.event;
    const tool = str(input.tool_name);
    if (event === 'PreToolUse' && tool && (CLAUDE_EDIT_TOOLS.has(tool) || VSCODE_EDIT_TOOL.test(tool)))
      return { ...base, kind: 'edit', files: pathsOf(input.tool_input) };
    if (event === 'UserPromptSubmit') return { ...base, kind: 'prompt', prompt: str(input.prompt) ?? '' };
    if (event === 'SessionStart') return { ...base, kind: 'sessionStart' };
    return { ...base, kind: 'none' };
  },
  output: hookSpecificOutput,
};

const vscode: HostAdapter = {
  id: 'vscode',
  parse(input) {
    const base = commonFields(input, true);
    const event = base.event;
    const tool = str(input.tool_name) ?? '';
    if (event === 'PreToolUse' && VSCODE_EDIT_TOOL.test(tool))
      return { ...base, kind: 'edit', files: pathsOf(input.tool_input) };
    // SessionStart and SubagentStart take additionalContext; UserPromptSubmit documents only the common output (no context).
    if (event === 'SessionStart' || event === 'SubagentStart') return { ...base, kind: 'sessionStart' };
    return { ...base, kind: 'none' };
  },
  output: hookSpecificOutput,
};

const copilotCli: HostAdapter = {
  id: 'copilot-cli',
  parse(input, flagEvent) {
    // The camelCase payloads do not name their event; the installed command passes --event.
    const event =
      flagEvent ??
      str(input.hook_event_name) ??
      (str(input.agentName) !== undefined && input.stopReason === undefined ? 'subagentStart' : '');
    const base = {
      event,
      sessionId: str(input.sessionId) ?? str(input.session_id),
      cwd: str(input.cwd),
      files: [] as string[],
    };
    // Only subagentStart's additionalContext reaches the model; preToolUse, sessionStart and
    // userPromptSubmitted outputs carry no context in the CLI's reference.
    return event === 'subagentStart' ? { ...base, kind: 'sessionStart' } : { ...base, kind: 'none' };
  },
  output(event, text) {
    return event.kind === 'sessionStart' && text ? JSON.stringify({ additionalContext: text }) : undefined;
  },
};

const cline: HostAdapter = {
  id: 'cline',
  parse(input) {
    const event = str(input.hookName) ?? '';
    const roots = Array.isArray(input.workspaceRoots)
      ? input.workspaceRoots.filter((r): r is string => typeof r === 'string')
      : [];
    const base = { event, sessionId: str(input.taskId), cwd: roots[0], files: [] as string[] };
    const pre = obj(input.preToolUse);
    if (event === 'PreToolUse' && CLINE_EDIT_TOOLS.has(str(pre.toolName) ?? ''))
      return { ...base, kind: 'edit', files: pathsOf(pre.parameters) };
    if (event === 'UserPromptSubmit')
      return { ...base, kind: 'prompt', prompt: str(obj(input.userPromptSubmit).prompt) ?? '' };
    if (event === 'TaskStart' || event === 'TaskResume') return { ...base, kind: 'sessionStart' };
    return { ...base, kind: 'none' };
  },
  output(_event, text) {
    // Cline reads a JSON answer from every hook; {"cancel": false} lets the task go on unchanged.
    return JSON.stringify(text ? { cancel: false, contextModification: text } : { cancel: false });
  },
};

const kiro: HostAdapter = {
  id: 'kiro',
  parse(input) {
    const event = str(input.hook_event_name) ?? '';
    const base = { event, cwd: str(input.cwd), sessionId: str(input.session_id), files: [] as string[] };
    // agentSpawn and userPromptSubmit output is added to the agent's context; preToolUse stdout is not shown to the model.
    if (event === 'agentSpawn') return { ...base, kind: 'sessionStart' };
    if (event === 'userPromptSubmit') return { ...base, kind: 'prompt', prompt: str(input.prompt) ?? '' };
    return { ...base, kind: 'none' };
  },
  output(_event, text) {
    return text;
  },
};

const ADAPTERS: Record<HostId, HostAdapter> = {
  'claude-code': claudeCode,
  vscode,
  'copilot-cli': copilotCli,
  cline,
  kiro,
};

export function hostAdapter(id: string): HostAdapter | undefined {
  return (HOST_IDS as readonly string[]).includes(id) ? ADAPTERS[id as HostId] : undefined;
}

/** Claude Code's and VS Code's answer: hookSpecificOutput.additionalContext for the event that asked. */
function hookSpecificOutput(event: HookEvent, text: string | undefined): string | undefined {
  if (!text || event.kind === 'none') return undefined;
  return JSON.stringify({ hookSpecificOutput: { hookEventName: event.event, additionalContext: text } });
}

/** The paths in a tool's input: file_path (Claude Code), filePath, path (Cline, VS Code), files[] (VS Code editFiles). */
function pathsOf(toolInput: unknown): string[] {
  const input = obj(toolInput);
  const out: string[] = [];
  for (const key of ['file_path', 'filePath', 'path', 'notebook_path']) {
    const v = str(input[key]);
    if (v) out.push(v);
  }
  if (Array.isArray(input.files)) {
    for (const f of input.files) {
      const v = typeof f === 'string' ? f : (str(obj(f).path) ?? str(obj(f).filePath));
      if (v) out.push(v);
    }
  }
  return [...new Set(out)].slice(0, 5);
}

/** The fields every hook input has, in snake_case or camelCase; `camelFirst` for VS Code's own hooks. */
function commonFields(input: Record<string, unknown>, camelFirst: boolean) {
  const read = (snake: string, camel: string) =>
    camelFirst ? (str(input[camel]) ?? str(input[snake])) : (str(input[snake]) ?? str(input[camel]));
  return {
    event: read('hook_event_name', 'hookEventName') ?? '',
    sessionId: read('session_id', 'sessionId'),
    cwd: str(input.cwd),
    files: [] as string[],
  };
}

function str(v: unknown): string | undefined {
  return typeof v === 'string' ? v : undefined;
}

function obj(v: unknown): Record<string, unknown> {
  return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
}
