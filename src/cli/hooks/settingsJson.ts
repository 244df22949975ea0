/**
 * Why a settings file cannot be rewritten, or undefined when it is plain JSON. Rewriting goes
 * through JSON.stringify, which would drop comments: a file with comments is refused, not changed.
 */
export function settingsError(text: string): string | undefined {
  if (!text.trim()) return undefined;
  try {
    JSON.parse(text);
    return undefined;
  } catch (err) {
    const withoutComments = stripJsonComments(text);
    if (withoutComments !== text) {
      try {
        JSON.parse(withoutComments);
        return 'it has comments, which rewriting would drop; add the entries by hand or remove the comments first';
      } catch {
        // Not JSONC either: report the JSON error below.
      }
    }
    return `it is not valid JSON (${(err as Error).message})`;
  }
}

/** The text with // and /* *\/ comments blanked out, strings left alone; one pass. */
function stripJsonComments(text: string): string {
  let out = '';
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    if (c === '"') {
      let j = i + 1;
      while (j < text.length && text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
      out += text.slice(i, j + 1);
      i = j + 1;
    } else if (c === '/' && text[i + 1] === '/') {
      while (i < text.length && text[i] !== '\n') i++;
    } else if (c === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      i = end < 0 ? text.length : end + 2;
    } else {
      out += c;
      i++;
    }
  }
  return out;
}
