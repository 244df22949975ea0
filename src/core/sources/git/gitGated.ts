import type { GitAccess } from '../../gitAccess';
import type { SuggestionItem } from '../../types';
import type { QueryContext, SuggestionSource } from '../sourceQuery';

/** A history source that says why it is off, and asks nothing of git, while git is not allowed. */
export function gitGated(source: SuggestionSource, access: GitAccess): SuggestionSource {
  return {
    name: source.name,
    kinds: source.kinds,
    ...(source.slow ? { slow: true } : {}),
    collect: (ctx: QueryContext): Promise<SuggestionItem[]> => {
      const reason = access.reason;
      if (reason === undefined) return source.collect(ctx);
      ctx.note(reason);
      return Promise.resolve([]);
    },
  };
}
