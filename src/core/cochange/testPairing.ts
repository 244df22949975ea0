import { posix } from 'node:path';
import type { TimeSlice } from '../timeSlice';

const TEST_DIRS = new Set(['__tests__', 'test', 'tests', '__test__', 'spec', 'specs']);

/** True when the path looks like a test by the usual conventions of JS/TS, Python, Go, Java and friends. */
export function isTestFile(path: string): boolean {
  if (isTestByName(path)) return true;
  return path
    .split('/')
    .slice(0, -1)
    .some((d) => TEST_DIRS.has(d));
}

/** A test by its own name (`foo.test.ts`, `test_foo.py`, `foo_test.go`, `FooTest.kt`), whatever its folder. */
function isTestByName(path: string): boolean {
  const base = posix.basename(path);
  return (
    /[._-](test|spec|tests|specs)\.[^.]+$/i.test(base) ||
    /^test_.+\.py$/i.test(base) ||
    /_test\.(go|py|rb|exs?|dart|cc|cpp|c)$/i.test(base) ||
    /[a-z0-9](Test|Tests|Spec|IT)\.(java|kt|scala|cs|swift|groovy|php)$/.test(base)
  );
}

/**
 * The name a test and its implementation share: `foo.test.ts`, `foo.spec.ts`, `__tests__/foo.ts`,
 * `test_foo.py`, `foo_test.go`, `FooTest.java` and `foo.ts` all give `foo`.
 */
export function testStem(path: string): string {
  let base = posix.basename(path);
  const dot = base.indexOf('.');
  // Drop every extension (`.test.ts`, `.d.ts`, `.spec.tsx`).
  let stem = dot > 0 ? base.slice(0, dot) : base;
  base = stem;
  stem = stem
    .replace(/^test_/i, '')
    .replace(/_(test|spec)$/i, '')
    .replace(/-(test|spec)$/i, '');
  if (stem === base) stem = stem.replace(/(?<=[a-z0-9])(Tests?|Spec|IT)$/, '');
  return stem.toLowerCase().replace(/[-_]/g, '');
}

/** Number of directory steps between two files (0 = same folder). Allocates nothing: rankings call it for every candidate. */
export function dirDistance(a: string, b: string): number {
  const ea = a.lastIndexOf('/');
  const eb = b.lastIndexOf('/');
  const na = ea < 0 ? 0 : slashes(a, ea) + 1;
  const nb = eb < 0 ? 0 : slashes(b, eb) + 1;
  // Equal leading folders start at the same offset in both paths.
  let common = 0;
  for (let at = 0; common < na && common < nb; common++) {
    const ja = a.indexOf('/', at);
    if (ja !== b.indexOf('/', at) || !sameChars(a, b, at, ja)) break;
    at = ja + 1;
  }
  return na - common + (nb - common);
}

/** Slashes in p before index `end`. */
function slashes(p: string, end: number): number {
  let n = 0;
  for (let i = p.indexOf('/'); i >= 0 && i < end; i = p.indexOf('/', i + 1)) n++;
  return n;
}

function sameChars(a: string, b: string, from: number, to: number): boolean {
  for (let i = from; i < to; i++) if (a.charCodeAt(i) !== b.charCodeAt(i)) return false;
  return true;
}

/** A file a change names, how strongly (0..1) and by which words of its name. */
export interface NamedFile {
  path: string;
  score: number;
  words: readonly string[];
}

/** The files of a tree, indexed by folder and by test stem. */
export class FileIndex {
  private readonly byDir = new Map<string, string[]>();
  private readonly byStem = new Map<string, string[]>();
  private readonly all: Set<string>;
  private tokens?: Map<string, string[]>;
  /** File-name word → files whose name holds it, and each file's name words; built on first use. */
  private nameWords?: { byWord: Map<string, string[]>; of: Map<string, string[]> };
  private readonly kinds = new Map<string, string>();
  /** Folders that hold tests marked by their names, memoized. */
  private readonly marksTests = new Map<string, boolean>();

