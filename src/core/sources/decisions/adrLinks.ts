import picomatch from 'picomatch';
import { posix } from 'node:path';
import { linesOf } from '../docs/markdown';
import { trimEndOf } from '../../../shared/text';

/** A code location named in an ADR's text. */
export interface PathMention {
  kind: 'file' | 'dir' | 'glob';
  /** As written, normalized to a root-relative form where possible. */
  text: string;
  /** 1-based line in the ADR file. */
  line: number;
  match: (file: string) => boolean;
}

/** What an ADR names: paths, globs, identifiers and plain words, extracted once at refresh. */
export interface AdrLinks {
  paths: PathMention[];
  /** Identifiers written in backticks (`applyDiscount`, `Ledger.post()` → Ledger, post). */
  codeIdentifiers: Map<string, number>;
  /** CamelCase / camelCase words of the prose, with their first line. */
  camelWords: Map<string, number>;
}

/** Longest line read for links: longer lines are generated data, not prose that names code. */
const MAX_LINE = 4000;
const TRAILING_PUNCTUATION = new Set([...'.,;:!?']);

const CODE_EXT =
  'ts|tsx|js|jsx|mjs|cjs|mts|cts|py|java|kt|kts|scala|go|rs|rb|php|cs|fs|swift|m|mm|c|cc|cpp|cxx|h|hpp|vue|svelte|sql|proto|graphql|gql|yaml|yml|json|toml|xml|gradle|sh|ex|exs|erl|dart|lua|clj|hs|ml|tf';
