import type { FileQuery, TermSource } from './fileTerms';

/**
 * What makes a link between a file and a record by their words specific: a word of the record's
 * title that the file is named after, lives in, defines or imports, or several words few files of
 * the workspace use. Words most files share (`update`, `service`, `side`) link a record to all of
 * them, so they are never evidence on their own.
 */
export type EvidenceKind = 'import' | 'folder' | 'name' | 'words';

export interface LinkEvidence {
  kind: EvidenceKind;
  /** The record's words that make it (terms; the linker shows them as the record writes them). */
  words: string[];
  /** The package imported (`import`) or the folder (`folder`), for the reason. */
  where?: string;
  /** Where the file has the word (`name`). */
  source?: TermSource;
}

/** A word carried by at most this share of the workspace's files is rare. */
export const RARE_SHARE = 0.02;
/** Packages are fewer than words: one imported by up to this share of files is still rare. */
const RARE_IMPORT_SHARE = 0.05;
/** A word of the definition at the cursor this rare speaks for it alone. */
const SYMBOL_SHARE = 0.005;
/** Rare words it takes, together, to link a record with no title word in common. */
const RARE_WORDS = 2;
/** A package imported by more files than this is the stack every file is on (`react` in a React app), not a topic. */
const COMMON_IMPORT_SHARE = 0.5;

export interface EvidenceInput {
  /** The record's terms that matched, strongest first. */
  matched: readonly string[];
  /** The file's word each expanded record term comes from. */
  from: ReadonlyMap<string, string>;
  /** Record terms matched only through the file's plain text. */
  textOnly: ReadonlySet<string>;
  query: FileQuery;
  /** The record's title terms. */
  title: ReadonlySet<string> | undefined;
  /** Share of the workspace's files carrying a word (0..1). */
  share: (term: string) => number;
  /** The file's path, to name the folder a word comes from. */
  file: string;
  /** A broad record links by a word it is titled after that the file is named after or lives in, nothing weaker. */
  broad?: boolean;
}

/** The strongest specific evidence for the link, or undefined when only common words link them. */
export function specificEvidence(input: EvidenceInput): LinkEvidence | undefined {
  const { matched, from, textOnly, query, title, share } = input;
  const sourceOf = (t: string): TermSource =>
    textOnly.has(t) ? 'text' : (query.sources.get(from.get(t) ?? t) ?? 'text');
  const titled = matched.filter((t) => title?.has(t));
  const pick = (kinds: readonly TermSource[]) => titled.find((t) => kinds.includes(sourceOf(t)));
  const folder = pick(['folder']);
  const named = pick(['name', 'symbol', 'type']);
  if (input.broad) {
    if (named) return { kind: 'name', words: [named], source: sourceOf(named) };
    if (folder) return folderEvidence(input.file, from.get(folder) ?? folder, folder);
    return undefined;
  }
  // A package the record names: any it is titled after but the stack every file is on, or one few files import.
  const importShare = (t: string) => (query.packages?.has(from.get(t) ?? t) ? share(from.get(t) ?? t) : 1);
  const imported =
    titled.find((t) => sourceOf(t) === 'import' && importShare(t) <= COMMON_IMPORT_SHARE) ??
    matched.find((t) => sourceOf(t) === 'import' && importShare(t) <= RARE_IMPORT_SHARE);
  if (imported) {
    const w = from.get(imported) ?? imported;
    return { kind: 'import', words: [imported], where: query.packages?.get(w) };
  }
  if (folder) return folderEvidence(input.file, from.get(folder) ?? folder, folder);
  // A word of the definition's own name that almost no file uses (`oel` of `oel_tagging`) names it.
  const symbolWord = matched.find(
    (t) => sourceOf(t) === 'symbol' && t.length >= 3 && share(from.get(t) ?? t) <= SYMBOL_SHARE,
  );
  const own =
    named ?? symbolWord ?? pick(query.textIsContent ? ['definition', 'comment', 'text'] : ['definition', 'comment']);
  if (own) return { kind: 'name', words: [own], source: sourceOf(own) };
  const rare = new Set<string>();
  for (const t of matched) {
    const s = sourceOf(t);
    if (!query.textIsContent && (s === 'text' || s === 'comment' || s === 'call')) continue;
    if (s === 'call') continue;
    if (share(from.get(t) ?? t) <= (s === 'import' ? RARE_IMPORT_SHARE : RARE_SHARE)) rare.add(t);
  }
  return rare.size >= RARE_WORDS ? { kind: 'words', words: [...rare].slice(0, 3) } : undefined;
}

/** The innermost folder of `file` whose name carries the file's word `term` (the record's `recordTerm`). */
function folderEvidence(file: string, term: string, recordTerm: string): LinkEvidence {
  const parts = file.split('/').slice(0, -1);
  // Terms are stems (`servic`): the folder name starts with all but the stem's last letter or so.
  const stem = term.slice(0, Math.max(3, term.length - 1));
  for (let i = parts.length - 1; i >= 0; i--)
    if (parts[i].toLowerCase().includes(stem))
      return { kind: 'folder', words: [recordTerm], where: parts.slice(0, i + 1).join('/') };
  return { kind: 'folder', words: [recordTerm], where: parts.join('/') };
}
