import type * as vscode from 'vscode';
import { fileHookItems, renderHookContext } from '../../core/api/messages';
import { withTimeout } from '../../shared/timeout';
import { ContextTool, type ToolRun } from './contextTool';
import { editPathsInput } from './toolInput';
import { toolNames } from './toolNames';

type Input = Record<string, unknown>;

const TIMEOUT_MS = 5000;
/** Room for a few decisions on each of several files; the hook's default is for one file. */
const MAX_CHARS = 4000;

/**
 * `governing_decisions`: what an agent must know before it edits files, in the same short fenced
 * form as the agent hooks: the decisions that govern each file (title, status, the rule, where to
 * read more), warnings, and the files that usually change with it. Its model description asks agent
 * mode to call it before every edit; read-only, so it runs without a confirmation.
 */
export class GoverningDecisionsTool extends ContextTool<Input> {
  prepareInvocation(o: vscode.LanguageModelToolInvocationPrepareOptions<Input>): vscode.PreparedToolInvocation {
    const paths = Array.isArray(o.input?.paths) ? o.input.paths.filter((p) => typeof p === 'string') : [];
    return {
      invocationMessage: `Checking the decisions that govern ${paths.length ? paths.join(', ') : 'the files to edit'}`,
    };
  }

  protected async run(input: Input, { service, signal }: ToolRun): Promise<string> {
    const paths = editPathsInput(input);
    const files = paths.map((p) => service.workspace.resolvePath(p));
    const suggestions = await withTimeout(
      Promise.all(files.map((file) => service.suggestions.suggestForInput({ file }, { signal, record: false }))),
      TIMEOUT_MS,
      { what: toolNames.governingDecisions, signal },
    );
    const seen = new Set<string>();
    const items = suggestions.flatMap((s, i) =>
      fileHookItems(s, files[i]).filter((it) => !seen.has(it.key) && seen.add(it.key)),
    );
    const rendered = renderHookContext(items, MAX_CHARS);
    return rendered
      ? rendered.text
      : `No recorded decision, warning or co-changing file applies to ${files.join(', ')}.`;
  }
}
