import { languageOf } from '../../index/languages';

/** Code in languages the index does not parse (Kotlin, Swift, Dart, C#…). */
const UNPARSED_CODE =
  /\.(?:kts?|swift|dart|scala|cs|fs|cpp|cc|cxx|c|h|hpp|m|mm|ex|exs|erl|clj|lua|groovy|vue|svelte)$/i;
/** A name of one plain word (`update`, `process`), as many definitions are named. */
const PLAIN_WORD = /^[a-z]+$/;
/** Files that may define a name a record mentions for the mention to mean the definition at the cursor. */
const MAX_SYMBOL_FILES = 10;

/** Source code, parsed by the code index or not (configuration, styles and docs are not). */
export function isCodeFile(path: string): boolean {
  return languageOf(path) !== undefined || UNPARSED_CODE.test(path);
}

/**
 * The definition's name at the cursor, when a record that writes it as code means this definition. A
 * name many files define (`update` in every store) is not this one; in a file the code index does not
 * read (Kotlin), no count says how many do, so a plain word is taken for many.
 */
export function namedDefinition(
  symbol: string | undefined,
  file: string | undefined,
  definitionFiles: ((name: string) => number) | undefined,
): string | undefined {
  const named = symbol && /^[A-Za-z_$][\w$.]*$/.test(symbol) ? symbol.split('.').pop()! : undefined;
  if (!named) return undefined;
  const unread = file !== undefined && !languageOf(file) && UNPARSED_CODE.test(file);
  const countable = unread ? !PLAIN_WORD.test(named) : (definitionFiles?.(named) ?? 0) <= MAX_SYMBOL_FILES;
  return countable ? named : undefined;
}