const FILE_NAME = new RegExp(`^[\\w@.$-]+\\.(?:${CODE_EXT})$`, 'i');
const PATHISH = /(?:^|[\s(["'<,])((?:\.{1,2}\/)?(?:[\w@.$*{}-]+\/)+[\w@.$*{},-]*\/?)(?=$|[\s)\]"'>,;:!?])/g;
const BARE_FILE = new RegExp(`(?:^|[\\s(\\["'<,])([\\w@.$-]+\\.(?:${CODE_EXT}))(?=$|[\\s)\\]"'>,;:!?])`, 'gi');

/** Extracts the code an ADR body names. `adrDir` resolves relative markdown links (`../../src/x.ts`). */
export function extractLinks(body: string, bodyStartLine: number, adrDir: string): AdrLinks {
  const paths: PathMention[] = [];
  const seen = new Set<string>();
  const codeIdentifiers = new Map<string, number>();
  const camelWords = new Map<string, number>();
  const lines = linesOf(body);
  let inFence = false;

  const addPath = (raw: string, line: number, fromLink: boolean) => {
    let t = raw.trim().replace(/^<|>$/g, '');
    let end = t.length;
    while (end > 0 && TRAILING_PUNCTUATION.has(t[end - 1])) end--;
    t = t.slice(0, end).replace(/#.*$/, '');
    if (!t || /^[a-z][\w+.-]*:/i.test(t) || t.startsWith('//')) return;
    if (fromLink || t.startsWith('./') || t.startsWith('../')) {
      const resolved = posix.normalize(posix.join(adrDir, t));
      if (resolved.startsWith('..')) return;
      t = resolved + (raw.trim().endsWith('/') && !resolved.endsWith('/') ? '/' : '');
    }
    t = t.replace(/^\/+/, '');
    if (/^\d+(\/\d+)+$/.test(t) || t.length < 3) return;
    if (/\.md$/i.test(t) && !t.includes('/')) return;
    const key = t;
    if (seen.has(key)) return;
    const m = toMention(t, line);
    if (!m) return;
    seen.add(key);
    paths.push(m);
  };

  for (let i = 0; i < lines.length; i++) {
    const line = lines[i].length > MAX_LINE ? lines[i].slice(0, MAX_LINE) : lines[i];
    const lineNo = bodyStartLine + i;
    if (/^\s{0,3}(`{3,}|~{3,})/.test(line)) {
      inFence = !inFence;
      continue;
    }
    const prose = line.replace(/https?:\/\/\S+/g, ' ');
    // Markdown link targets: relative to the ADR's own folder.
    for (const m of prose.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
      if (!/\.md$/i.test(m[1]) || !/(^|\/)\d+[-_][^/]*\.md$/i.test(m[1])) addPath(m[1], lineNo, true);
    }
    const withoutLinks = prose.replace(/\]\([^()]*\)/g, ']');
    for (const m of withoutLinks.matchAll(/`([^`]+)`/g)) {
      const span = m[1].trim();
      if (span.includes('/') || FILE_NAME.test(span)) addPath(span, lineNo, false);
      for (const id of span.match(/[A-Za-z_$][\w$]*/g) ?? [])
        if (id.length >= 3 && !codeIdentifiers.has(id)) codeIdentifiers.set(id, lineNo);
    }
    if (inFence) {
      for (const id of line.match(/[A-Za-z_$][\w$]*/g) ?? [])
        if (id.length >= 3 && !codeIdentifiers.has(id)) codeIdentifiers.set(id, lineNo);
      continue;
    }
    const noTicks = withoutLinks.replace(/`[^`]*`/g, ' ');
    for (const m of noTicks.matchAll(PATHISH)) addPath(m[1], lineNo, false);
    for (const m of noTicks.matchAll(BARE_FILE)) addPath(m[1], lineNo, false);
    for (const w of noTicks.match(/\b(?:[a-z]+[A-Z][A-Za-z0-9]*|[A-Z][a-z0-9]+[A-Z][A-Za-z0-9]*)\b/g) ?? [])
      if (!camelWords.has(w)) camelWords.set(w, lineNo);
  }
  return { paths, codeIdentifiers, camelWords };
}

/** AdrLinks as plain data, for the record cache (matchers and maps do not survive JSON). */
export interface StoredLinks {
  paths: [text: string, line: number][];
  codeIdentifiers: [string, number][];
  camelWords: [string, number][];
}

export function storeLinks(links: AdrLinks): StoredLinks {
  return {
    paths: links.paths.map((m) => [m.text, m.line]),
    codeIdentifiers: [...links.codeIdentifiers],
    camelWords: [...links.camelWords],
  };
}

/** The links stored by storeLinks; a mention is made again from its text, as extractLinks made it. */
export function restoreLinks(stored: StoredLinks): AdrLinks {
  return {
    paths: stored.paths.flatMap(([text, line]) => toMention(text, line) ?? []),
    codeIdentifiers: new Map(stored.codeIdentifiers),
    camelWords: new Map(stored.camelWords),
  };
}

function toMention(t: string, line: number): PathMention | undefined {
  if (/[*?{]/.test(t)) {
    const patterns = t.startsWith('**/') ? [t] : [t, `**/${t}`];
    let matchers: ((s: string) => boolean)[];
    try {
      matchers = patterns.map((p) => picomatch(p, { dot: true }));
    } catch {
      return undefined;
    }
    // `src/payments/**` also governs files right under it, and a trailing `/*` names a folder's files.
    return { kind: 'glob', text: t, line, match: (f) => matchers.some((m) => m(f)) };
  }
  const last = t.replace(/\/$/, '').split('/').pop() ?? '';
  if (!t.endsWith('/') && /\.[A-Za-z0-9]{1,6}$/.test(last)) {
    return { kind: 'file', text: t, line, match: (f) => f === t || f.endsWith('/' + t) };
  }
  if (!t.includes('/')) return undefined;
  const dir = trimEndOf(t, '/');
  return { kind: 'dir', text: dir + '/', line, match: (f) => f.startsWith(dir + '/') || f.includes('/' + dir + '/') };
}

/** Most paths looked at to tell how much of the workspace a folder or glob covers. */
const SHARE_SAMPLE = 4000;

/** How many workspace files a mention covers, and whether that is much of the workspace. */
export interface MentionCoverage {
  /** Files it matches: exact for a file name, estimated on an even sample for a folder or glob. */
  files: number;
  /** For a file name that several files share, the first of them (up to 64). */
  matches?: readonly string[];
  /**
   * A folder or glob over half the paths, or a tenth of them and at least 100 files (`src/`, every
   * `.ts` file): it tells no file apart.
   */
  broad: boolean;
}

/** Counts the files a mention of an ADR covers (`genesis.go` may name fifteen of them). */
export function coverageOf(m: PathMention, paths: readonly string[]): MentionCoverage {
  if (!paths.length) return { files: 0, broad: false };
  if (m.kind === 'file') {
    const matches: string[] = [];
    let files = 0;
    for (const p of paths) {
      if (!m.match(p)) continue;
      files++;
      if (matches.length < 64) matches.push(p);
    }
    return { files, broad: false, matches: files > 1 ? matches : undefined };
  }
  const step = Math.max(1, Math.floor(paths.length / SHARE_SAMPLE));
  let seen = 0;
  let hit = 0;
  for (let i = 0; i < paths.length; i += step) {
    seen++;
    if (m.match(paths[i])) hit++;
  }
  const share = hit / seen;
  return {
    files: Math.round(share * paths.length),
    broad: share >= 0.5 || (share >= 0.1 && share * paths.length >= 100),
  };
}
