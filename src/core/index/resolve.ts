import { existsSync, readFileSync } from 'node:fs';
import { join as joinNative } from 'node:path';
import { posix } from 'node:path';
import type { ImportFact, ImportName } from './facts';
import { familyOf, type LangId } from './languages';
import { PackageResolver } from './packageResolver';

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
  all(): string[] {
    return [...this.files];
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

const MAX_PACKAGE_FILES = 50;

/**
 * Turns import specifiers into workspace files, per language convention. Reads only files inside
 * the root (tsconfig/jsconfig, go.mod, Cargo.toml markers); everything else comes from the file set.
 */
export class ImportResolver {
  private readonly configs = new Map<string, Record<string, unknown> | null>();
  private manifestPaths: readonly string[] = [];
  private js: PackageResolver | undefined;
  private jsVersion = -1;
  private readonly goModByDir = new Map<string, { dir: string; module: string } | null>();
  private readonly cargoByDir = new Map<string, string | null>();

  constructor(
    private readonly root: string,
    readonly files: FileSet,
  ) {}

  /** Forget cached configuration (after a tsconfig.json, package.json, go.mod or Cargo.toml change). */
  invalidateConfig(): void {
    this.goModByDir.clear();
    this.cargoByDir.clear();
    this.configs.clear();
    this.js = undefined;
  }

  /** Registers the workspace's package.json files (root-relative) so `import 'pkg/sub'` finds a sibling package. */
  setPackageManifests(paths: readonly string[]): void {
    this.manifestPaths = [...paths];
    this.configs.clear();
    this.js = undefined;
  }

  /** A package.json or tsconfig of the workspace, parsed leniently and kept until the config changes. */
  private config(rel: string): Record<string, unknown> | undefined {
    let c = this.configs.get(rel);
    if (c === undefined) {
      const json = readLenientJson(joinNative(this.root, rel));
      c = json && typeof json === 'object' && !Array.isArray(json) ? (json as Record<string, unknown>) : null;
      this.configs.set(rel, c);
    }
    return c ?? undefined;
  }

  /** The JS/TS resolver for the current file set (its answers depend on which files exist). */
  private jsResolver(): PackageResolver {
    if (!this.js || this.jsVersion !== this.files.version) {
      this.js = new PackageResolver(
        (p) => this.files.has(p),
        (p) => this.config(p),
        this.manifestPaths,
        (p) => this.configs.get(p) != null || existsSync(joinNative(this.root, p)),
      );
      this.jsVersion = this.files.version;
    }
    return this.js;
  }

  resolve(from: string, lang: LangId, fact: ImportFact): ResolvedImport[] {
    const one = (resolved: string | null | undefined, names = fact.names): ResolvedImport => ({
      spec: fact.spec,
      resolved: resolved ?? null,
      names,
      line: fact.line,
    });
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
        case 'ruby':
          return [one(this.resolveRuby(from, fact.spec))];
        case 'php':
          return [one(this.resolvePhp(fact.spec))];
      }
    } catch {
      // A malformed config file or odd specifier leaves the import unresolved.
    }
    return [one(null)];
  }

  private spread(
    files: readonly string[],
    fact: ImportFact,
    one: (r: string | null, names?: ImportName[]) => ResolvedImport,
  ): ResolvedImport[] {
    if (!files.length) return [one(null)];
    return files.slice(0, MAX_PACKAGE_FILES).map((f) => one(f));
  }

  // ------------------------------------------------------------ JS / TS

  private resolveJs(from: string, spec: string): string | undefined {
    if (!spec) return from;
    const js = this.jsResolver();
    if (spec.startsWith('./') || spec.startsWith('../') || spec === '.' || spec === '..')
      return js.resolveFile(posix.join(posix.dirname(from), spec));
    return js.resolve(from, spec);
  }

  // ------------------------------------------------------------ Python

  private resolvePython(
    from: string,
    fact: ImportFact,
    one: (r: string | null, names?: ImportName[]) => ResolvedImport,
  ): ResolvedImport[] {
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
        const sub =
          n.name !== '*' && (pkgDir !== undefined || !module)
            ? this.pythonModule(base ? `${base}/${n.name}` : n.name)
            : undefined;
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
    for (const c of base
      ? [`${base}.py`, `${base}.pyi`, `${base}/__init__.py`, `${base}/__init__.pyi`]
      : ['__init__.py'])
      if (this.files.has(c)) return c;
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
      // One line at a time: `\s*` after every line start would rescan runs of blank lines.
      const m = /^[ \t]*module[ \t]+("?)([^\s"]+)\1/m.exec(readFileSync(file, 'utf8'));
      if (m) found = { dir, module: m[2] };
    }
    if (!found && dir) found = this.goModFor(posix.dirname(dir) === '.' ? '' : posix.dirname(dir));
    this.goModByDir.set(dir, found);
    return found;
  }

  // ------------------------------------------------------------ Java / C#

  private resolveJava(
    fact: ImportFact,
    one: (r: string | null, names?: ImportName[]) => ResolvedImport,
  ): ResolvedImport[] {
    const path = fact.spec.replace(/\./g, '/');
    if (fact.names.some((n) => n.name === '*')) {
      const dir = this.files.dirsEndingWith(path)[0];
      return this.spread(dir ? this.files.inDir(dir).filter((f) => f.endsWith('.java')) : [], fact, one);
    }
    // A class (a/b/C.java) or a static member of one (a/b/C.java for a.b.C.m).
    const hit =
      this.files.filesEndingWith(path + '.java')[0] ?? this.files.filesEndingWith(posix.dirname(path) + '.java')[0];
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

  // ------------------------------------------------------------ Ruby

  /** `require_relative` (stored as `./x`) from the file's folder; `require 'a/b'` from `lib/` or the root (gems stay unresolved). */
  private resolveRuby(from: string, spec: string): string | undefined {
    const relative = spec.startsWith('./') || spec.startsWith('../');
    const bases = relative ? [posix.join(posix.dirname(from), spec)] : [`lib/${spec}`, spec];
    for (const base of bases) {
      if (base.startsWith('../')) continue;
      const file = base.endsWith('.rb') ? base : `${base}.rb`;
      if (this.files.has(file)) return file;
    }
    return undefined;
  }

  // ------------------------------------------------------------ PHP

  /**
   * `use A\B\C` names the class in `…/B/C.php` by PSR-4, whatever folder the namespace prefix maps to:
   * the longest tail of the name that one file ends with (functions and vendor classes stay unresolved).
   */
  private resolvePhp(spec: string): string | undefined {
    const parts = spec.replace(/^\\/, '').split('\\').filter(Boolean);
    for (let i = 0; i < parts.length; i++) {
      const hits = this.files.filesEndingWith(`${parts.slice(i).join('/')}.php`);
      if (hits.length === 1) return hits[0];
      if (hits.length > 1) return undefined;
    }
    return undefined;
  }

  // ------------------------------------------------------------ Rust

  private resolveRust(
    from: string,
    fact: ImportFact,
    one: (r: string | null, names?: ImportName[]) => ResolvedImport,
  ): ResolvedImport[] {
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
      const sub =
        n.name !== '*' && n.name !== 'self' ? this.rustModule(dir ? `${dir}/${n.name}` : n.name, false) : undefined;
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

/**
 * The folders of the same Java package in the module's other source sets: a class in
 * `core/src/main/java/com/x/jmx/` is seen without an import from `core/src/test/java/com/x/jmx/`
 * (and `src/testFixtures/java/…`, `src/integrationTest/java/…`), as Maven and Gradle lay tests out.
 */
export function samePackageElsewhere(dir: string, files: { dirsEndingWith(suffix: string): string[] }): string[] {
  const segments = dir.split('/');
  const src = segments.lastIndexOf('src', segments.length - 4);
  if (src < 0 || segments[src + 2] !== 'java') return [];
  const module = segments.slice(0, src + 1).join('/') + '/';
  const pkg = segments.slice(src + 3).join('/');
  return files
    .dirsEndingWith(`java/${pkg}`)
    .filter(
      (d) =>
        d !== dir &&
        d.startsWith(module) &&
        d.split('/').length === segments.length &&
        d.split('/')[src + 2] === 'java',
    );
}
