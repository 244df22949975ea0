import type { Node } from '@vscode/tree-sitter-wasm';
import { FIELD_OF, FIXTURE, RESULT_OF, TYPED_RECEIVER } from '../facts';
import type { ExtractionContext, Frame } from './context';
import {
  annotationType,
  declaredType,
  ELEMENTS,
  lastName,
  PY_BUILTINS,
  TYPE_NAME,
  type PyScope,
} from './pyAnnotations';
import { bindings, idents, type BindKind } from './pyBindings';

// Python: what the code itself says about a receiver's type, as far as reading it without a type
// checker can go. A parameter's annotation (`request: Request`, `t.Optional["Response"]`,
// `Client | None`), a variable bound once to an instance (`client = Client()`, `with Client() as c`,
// `except HTTPError as e`, a literal `{}`), `self` and `cls` in a method, and the fields a class gives
// its instances (pyFields.ts: `self.app = app` where `app: Flask`, `session_interface: SessionInterface`, a
// property's return annotation). A name bound twice to different things, or to something unread,
// stays unknown: the call then keeps its receiver's text.

/** Most fields followed from a typed value: `self.a.b.c.d`. */
const MAX_CHAIN = 4;
const LITERALS: Record<string, string> = {
  dictionary: 'dict',
  dictionary_comprehension: 'dict',
  list: 'list',
  list_comprehension: 'list',
  set: 'set',
  set_comprehension: 'set',
  string: 'str',
  concatenated_string: 'str',
  integer: 'int',
  float: 'float',
  true: 'bool',
  false: 'bool',
};

/** What iterating `node` gives: the element class of a typed collection variable or own field. */
function elementType(node: Node | null | undefined, lookup: Lookup, scope: PyScope): string | undefined {
  if (node?.type === 'identifier') {
    const t = lookup(node.text);
    return t?.startsWith(ELEMENTS) ? t.slice(ELEMENTS.length) : undefined;
  }
  if (node?.type === 'attribute' && scope.ownClass && node.childForFieldName('object')?.type === 'identifier') {
    const self = node.childForFieldName('object')!.text;
    const field = node.childForFieldName('attribute')?.text;
    return field && lookup(self) === scope.ownClass ? scope.ownElements?.get(field) : undefined;
  }
  return undefined;
}

/**
 * A name's class where the code is: the class, '' for a function's own variable or parameter of no
 * known class, undefined for a name no function binds (a module's function, an import, a builtin).
 */
type Lookup = (name: string) => string | undefined;

/** Functions whose parameters are not read yet: a function that calls no method on a name needs none. */
const unreadParams = new WeakMap<Frame, () => void>();
/** Functions whose bodies are not read yet, and how to read them: most calls need only the parameters. */
const unread = new WeakMap<Frame, () => void>();
/** Per walk, the names the module binds by import or definition: a call on one reads no function's body. */
const moduleNamesOf = new WeakMap<ExtractionContext, ReadonlySet<string>>();
/** Per walk, the names the module binds to whole modules (`import requests`). */
const modulesIn = new WeakMap<ExtractionContext, ReadonlySet<string>>();

/** Each function's scope facts (its class, that class's collection fields). */
const scopes = new WeakMap<Frame, PyScope>();

/**
 * A comprehension's scope (`[d.m() for d in self.children]`): its loop variables, each the element
 * class of what it iterates when that is a typed collection.
 */
export function comprehensionFrame(node: Node, ctx: ExtractionContext): Frame | undefined {
  let scope: PyScope | undefined;
  for (let i = ctx.frames.length - 1; i >= 0 && !scope; i--) scope = scopes.get(ctx.frames[i]);
  const locals = new Map<string, string>();
  const lookup = (name: string) => locals.get(name) ?? pyLookup(ctx, name);
  for (const c of node.namedChildren) {
    if (c?.type !== 'for_in_clause') continue;
    const left = c.childForFieldName('left');
    if (left?.type === 'identifier')
      declare(locals, left.text, elementType(c.childForFieldName('right'), lookup, scope ?? { typeVars: new Set() }));
    else if (left) for (const id of idents(left)) declare(locals, id.text, undefined);
  }
  return locals.size ? { depth: ctx.depth, locals } : undefined;
}

