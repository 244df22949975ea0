/**
 * Glob matching for watch patterns that cannot hang a process: globs are compiled to segments and
 * matched by dynamic programming, never by a backtracking regular expression, so the cost is at
 * most (pattern length × path length) for any pattern, however pathological.
 *
 * Syntax: `*` and `?` within a path segment, `**` for any number of segments, `[abc]` / `[!a-z]`
 * classes, `{a,b}` alternatives. A pattern without a `/` matches a file name in any folder
 * (`*.ts`); a pattern without wildcards matches that path and everything under it (`src/auth`).
 */

import { trimEndOf } from '../../shared/text';

export const MAX_GLOB_LENGTH = 500;
const MAX_ALTERNATIVES = 64;
const MAX_SEGMENTS = 64;
const MAX_PATH_LENGTH = 4096;

export class GlobError extends Error {}

type Token =
  | { kind: 'star' }
  | { kind: 'any' }
  | { kind: 'char'; c: string }
  | { kind: 'class'; negate: boolean; ranges: [string, string][] };
type Segment = { kind: 'globstar' } | { kind: 'tokens'; tokens: Token[] };

export interface GlobMatcher {
  readonly source: string;
  matches(path: string): boolean;
}

/** Compiles a glob, refusing what cannot be a workspace pattern (absolute, `..`, too long). */
export function compileGlob(glob: string): GlobMatcher {
  if (typeof glob !== 'string' || !glob.trim()) throw new GlobError('A file pattern cannot be empty.');
  if (glob.length > MAX_GLOB_LENGTH)
    throw new GlobError(`A file pattern can be at most ${MAX_GLOB_LENGTH} characters (this one has ${glob.length}).`);
  const source = glob.trim().replace(/\\/g, '/').replace(/^\.\//, '');
  if (source.startsWith('/') || /^[A-Za-z]:/.test(source))
    throw new GlobError(`The pattern ${glob} must be relative to the workspace root.`);
  if (source.split('/').includes('..')) throw new GlobError(`The pattern ${glob} leaves the workspace.`);
  const alternatives = expandBraces(source);
  const hasWildcard = /[*?[{]/.test(source);
  const compiled = alternatives.map((alt) => {
    const anchored = alt.includes('/') ? trimEndOf(alt, '/') : `**/${alt}`;
    const parts = anchored.split('/').filter((p) => p !== '' && p !== '.');
    if (parts.length > MAX_SEGMENTS) throw new GlobError(`The pattern ${glob} has more than ${MAX_SEGMENTS} folders.`);
    // A plain path also covers what is under it (watching a folder by its name).
    if (!hasWildcard) parts.push('**');
    return parts.map(parseSegment);
  });
  return {
    source,
    matches: (path: string) => {
      if (path.length > MAX_PATH_LENGTH) return false;
      const segs = path
        .replace(/\\/g, '/')
        .split('/')
        .filter((p) => p !== '' && p !== '.');
      return compiled.some((pattern) => matchSegments(pattern, segs));
    },
  };
}

function expandBraces(glob: string): string[] {
  let out = [glob];
  for (let guard = 0; guard < 16; guard++) {
    let changed = false;
    const next: string[] = [];
    for (const g of out) {
      const open = g.indexOf('{');
      if (open < 0) {
        next.push(g);
        continue;
      }
      // The matching close brace, counting nesting.
      let depth = 0;
      let close = -1;
      for (let i = open; i < g.length; i++) {
        if (g[i] === '{') depth++;
        else if (g[i] === '}' && --depth === 0) {
          close = i;
          break;
        }
      }
      if (close < 0) throw new GlobError(`The pattern ${glob} has an unclosed "{".`);
      const body = g.slice(open + 1, close);
      const options: string[] = [];
      let start = 0;
      depth = 0;
      for (let i = 0; i <= body.length; i++) {
        const c = body[i];
        if (c === '{') depth++;
        else if (c === '}') depth--;
        else if ((c === ',' && depth === 0) || i === body.length) {
          options.push(body.slice(start, i));
          start = i + 1;
        }
      }
      for (const o of options) next.push(g.slice(0, open) + o + g.slice(close + 1));
      changed = true;
    }
    out = next;
    if (out.length > MAX_ALTERNATIVES)
      throw new GlobError(`The pattern ${glob} expands to more than ${MAX_ALTERNATIVES} alternatives.`);
    if (!changed) return out;
  }
  throw new GlobError(`The pattern ${glob} nests "{…}" too deeply.`);
}

function parseSegment(part: string): Segment {
  if (part === '**') return { kind: 'globstar' };
  const tokens: Token[] = [];
  for (let i = 0; i < part.length; i++) {
    const c = part[i];
    if (c === '*') {
      // `**` inside a segment means the same as `*`.
      if (tokens[tokens.length - 1]?.kind !== 'star') tokens.push({ kind: 'star' });
    } else if (c === '?') tokens.push({ kind: 'any' });
    else if (c === '[') {
      const end = part.indexOf(']', i + 2);
      if (end < 0) {
        tokens.push({ kind: 'char', c });
        continue;
      }
      let body = part.slice(i + 1, end);
      const negate = body.startsWith('!') || body.startsWith('^');
      if (negate) body = body.slice(1);
      const ranges: [string, string][] = [];
      for (let k = 0; k < body.length; k++) {
        if (body[k + 1] === '-' && k + 2 < body.length) {
          ranges.push([body[k], body[k + 2]]);
          k += 2;
        } else ranges.push([body[k], body[k]]);
      }
      tokens.push({ kind: 'class', negate, ranges });
      i = end;
    } else tokens.push({ kind: 'char', c });
  }
  return { kind: 'tokens', tokens };
}

/** Pattern segments against path segments, by dynamic programming over both. */
function matchSegments(pattern: Segment[], segs: string[]): boolean {
  const P = pattern.length;
  const S = segs.length;
  // ok[j]: pattern[i..] matches segs[j..]; filled from the end.
  let next = new Array<boolean>(S + 1).fill(false);
  next[S] = true;
  for (let i = P - 1; i >= 0; i--) {
    const cur = new Array<boolean>(S + 1).fill(false);
    const p = pattern[i];
    for (let j = S; j >= 0; j--) {
      if (p.kind === 'globstar') cur[j] = next[j] || (j < S && cur[j + 1]);
      else cur[j] = j < S && next[j + 1] && matchTokens(p.tokens, segs[j]);
    }
    next = cur;
  }
  return next[0];
}

/** One segment against a file or folder name, with `*`, `?` and classes; O(tokens × name). */
function matchTokens(tokens: Token[], name: string): boolean {
  const T = tokens.length;
  const N = name.length;
  let next = new Array<boolean>(N + 1).fill(false);
  next[N] = true;
  for (let t = T - 1; t >= 0; t--) {
    const tok = tokens[t];
    const cur = new Array<boolean>(N + 1).fill(false);
    for (let n = N; n >= 0; n--) {
      if (tok.kind === 'star') cur[n] = next[n] || (n < N && cur[n + 1]);
      else cur[n] = n < N && next[n + 1] && matchChar(tok, name[n]);
    }
    next = cur;
  }
  return next[0];
}

function matchChar(tok: Exclude<Token, { kind: 'star' }>, c: string): boolean {
  if (tok.kind === 'any') return true;
  if (tok.kind === 'char') return tok.c === c;
  const inside = tok.ranges.some(([lo, hi]) => c >= lo && c <= hi);
  return tok.negate ? !inside : inside;
}
