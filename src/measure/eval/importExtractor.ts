import { posix } from 'node:path';
import { JS_EMITTED } from '../../core/index/packageResolver';

const SPEC_PATTERNS = [
  // import x from '...'; import {a} from "..."; export * from '...'; export {a} from '...'
  /\b(?:import|export)\s+(?:type\s+)?[^'";]*?\bfrom\s*['"]([^'"\n]+)['"]/g,
  // import '...'; side-effect imports
  /\bimport\s*['"]([^'"\n]+)['"]/g,
  // require('...'), import('...'), vi.mock('...'), jest.mock('...')
  /\b(?:require|import|mock|doMock|requireActual|importActual)\s*\(\s*['"]([^'"\n]+)['"]\s*\)/g,
];

/** Module specifiers a JS/TS file mentions, in order of appearance, without duplicates. */
export function extractImportSpecs(source: string): string[] {
  const seen = new Set<string>();
  for (const re of SPEC_PATTERNS) {
    re.lastIndex = 0;
    let m: RegExpExecArray | null;
    while ((m = re.exec(source))) seen.add(m[1]);
  }
  return [...seen];
}

const PROBE_EXTS = ['.ts', '.tsx', '.js', '.jsx', '.mts', '.cts', '.mjs', '.cjs', '.vue', '.svelte', '.d.ts'];

/**
 * Resolves a relative specifier from `fromPath` against the set of files that exist, probing
 * extensions and `index` files; undefined for bare specifiers and misses.
 */
export function resolveRelative(fromPath: string, spec: string, exists: (p: string) => boolean): string | undefined {
  if (!spec.startsWith('.')) return undefined;
  const clean = spec.replace(/[?#].*$/, '');
  const base = posix.normalize(posix.join(posix.dirname(fromPath), clean));
  if (base.startsWith('..')) return undefined;
  if (exists(base) && /\.[a-z]+$/i.test(base)) return base;
  const ext = posix.extname(base);
  for (const alt of JS_EMITTED[ext] ?? []) {
    const p = base.slice(0, -ext.length) + alt;
    if (exists(p)) return p;
  }
  for (const e of PROBE_EXTS) if (exists(base + e)) return base + e;
  for (const e of PROBE_EXTS) if (exists(`${base}/index${e}`)) return `${base}/index${e}`;
  return undefined;
}

export function isScriptFile(path: string): boolean {
  return /\.(?:[cm]?[jt]sx?|vue|svelte)$/i.test(path);
}
