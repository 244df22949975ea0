import type { ScanCap, ScannedFile } from '../scan/scanner';
import type { SymbolKind } from './facts';

// What the code index answers and reports: the public shapes of its results.

export interface IndexProgress {
  done: number;
  total: number;
}

export interface BuildOptions {
  onProgress?: (p: IndexProgress) => void;
  signal?: AbortSignal;
  /** Use this file list instead of scanning the workspace. */
  files?: readonly ScannedFile[];
}

export interface BuildStats {
  /** Code files considered. */
  files: number;
  /** Files parsed in this run (new or changed content). */
  parsed: number;
  /** Files left as they were (same content hash). */
  skipped: number;
  /** Files that could not be read or parsed. */
  failed: number;
  /** Files read from disk (to hash, and to parse when changed): those whose size or time moved, or that are new. */
  read: number;
  /** Rows in the index after the run. */
  symbols: number;
  calls: number;
  imports: number;
  ms: number;
  capped?: ScanCap;
}

export interface IndexedSymbol {
  path: string;
  name: string;
  kind: SymbolKind;
  startLine: number;
  endLine: number;
  /** The class (for methods) or the dotted TypeScript namespace (for functions inside one). */
  container?: string;
  exported: boolean;
  deprecated: boolean;
}

/**
 * How sure a caller is:
 * - `resolved`: the callee is bound to the definition through imports: named, renamed, default,
 *   namespace (`ns.f()`, also nested: `z.core.f()`), star imports, `export … from` chains and local
 *   aliases (`export { a as b }`), imports of workspace packages (package.json `exports`), Python
 *   re-imports; or it lives in the same file, the same Go/Java/C# package folder, or the same
 *   TypeScript namespace. For methods: a static call through the class name, `this.m()` in the file
 *   defining the class, or a bare call there (Java, C#).
 *   Go: a call on a variable whose declared type (parameter, receiver, `var x T`, `&T{}`) or
 *   producing call (`r := NewRouter()`, whose definition returns `*Router`) is the method's type.
 *   TypeScript and JavaScript: a call on a parameter, variable, field (this class's, a base's, or a
 *   typed value's: `ds.manager.save()`), array element or call result whose declared type is the
 *   method's class. `super.m()` calls the base's method, never the override it is in.
 * - `likely`: a method call `x.m()` in a file where the method's class is in scope (defined or
 *   imported), the receiver's type unknown; receivers that name a whole module (`z.m()` with
 *   `import * as z`) are not counted. Go: a receiver of another declared type counts only through an
 *   interface that the method's type implements; a struct field's method (`c.flags.m()`) or a
 *   library function's result does not.
 *   TypeScript: also a call on a value nothing in its file types (a callback's `c`) whose name the
 *   workspace's own declarations agree is the method's class.
 * - `name`: only the name matches; returned only when no resolved or likely caller exists.
 */
export type CallerConfidence = 'resolved' | 'likely' | 'name';

export interface CallerRef {
  path: string;
  line: number;
  column: number;
  enclosing?: string;
  confidence: CallerConfidence;
  /** The base class or interface a likely call goes through (`QueryRunner` for a driver's method). */
  via?: string;
  /** A likely call found by the method's name alone, one that no other class of the workspace defines. */
  uniqueName?: boolean;
  /** A call on the result of another (`where` in `qb.where(…).execute()`), typed by what that one says it returns. */
  resultOf?: string;
  /** A call on a field (`Sub.metadata`, `DataSource.driver`: owner and field), typed by what its class or a base declares. */
  field?: string;
  /** A likely call on a receiver nothing in its file types (`c`, `c.req`), whose name the workspace's declarations type as the method's class. */
  usualReceiver?: string;
}

export interface DeprecatedUse {
  name: string;
  line: number;
  column: number;
  enclosing?: string;
  confidence: Exclude<CallerConfidence, 'name'>;
  definition: { path: string; line: number; endLine: number; container?: string };
}

export interface UpdateResult {
  status: 'parsed' | 'unchanged' | 'removed' | 'skipped';
  ms: number;
}
