// What extraction finds in one file: definitions, call sites, imports. Stored by the code index.

/**
 * What a definition is. `type` is a type alias (TypeScript `type`, Go and Rust aliases and named
 * types); `component` a React component: a PascalCase function that renders JSX, a class extending
 * React.Component, or a const wrapped in memo()/forwardRef().
 */
export type SymbolKind = 'function' | 'method' | 'class' | 'interface' | 'type' | 'enum' | 'component';

/** Kinds whose definitions hold methods. */
export const CONTAINER_KINDS: readonly SymbolKind[] = ['class', 'interface', 'enum', 'component'];

/** 0: not exported, 1: exported by name, 2: the module's default export (JS/TS). */
export type ExportFlag = 0 | 1 | 2;

export interface SymbolFact {
  name: string;
  kind: SymbolKind;
  /** 1-based, inclusive. */
  startLine: number;
  endLine: number;
  /** The class, struct, trait or interface the definition belongs to. */
  container?: string;
  exported: ExportFlag;
  deprecated: boolean;
  /**
   * The named type a function or method returns: Go's first result as written (`Route`,
   * `http.Handler`); TypeScript's declared return type by its last name, the class for `this`; PHP's
   * declared type (else its doc block's `@return`) by its last name, the class for `self` and `static`.
   */
  returns?: string;
  /**
   * JavaScript and TypeScript: the classes and interfaces a class extends or implements, or an
   * interface extends, by their last name (`Base` for `ns.Base<T>`).
   */
  supers?: string[];
  /**
   * JavaScript and TypeScript: the named types a class gives its fields, or an interface its
   * properties, by field name (the type by its last name).
   */
  fields?: Record<string, string>;
}

export interface CallFact {
  /** The called name: `foo` in `foo()`, `obj.foo()`, `new foo()`, `pkg::foo()`. */
  name: string;
  /**
   * What the name was reached through (`obj` in `obj.foo()`); '()' for a computed receiver; for a Go
   * variable whose type its declaration says, TYPED_RECEIVER and the type (`type:Command`, `type:flag.FlagSet`).
   */
  qualifier?: string;
  /** 1-based position of the called name. */
  line: number;
  column: number;
  /** Name of the innermost named function or method around the call. */
  enclosing?: string;
}

/**
 * One name an import binds in the importing file. `name` is what the imported module calls it
 * ('default' for a default export, '*' for the module itself); `local` is the name in scope here
 * ('*' when every exported name comes into scope, as in `from x import *` or `export * from`).
 * `reexport` marks `export … from` in JS/TS, which binds nothing locally but passes names on.
 */
export interface ImportName {
  name: string;
  local: string;
  reexport?: true;
}

export interface ImportFact {
  spec: string;
  names: ImportName[];
  line: number;
}

export interface FileFacts {
  symbols: SymbolFact[];
  calls: CallFact[];
  imports: ImportFact[];
  /** Java package, C# namespace, Go package name. */
  pkg?: string;
  /**
   * JavaScript and TypeScript: the parameters and variables whose declaration names their type, as
   * `[name, type by its last name]`, each pair once per file (`ctx: Context`, `const em = new EntityManager()`).
   * Across the workspace they say what a value of that name usually is where nothing declares it.
   */
  typedNames?: Array<[string, string]>;
}

/**
 * Marks a call's qualifier that is the receiver's declared type rather than its name (Go, PHP, and
 * TypeScript parameters and call chains). After it
 * comes the type, or RESULT_OF and the name of the function or method whose result the receiver is
 * (`r := NewRouter()`, `r.NewRoute().Host()`), which the index answers from that definition's `returns`.
 */
export const TYPED_RECEIVER = 'type:';
export const RESULT_OF = '()';
/**
 * Python: after RESULT_OF, a pytest fixture by its name (`()?runner` for a test's parameter
 * `runner`): what the fixture of that name in the test's own module or nearest conftest.py gives.
 */
export const FIXTURE = '?';
/**
 * JavaScript and TypeScript: after RESULT_OF and the function's name, the variable that holds the
 * result (`()request~res` for `const res = await app.request(…); res.json()`), for when what the
 * function returns is unknown and the variable's name is all there is to go on.
 */
export const RESULT_HOLDER = '~';

/**
 * PHP: between a class and a method's name after RESULT_OF, the result of that class's method
 * (`()ContainerBuilder#getDefinition`), answered from the class or its bases; a library's class
 * gives no workspace type.
 */
export const METHOD_OF = '#';

/**
 * PHP: after a type, an array of it (`Link[]`, from a doc block's `Link[]`, `list<Link>` or
 * `array<string, Link>`); after RESULT_OF and a function's name, what iterating its result gives
 * (`()getRequires[]` for `foreach ($package->getRequires() as $link)`), which the index answers from
 * a `returns` of `Link[]`.
 */
export const ELEMENTS = '[]';

/** A result receiver's function name and, when the result was held in a variable, that variable's name. */
export function resultSpec(spec: string): { producer: string; holder?: string } {
  const at = spec.indexOf(RESULT_HOLDER);
  return at < 0 ? { producer: spec } : { producer: spec.slice(0, at), holder: spec.slice(at + 1) };
}
/**
 * After TYPED_RECEIVER: the receiver is a field of a TypeScript or JavaScript class or interface,
 * written `@Owner.field`, whose type the index answers from the owner's (or a base's) `fields`:
 * `this.metadata` that a base class declares, `this.dataSource.driver` of a field typed `DataSource`.
 */
export const FIELD_OF = '@';