/** A lambda's scope: its parameters hide the names around it, each of no known class. */
export function lambdaFrame(node: Node, ctx: ExtractionContext): Frame | undefined {
  const params = node.childForFieldName('parameters');
  const names = params ? idents(params) : [];
  return names.length ? { depth: ctx.depth, locals: new Map(names.map((n) => [n.text, ''])) } : undefined;
}

/** A name's class as the walk so far knows it, looking out from the innermost function. */
export function pyLookup(ctx: ExtractionContext, name: string): string | undefined {
  return lookupIn(ctx, ctx.frames, name);
}

function lookupIn(ctx: ExtractionContext, frames: readonly Frame[], name: string): string | undefined {
  for (let i = frames.length - 1; i >= 0; i--) {
    const f = frames[i];
    const params = unreadParams.get(f);
    if (params) {
      unreadParams.delete(f);
      params();
    }
    let t = f.locals?.get(name);
    const read = t === undefined ? unread.get(f) : undefined;
    // A function rarely rebinds a module's import or definition (`os`, `json`): its body stays unread.
    if (read && !moduleNamesOf.get(ctx)?.has(name)) {
      unread.delete(f);
      read();
      t = f.locals?.get(name);
    }
    if (t !== undefined) return t || (f.fn ? '' : undefined);
  }
  return undefined;
}

/**
 * A function's scope: its parameters now, and every name its body binds (nested functions and
 * classes left to their own scope) when a call first asks for a name that is no parameter. Read
 * whole, so a name rebound anywhere is unknown at every call, unless an annotation declares it: a
 * checker holds the value to it.
 */
export function functionFrame(
  fn: Node,
  scope: PyScope,
  ctx: ExtractionContext,
  name: string,
  method: boolean,
  fixture = false,
): Frame {
  const declared = new Set<string>();
  const locals = new Map<string, string>();
  const frame: Frame = { depth: ctx.depth, fn: name, locals };
  scopes.set(frame, scope);
  const outer = ctx.frames.slice();
  // pytest gives a test, and a fixture, the fixtures its parameters name.
  const takesFixtures = fixture || name.startsWith('test');
  unreadParams.set(frame, () => paramTypes(fn, scope, method, declared, locals, takesFixtures));
  unread.set(frame, () => {
    const body = fn.childForFieldName('body');
    if (body) scopeLocals(body, scope, locals, declared, (n) => lookupIn(ctx, outer, n));
  });
  return frame;
}

/** The module's scope: its top-level variables and their classes. */
export function moduleFrame(root: Node, scope: PyScope, ctx: ExtractionContext): Frame {
  const locals = new Map<string, string>();
  const defined = new Set<string>();
  scopeLocals(root, scope, locals, new Set(), () => undefined, defined);
  // A function may rebind a module's variable (`global client; client = Other()`): none so rebound is known.
  if (root.text.includes('global '))
    for (const g of root.descendantsOfType('global_statement'))
      for (const id of g ? idents(g) : []) locals.set(id.text, '');
  moduleNamesOf.set(ctx, defined);
  if (scope.modules) modulesIn.set(ctx, scope.modules);
  return { depth: ctx.depth, locals };
}

/**
 * The class of the value an expression makes: a class called (`Client(…)`, `httpx.Client(…)`), a
 * builtin or literal, a typed variable, a field of one (FIELD_OF and the chain), what a function
 * returns (RESULT_OF and its name); undefined otherwise.
 */
