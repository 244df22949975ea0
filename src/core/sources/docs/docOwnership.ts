import { isCodeFile } from '../decisions/codeFiles';
import type { SourceQuery } from '../sourceQuery';
import { documentHome, isHomeOf } from './docEvidence';
import { isDocFile, type DocSection } from './docSections';
import { GENERIC_NAMES, termsOf } from './textTerms';

/* Whose code a doc section speaks of: the file's own component, a file of that name, another component. */

/** `path.endsWith('/' + tail)` without making that string: this runs for every path every document mentions, on every query. */
export function endsWithPath(path: string, tail: string): boolean {
  return path.length > tail.length && path.endsWith(tail) && path.charCodeAt(path.length - tail.length - 1) === 47;
}

/** A file's name without its extensions and test affixes: `link_test.go`, `LinkTest.kt`, `link.spec.ts` → `link`. */
export function moduleName(path: string): string {
  const base = path.slice(path.lastIndexOf('/') + 1);
  const dot = base.indexOf('.');
  const stem = dot > 0 ? base.slice(0, dot) : base;
  const bare = stem.replace(/^test_/i, '').replace(/[_-](?:test|spec)$/i, '');
  return bare === stem ? stem.replace(/(?<=[a-z0-9])(?:Tests?|Spec|IT)$/, '') : bare;
}

/**
 * `fetch`, `search`, `build`: one plain word names this definition only where the section speaks of
 * its class, its file or its component, or where the file is named after it; elsewhere it is the word.
 */
export function saysWhose(s: DocSection, symbol: string, q: SourceQuery): boolean {
  if (!PLAIN_WORD.test(symbol) || namesake(q.file, symbol)) return true;
  return (q.file !== undefined && isOwnComponentOf(s.path, q.file)) || namesContainer(s, q.file, q.symbol);
}

/** A name of one word, lower case or capitalized: `fetch`, `search`, `Run`, `Store`. */
const PLAIN_WORD = /^[A-Za-z][a-z]+$/;

/** The file is named after the definition: `initialize` of `initialize.js`, `Store` of `Store.ts`. */
function namesake(file: string | undefined, symbol: string): boolean {
  return file !== undefined && moduleName(file).toLowerCase() === symbol.toLowerCase();
}

/** A document of the component that holds the file (not the workspace's own docs): its README's "Run". */
function isOwnComponentOf(docPath: string, file: string): boolean {
  return documentHome(docPath) !== '' && isHomeOf(docPath, file);
}

/**
 * The section, or its document's name, names what holds the definition: its class
 * (`EPPConnectionPool` of `EPPConnectionPool.connection`, or a document named
 * `epp-connection-pool-debugging.md`), or its file, in code or as a path.
 */
function namesContainer(s: DocSection, file: string | undefined, qualified: string | undefined): boolean {
  const parts = qualified?.split('.') ?? [];
  const containers = [...parts.slice(0, -1), ...(file ? [moduleName(file)] : [])].filter(
    (c) => c.length >= 3 && !GENERIC_NAMES.has(c.toLowerCase()),
  );
  if (!containers.length) return false;
  const base = file?.slice(file.lastIndexOf('/') + 1);
  if (base && s.paths.some((p) => p === base || endsWithPath(p, base))) return true;
  const name = s.path.slice(s.path.lastIndexOf('/') + 1).replace(/\.[^.]+$/, '');
  const named = new Set(termsOf(name));
  return containers.some((c) => {
    if (PLAIN_WORD.test(c) ? s.code.has(c) : s.identifiers.has(c)) return true;
    const words = termsOf(c);
    return words.length > 0 && words.every((w) => named.has(w));
  });
}

/**
 * The folders of these documents (their homes, as `documentHome` tells) that hold at least as many
 * code files as documents: `services/referral/` with its README, or a plugin slot's one component
 * beside its README, is a component; `homepage/` or `specs/0026-x/`, all pages, is documentation of
 * the whole workspace.
 */
export function componentsOf(docs: readonly string[], files: readonly string[]): Set<string> {
  const counts = new Map<string, { code: number; docs: number }>();
  for (const d of docs) {
    const home = documentHome(d);
    if (home) counts.set(home, { code: 0, docs: 0 });
  }
  const components = new Set<string>();
  if (!counts.size) return components;
  for (const f of files) {
    const code = isCodeFile(f);
    if (!code && !isDocFile(f)) continue;
    for (let k = f.indexOf('/'); k > 0; k = f.indexOf('/', k + 1)) {
      const c = counts.get(f.slice(0, k));
      if (c) c[code ? 'code' : 'docs']++;
    }
  }
  for (const [home, c] of counts) if (c.code > 0 && c.code >= c.docs) components.add(home);
  return components;
}

/** Documents that say how the project's code is written: `coding-conventions.md`, `STYLE_GUIDE.md`, `guidelines.md`. */
export const CONVENTIONS = /(?:conventions?|guidelines?|style[-_ ]?guide|coding[-_ ]?standards?)(?:\.[a-z]+)?$/i;
