import { existsSync, readFileSync } from 'node:fs';
import { join as joinNative } from 'node:path';
import { posix } from 'node:path';
import type { ImportFact, ImportName } from './extract';
import { familyOf, type LangId } from './languages';

/** An import row as stored: the file it points to (when inside the workspace) and the names it binds. */
export interface ResolvedImport {
  spec: string;
  resolved: string | null;
  names: ImportName[];
  line: number;
}

/** The code files of the workspace, with a folder lookup for package-per-folder languages. */
export class FileSet {
  private readonly files = new Set<string>();
  private byDir: Map<string, string[]> | undefined;
  private byBase: Map<string, string[]> | undefined;

  constructor(paths: Iterable<string> = []) {
    for (const p of paths) this.files.add(p);
  }
  has(p: string): boolean {
    return this.files.has(p);
  }
  /** Changes whenever a file is added or removed, so caches built on the set know to start over. */
  version = 0;

  add(p: string): void {
    if (this.files.has(p)) return;
    this.files.add(p);
    this.byDir = this.byBase = undefined;
    this.version++;
  }
  delete(p: string): void {
    if (!this.files.delete(p)) return;
    this.byDir = this.byBase = undefined;
    this.version++;
  }
  get size(): number {
    return this.files.size;
  }
  /** Files directly inside a folder ('' for the root). */
  inDir(dir: string): readonly string[] {
    if (!this.byDir) {
      this.byDir = new Map();
      for (const f of this.files) {
        const d = posix.dirname(f) === '.' ? '' : posix.dirname(f);
        let list = this.byDir.get(d);
        if (!list) this.byDir.set(d, (list = []));
        list.push(f);
      }
    }
    return this.byDir.get(dir) ?? [];
  }
  /** Folders whose path is `suffix` or ends with `/suffix`. */
  dirsEndingWith(suffix: string): string[] {
    this.inDir('');
    const out: string[] = [];
    for (const d of this.byDir!.keys()) if (d === suffix || d.endsWith('/' + suffix)) out.push(d);
    return out.sort((a, b) => a.length - b.length);
  }
  /** Files whose path is `suffix` or ends with `/suffix`. */
  filesEndingWith(suffix: string): string[] {
    if (!this.byBase) {
      this.byBase = new Map();
      for (const f of this.files) {
        const b = posix.basename(f);
        let list = this.byBase.get(b);
        if (!list) this.byBase.set(b, (list = []));
        list.push(f);
      }
    }
    const list = this.byBase.get(posix.basename(suffix)) ?? [];
    return list.filter((f) => f === suffix || f.endsWith('/' + suffix)).sort((a, b) => a.length - b.length);
  }
}

interface PathsConfig {
  /** Root-relative folder that `paths` targets are relative to. */
  base: string;
  /** Root-relative baseUrl, when set: bare specifiers resolve against it too. */
  baseUrl?: string;
  paths: [pattern: string, targets: string[]][];
}

const JS_EXTENSIONS = ['.ts', '.tsx', '.d.ts', '.js', '.jsx', '.mjs', '.cjs', '.mts', '.cts'];
const JS_EMITTED: Record<string, string[]> = { '.js': ['.ts', '.tsx'], '.jsx': ['.tsx'], '.mjs': ['.mts'], '.cjs': ['.cts'] };
const MAX_PACKAGE_FILES = 50;

/**
 * Turns import specifiers into workspace files, per language convention. Reads only files inside
 * the root (tsconfig/jsconfig, go.mod, Cargo.toml markers); everything else comes from the file set.
 */
export class ImportResolver {
  private readonly tsconfigByDir = new Map<string, PathsConfig | null>();
  private readonly goModByDir = new Map<string, { dir: string; module: string } | null>();
  private readonly cargoByDir = new Map<string, string | null>();
  /** Workspace packages by name (monorepos): bare imports of them resolve to their sources. */
  private packages = new Map<string, string>();
  private readonly manifests = new Map<string, Record<string, unknown> | null>();
  private readonly packageHits = new Map<string, string | undefined>();
  private packageHitsVersion = -1;

  constructor(
    private readonly root: string,
    readonly files: FileSet,
  ) {}

  /** Forget cached configuration (after a tsconfig.json, package.json, go.mod or Cargo.toml change). */
  invalidateConfig(): void {
    this.tsconfigByDir.clear();
    this.goModByDir.clear();
    this.cargoByDir.clear();
    this.manifests.clear();
    this.packageHits.clear();
  }

