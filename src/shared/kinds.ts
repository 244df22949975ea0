/**
 * The kinds of suggestion and how every surface names them: the panel, chat, the CLI, MCP, the
 * language-model tools and the engine all read this one table, so a kind has one title, one icon and
 * one place in the order everywhere. It imports nothing, so the engine, the adapters and the panel
 * page (a browser bundle) can all use it.
 *
 * A new kind is one row here (and its member in `SuggestionType`); `order` leaves gaps for it.
 */

export type SuggestionType = 'decision' | 'warning' | 'change' | 'cochange' | 'related_code' | 'doc';

export interface KindInfo {
  id: SuggestionType;
  /** The boolean setting under `proactiveContext.` that shows or hides the kind. */
  setting: string;
  /** Group heading: "Recent changes". */
  title: string;
  /** One item, lower case, as said in running text: "recent change". */
  singular: string;
  /** Several items, lower case: "Show 3 more recent changes". */
  plural: string;
  /** Codicon name (without `codicon-`). */
  icon: string;
  /** Place in every list of groups, lowest first: what governs the code, then what happened to it, then what surrounds it. */
  order: number;
}

export const KINDS: Readonly<Record<SuggestionType, Readonly<KindInfo>>> = Object.freeze({
  decision: {
    id: 'decision',
    setting: 'show.decisions',
    title: 'Decisions',
    singular: 'decision',
    plural: 'decisions',
    icon: 'law',
    order: 10,
  },
  warning: {
    id: 'warning',
    setting: 'show.warnings',
    title: 'Warnings',
    singular: 'warning',
    plural: 'warnings',
    icon: 'warning',
    order: 20,
  },
  change: {
    id: 'change',
    setting: 'show.changes',
    title: 'Recent changes',
    singular: 'recent change',
    plural: 'recent changes',
    icon: 'git-commit',
    order: 30,
  },
  cochange: {
    id: 'cochange',
    setting: 'show.coChange',
    title: 'Usually changes with',
    singular: 'file that usually changes with this one',
    plural: 'files that usually change with this one',
    icon: 'files',
    order: 40,
  },
  related_code: {
    id: 'related_code',
    setting: 'show.callers',
    title: 'Callers',
    singular: 'caller',
    plural: 'callers',
    icon: 'call-incoming',
    order: 50,
  },
  doc: {
    id: 'doc',
    setting: 'show.docs',
    title: 'Docs',
    singular: 'doc',
    plural: 'docs',
    icon: 'book',
    order: 60,
  },
});

/** Every kind, in the order all surfaces show their groups. */
export const SUGGESTION_TYPES: readonly SuggestionType[] = Object.freeze(
  Object.values(KINDS)
    .sort((a, b) => a.order - b.order)
    .map((k) => k.id),
);

/** "3 recent changes", "1 caller". */
export function countOf(type: SuggestionType, n: number): string {
  return `${n} ${n === 1 ? KINDS[type].singular : KINDS[type].plural}`;
}

/** The kind's name to start a sentence or a spoken label: "Recent change". */
export function kindLabel(type: SuggestionType): string {
  const s = KINDS[type].singular;
  return s.charAt(0).toUpperCase() + s.slice(1);
}
