import { ContextError } from '../../core/api/errors';
import { renderSuggestionList } from '../../core/api/messages';
import { safeLabel } from '../../shared/text';
import { toRelative, type ContextSuggestion } from '../../core/api/types';
import { UsageError } from '../args';
import { noPositionals, print, wholeNumber, withService, type CliCommand } from './command';

export const suggest: CliCommand = {
  name: 'suggest',
  summary: 'ranked context for a file, line and symbol',
  usage: 'suggest --root R --file F [--line N] [--symbol S] [--json]',
  description:
    'Prints the ranked suggestions (decisions, changes, co-change, callers, docs, warnings) for a file; --json prints one ContextSuggestion.',
  flags: {
    file: { type: 'string', value: 'F', description: 'file, relative to the root (or absolute inside it)' },
    line: { type: 'number', value: 'N', description: '1-based cursor line' },
    symbol: { type: 'string', value: 'S', description: 'symbol at the cursor (default: the definition around --line)' },
  },
  async run(args) {
    noPositionals(args);
    if (typeof args.flags.file !== 'string') throw new UsageError('suggest needs --file');
    const line = wholeNumber(args, 'line');
    return withService(args, async (service) => {
      const rel = toRelative(service.root, args.flags.file as string);
      if (rel === undefined || rel === '')
        throw new UsageError(`--file ${args.flags.file} is not inside ${service.root}`);
      await service.workspace.refreshAll();
      let s;
      try {
        s = await service.suggestions.suggestForPath({
          file: rel,
          line,
          symbol: args.flags.symbol as string | undefined,
        });
      } catch (err) {
        // A path that is not a workspace file is a usage mistake, said the way every surface says it.
        if (err instanceof ContextError && (err.reason === 'not_found' || err.reason === 'invalid'))
          throw new UsageError(err.message);
        throw err;
      }
      print(args, s, renderSuggestion(s));
      return 0;
    });
  },
};

/** The suggestions as text, as every surface lays them out; repository text stays on its own lines. */
export function renderSuggestion(s: ContextSuggestion): string {
  const lines = [
    `${s.items.length} suggestion${s.items.length === 1 ? '' : 's'} for ${s.trigger.source} in ${s.latencyMs} ms`,
  ];
  for (const n of s.notes ?? []) lines.push(`note: ${safeLabel(n, 600)}`);
  if (s.items.length) lines.push('', renderSuggestionList(s.items, { scores: true }));
  return lines.join('\n');
}