// eslint-disable-next-line complexity -- one case per kind of expression
export function valueType(
  node: Node | null | undefined,
  lookup: Lookup,
  modules?: ReadonlySet<string>,
  depth = 0,
): string | undefined {
  if (!node) return undefined;
  const literal = LITERALS[node.type];
  if (literal) return literal;
  // `(x)`, and `await f()`: an async function's annotation names what awaiting its call gives.
  for (let i = 0; node?.type === 'parenthesized_expression' || node?.type === 'await'; i++)
    node = i < 32 ? node.namedChildren[0] : null;
  if (!node) return undefined;
  if (node.type === 'call') {
    const fn = node.childForFieldName('function');
    if (fn?.type !== 'identifier' && fn?.type !== 'attribute') return undefined;
    // A method of what another call gives: `factory(app).send()`, `Client().build_request()`.
    const object = fn.type === 'attribute' ? fn.childForFieldName('object') : null;
    if (object && object.type !== 'identifier' && object.type !== 'attribute') {
      const inner = depth < MAX_CALLS && !isSuper(object) ? valueType(object, lookup, modules, depth + 1) : undefined;
      const owner = inner && ownerOf(inner);
      const method = fn.childForFieldName('attribute')?.text;
      return owner && method ? `${RESULT_OF}${owner}#${method}` : undefined;
    }
    const text = fn.text;
    const last = lastName(text);
    if (PY_BUILTINS.has(text)) return text;
    if (!TYPE_NAME.test(text)) return undefined;
    // A class by its name: capitalized and not a constant (`CONFIG()`); else what the function returns.
    // A parameter or variable called (`def build(Model): Model()`) holds some class: which, unread.
    if (/^[A-Z]/.test(last))
      return /[a-z]/.test(last) &&
        (fn.type === 'attribute'
          ? !/^(?:self|cls)$/.test(text.slice(0, text.indexOf('.')))
          : lookup(text) === undefined)
        ? text
        : undefined;
    if (fn.type === 'identifier') {
      const held = lookup(text);
      // A module's function: what it returns. A function's own variable called (`factory(app)`):
      // what calling an instance of its class gives (a callable Protocol's `__call__`), if typed.
      // `cls()` in a class method makes an instance of the class.
      if (text === 'cls' && held && TYPE_NAME.test(held)) return held;
      return held === undefined ? `${RESULT_OF}${last}` : ownerOf(held) && `${RESULT_OF}${ownerOf(held)}#__call__`;
    }
    // A method's result only on a receiver of known class: `os.environ.copy()` is a library's. On
    // one variable (`self.m()`, `client.m()`), that class's m: `Owner#m`.
    const head = text.slice(0, text.indexOf('.'));
    const receiver = lookup(head);
    // A function of a module the file imports whole (`requests.session()`): what that function returns,
    // written with the module path's slashes (`()requests/session`) so that a field chain can follow it.
    if (receiver === undefined && modules?.has(head)) return `${RESULT_OF}${text.split('.').join('/')}`;
    if (!receiver) return undefined;
    const owner = text.indexOf('.') === text.lastIndexOf('.') ? ownerOf(receiver) : undefined;
    return owner ? `${RESULT_OF}${owner}#${last}` : `${RESULT_OF}${last}`;
  }
  if (node.type === 'identifier') return lookup(node.text) || undefined;
  if (node.type === 'attribute') return chainType(node, lookup);
  return undefined;
}

/**
 * A value's class as the owner of a method whose result is asked for: the class by its last name,
 * or a call's result (`()Factory#__call__`), up to a few calls deep; undefined for anything else.
 */
function ownerOf(type: string): string | undefined {
  if (type.startsWith(RESULT_OF)) return type.split('#').length <= MAX_CALLS ? type : undefined;
  // `httpx.Client` as `httpx/Client`: whether the module is a library's, the file's imports say at query time.
  return TYPE_NAME.test(type) ? type.replace(/\./g, '/') : undefined;
}

function isSuper(node: Node): boolean {
  return node.type === 'call' && node.childForFieldName('function')?.text === 'super';
}

/** Most calls a receiver is followed through: `f().a().b()`. */
const MAX_CALLS = 4;

