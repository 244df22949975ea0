import type { Node } from '@vscode/tree-sitter-wasm';

// Python: the classes annotations name, read from the syntax alone (`Optional["Response"]`,
// `Client | None`, `list[Decoder]`), a class's bases and the module's type variables.

/** A type name as written (`Response`, `httpx.Response`, `models.Response`). */
export const TYPE_NAME = /^[A-Za-z_][\w]{0,99}(?:\.[A-Za-z_][\w]{0,99}){0,4}$/;
/** `"Response"`, `'Response | None'`, `"Optional[Response]"`: a forward reference to one class. */
const QUOTED_TYPE = /^\s*(?:(?:t\.|typing\.)?Optional\[\s*)?([A-Za-z_][\w.]{0,200})\s*(?:\]\s*)?(?:\|\s*None\s*)?$/;
/** Builtin classes: a value made by one, or a method called on one, is no workspace class's. */
export const PY_BUILTINS: ReadonlySet<string> = new Set([
  'dict',
  'list',
  'set',
  'frozenset',
  'tuple',
  'str',
  'bytes',
  'bytearray',
  'int',
  'float',
  'bool',
  'complex',
]);
/** Annotations that say nothing of the value's class. */
const UNTYPED = new Set(['Any', 'object', 'TypeVar', 'ParamSpec', 'Callable', 'type', 'Type']);
/** Wrappers whose one argument is the type: `Optional[X]`, `Annotated[X, …]`, `Final[X]`, `ClassVar[X]`. */
const WRAPPERS = new Set(['Optional', 'Annotated', 'Final', 'ClassVar', 'Required', 'NotRequired', 'ReadOnly']);

/** What a Python walk knows besides the shared context: the file's type variables. */
export interface PyScope {
  /** Names the module binds to `TypeVar(…)`: an annotation with one says nothing. */
  typeVars: Set<string>;
  /** The class whose method this is, for `self`, `cls` and `Self`. */
  ownClass?: string;
  /** The class of the elements of that class's collection fields (`self.children: list[Decoder]`). */
  ownElements?: ReadonlyMap<string, string>;
  /** Names the module binds to whole modules (`import requests`): `requests.session()` is a module's function. */
  modules?: ReadonlySet<string>;
}

/** Marks a variable that holds a collection of instances of the class after it (`list[Decoder]`). */
export const ELEMENTS = '[]';
/** Collections whose one argument is what iterating gives. */
const SEQUENCES = new Set([
  'list',
  'List',
  'Sequence',
  'MutableSequence',
  'Iterable',
  'Iterator',
  'set',
  'Set',
  'frozenset',
  'FrozenSet',
  'AbstractSet',
  'MutableSet',
  'deque',
  'Deque',
  'Generator',
  'AsyncIterable',
  'AsyncIterator',
]);

/** An annotation's class, or ELEMENTS and the class of a typed collection's elements (`list[Decoder]`). */
export function declaredType(node: Node | null | undefined, scope: PyScope): string | undefined {
  let t = node?.type === 'type' ? node.namedChildren[0] : node;
  // `Optional[list[X]]`, `list[X] | None`
  for (let i = 0; i < 3 && t; i++) {
    if (t.type === 'binary_operator' && t.childForFieldName('operator')?.text === '|') {
      const named = [t.childForFieldName('left'), t.childForFieldName('right')].filter((m) => m && m.type !== 'none');
      t = named.length === 1 ? named[0] : null;
    } else if ((t.type === 'generic_type' || t.type === 'subscript') && lastName(genericParts(t).outer) === 'Optional')
      t = genericParts(t).args[0];
    else if (t.type === 'type') t = t.namedChildren[0];
    else break;
  }
  if (t && (t.type === 'generic_type' || t.type === 'subscript')) {
    const { outer, args } = genericParts(t);
    if (SEQUENCES.has(lastName(outer)) && args.length >= 1) {
      const element = annotationType(args[0], scope);
      if (element) return `${ELEMENTS}${element}`;
    }
  }
  return annotationType(node, scope);
}

/** A generic's name and arguments, from a subscript (`t.List[X]`) or a generic type (`list[X]`). */
function genericParts(node: Node): { outer: string; args: Node[] } {
  const generic = node.type === 'generic_type';
  const value = generic ? node.namedChildren[0] : node.childForFieldName('value');
  const args = generic
    ? (node.namedChildren.find((c) => c?.type === 'type_parameter')?.namedChildren ?? [])
    : node.childrenForFieldName('subscript');
  return { outer: value?.text ?? '', args: args.filter((c): c is Node => !!c) };
}

