import type { BoundNames } from '../boundDefinitions';
import type { FieldType, FieldTypes, WorkspaceCallsQuery } from '../fieldTypes';
import { lastSegment, type CallRow, type SymbolRow } from '../indexRows';
import type { IndexState } from '../indexState';
import type { CallerConfidence, CallerRef } from '../indexTypes';
import type { familyOf } from '../languages';
import type { NamePriors } from '../namePriors';

export type Family = ReturnType<typeof familyOf>;

/** In `file`, the definition is reachable as the expression `path` (`sum`, `m.add`, `z.core.toDotPath`). */
export interface Binding {
  file: string;
  path: string;
  /** A base, interface or subtype of the method's class that `path` names: calls through it are likely. */
  relative?: boolean;
}

/** What one call is judged to be: a call of the method (how sure, through which relative), or not one. */
export interface Verdict {
  confidence: CallerConfidence | undefined;
  via?: string;
}
export const NOT_A_CALL: Verdict = Object.freeze({ confidence: undefined });
export const LIKELY: Verdict = Object.freeze({ confidence: 'likely' });
export const RESOLVED: Verdict = Object.freeze({ confidence: 'resolved' });

/** One question, "who calls `def`", and what every language's rules share while answering it. */
export interface CallQuery {
  readonly state: IndexState;
  readonly def: SymbolRow;
  readonly family: Family;
  readonly onlyFile: string | undefined;
  readonly fields: FieldTypes;
  readonly priors: NamePriors;
  /** What the files' imports bind: a class called on itself, the one definition of an ambiguous producer. */
  readonly imported: BoundNames;
  /** The method's family by name: its class's bases, interfaces and subclasses that have the method. */
  readonly related: ReadonlySet<string>;
  /** Whether `file` names the method's very class `type` (not another of the same name). */
  reaches(file: string, type: string): boolean;
  /** Whether the call sits in the method's own class. */
  insideClass(c: CallRow): boolean;
  /** Interfaces that declare the method and whose every method its type has. */
  interfaces(): Set<string>;
  /** The type a function named `name` returns (see resultType), cached for the query. */
  resultType(name: string): string | null | undefined;
  /** Whether `file` can call the function `d`. */
  bindsFunction(file: string, d: { path: string; name: string; exported: number }): boolean;
  /** Where a top-level name of `defPath` is reachable. */
  bindingsOf(defPath: string, name: string, isDefault: boolean): readonly Binding[];
}

/** A call on a receiver whose declaration the index recorded (`x: T`, a field, a call's result). */
export interface TypedCall {
  readonly c: CallRow;
  /** The declared receiver, after TYPED_RECEIVER. */
  readonly declared: string;
  /** The field chain, for a receiver that is a field. */
  readonly chain: string | undefined;
  readonly field: FieldType | undefined;
  /** The producer (and the variable holding its result), for a receiver that is a call's result. */
  readonly spec: { producer: string; holder?: string } | undefined;
  /** Whether the language read the call's result itself (Python). */
  readonly ownResult: boolean;
  /** Where the result's type was written, when the language read it. */
  readonly resultPath: string | undefined;
  /** The receiver's type: null when the workspace defines it without one type, undefined when not at all. */
  readonly type: string | null | undefined;
  /** The file's bindings of the class (`own`) and of its relatives (`rel`). */
  readonly own: ReadonlySet<string>;
  readonly rel: ReadonlySet<string>;
}

/** One language's answers within one query; its caches live as long as the query. */
export interface LanguageCalls {
  /** Reads the type of a call's result itself, written as the producer's file sees it (Python). */
  readResult?(producer: string, c: CallRow): { type: string | null | undefined; path: string | undefined };
  /** A typed receiver whose type is unknown (null) or no workspace type (undefined). */
  unknownType(t: TypedCall): Verdict;
  /** Whether a typed receiver's type is a library's, before relatives are considered. */
  foreignType?(t: TypedCall): boolean;
  /** A typed receiver of another type than the method's class and its relatives. */
  otherType(t: TypedCall): Verdict;
  /** Whether `this.m()` in another class may still reach the method. */
  selfElsewhere?(c: CallRow): boolean;
  /** A receiver nothing types, once the shared rules have no answer; undefined: likely. */
  untypedReceiver?(c: CallRow, q: string, moduleNames: ReadonlySet<string> | undefined): Verdict | undefined;
  /** Calls the walk over bindings does not see, appended to `found`. */
  moreCalls?(found: CallerRef[]): void;
}

/** How one language family resolves calls: its constants, and its rules opened per query. */
export interface LanguageResolution {
  /** Answers the whole question without the shared walk (Ruby). */
  callsTo?: (state: IndexState, def: SymbolRow, onlyFile: string | undefined) => CallerRef[];
  /** The folders whose files share `dir`'s top-level names without imports (a package). */
  packageDirs?: (state: IndexState, dir: string) => string[];
  /** The languages whose classes follow `extends` and `implements` for callers, as an SQL list. */
  heritageLangs?: string;
  /** Unqualified calls `m()` inside the class reach its method. */
  implicitThis?: boolean;
  /** A function's qualifier matches on its last segment (Rust paths, Python modules). */
  looseQualifier?: boolean;
  /** A method's calls count as inside its class anywhere in its file (Rust impls, Go receivers). */
  classIsFile?: boolean;
  /** The receiver that reaches the base class's method: `super`, C#'s `base`. */
  superReceiver?: string;
  /** The receivers that name the object itself. */
  selfReceivers: ReadonlySet<string>;
  /** Which language's field rules apply. */
  fields: 'js' | 'go' | 'python' | 'php';
  open: (q: CallQuery) => LanguageCalls;
}

/** The query of the searches for calls the shared walk does not see (through fields, on call results). */
export function workspaceCalls(q: CallQuery, found: readonly CallerRef[]): WorkspaceCallsQuery {
  const { state, fields, def, onlyFile, related } = q;
  return { db: state.db, fields, def, found, onlyFile, related, reaches: (file, type) => q.reaches(file, type) };
}

export const SELF_RECEIVERS: ReadonlySet<string> = new Set(['this', 'self', 'Self', 'super']);

/** A typed receiver of unknown type: likely, and of no workspace type: not this method. */
export function unknownIsLikely(t: TypedCall): Verdict {
  return t.type === null ? LIKELY : NOT_A_CALL;
}

/** Another type is this method's only through an interface it implements that declares it. */
export function throughInterface(q: CallQuery, type: string): Verdict {
  return q.interfaces().has(lastSegment(type)) ? LIKELY : NOT_A_CALL;
}

/** The JavaScript family's languages, as an SQL list. */
export const JS_LANGS = "('typescript', 'tsx', 'javascript')";
