import { posix } from 'node:path';

type Json = Record<string, unknown>;

interface PathsConfig {
  /** Folder the `paths` targets are relative to. */
  base: string;
  baseUrl?: string;
  paths: [pattern: string, targets: string[]][];
}

const JS_EXTENSIONS = ['.ts', '.tsx', '.d.ts', '.js', '.jsx', '.mjs', '.cjs', '.mts', '.cts', '.vue', '.svelte'];
/** Maps `./x.js` style specifiers (TypeScript ESM) back to their sources. */
export const JS_EMITTED: Readonly<Record<string, readonly string[]>> = {
  '.js': ['.ts', '.tsx'],
  '.jsx': ['.tsx'],
  '.mjs': ['.mts'],
  '.cjs': ['.cts'],
};

/** Whether a path is a manifest or compiler config that bare-specifier resolution reads. */
export function isResolutionConfig(path: string): boolean {
  if (/(^|\/)node_modules\//.test(path)) return false;
  const base = path.slice(path.lastIndexOf('/') + 1);
  return base === 'package.json' || /^(tsconfig|jsconfig)(\.[\w-]+)?\.json$/.test(base);
}

/**
 * Resolves JS/TS specifiers to files: bare ones (`vitest`, `@scope/pkg/sub`, tsconfig `paths`
 * aliases) through the package.json and tsconfig files it is given, relative ones by probing
 * extensions and `index` files. It reads nothing itself: the code index hands it the working tree,
 * the evaluation the tree of a past commit.
 */
export class PackageResolver {
  private readonly packages = new Map<string, string>();
  private readonly tsconfigByDir = new Map<string, PathsConfig | null>();
  /** Answers by the config in force (configs differ in baseUrl and paths even at one base) and specifier. */
  private readonly hits = new Map<PathsConfig | null, Map<string, string | undefined>>();

  /**
   * @param exists whether a file exists at the commit
   * @param json the parsed JSON of a config file at the commit (undefined when absent or malformed)
   * @param manifests the package.json paths of the commit
   * @param configExists whether a tsconfig/jsconfig exists, when `exists` knows code files only
   */
  constructor(
    private readonly exists: (p: string) => boolean,
    private readonly json: (p: string) => Json | undefined,
    manifests: readonly string[],
    private readonly configExists: (p: string) => boolean = exists,
  ) {
    for (const p of [...manifests].sort((a, b) => a.length - b.length)) {
      const name = json(p)?.name;
      if (typeof name === 'string' && !this.packages.has(name)) this.packages.set(name, dirOf(p));
    }
  }

  /** The file a bare specifier from `from` names, when it is inside the repository. */
  resolve(from: string, spec: string): string | undefined {
    if (!spec || spec.startsWith('.') || spec.startsWith('/') || /^[a-z]+:/.test(spec)) return undefined;
    const cfg = this.tsconfigFor(dirOf(from));
    let hits = this.hits.get(cfg);
    if (!hits) this.hits.set(cfg, (hits = new Map<string, string | undefined>()));
    if (hits.has(spec)) return hits.get(spec);
    const hit = this.resolveUncached(cfg, spec);
    hits.set(spec, hit);
    return hit;
  }

  private resolveUncached(cfg: PathsConfig | null, spec: string): string | undefined {
    const query = spec.indexOf('?');
    if (query >= 0) spec = spec.slice(0, query);
    if (cfg) {
      for (const [pattern, targets] of cfg.paths) {
        const star = matchPattern(pattern, spec);
        if (star === undefined) continue;
        for (const t of targets) {
          const hit = this.probe(posix.join(cfg.base, t.replace('*', star)));
          if (hit) return hit;
        }
      }
      if (cfg.baseUrl !== undefined) {
        const hit = this.probe(posix.join(cfg.baseUrl, spec));
        if (hit) return hit;
      }
    }
    return this.resolvePackage(spec);
  }

  private resolvePackage(spec: string): string | undefined {
    const parts = spec.split('/');
    const nameLength = spec.startsWith('@') ? 2 : 1;
    const dir = this.packages.get(parts.slice(0, nameLength).join('/'));
    if (dir === undefined) return undefined;
    const sub = parts.slice(nameLength).join('/');
    const manifest = this.json(dir ? `${dir}/package.json` : 'package.json');
    const at = (p: string) => (dir ? posix.join(dir, p) : posix.normalize(p));
    const exportsField = manifest?.exports;
    if (exportsField !== undefined && exportsField !== null) {
      const map: Json =
        typeof exportsField === 'object' &&
        !Array.isArray(exportsField) &&
        Object.keys(exportsField).some((k) => k.startsWith('.'))
          ? (exportsField as Json)
          : { '.': exportsField };
      const key = sub ? `./${sub}` : '.';
      let target = map[key];
      let star = '';
      if (target === undefined) {
        for (const [pattern, t] of Object.entries(map)) {
          const m = pattern.includes('*') ? matchPattern(pattern, key) : undefined;
          if (m !== undefined) {
            target = t;
            star = m;
            break;
          }
        }
      }
      for (const leaf of exportTargets(target)) {
        const hit = this.probeBuilt(at(leaf.replace('*', star)));
        if (hit) return hit;
      }
    }
    // Without `exports`, a subpath names a file of the package, as built or in its sources.
    if (sub) return this.probeBuilt(at(sub)) ?? this.probe(at(`src/${sub}`));
    for (const field of ['source', 'module', 'main', 'types']) {
      const v = manifest?.[field];
      const hit = typeof v === 'string' ? this.probeBuilt(at(v)) : undefined;
      if (hit) return hit;
    }
    return this.probe(at('src/index')) ?? this.probe(at('index'));
  }

  /** A path that may name build output (dist/index.js): the file itself, or its source under src/. */
  private probeBuilt(p: string): string | undefined {
    const direct = this.probe(p);
    if (direct) return direct;
    // `s`: with a line break in the path, `(.*)$` would fail and retry from every later folder.
    const m = /^(.*?)(?:^|\/)(dist|lib|build|out|esm|cjs)\/(.*)$/s.exec(p);
    if (!m) return undefined;
    const rest = m[3]
      .replace(/\.d\.(c|m)?ts$/, '')
      .replace(/\.(c|m)?js$/, '')
      .replace(/^(esm|cjs)\//, '');
    return this.probe(m[1] ? `${m[1]}/src/${rest}` : `src/${rest}`);
  }

  /** The file a path names once extensions, emitted-to-source mapping and `index` files are tried. */
  resolveFile(base: string): string | undefined {
    return this.probe(base);
  }

  private probe(base: string): string | undefined {
    base = posix.normalize(base);
    if (base === '.') base = '';
    if (base.startsWith('../') || base === '..') return undefined;
    if (base && this.exists(base) && /\.[a-z]+$/i.test(base)) return base;
    const ext = posix.extname(base);
    for (const alt of JS_EMITTED[ext] ?? []) {
      const p = base.slice(0, -ext.length) + alt;
      if (this.exists(p)) return p;
    }
    for (const e of JS_EXTENSIONS) if (base && this.exists(base + e)) return base + e;
    const index = base ? `${base}/index` : 'index';
    for (const e of JS_EXTENSIONS) if (this.exists(index + e)) return index + e;
    return undefined;
  }

  private tsconfigFor(dir: string): PathsConfig | null {
    const cached = this.tsconfigByDir.get(dir);
    if (cached !== undefined) return cached;
    let found: PathsConfig | null = null;
    for (const name of ['tsconfig.json', 'jsconfig.json']) {
      const rel = dir ? `${dir}/${name}` : name;
      if (this.configExists(rel)) {
        found = this.readTsconfig(rel, 0);
        if (found) break;
      }
    }
    // A root `tsconfig.base.json` usually holds the monorepo's aliases even when no config extends it here.
    if (!found && !dir)
      found = this.configExists('tsconfig.base.json') ? this.readTsconfig('tsconfig.base.json', 0) : null;
    if (!found && dir) found = this.tsconfigFor(dirOf(dir));
    this.tsconfigByDir.set(dir, found);
    return found;
  }

  // eslint-disable-next-line complexity -- one case per tsconfig field and extends form
  private readTsconfig(rel: string, depth: number): PathsConfig | null {
    const json = this.json(rel) as
      { extends?: unknown; compilerOptions?: { baseUrl?: unknown; paths?: unknown } } | undefined;
    if (!json) return null;
    const dir = dirOf(rel);
    let inherited: PathsConfig | null = null;
    const parents = typeof json.extends === 'string' ? [json.extends] : Array.isArray(json.extends) ? json.extends : [];
    for (const e of parents) {
      if (typeof e !== 'string' || !e.startsWith('.') || depth >= 4) continue;
      let ext = posix.normalize(posix.join(dir, e));
      if (!ext.endsWith('.json')) ext += '.json';
      if (!ext.startsWith('..') && this.configExists(ext)) inherited = this.readTsconfig(ext, depth + 1) ?? inherited;
    }
    const opts = json.compilerOptions ?? {};
    const baseUrl =
      typeof opts.baseUrl === 'string'
        ? posix.normalize(posix.join(dir, opts.baseUrl)).replace(/^\.$/, '')
        : inherited?.baseUrl;
    let paths = inherited?.paths ?? [];
    let base = inherited?.base ?? dir;
    if (opts.paths && typeof opts.paths === 'object') {
      paths = Object.entries(opts.paths as Json)
        .filter((e): e is [string, unknown[]] => Array.isArray(e[1]))
        .map(([k, v]) => [k, v.filter((t): t is string => typeof t === 'string')] as [string, string[]])
        // Longest prefix first, as TypeScript does.
        .sort((a, b) => b[0].indexOf('*') - a[0].indexOf('*') || b[0].length - a[0].length);
      base = typeof opts.baseUrl === 'string' ? (baseUrl ?? dir) : dir;
    } else if (typeof opts.baseUrl === 'string' && inherited?.paths.length) {
      // Inherited `paths` are relative to the baseUrl of the config that sets one.
      base = baseUrl ?? dir;
    }
    if (!paths.length && baseUrl === undefined) return inherited;
    return { base, baseUrl, paths };
  }
}

function dirOf(p: string): string {
  const d = posix.dirname(p);
  return d === '.' ? '' : d;
}

/** The string targets of a package.json `exports` entry, conditions in their written order. */
function exportTargets(target: unknown, out: string[] = [], depth = 0): string[] {
  if (depth > 6) return out;
  if (typeof target === 'string') out.push(target);
  else if (Array.isArray(target)) for (const t of target) exportTargets(t, out, depth + 1);
  else if (target && typeof target === 'object')
    for (const t of Object.values(target)) exportTargets(t, out, depth + 1);
  return out;
}

/** Matches a `paths` or `exports` pattern (at most one `*`), returning what the star stood for. */
function matchPattern(pattern: string, spec: string): string | undefined {
  const star = pattern.indexOf('*');
  if (star < 0) return pattern === spec ? '' : undefined;
  const prefix = pattern.slice(0, star);
  const suffix = pattern.slice(star + 1);
  if (spec.length < prefix.length + suffix.length || !spec.startsWith(prefix) || !spec.endsWith(suffix))
    return undefined;
  return spec.slice(prefix.length, spec.length - suffix.length);
}
