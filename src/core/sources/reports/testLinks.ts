import { posix } from 'node:path';
import { toRelative } from '../../paths';

const SOURCE_EXT = ['.ts', '.tsx', '.js', '.jsx', '.mjs', '.cjs', '.mts', '.cts', '.vue', '.svelte'];

/** The files of the workspace, for mapping paths that reports and stack traces write in many forms. */
export class ProjectFiles {
  private readonly set: Set<string>;
  private readonly byBase = new Map<string, string[]>();
  private readonly resolved = new Map<string, string | undefined>();

  constructor(
    readonly root: string,
    files: Iterable<string>,
  ) {
    this.set = new Set(files);
    for (const f of this.set) {
      const base = f.slice(f.lastIndexOf('/') + 1);
      const list = this.byBase.get(base);
      if (list) list.push(f);
      else this.byBase.set(base, [f]);
    }
  }

  has(rel: string): boolean {
    return this.set.has(rel);
  }

  get size(): number {
    return this.set.size;
  }

  withBase(base: string): readonly string[] {
    return this.byBase.get(base) ?? [];
  }

  /**
   * Maps a path as a report writes it (absolute on this machine or a CI machine, relative, `file://`)
   * to a root-relative file, by containment or by the longest matching path suffix.
   */
  resolve(raw: string): string | undefined {
    // A large report names the same few files (its test file, its frames) on every one of its failures.
    if (this.resolved.has(raw)) return this.resolved.get(raw);
    const hit = this.resolveUncached(raw);
    if (this.resolved.size < 100_000) this.resolved.set(raw, hit);
    return hit;
  }