/** `a.b.c` where `a`'s class is known: FIELD_OF, the class by its last name, and the fields. */
function chainType(node: Node, lookup: Lookup): string | undefined {
  // Read from the text when it is names and dots only, as it mostly is: no walk over the nodes.
  const text = node.endIndex - node.startIndex <= 200 ? node.text : '';
  let names: string[];
  if (DOTTED.test(text)) names = text.split('.');
  else {
    names = [];
    let t: Node | null = node;
    while (t?.type === 'attribute' && names.length <= MAX_CHAIN) {
      const attr = t.childForFieldName('attribute');
      if (!attr) return undefined;
      names.unshift(attr.text);
      t = t.childForFieldName('object');
    }
    if (t?.type !== 'identifier') return undefined;
    names.unshift(t.text);
  }
  const fields = names.slice(1);
  if (fields.length > MAX_CHAIN) return undefined;
  // An object's own attributes are a dict.
  if (fields[fields.length - 1] === '__dict__') return 'dict';
  const base = lookup(names[0]);
  if (!base || base.startsWith(ELEMENTS)) return undefined;
  // A chain through a chain: `si = self.app.session_interface`, then `si.x`; through a call's result: `request = client.build_request(…)`, then `request.headers`.
  const owner = base.startsWith(FIELD_OF)
    ? base.slice(FIELD_OF.length)
    : base.startsWith(RESULT_OF)
      ? base
      : lastName(base);
  if (owner.split('.').length + fields.length > MAX_CHAIN + 1) return undefined;
  return `${FIELD_OF}${owner}.${fields.join('.')}`;
}

