import { renderSuggestions, renderWhy } from '../chatText';
import { escapeMarkdown } from '../../../shared/text';
import type { Turn } from '../turn';

/** `/suggest`: the ranked context for the active editor. */
export async function suggest(t: Turn): Promise<void> {
  const here = t.deps.tracker.currentPlace(t.folder);
  if (!here) {
    t.stream.markdown(
      'Open a file of this workspace and put the cursor in it: `/suggest` shows the context for the active editor.',
    );
    return;
  }
  const { place } = here;
  t.stream.progress(`Looking for context on ${place.file}…`);
  const first = await t.service.suggestions.suggestAt(place, { signal: t.signal, trigger: 'manual' });
  const suggestion = await t.service.suggestions.complete(first, { signal: t.signal });
  const where = `${place.file}${place.symbol ? ` · ${place.symbol.name}` : ''}`;
  t.stream.markdown(renderSuggestions(suggestion.items, t.linkFor, `### Context for ${escapeMarkdown(where)}`));
  if (suggestion.notes?.length) t.stream.markdown(`\n\n_${suggestion.notes.map(escapeMarkdown).join(' · ')}_`);
  t.meta.suggestionId = suggestion.id;
  t.meta.suggestionEntities = suggestion.items.map((i) => i.entityId);
}

/** `/why`: the decisions and history behind the symbol (or file) at the cursor. */
export async function why(t: Turn): Promise<void> {
  const here = t.deps.tracker.currentPlace(t.folder);
  if (!here) {
    t.stream.markdown(
      'Put the cursor on a symbol in a workspace file: `/why` explains the decisions and history behind it.',
    );
    return;
  }
  t.stream.progress('Looking up decisions and history…');
  const card = await t.service.suggestions.explainWhy(here.place, { signal: t.signal });
  const lines = card.symbol ? `${card.symbol.name} (lines ${card.symbol.startLine}–${card.symbol.endLine})` : '';
  t.stream.markdown(
    renderWhy(
      card.target,
      card.decisions,
      card.changes,
      t.linkFor,
      card.notes,
      card.symbol ? { lines, commits: card.lineHistory } : undefined,
    ),
  );
}