  private resolveUncached(raw: string): string | undefined {
    let p = raw
      .trim()
      .replace(/^file:\/\//, '')
      .replace(/\\/g, '/');
    if (/^\/[A-Za-z]:\//.test(p)) p = p.slice(1);
    if (!p || p.includes('node_modules/') || p.startsWith('node:') || p.startsWith('internal/')) return undefined;
    const isAbs = p.startsWith('/') || /^[A-Za-z]:\//.test(p);
    if (isAbs) {
      const rel = toRelative(this.root, p);
      if (rel !== undefined && this.set.has(rel)) return rel;
    } else {
      const norm = posix.normalize(p).replace(/^\.\//, '');
      if (this.set.has(norm)) return norm;
    }
    const segs = p.split('/').filter((s) => s && s !== '.' && s !== '..');
    const base = segs[segs.length - 1];
    if (!base) return undefined;
    const candidates = this.byBase.get(base);
    if (!candidates) return undefined;
    let best: string | undefined;
    let bestLen = 0;
    let tie = false;
    for (const c of candidates) {
      const cs = c.split('/');
      let k = 0;
      while (k < cs.length && k < segs.length && cs[cs.length - 1 - k] === segs[segs.length - 1 - k]) k++;
      if (k > bestLen) {
        best = c;
        bestLen = k;
        tie = false;
      } else if (k === bestLen) tie = true;
    }
    // A bare file name is only trusted when it names exactly one file.
    if (tie || (bestLen < 2 && candidates.length > 1)) return undefined;
    return best;
  }

  /** `tests.test_ledger.TestLedger` → tests/test_ledger.py; `com.acme.LedgerTest` → com/acme/LedgerTest.java. */
  resolveDotted(name: string): string | undefined {
    if (!/^[\w$]+(\.[\w$]+)+$/.test(name)) return undefined;
    const parts = name.split('.');
    for (let n = parts.length; n >= 1; n--) {
      const stem = parts.slice(0, n).join('/');
      for (const ext of ['.py', '.java', '.kt', '.scala', '.groovy', '.cs']) {
        const hit = this.resolve(stem + ext);
        if (hit) return hit;
      }
    }
    return undefined;
  }

  /** Resolves a relative import specifier from `fromFile`, probing extensions and index files. */
  resolveImport(fromFile: string, spec: string): string | undefined {
    if (!spec.startsWith('.')) return undefined;
    const base = posix.normalize(posix.join(posix.dirname(fromFile), spec));
    if (base.startsWith('..')) return undefined;
    const tries = [base];
    const noJs = base.replace(/\.(m|c)?js$/, '');
    for (const ext of SOURCE_EXT) tries.push(noJs + ext);
    for (const ext of SOURCE_EXT) tries.push(`${base}/index${ext}`);
    for (const t of tries) if (this.set.has(t)) return t;
    return undefined;
  }
}

export interface StackFrame {
  path: string;
  line: number;
  column?: number;
}

/** Frames of a stack trace that point into the workspace, first (innermost) first. */
export function stackFrames(stack: string, files: ProjectFiles): StackFrame[] {
  const out: StackFrame[] = [];
  const push = (raw: string, line: string, col?: string) => {
    const path = files.resolve(raw);
    if (path) out.push({ path, line: Number(line), column: col !== undefined ? Number(col) : undefined });
  };
  for (const l of stack.split(/\r?\n/)) {
    // Java / Kotlin: at com.acme.ledger.Ledger.apply(Ledger.java:42)
    const java = /at\s+([\w$.]+)\.[\w$<>-]+\(([\w$-]+\.(?:java|kt|scala|groovy)):(\d+)\)/.exec(l);
    if (java) {
      const pkg = java[1].split('.').slice(0, -1).join('/');
      push(pkg ? `${pkg}/${java[2]}` : java[2], java[3]);
      continue;
    }
    // Python: File "app/ledger.py", line 42, in apply_refund
    const py = /File "([^"]+)", line (\d+)/.exec(l);
    if (py) {
      push(py[1], py[2]);
      continue;
    }
    // JS, pytest short form, Go, Rust, vitest ❯: path:line[:col]
    for (const ref of lineRefs(l)) push(ref.path, ref.line, ref.column);
  }
  return out;
}

const FRAME_SEPARATORS = new Set([...' \t\n\r\f\v()\'"`<>❯→']);

/**
 * `path:line[:col]` references in one line of a stack trace (JS, pytest short form, Go, Rust, vitest ❯).
 * A reference is the shortest run of path characters from the start of a token (or the end of the
 * previous reference) to a `:line` whose path ends in a file name with an extension. Scanned in one
 * pass: the lazy regular expression this replaces backtracked quadratically on long tokens.
 */
export function lineRefs(line: string): { path: string; line: string; column?: string }[] {
  const out: { path: string; line: string; column?: string }[] = [];
  let start = 0;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (FRAME_SEPARATORS.has(c) || isSpace(c)) {
      start = i + 1;
      continue;
    }
    if (c !== ':' || !isDigit(line, i + 1)) continue;
    const path = line.slice(start, i);
    if (!endsWithFileName(path)) continue;
    let j = i + 1;
    while (isDigit(line, j)) j++;
    const lineNo = line.slice(i + 1, j);
    let column: string | undefined;
    if (line[j] === ':' && isDigit(line, j + 1)) {
      let k = j + 1;
      while (isDigit(line, k)) k++;
      column = line.slice(j + 1, k);
      j = k;
    }
    out.push({ path, line: lineNo, column });
    start = j;
    i = j - 1;
  }
  return out;
}

/** The characters `\s` matches, as a set: one lookup per character instead of a regex call. */
const SPACES = new Set([
  ...'\t\n\v\f\r \u00a0\u1680\u2028\u2029\u202f\u205f\u3000\ufeff',
  ...Array.from({ length: 11 }, (_, i) => String.fromCharCode(0x2000 + i)),
]);

function isSpace(c: string): boolean {
  return SPACES.has(c);
}

function isDigit(s: string, i: number): boolean {
  const c = s.charCodeAt(i);
  return c >= 48 && c <= 57;
}

/** Ends like `name.ext`: 1–6 letters or digits after a dot, and a name character before it. */
function endsWithFileName(path: string): boolean {
  let k = path.length;
  while (k > 0 && /[A-Za-z0-9]/.test(path[k - 1]) && path.length - k <= 6) k--;
  const ext = path.length - k;
  return ext >= 1 && ext <= 6 && path[k - 1] === '.' && k >= 2 && /[\w@$+-]/.test(path[k - 2]);
}