  constructor(paths: Iterable<string>, place = true) {
    this.all = new Set(paths);
    if (place) for (const p of this.all) this.place(p);
  }

  /**
   * The same index with its word tables too, built a slice at a time: on a large tree, building it
   * in the first ranking that needs it held the event loop for a second or more.
   */
  static async build(paths: Iterable<string>, slice: TimeSlice): Promise<FileIndex> {
    const index = new FileIndex(paths, false);
    for (const p of index.all) {
      index.place(p);
      await slice.pause();
    }
    const tokens = new Map<string, string[]>();
    for (const p of index.all) {
      addTokens(tokens, p);
      await slice.pause();
    }
    const byWord = new Map<string, string[]>();
    const of = new Map<string, string[]>();
    for (const p of index.all) {
      addNameWords(byWord, of, p);
      await slice.pause();
    }
    index.tokens = tokens;
    index.nameWords = { byWord, of };
    return index;
  }

  private place(p: string): void {
    push(this.byDir, posix.dirname(p), p);
    push(this.byStem, testStem(p), p);
  }

  has(path: string): boolean {
    return this.all.has(path);
  }

  get size(): number {
    return this.all.size;
  }

  inDirectory(dir: string): readonly string[] {
    return this.byDir.get(dir) ?? [];
  }

  /** Tests of an implementation, or implementations of a test, nearest first. */
  testPartners(path: string): string[] {
    const out = this.sameStemOtherKind(path, 2);
    out.sort((x, y) => dirDistance(path, x) - dirDistance(path, y) || (x < y ? -1 : 1));
    return out.filter((p) => dirDistance(path, p) <= 4).slice(0, 3);
  }

  /**
   * Files whose paths share rare words with this one (`node/reporters/summary.ts` and
   * `test/reporters/default.test.ts`), scored by the words' rarity over the tree; strongest first.
   */
  similarNames(path: string, limit: number): [string, number][] {
    if (!this.tokens) {
      this.tokens = new Map();
      for (const p of this.all) addTokens(this.tokens, p);
    }
    const n = this.all.size;
    const scores = new Map<string, number>();
    let norm = 0;
    for (const t of new Set(pathWords(path))) {
      const posting = this.tokens.get(t);
      if (!posting) continue;
      const idf = Math.log(n / posting.length);
      norm += idf;
      // Words on a large share of the tree name a package, not a topic.
      if (posting.length > MAX_WORD_FILES) continue;
      for (const p of posting) if (p !== path) scores.set(p, (scores.get(p) ?? 0) + idf);
    }
    if (!norm) return [];
    return [...scores]
      .map(([p, v]): [string, number] => [p, v / norm])
      .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
      .slice(0, limit);
  }

  /**
   * Files whose names a change is about: every word of the file's name (`record.test.ts` → record,
   * `discriminated-unions.test.ts` → discriminated, union) is among the words of the change's
   * identifiers (`$ZodRecordDef` → zod, record, def), weighted by how much of the change names it and
   * how few files share the name. Strongest first.
   */
  namedBy(words: ReadonlyMap<string, number>, exclude: string, limit: number): NamedFile[] {
    if (!this.nameWords) {
      const byWord = new Map<string, string[]>();
      const of = new Map<string, string[]>();
      for (const p of this.all) addNameWords(byWord, of, p);
      this.nameWords = { byWord, of };
    }
    const { byWord, of } = this.nameWords;
    let total = 0;
    for (const c of words.values()) total += c;
    if (!total) return [];
    const n = Math.max(2, this.all.size);
    const scores = new Map<string, number>();
    for (const w of words.keys()) {
      for (const p of byWord.get(w) ?? []) {
        if (p === exclude || scores.has(p)) continue;
        const ws = of.get(p)!;
        let share = 1;
        let rarity = 0;
        for (const x of ws) {
          const c = words.get(x);
          if (!c) {
            share = 0;
            break;
          }
          share = Math.min(share, c / total);
          rarity = Math.max(rarity, Math.log(n / byWord.get(x)!.length) / Math.log(n));
        }
        if (share > 0) scores.set(p, Math.min(1, Math.sqrt(share * 4)) * rarity);
      }
    }
    return [...scores]
      .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
      .slice(0, limit)
      .map(([path, score]) => ({ path, score, words: of.get(path)! }));
  }

