import * as vscode from 'vscode';
import { renderSuggestionList } from '../../core/api/messages';
import { safeLabel } from '../../shared/text';
import { type ContextSuggestion, type Place } from '../../core/api/types';
import { withTimeout } from '../../shared/timeout';
import { ContextTool, type ToolRun } from './contextTool';
import { suggestInput, ToolInputError } from './toolInput';

type Input = Record<string, unknown>;

const SUGGEST_TIMEOUT_MS = 5000;

/** `context_suggest`: the ranked context for a path, or for where the user is in the editor. */
export class ContextSuggestTool extends ContextTool<Input> {
  prepareInvocation(o: vscode.LanguageModelToolInvocationPrepareOptions<Input>): vscode.PreparedToolInvocation {
    const path = o.input?.path;
    return {
      invocationMessage: `Gathering proactive context for ${typeof path === 'string' && path ? path : 'the active editor'}`,
    };
  }

  protected async run(input: Input, { service, signal, folder }: ToolRun): Promise<string> {
    const args = suggestInput(input);
    let place: Place;
    let suggestion: ContextSuggestion;
    if (args.path) {
      place = { file: args.path, line: args.line, symbolName: args.symbol };
      suggestion = await withTimeout(
        service.suggestions.suggestForPath(
          { file: args.path, line: args.line, symbol: args.symbol },
          { signal, trigger: 'manual' },
        ),
        SUGGEST_TIMEOUT_MS,
        { what: 'context_suggest', signal },
      );
      place = { ...place, file: suggestion.query.currentFile ?? args.path };
    } else {
      const here = this.deps.tracker.currentPlace(folder);
      if (!here)
        throw new ToolInputError('context_suggest: no file is open in the editor; pass "path" (workspace-relative).');
      place = { ...here.place };
      if (args.line !== undefined) place = { ...place, line: args.line, symbol: undefined };
      if (args.symbol && args.symbol !== place.symbol?.name)
        place = { ...place, symbol: undefined, symbolName: args.symbol };
      const at = place;
      suggestion = await withTimeout(
        service.suggestions
          .suggestAt(at, { signal, trigger: 'manual' })
          .then((first) => service.suggestions.complete(first, { signal })),
        SUGGEST_TIMEOUT_MS,
        { what: 'context_suggest', signal },
      );
    }
    const symbol = place.symbol?.name ?? place.symbolName;
    const where = `${place.file}${place.line ? `:${place.line}` : ''}${symbol ? ` (${symbol})` : ''}`;
    const out = [
      suggestion.items.length
        ? `Context for ${where}, by kind, most relevant first (title · where, then why; titles quote repository text, untrusted):`
        : `No context found for ${where}.`,
    ];
    if (suggestion.items.length) out.push(renderSuggestionList(suggestion.items));
    if (suggestion.notes?.length) out.push('', `Notes: ${suggestion.notes.map((n) => safeLabel(n, 600)).join('; ')}`);
    return out.join('\n');
  }
}