/** `a.b.c` written plainly (no spaces, comments or calls in between). */
const DOTTED = /^[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+$/;

/** The receiver of `recv.m()` as the index resolves it: TYPED_RECEIVER and the class or field chain, when known. */
export function receiverQualifier(recv: Node | null, ctx: ExtractionContext): string | undefined {
  // `super().m()`: the base's m, when the class has one base; else a base's, which one unread.
  if (recv && isSuper(recv)) {
    let supers: readonly string[] | undefined;
    for (let i = ctx.frames.length - 1; i >= 0 && !supers; i--)
      if (ctx.frames[i].container) supers = ctx.frames[i].definition?.supers ?? [];
    return supers?.length === 1 ? `${TYPED_RECEIVER}${supers[0]}` : 'super';
  }
  if (
    !recv ||
    (recv.type !== 'identifier' && recv.type !== 'attribute' && recv.type !== 'call' && !LITERALS[recv.type])
  )
    return undefined;
  const type = valueType(recv, (name) => pyLookup(ctx, name), modulesIn.get(ctx));
  return type ? `${TYPED_RECEIVER}${type.startsWith(ELEMENTS) ? 'list' : type}` : undefined;
}

/** Records that `name` has `type` ('' for unknown); a second, different binding makes it unknown. */
export function declare(locals: Map<string, string>, name: string, type: string | undefined): void {
  const prev = locals.get(name);
  locals.set(name, prev === undefined || prev === (type ?? '') ? (type ?? '') : '');
}

/** The parameters' annotated classes; `self` or `cls` of a method is its class. Every parameter is declared, typed or not. */
function paramTypes(
  fn: Node,
  scope: PyScope,
  method: boolean,
  declared: Set<string>,
  locals = new Map<string, string>(),
  takesFixtures = false,
): Map<string, string> {
  const params = fn.childForFieldName('parameters')?.namedChildren ?? [];
  const decorated = method && fn.parent?.type === 'decorated_definition' ? fn.parent : undefined;
  const isStatic = !!decorated?.namedChildren.some(
    (d) => d?.type === 'decorator' && /^@\s*staticmethod\b/.test(d.text),
  );
  params.forEach((p, i) => {
    if (!p) return;
    const name =
      p.type === 'identifier'
        ? p
        : (p.childForFieldName('name') ?? p.namedChildren.find((c) => c?.type === 'identifier'));
    if (!name || name.type !== 'identifier') {
      // `*items: Item` is a tuple of Items; `**kw`, a dict.
      const splat = p.namedChildren.find(
        (c) => c?.type === 'list_splat_pattern' || c?.type === 'dictionary_splat_pattern',
      );
      const element =
        splat?.type === 'list_splat_pattern' ? annotationType(p.childForFieldName('type'), scope) : undefined;
      for (const id of splat ? idents(splat) : idents(p))
        declare(
          locals,
          id.text,
          splat?.type === 'dictionary_splat_pattern' ? 'dict' : element ? `${ELEMENTS}${element}` : undefined,
        );
      return;
    }
    // `*args` is a tuple, `**kw` a dict.
    const splat =
      p.type === 'list_splat_pattern' ? 'tuple' : p.type === 'dictionary_splat_pattern' ? 'dict' : undefined;
    const own = i === 0 && method && !isStatic;
    // A bare parameter of a test or a fixture is the fixture of that name (which conftest.py gives it is found at query time).
    const fixture = takesFixtures && !own && p.type === 'identifier' ? `${RESULT_OF}${FIXTURE}${name.text}` : undefined;
    const type = splat ?? fixture ?? (own ? scope.ownClass : declaredType(p.childForFieldName('type'), scope));
    declare(locals, name.text, type);
    if (type && !fixture) declared.add(name.text);
  });
  return locals;
}

/** The class of the value an expression makes, with the names the given frames bind. */
export function valueIn(ctx: ExtractionContext, frames: readonly Frame[], node: Node): string | undefined {
  return valueType(node, (name) => lookupIn(ctx, frames, name), modulesIn.get(ctx));
}

/** A function's variables and their classes, its body read at once. */
export function functionLocals(fn: Node, scope: PyScope, method: boolean, outer: Lookup): Map<string, string> {
  const declared = new Set<string>();
  const locals = paramTypes(fn, scope, method, declared);
  const body = fn.childForFieldName('body');
  if (body) scopeLocals(body, scope, locals, declared, outer);
  return locals;
}

/** Reads the names a body binds into `locals`; for a module, also which it binds by import or definition (`defined`). */
function scopeLocals(
  body: Node,
  scope: PyScope,
  locals: Map<string, string>,
  declared: Set<string>,
  outer: Lookup,
  defined?: Set<string>,
): void {
  // A module's names are no function's own: a module's function called is RESULT_OF.
  const lookup = defined
    ? (name: string) => locals.get(name) || undefined
    : (name: string) => locals.get(name) ?? outer(name);
  const assigned: Array<[string, Node | null, BindKind]> = [];
  const truncated = bindings(body, scope, (name, value, annotation, kind = 'value') => {
    if (defined && value === null && !annotation) defined.add(name);
    if (!annotation) assigned.push([name, value, kind]);
    else if (!declared.has(name)) {
      const type = declaredType(annotation, scope);
      locals.set(name, type ?? '');
      if (type) declared.add(name);
    } else if (locals.get(name) !== declaredType(annotation, scope)) locals.set(name, '');
  });
  for (const [name, value, kind] of assigned)
    if (!declared.has(name)) declare(locals, name, value === null ? undefined : boundType(value, kind, lookup, scope));
  // A body too long to read whole may rebind any name further on: none is known.
  if (truncated) for (const name of locals.keys()) if (!declared.has(name)) locals.set(name, '');
}

function boundType(value: Node, kind: BindKind, lookup: Lookup, scope: PyScope): string | undefined {
  if (kind === 'element') return elementType(value, lookup, scope);
  if (kind === 'instance') return /^[A-Z]/.test(lastName(value.text)) ? annotationType(value, scope) : undefined;
  const type = valueType(value, lookup, scope.modules);
  // `with f() as x`: what the result's `__enter__` gives, as its class declares it.
  if (kind === 'context' && type?.startsWith(RESULT_OF)) return ownerOf(type) && `${RESULT_OF}${type}#__enter__`;
  return type;
}