  /** Registers the workspace's package.json files (root-relative) so `import 'pkg/sub'` finds a sibling package. */
  setPackageManifests(paths: readonly string[]): void {
    this.packages = new Map();
    this.manifests.clear();
    this.packageHits.clear();
    for (const p of [...paths].sort((a, b) => a.length - b.length)) {
      const json = this.manifest(p);
      const name = json?.name;
      if (typeof name === 'string' && !this.packages.has(name)) this.packages.set(name, posix.dirname(p) === '.' ? '' : posix.dirname(p));
    }
  }

  private manifest(rel: string): Record<string, unknown> | null {
    let m = this.manifests.get(rel);
    if (m === undefined) {
      const json = readLenientJson(joinNative(this.root, rel));
      m = json && typeof json === 'object' && !Array.isArray(json) ? (json as Record<string, unknown>) : null;
      this.manifests.set(rel, m);
    }
    return m;
  }

  private resolveWorkspacePackage(spec: string): string | undefined {
    if (!this.packages.size) return undefined;
    if (this.packageHitsVersion !== this.files.version) {
      this.packageHits.clear();
      this.packageHitsVersion = this.files.version;
    }
    if (this.packageHits.has(spec)) return this.packageHits.get(spec);
    const hit = this.resolveWorkspacePackageUncached(spec);
    this.packageHits.set(spec, hit);
    return hit;
  }

