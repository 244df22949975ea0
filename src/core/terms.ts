/** The words of code and text that can name something: what term indexes and diffs are matched on. */

/** Identifiers of at least this many characters count; shorter ones are loop variables and noise. */
const MIN_TERM = 4;
const MAX_TERM = 64;
/** Terms kept per file: a generated table or a bundle would otherwise fill the index. */
const MAX_TERMS_PER_FILE = 2000;

const IDENT = /[A-Za-z_$][A-Za-z0-9_$]*/g;

/** The distinct identifiers of a text that are long enough to name something. */
export function extractTerms(text: string): string[] {
  const seen = new Set<string>();
  IDENT.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = IDENT.exec(text)) && seen.size < MAX_TERMS_PER_FILE) {
    const t = m[0];
    if (t.length >= MIN_TERM && t.length <= MAX_TERM) seen.add(t);
  }
  return [...seen];
}
