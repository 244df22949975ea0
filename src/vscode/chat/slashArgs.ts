// Argument parsing for the `@context` slash commands. Plain TypeScript (no `vscode` import) so it is
// unit-tested in Node; the registry still validates paths, ranges and regexes when subscribing.
import { compileUserPattern, type SubscribeRequest } from '../../core/api/types';

/** A slash command's arguments that cannot be used; the message is shown to the user as is. */
export class SlashArgsError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SlashArgsError';
  }
}

export const SUBSCRIBE_USAGE = [
  'Usage: `/subscribe <what>` where `<what>` is one of',
  '- `src/a.ts` — the whole file',
  '- `src/a.ts#L10-20` — a line range',
  '- `src/a.ts ~/TODO|FIXME/i` — the lines matching a regular expression',
  '- `src/a.ts::parseConfig` — a symbol, followed through edits (`::parseConfig` searches the workspace)',
  '- `memory:<query>` — a saved search over decisions and past chats',
  'Quote paths that contain spaces: `"docs/my notes.md"`. With no argument, the active editor’s file is used.',
].join('\n');

const MAX_ARG_CHARS = 2000;

/**
 * Parses `/subscribe` arguments into a registry request. Returns undefined for an empty argument
 * (the caller then falls back to the active editor or chat references).
 */
export function parseSubscribeArgs(input: string): SubscribeRequest | undefined {
  const text = input.trim();
  if (!text) return undefined;
  if (text.length > MAX_ARG_CHARS)
    throw new SlashArgsError(
      `The argument is ${text.length.toLocaleString('en-US')} characters long; keep it under ${MAX_ARG_CHARS.toLocaleString('en-US')}.`,
    );

  const memory = /^memory:\s*([\s\S]*)$/i.exec(text);
  if (memory) {
    const query = unquote(memory[1].trim()).replace(/\s+/g, ' ');
    if (query.length < 2)
      throw new SlashArgsError('Give a search after `memory:`, e.g. `/subscribe memory: retry policy`.');
    return { kind: 'memory', target: query };
  }

  const { path, rest } = splitPath(text);
  if (!path) throw new SlashArgsError(`Give a file path to subscribe to.\n\n${SUBSCRIBE_USAGE}`);

  // `src/a.ts ~/re/flags` or `src/a.ts~/re/flags`
  const patternAt = rest.startsWith('~') ? 0 : -1;
  const inlinePattern = patternAt < 0 ? path.indexOf('~/') : -1;
  if (patternAt === 0 || inlinePattern > 0) {
    const filePath = patternAt === 0 ? path : path.slice(0, inlinePattern);
    const spec = patternAt === 0 ? rest.slice(1) : path.slice(inlinePattern + 1) + (rest ? ` ${rest}` : '');
    const m = /^\/([\s\S]+)\/([a-z]*)$/.exec(spec.trim());
    if (!m)
      throw new SlashArgsError(`Write the pattern between slashes after \`~\`, e.g. \`${filePath} ~/TODO|FIXME/i\`.`);
    if (/[^dimsuv]/.test(m[2]))
      throw new SlashArgsError(`Unknown regular-expression flag in "${m[2]}"; use i, m, s or u.`);
    try {
      compileUserPattern(m[1], m[2].replace(/[gy]/g, ''));
    } catch (err) {
      throw new SlashArgsError((err as Error).message);
    }
    return { kind: 'pattern', target: filePath, pattern: `/${m[1]}/${m[2]}` };
  }
  if (rest) throw new SlashArgsError(`Unexpected text after the path: "${rest}".\n\n${SUBSCRIBE_USAGE}`);

  const symbolAt = path.indexOf('::');
  if (symbolAt >= 0) {
    const filePath = path.slice(0, symbolAt);
    const symbol = path.slice(symbolAt + 2);
    if (!/^[\p{L}\p{N}_$][\p{L}\p{N}_$.#]*$/u.test(symbol)) {
      throw new SlashArgsError(
        `"${symbol}" is not a symbol name; write it like \`src/a.ts::parseConfig\` or \`::Store.open\`.`,
      );
    }
    return { kind: 'symbol', target: filePath ? `${filePath}::${symbol}` : `::${symbol}`, symbol };
  }

  const range = /^(.+?)#L(\d+)(?:-L?(\d+))?$/.exec(path);
  if (range) {
    const start = Number(range[2]);
    const end = Number(range[3] ?? range[2]);
    if (start < 1) throw new SlashArgsError('Line numbers start at 1.');
    if (end < start)
      throw new SlashArgsError(`The range L${start}-${end} ends before it starts; write \`#L${end}-${start}\`.`);
    return { kind: 'lines', target: range[1], lines: { start, end } };
  }
  if (/#L/i.test(path)) throw new SlashArgsError(`Write a line range as \`path#L10-20\` (got "${path}").`);
  return { kind: 'file', target: path };
}

export type UnsubscribeArgs = { all: true } | { all: false; ids: string[] };

/** Parses `/unsubscribe <id> [<id>…] | all`. */
export function parseUnsubscribeArgs(input: string): UnsubscribeArgs {
  const words = input
    .trim()
    .split(/[\s,]+/)
    .filter(Boolean);
  if (!words.length) throw new SlashArgsError('Give the id of the subscription to remove (see `/list`), or `all`.');
  if (words.length === 1 && /^(all|\*)$/i.test(words[0])) return { all: true };
  const bad = words.find((w) => !/^[a-z0-9_-]{1,64}$/i.test(w));
  if (bad) throw new SlashArgsError(`"${bad}" is not a subscription id; ids look like \`k3x9q2\` (see \`/list\`).`);
  return { all: false, ids: [...new Set(words.map((w) => w.toLowerCase()))] };
}

/** `/decide <title>`: the title, one line, bounded. */
export function parseDecisionTitle(input: string): string {
  const title = input.trim().replace(/\s+/g, ' ');
  if (!title) throw new SlashArgsError('Give the decision a title: `/decide Use events for ledger updates`.');
  if (title.length > 200) throw new SlashArgsError(`Keep the title under 200 characters (it has ${title.length}).`);
  return title;
}

/** Splits off the first (possibly quoted) word as the path; the rest is returned trimmed. */
function splitPath(text: string): { path: string; rest: string } {
  const q = text[0];
  if (q === '"' || q === "'" || q === '`') {
    const end = text.indexOf(q, 1);
    if (end < 0) throw new SlashArgsError(`The quoted path is missing its closing ${q}.`);
    const head = text.slice(1, end);
    // A suffix glued to the closing quote belongs to the path: "a b.ts"#L3-4, "a b.ts"::name
    const glued = /^(#L[\d-L]+|::[^\s]+|~\/\S*)/.exec(text.slice(end + 1));
    const path = head + (glued?.[0] ?? '');
    return { path: path.trim(), rest: text.slice(end + 1 + (glued?.[0].length ?? 0)).trim() };
  }
  // Not quoted: a pattern may contain spaces, so split at the first whitespace only.
  const m = /^(\S+)\s*([\s\S]*)$/.exec(text);
  return { path: m?.[1] ?? '', rest: (m?.[2] ?? '').trim() };
}

function unquote(s: string): string {
  const m = /^(["'`])([\s\S]*)\1$/.exec(s);
  return m ? m[2] : s;
}