  /**
   * Tests (or implementations) with the same name far away (`packages/x/src/reporters/junit.ts` and
   * `test/e2e/reporters/junit.test.ts`), only when the name is distinctive: at most two such files.
   */
  distantTestPartners(path: string): string[] {
    const out = this.sameStemOtherKind(path, 3);
    if (out.length > 2) return [];
    return out.filter((p) => dirDistance(path, p) > 4).sort();
  }

  /** Files with the same test stem (of at least `minStem` characters), tests for an implementation and the reverse. */
  private sameStemOtherKind(path: string, minStem: number): string[] {
    const stem = testStem(path);
    if (stem.length < minStem) return [];
    const kind = this.kindOf(path);
    // A common stem (`index`) has hundreds of files: their kinds are worked out once.
    return (this.byStem.get(stem) ?? []).filter((p) => {
      if (p === path) return false;
      const other = this.kindOf(p);
      // A test for an implementation (or the reverse) of the same family of extensions, named after all of it.
      return (
        other[0] !== kind[0] &&
        other.slice(1) === kind.slice(1) &&
        (kind[0] === 't' ? testsByName(path, p) : testsByName(p, path))
      );
    });
  }

  /**
   * A test by its name, or by its folder (`spec/`, `tests/`) unless that folder marks its tests by
   * name: an OpenAPI `spec/` folder holds schemas next to their `.test.ts` files.
   */
  private isTest(path: string): boolean {
    if (!isTestFile(path)) return false;
    if (isTestByName(path)) return true;
    const dir = posix.dirname(path);
    let marks = this.marksTests.get(dir);
    if (marks === undefined) {
      marks = this.inDirectory(dir).some(isTestByName);
      this.marksTests.set(dir, marks);
    }
    return !marks;
  }

  /** 't' or 'i' (test or implementation) followed by the extension family; memoized per path. */
  private kindOf(path: string): string {
    let k = this.kinds.get(path);
    if (k === undefined) {
      k = (this.isTest(path) ? 't' : 'i') + extFamily(path);
      this.kinds.set(path, k);
    }
    return k;
  }
}

/** What a test's name says after its test marks: `.spec`, `-test`, `_spec`, `.e2e`, `.int`, `Test`, `test_`. */
const TEST_MARK = /(?:[._-](?:test|tests|spec|specs|e2e|int|integration|unit|it))+$/i;

/**
 * Whether a test is named after all of an implementation's name, not only its first part:
 * `app.controller.spec.ts` tests `app.controller.ts`, not `app.module.ts` (Angular and NestJS name
 * a part's files `name.role.ts`); `show.html.erb_spec.rb` tests `show.html.erb`.
 */
function testsByName(test: string, impl: string): boolean {
  const norm = (s: string) => s.toLowerCase().replace(/[-_]/g, '');
  const base = posix.basename(test);
  let core = base.slice(0, base.lastIndexOf('.') > 0 ? base.lastIndexOf('.') : base.length);
  core = core.replace(/^test_/i, '').replace(TEST_MARK, '');
  if (!/\./.test(core)) core = core.replace(/(?<=[a-z0-9])(?:Tests?|Spec|IT)$/, '');
  const name = posix.basename(impl);
  const dot = name.lastIndexOf('.');
  const c = norm(core);
  return c === norm(name) || (dot > 0 && c === norm(name.slice(0, dot)));
}

