import { RE2JS } from 're2js';
import { Refusal } from './refusal';

/** Why a user's regular expression was refused; the message names the pattern and is meant for the user. */
export class UserPatternError extends Refusal<'invalid' | 'unsupported' | 'too_complex'> {
  override readonly name = 'UserPatternError';
}

/** A user's regular expression, matched in time linear in the text (RE2 semantics): it can never hang. */
export interface UserPattern {
  readonly source: string;
  readonly flags: string;
  test(text: string): boolean;
}

/** Flags a pattern may carry; `g` and `y` only change where a JavaScript match starts and are dropped by callers. */
const FLAGS: Record<string, number> = { i: RE2JS.CASE_INSENSITIVE, m: RE2JS.MULTILINE, s: RE2JS.DOTALL, u: 0 };
/** Compiled program size beyond which a pattern is refused (each text character may visit every instruction). */
const MAX_PROGRAM = 4000;

/**
 * Compiles a regular expression typed by a user (subscription patterns), refusing what a linear-time
 * engine cannot run: back-references and look-around. JavaScript syntax is checked first, so a typo
 * gets the usual message; the match itself runs on RE2JS, a pure-JavaScript RE2 that needs no
 * native build or wasm in the extension host.
 */
export function compileUserPattern(source: string, flags = ''): UserPattern {
  const shown = `/${source}/${flags}`;
  for (const f of flags) {
    if (!(f in FLAGS))
      throw new UserPatternError(
        'invalid',
        `Invalid regular expression ${shown}: the flag "${f}" is not supported; use i, m, s or u.`,
      );
  }
  try {
    new RegExp(source, flags);
  } catch (err) {
    // The engine's message repeats the pattern ("Invalid regular expression: /x/: why"): keep the why.
    const message = (err as Error).message;
    const why = message.startsWith('Invalid regular expression: ')
      ? message.slice(message.lastIndexOf(': ') + 2)
      : message;
    throw new UserPatternError('invalid', `Invalid regular expression ${shown}: ${why}`);
  }
  const unsupported = unsupportedSyntax(source);
  if (unsupported)
    throw new UserPatternError(
      'unsupported',
      `The regular expression ${shown} uses ${unsupported}, which patterns cannot use: they run on a linear-time engine so that no pattern can hang. Rewrite it without ${unsupported}.`,
    );
  let re: RE2JS;
  try {
    re = RE2JS.compile(
      RE2JS.translateRegExp(source),
      [...flags].reduce((acc, f) => acc | FLAGS[f], 0),
    );
  } catch (err) {
    throw new UserPatternError(
      'unsupported',
      `The regular expression ${shown} is not supported by the linear-time pattern engine: ${(err as Error).message}.`,
    );
  }
  if (re.programSize() > MAX_PROGRAM) {
    throw new UserPatternError(
      'too_complex',
      `The regular expression ${shown} is too complex (${re.programSize()} steps; the limit is ${MAX_PROGRAM}). Use a shorter pattern or smaller repeat counts.`,
    );
  }
  return { source, flags, test: (text) => re.test(text) };
}

/** Names JavaScript-only syntax RE2 cannot match in linear time; undefined when there is none. */
function unsupportedSyntax(source: string): string | undefined {
  let inClass = false;
  for (let i = 0; i < source.length; i++) {
    const c = source[i];
    if (c === '\\') {
      const next = source[i + 1] ?? '';
      if (!inClass && /[1-9]/.test(next)) return `a back-reference (\\${next})`;
      if (!inClass && next === 'k' && source[i + 2] === '<') return 'a named back-reference (\\k<…>)';
      i++;
      continue;
    }
    if (inClass) {
      if (c === ']') inClass = false;
      continue;
    }
    if (c === '[') inClass = true;
    else if (c === '(' && source[i + 1] === '?') {
      const kind = source.slice(i + 2, i + 4);
      if (kind.startsWith('=') || kind.startsWith('!')) return 'a look-ahead (?= or ?!)';
      if (kind === '<=' || kind === '<!') return 'a look-behind (?<= or ?<!)';
    }
  }
  return undefined;
}