/** Relative imports of a JS/TS test file and the modules of a Python one, resolved to workspace files. */
export function importedFiles(testFile: string, text: string, files: ProjectFiles): string[] {
  const out = new Set<string>();
  if (testFile.endsWith('.py')) {
    for (const m of text.matchAll(/^[ \t]*(?:from[ \t]+([\w.]+)[ \t]+import\b([\w, ()*]*)|import[ \t]+([\w.]+))/gm)) {
      const mod = m[1] ?? m[3];
      if (!mod) continue;
      const dots = /^\.*/.exec(mod)![0].length;
      const rest = mod.slice(dots).split('.').filter(Boolean);
      const names = (m[2] ?? '').split(/[,()\s]+/).filter((n) => /^\w+$/.test(n));
      const dirs = dots
        ? [posix.normalize(posix.join(posix.dirname(testFile), ...Array<string>(dots - 1).fill('..')))]
        : ['', 'src', 'lib'];
      for (const d of dirs) {
        const stem = posix.join(d, ...rest);
        const probes = [`${stem}.py`, `${stem}/__init__.py`, ...names.map((n) => `${stem}/${n}.py`)];
        for (const p of probes) if (files.has(p.replace(/^\.\//, ''))) out.add(p.replace(/^\.\//, ''));
      }
    }
    return [...out];
  }
  // `from '…'` alone stands for import/export … from: scanning back for the keyword across a lazy
  // gap made the old expression quadratic on files full of `import` without quotes.
  const re =
    /\bfrom\s*['"]([^'"\n]+)['"]|\bimport\s*['"]([^'"\n]+)['"]|\brequire\(\s*['"]([^'"\n]+)['"]\s*\)|\bimport\(\s*['"]([^'"\n]+)['"]\s*\)/g;
  for (const m of text.matchAll(re)) {
    const spec = m[1] ?? m[2] ?? m[3] ?? m[4];
    const hit = spec ? files.resolveImport(testFile, spec) : undefined;
    if (hit) out.add(hit);
  }
  return [...out];
}

/** The source file a test file is named after: foo.test.ts → foo.ts, test_foo.py → foo.py, FooTest.java → Foo.java, __tests__/foo.ts → foo.ts. */
export function sourceByName(testFile: string, files: ProjectFiles): string | undefined {
  const dir = posix.dirname(testFile);
  const base = posix.basename(testFile);
  const stems: string[] = [];
  let m: RegExpExecArray | null;
  if ((m = /^(.+?)[._-](test|spec|tests|specs|e2e)(\.[^.]+)$/.exec(base))) stems.push(m[1] + m[3]);
  if ((m = /^test_(.+\.py)$/.exec(base))) stems.push(m[1]);
  if ((m = /^(.+)_test(\.(?:py|go|rb|exs?))$/.exec(base))) stems.push(m[1] + m[2]);
  if ((m = /^(.+?)(Test|Tests|Spec|IT)(\.(?:java|kt|scala|groovy|cs|swift|php))$/.exec(base))) stems.push(m[1] + m[3]);
  if ((m = /^Test(.+\.(?:java|kt|cs))$/.exec(base))) stems.push(m[1]);
  if (/(^|\/)__tests__$/.test(dir)) stems.push(base);
  for (const stem of stems) {
    const exts = /\.(m|c)?[jt]sx?$/.test(stem) ? SOURCE_EXT : [stem.slice(stem.lastIndexOf('.'))];
    const name = stem.slice(0, stem.lastIndexOf('.'));
    const candidates: string[] = [];
    for (const ext of exts) candidates.push(...files.withBase(name + ext));
    const others = candidates.filter((c) => c !== testFile);
    if (!others.length) continue;
    // Prefer the same folder, then the parent of __tests__, then the mirror of test/ in src/, then the closest path.
    const mirrors = [
      dir,
      dir.replace(/\/?__tests__$/, ''),
      dir.replace(/(^|\/)(tests?|spec|__tests__)(\/|$)/, '$1src$3'),
      dir.replace(/src\/test\//, 'src/main/'),
    ];
    for (const d of mirrors) {
      const hit = others.find((c) => posix.dirname(c) === (d || '.') || (d === '' && !c.includes('/')));
      if (hit) return hit;
    }
    return others.sort((a, b) => commonPrefix(b, testFile) - commonPrefix(a, testFile) || a.length - b.length)[0];
  }
  return undefined;
}

function commonPrefix(a: string, b: string): number {
  const as = a.split('/');
  const bs = b.split('/');
  let k = 0;
  while (k < as.length && k < bs.length && as[k] === bs[k]) k++;
  return k;
}