function addTokens(tokens: Map<string, string[]>, p: string): void {
  for (const t of new Set(pathWords(p))) push(tokens, t, p);
}

function addNameWords(byWord: Map<string, string[]>, of: Map<string, string[]>, p: string): void {
  const ws = fileNameWords(p);
  if (!ws.length) return;
  of.set(p, ws);
  for (const w of ws) push(byWord, w, p);
}

const MAX_WORD_FILES = 200;
const COMMON_WORDS = new Set([
  'src',
  'lib',
  'test',
  'tests',
  'spec',
  'specs',
  'index',
  'main',
  'utils',
  'util',
  'types',
  'type',
  'packages',
  'fixtures',
  'fixture',
  'internal',
  'common',
  'shared',
  'dist',
  'node',
  'app',
  'core',
]);

/** The words of a path's folders and file name: `src/query-builder/InsertQueryBuilder.ts` → query, builder, insert, ... */
function pathWords(path: string): string[] {
  const noExt = path.replace(/\.[^./]+$/, '').replace(/[._-](test|spec)$/i, '');
  return noExt
    .split(/[/._\-\s]+|(?<=[a-z0-9])(?=[A-Z])/)
    .map((w) => w.toLowerCase())
    .filter((w) => w.length > 2 && !COMMON_WORDS.has(w) && !/^\d+$/.test(w));
}

const NAME_STOP = new Set(['index', 'main', 'mod', 'init', 'test', 'tests', 'spec', 'specs', 'd', 'unit', 'e2e']);

/** The words of a file's own name, test suffixes and extensions dropped: `discriminated-unions.test.ts` → discriminated, union. */
export function fileNameWords(path: string): string[] {
  const base = posix.basename(path);
  const dot = base.indexOf('.');
  const stem = (dot > 0 ? base.slice(0, dot) : base).replace(/^test_/i, '').replace(/[_-](test|spec)$/i, '');
  return [...new Set(identifierWords(stem).filter((w) => !NAME_STOP.has(w)))];
}

/**
 * The words of an identifier, lower-cased and singular: `$ZodRecordDef` → zod, record, def;
 * `HTTPServer` → http, server; `parse_options` → parse, option.
 */
export function identifierWords(id: string): string[] {
  const out: string[] = [];
  for (const part of id.split(/[^A-Za-z0-9]+/)) {
    if (!part) continue;
    for (const w of part.split(/(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])/)) {
      const l = w.toLowerCase();
      if (l.length >= 3 && !/^\d+$/.test(l)) out.push(singular(l));
    }
  }
  return out;
}

function singular(w: string): string {
  if (w.length > 4 && w.endsWith('ies')) return w.slice(0, -3) + 'y';
  if (w.length > 3 && w.endsWith('s') && !w.endsWith('ss') && !w.endsWith('us') && !w.endsWith('is'))
    return w.slice(0, -1);
  return w;
}

function extFamily(path: string): string {
  const m = /\.([^./]+)$/.exec(path);
  const ext = m ? m[1].toLowerCase() : '';
  if (/^[cm]?[jt]sx?$/.test(ext) || ext === 'vue' || ext === 'svelte') return 'js';
  return ext;
}

function push(m: Map<string, string[]>, k: string, v: string): void {
  const a = m.get(k);
  if (a) a.push(v);
  else m.set(k, [v]);
}

/** A loose test-name check (any part of the path), for wording a reason. */
export function isTestName(p: string): boolean {
  return /[._-](test|spec)\.|__tests__|^test_|_test\.|Test\.[a-z]+$/.test(p);
}

/** The first two folders: `packages/runner`, `src/driver` (the first one alone for `src/x.ts`). */
export function packageOf(p: string): string {
  const first = p.indexOf('/');
  if (first < 0) return '';
  const second = p.indexOf('/', first + 1);
  return p.slice(0, second < 0 ? first : second);
}
