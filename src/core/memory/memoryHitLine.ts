import { safeLabel } from '../../shared/text';
import type { MemoryHit } from './memoryStore';

/** Longest a memory snippet runs on its one line. */
const SNIPPET_CHARS = 600;

/** One memory hit as a prompt line; titles, paths and snippets are one-lined so none can start a heading. */
export function renderMemoryHit(h: MemoryHit): string {
  if (h.kind === 'decision')
    return `- decision "${safeLabel(h.title)}" (${h.path ? `${safeLabel(h.path)}${h.line ? `:${h.line}` : ''}` : safeLabel(h.id)}): ${safeLabel(h.snippet, SNIPPET_CHARS)}`;
  const day = h.at !== undefined ? new Date(h.at).toISOString().slice(0, 10) : '';
  return `- past chat${day ? ` ${day}` : ''}: Q: ${safeLabel(h.title)} — A: ${safeLabel(h.snippet, SNIPPET_CHARS)}`;
}