  private resolveWorkspacePackageUncached(spec: string): string | undefined {
    const parts = spec.split('/');
    const nameLength = spec.startsWith('@') ? 2 : 1;
    const dir = this.packages.get(parts.slice(0, nameLength).join('/'));
    if (dir === undefined) return undefined;
    const sub = parts.slice(nameLength).join('/');
    const json = this.manifest(dir ? `${dir}/package.json` : 'package.json');
    const at = (p: string) => (dir ? posix.join(dir, p) : posix.normalize(p));
    const exportsField = json?.exports;
    if (exportsField !== undefined && exportsField !== null) {
      const map: Record<string, unknown> =
        typeof exportsField === 'object' && !Array.isArray(exportsField) && Object.keys(exportsField).some((k) => k.startsWith('.'))
          ? (exportsField as Record<string, unknown>)
          : { '.': exportsField };
      const key = sub ? `./${sub}` : '.';
      let target = map[key];
      let star = '';
      if (target === undefined) {
        for (const [pattern, t] of Object.entries(map)) {
          const m = matchPattern(pattern, key);
          if (m !== undefined && pattern.includes('*')) {
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
    if (sub) return this.probeBuilt(at(sub));
    for (const field of ['source', 'module', 'main', 'types']) {
      const v = json?.[field];
      const hit = typeof v === 'string' ? this.probeBuilt(at(v)) : undefined;
      if (hit) return hit;
    }
    return this.probeJs(at('src/index')) ?? this.probeJs(at('index'));
  }

  /** A path that may name build output (dist/index.js): the file itself, or its source under src/. */
  private probeBuilt(p: string): string | undefined {
    const direct = this.probeJs(p);
    if (direct) return direct;
    const m = /^(.*?)(?:^|\/)(dist|lib|build|out|esm|cjs)\/(.*)$/.exec(p);
    if (!m) return undefined;
    const rest = m[3].replace(/\.d\.(c|m)?ts$/, '').replace(/^(esm|cjs)\//, '');
    return this.probeJs(m[1] ? `${m[1]}/src/${rest}` : `src/${rest}`);
  }

  resolve(from: string, lang: LangId, fact: ImportFact): ResolvedImport[] {
    const one = (resolved: string | null | undefined, names = fact.names): ResolvedImport => ({ spec: fact.spec, resolved: resolved ?? null, names, line: fact.line });
    try {
      switch (familyOf(lang)) {
        case 'js':
          return [one(this.resolveJs(from, fact.spec))];
        case 'python':
          return this.resolvePython(from, fact, one);
        case 'go':
          return this.spread(this.resolveGo(from, fact.spec), fact, one);
        case 'java':
          return this.resolveJava(fact, one);
        case 'csharp':
          return this.spread(this.resolveCsharp(fact.spec), fact, one);
        case 'rust':
          return this.resolveRust(from, fact, one);
      }
    } catch {
      // A malformed config file or odd specifier leaves the import unresolved.
    }
    return [one(null)];
  }

  private spread(files: readonly string[], fact: ImportFact, one: (r: string | null, names?: ImportName[]) => ResolvedImport): ResolvedImport[] {
    if (!files.length) return [one(null)];
    return files.slice(0, MAX_PACKAGE_FILES).map((f) => one(f));
  }

  // ------------------------------------------------------------ JS / TS

  private resolveJs(from: string, spec: string): string | undefined {
    if (!spec) return from;
    if (spec.startsWith('./') || spec.startsWith('../') || spec === '.' || spec === '..') return this.probeJs(posix.join(posix.dirname(from), spec));
    if (spec.startsWith('/')) return undefined;
    const cfg = this.tsconfigFor(posix.dirname(from));
    if (!cfg) return this.resolveWorkspacePackage(spec);
    for (const [pattern, targets] of cfg.paths) {
      const star = matchPattern(pattern, spec);
      if (star === undefined) continue;
      for (const t of targets) {
        const hit = this.probeJs(posix.join(cfg.base, t.replace('*', star)));
        if (hit) return hit;
      }
    }
    if (cfg.baseUrl !== undefined) {
      const hit = this.probeJs(posix.join(cfg.baseUrl, spec));
      if (hit) return hit;
    }
    return this.resolveWorkspacePackage(spec);
  }

  private probeJs(base: string): string | undefined {
    base = posix.normalize(base);
    if (base === '.' ) base = '';
    if (base.startsWith('../') || base === '..') return undefined;
    if (base && this.files.has(base)) return base;
    const ext = posix.extname(base);
    for (const alt of JS_EMITTED[ext] ?? []) {
      const p = base.slice(0, -ext.length) + alt;
      if (this.files.has(p)) return p;
    }
    for (const e of JS_EXTENSIONS) if (base && this.files.has(base + e)) return base + e;
    const dir = base ? base + '/index' : 'index';
    for (const e of JS_EXTENSIONS) if (this.files.has(dir + e)) return dir + e;
    return undefined;
  }

  private tsconfigFor(dir: string): PathsConfig | null {
    const cached = this.tsconfigByDir.get(dir);
    if (cached !== undefined) return cached;
    let found: PathsConfig | null = null;
    for (const name of ['tsconfig.json', 'jsconfig.json']) {
      const rel = dir ? `${dir}/${name}` : name;
      if (existsSync(joinNative(this.root, rel))) {
        found = this.readTsconfig(rel, 0);
        break;
      }
    }
    if (!found && dir) found = this.tsconfigFor(posix.dirname(dir) === '.' ? '' : posix.dirname(dir));
    this.tsconfigByDir.set(dir, found);
    return found;
  }

  private readTsconfig(rel: string, depth: number): PathsConfig | null {
    const json = readLenientJson(joinNative(this.root, rel)) as { extends?: unknown; compilerOptions?: { baseUrl?: unknown; paths?: unknown } } | undefined;
    if (!json) return null;
    const dir = posix.dirname(rel) === '.' ? '' : posix.dirname(rel);
    let inherited: PathsConfig | null = null;
    if (typeof json.extends === 'string' && json.extends.startsWith('.') && depth < 4) {
      let ext = posix.normalize(posix.join(dir, json.extends));
      if (!ext.endsWith('.json')) ext += '.json';
      if (!ext.startsWith('..') && existsSync(joinNative(this.root, ext))) inherited = this.readTsconfig(ext, depth + 1);
    }
    const opts = json.compilerOptions ?? {};
    const baseUrl = typeof opts.baseUrl === 'string' ? posix.normalize(posix.join(dir, opts.baseUrl)).replace(/^\.$/, '') : inherited?.baseUrl;
    let paths = inherited?.paths ?? [];
    let base = inherited?.base ?? dir;
    if (opts.paths && typeof opts.paths === 'object') {
      paths = Object.entries(opts.paths as Record<string, unknown>)
        .filter((e): e is [string, string[]] => Array.isArray(e[1]))
        .map(([k, v]) => [k, v.filter((t) => typeof t === 'string')] as [string, string[]])
        // Longest prefix first, as TypeScript does.
        .sort((a, b) => b[0].indexOf('*') - a[0].indexOf('*') || b[0].length - a[0].length);
      base = typeof opts.baseUrl === 'string' ? baseUrl ?? dir : dir;
    } else if (typeof opts.baseUrl === 'string' && inherited?.paths.length) {
      base = baseUrl ?? dir;
    }
    if (!paths.length && baseUrl === undefined) return inherited;
    return { base, baseUrl, paths };
  }

  // ------------------------------------------------------------ Python

  private resolvePython(from: string, fact: ImportFact, one: (r: string | null, names?: ImportName[]) => ResolvedImport): ResolvedImport[] {
    const spec = fact.spec;
    const bases: string[] = [];
    if (spec.startsWith('.')) {
      const level = /^\.+/.exec(spec)![0].length;
      let dir = posix.dirname(from);
      for (let i = 1; i < level; i++) dir = posix.dirname(dir);
      if (dir === '.') dir = '';
      const rest = spec.slice(level).replace(/\./g, '/');
      bases.push(rest ? (dir ? `${dir}/${rest}` : rest) : dir);
    } else {
      const path = spec.replace(/\./g, '/');
      bases.push(path, `src/${path}`);
    }
    for (const base of bases) {
      const module = this.pythonModule(base);
      const pkgDir = module && (module.endsWith('/__init__.py') || module === '__init__.py') ? base : undefined;
      const rows: ResolvedImport[] = [];
      const rest: ImportName[] = [];
      for (const n of fact.names) {
        // `from pkg import mod` may name a submodule rather than something defined in pkg/__init__.py.
        const sub = n.name !== '*' && (pkgDir !== undefined || !module) ? this.pythonModule(base ? `${base}/${n.name}` : n.name) : undefined;
        if (sub) rows.push(one(sub, [{ name: '*', local: n.local }]));
        else rest.push(n);
      }
      if (module || rows.length) {
        if (module && (rest.length || !rows.length)) rows.unshift(one(module, rest));
        return rows;
      }
    }
    return [one(null)];
  }

  private pythonModule(base: string): string | undefined {
    for (const c of base ? [`${base}.py`, `${base}.pyi`, `${base}/__init__.py`, `${base}/__init__.pyi`] : ['__init__.py']) if (this.files.has(c)) return c;
    return undefined;
  }

  // ------------------------------------------------------------ Go

  private resolveGo(from: string, spec: string): readonly string[] {
    const mod = this.goModFor(posix.dirname(from) === '.' ? '' : posix.dirname(from)) ?? this.goModFor('');
    if (!mod || (spec !== mod.module && !spec.startsWith(mod.module + '/'))) return [];
    const rest = spec.slice(mod.module.length + 1);
    const dir = [mod.dir, rest].filter(Boolean).join('/');
    return this.files.inDir(dir).filter((f) => f.endsWith('.go') && !f.endsWith('_test.go'));
  }

  private goModFor(dir: string): { dir: string; module: string } | null {
    const cached = this.goModByDir.get(dir);
    if (cached !== undefined) return cached;
    let found: { dir: string; module: string } | null = null;
    const file = joinNative(this.root, dir, 'go.mod');
    if (existsSync(file)) {
      const m = /^\s*module\s+("?)([^\s"]+)\1/m.exec(readFileSync(file, 'utf8'));
      if (m) found = { dir, module: m[2] };
    }
    if (!found && dir) found = this.goModFor(posix.dirname(dir) === '.' ? '' : posix.dirname(dir));
    this.goModByDir.set(dir, found);
    return found;
  }

  // ------------------------------------------------------------ Java / C#

  private resolveJava(fact: ImportFact, one: (r: string | null, names?: ImportName[]) => ResolvedImport): ResolvedImport[] {
    const path = fact.spec.replace(/\./g, '/');
    if (fact.names.some((n) => n.name === '*')) {
      const dir = this.files.dirsEndingWith(path)[0];
      return this.spread(dir ? this.files.inDir(dir).filter((f) => f.endsWith('.java')) : [], fact, one);
    }
    // A class (a/b/C.java) or a static member of one (a/b/C.java for a.b.C.m).
    const hit = this.files.filesEndingWith(path + '.java')[0] ?? this.files.filesEndingWith(posix.dirname(path) + '.java')[0];
    return [one(hit ?? null)];
  }

  private resolveCsharp(spec: string): readonly string[] {
    // Namespaces map to folders by convention, often without the root namespace: try N/M/K, then M/K, then K.
    const parts = spec.split('.');
    for (let i = 0; i < parts.length; i++) {
      const dir = this.files.dirsEndingWith(parts.slice(i).join('/'))[0];
      if (dir) return this.files.inDir(dir).filter((f) => f.endsWith('.cs'));
    }
    return [];
  }

  // ------------------------------------------------------------ Rust

  private resolveRust(from: string, fact: ImportFact, one: (r: string | null, names?: ImportName[]) => ResolvedImport): ResolvedImport[] {
    const segments = fact.spec.split('::').filter(Boolean);
    let dir: string | undefined;
    const fileDir = posix.dirname(from) === '.' ? '' : posix.dirname(from);
    const moduleDir = /(^|\/)(lib|main|mod)\.rs$/.test(from) ? fileDir : from.slice(0, -3);
    let i = 0;
    if (segments[0] === 'crate') {
      dir = this.crateSrc(fileDir);
      i = 1;
    } else if (segments[0] === 'self') {
      dir = moduleDir;
      i = 1;
    } else if (segments[0] === 'super') {
      dir = moduleDir;
      while (segments[i] === 'super') {
        dir = posix.dirname(dir) === '.' ? '' : posix.dirname(dir);
        i++;
      }
    } else if (segments.length) {
      // Edition 2018 paths may start with a child module of the current one; anything else is another crate.
      dir = moduleDir;
    } else {
      return [one(null)];
    }
    for (; i < segments.length; i++) dir = dir ? `${dir}/${segments[i]}` : segments[i];
    const module = this.rustModule(dir, segments.length === 1 && segments[0] === 'crate');
    const rows: ResolvedImport[] = [];
    const rest: ImportName[] = [];
    for (const n of fact.names) {
      const sub = n.name !== '*' && n.name !== 'self' ? this.rustModule(dir ? `${dir}/${n.name}` : n.name, false) : undefined;
      if (sub) rows.push(one(sub, [{ name: '*', local: n.local }]));
      else rest.push(n);
    }
    if (module && (rest.length || !rows.length)) rows.unshift(one(module, rest));
    return rows.length ? rows : [one(null)];
  }

  private rustModule(dir: string, crateRoot: boolean): string | undefined {
    const candidates = crateRoot ? [`${dir}/lib.rs`, `${dir}/main.rs`] : [`${dir}.rs`, `${dir}/mod.rs`];
    return candidates.map((c) => c.replace(/^\//, '')).find((c) => this.files.has(c));
  }

  private crateSrc(dir: string): string {
    const cached = this.cargoByDir.get(dir);
    if (cached !== undefined && cached !== null) return cached;
    let found: string | null = null;
    if (existsSync(joinNative(this.root, dir, 'Cargo.toml'))) found = dir ? `${dir}/src` : 'src';
    else if (dir) found = this.crateSrc(posix.dirname(dir) === '.' ? '' : posix.dirname(dir));
    else found = 'src';
    this.cargoByDir.set(dir, found);
    return found;
  }
}

/** The string targets of a package.json `exports` entry, conditions in their written order. */
function exportTargets(target: unknown, out: string[] = [], depth = 0): string[] {
  if (depth > 6) return out;
  if (typeof target === 'string') out.push(target);
  else if (Array.isArray(target)) for (const t of target) exportTargets(t, out, depth + 1);
  else if (target && typeof target === 'object') for (const t of Object.values(target)) exportTargets(t, out, depth + 1);
  return out;
}

/** Matches a tsconfig `paths` pattern (at most one `*`), returning what the star stood for. */
function matchPattern(pattern: string, spec: string): string | undefined {
  const star = pattern.indexOf('*');
  if (star < 0) return pattern === spec ? '' : undefined;
  const prefix = pattern.slice(0, star);
  const suffix = pattern.slice(star + 1);
  if (spec.length < prefix.length + suffix.length || !spec.startsWith(prefix) || !spec.endsWith(suffix)) return undefined;
  return spec.slice(prefix.length, spec.length - suffix.length);
}

/** Reads JSON that may hold comments and trailing commas (tsconfig.json, jsconfig.json). */
export function readLenientJson(file: string): unknown {
  try {
    return parseLenientJson(readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
}

export function parseLenientJson(text: string): unknown {
  return JSON.parse(scanJson(scanJson(text.replace(/^\uFEFF/, ''), 'comments'), 'commas'));
}

/** One string-aware pass that drops either comments or trailing commas. */
function scanJson(text: string, drop: 'comments' | 'commas'): string {
  let out = '';
  let i = 0;
  const n = text.length;
  while (i < n) {
    const ch = text[i];
    if (ch === '"') {
      let j = i + 1;
      while (j < n && text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
      out += text.slice(i, j + 1);
      i = j + 1;
    } else if (drop === 'comments' && ch === '/' && text[i + 1] === '/') {
      while (i < n && text[i] !== '\n') i++;
    } else if (drop === 'comments' && ch === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      i = end < 0 ? n : end + 2;
    } else if (drop === 'commas' && ch === ',') {
      let j = i + 1;
      while (j < n && /\s/.test(text[j])) j++;
      if (text[j] !== '}' && text[j] !== ']') out += ch;
      i++;
    } else {
      out += ch;
      i++;
    }
  }
  return out;
}