/** A class's bases by their last name (`Base`, `Generic` of `t.Generic[T]`), keyword arguments left out. */
export function pySupers(node: Node): string[] {
  const out: string[] = [];
  for (const c of node.childForFieldName('superclasses')?.namedChildren ?? []) {
    let t: Node | null | undefined = c;
    if (t?.type === 'subscript') t = t.childForFieldName('value');
    if (t?.type === 'identifier' || t?.type === 'attribute') {
      const name = lastName(t.text);
      if (name !== 'object' && !out.includes(name)) out.push(name);
    }
  }
  return out.slice(0, 16);
}

/** The names a module binds to whole modules: `import a.b` binds a, `import a.b as c` binds c. */
export function moduleImports(root: Node): Set<string> {
  const out = new Set<string>();
  for (const s of root.descendantsOfType('import_statement')) {
    for (const name of s?.childrenForFieldName('name') ?? []) {
      const local =
        name?.type === 'aliased_import'
          ? name.childForFieldName('alias')
          : name?.type === 'dotted_name'
            ? name.namedChildren[0]
            : undefined;
      if (local?.type === 'identifier') out.add(local.text);
    }
  }
  return out;
}

/** The module's `T = TypeVar("T")` names, read from its top-level statements. */
export function moduleTypeVars(root: Node): Set<string> {
  const out = new Set<string>();
  for (const s of root.namedChildren) {
    const a = s?.type === 'expression_statement' ? s.namedChildren[0] : undefined;
    if (a?.type !== 'assignment') continue;
    const left = a.childForFieldName('left');
    const fn =
      a.childForFieldName('right')?.type === 'call'
        ? a.childForFieldName('right')!.childForFieldName('function')
        : undefined;
    if (left?.type === 'identifier' && fn && /^(?:TypeVar|ParamSpec|TypeVarTuple|NewType)$/.test(lastName(fn.text)))
      out.add(left.text);
  }
  return out;
}

/** The class an annotation names, as written (`Response`, `httpx.Response`); undefined when it names none or several. */
// eslint-disable-next-line complexity -- one case per form of annotation
export function annotationType(node: Node | null | undefined, scope: PyScope, depth = 0): string | undefined {
  if (!node || depth > 4) return undefined;
  switch (node.type) {
    case 'type':
      return annotationType(node.namedChildren[0], scope, depth + 1);
    case 'identifier':
    case 'attribute': {
      const text = node.text;
      const last = lastName(text);
      if (last === 'Self') return scope.ownClass;
      if (!TYPE_NAME.test(text) || UNTYPED.has(last) || scope.typeVars.has(text)) return undefined;
      return text;
    }
    case 'string': {
      const content = node.namedChildren.find((c) => c?.type === 'string_content')?.text;
      const m = content && content.length <= 200 ? QUOTED_TYPE.exec(content) : null;
      if (!m || !TYPE_NAME.test(m[1])) return undefined;
      const last = lastName(m[1]);
      if (last === 'Self') return scope.ownClass;
      return UNTYPED.has(last) || scope.typeVars.has(m[1]) ? undefined : m[1];
    }
    case 'subscript':
    case 'generic_type': {
      // `t.Optional[X]` is a subscript; `Optional[X]`, `dict[str, X]` may be a generic type.
      const { outer, args } = genericParts(node);
      const name = lastName(outer);
      if (!outer) return undefined;
      if (WRAPPERS.has(name)) return annotationType(args[0], scope, depth + 1);
      if (name === 'Union') return oneOf(args, scope, depth);
      // `list[Response]`, `Dict[str, X]`: the container itself.
      return TYPE_NAME.test(outer) && !UNTYPED.has(name) ? outer : undefined;
    }
    case 'union_type':
      return oneOf(node.namedChildren, scope, depth);
    case 'binary_operator':
      // `X | None`
      return node.childForFieldName('operator')?.text === '|'
        ? oneOf([node.childForFieldName('left'), node.childForFieldName('right')], scope, depth)
        : undefined;
    default:
      return undefined;
  }
}

/** The one class of a union without None. */
function oneOf(members: ReadonlyArray<Node | null>, scope: PyScope, depth: number): string | undefined {
  const named = members.filter((m) => m && m.type !== 'none' && m.text !== 'None');
  return named.length === 1 ? annotationType(named[0], scope, depth + 1) : undefined;
}

export function lastName(text: string): string {
  return text.slice(text.lastIndexOf('.') + 1);
}
