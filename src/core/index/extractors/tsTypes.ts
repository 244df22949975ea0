import type { Node } from '@vscode/tree-sitter-wasm';
import { FIELD_OF, RESULT_HOLDER, RESULT_OF } from '../facts';
import { JS_PRIMITIVE_TYPES } from '../methodNames';
import type { ExtractionContext, Frame } from './context';

// What TypeScript and JavaScript code says about the types of its values, read without a type
// checker: parameters', fields' and variables' declared types, what `new` makes, what a function
// says it returns, and what a class extends and implements. Calls on such values name their type.

/** A walk that keeps the types of variables outside any named function. */
export interface TypedScopes extends ExtractionContext {
  /** The module's variables outside any named function, with their declared types ('' unknown). */
  moduleLocals?: Map<string, string>;
}

/**
 * The parameters of a function by name, with the type each declares when it is a named one (`ctx:
 * Context`, `r: api.Route`, `qb: SelectQueryBuilder<T>`); '' for any other (union, literal or none),
 * which says too little.
 */
export function tsParamTypes(fn: Node | null): Map<string, string> | undefined {
  // `x => …`: one untyped parameter.
  const single = fn?.childForFieldName('parameter');
  if (single?.type === 'identifier') return new Map([[single.text, '']]);
  const params = fn?.childForFieldName('parameters');
  if (!params) return undefined;
  let out: Map<string, string> | undefined;
  for (const p of params.namedChildren) {
    const name =
      p?.type === 'identifier'
        ? p
        : p?.type === 'required_parameter' || p?.type === 'optional_parameter'
          ? p.childForFieldName('pattern')
          : null;
    if (name?.type !== 'identifier') {
      // `({ repo }) =>`, `(...rest)`: names bound here, of no type known here.
      for (const hidden of hiddenNames(name ?? p).keys()) (out ??= new Map()).set(hidden, '');
      continue;
    }
    const annotation = p!.childForFieldName('type');
    (out ??= new Map()).set(name.text, namedType(annotation) ?? '');
    const elements = elementType(annotation);
    if (elements) out.set(`${ELEMENTS}${name.text}`, elements);
  }
  return out;
}

/** How locals key the element type of an array: `[]` and the variable's name (`this.[]x` for a field). */
const ELEMENTS = '[]';
const ARRAYS = new Set(['Array', 'ReadonlyArray', 'Set', 'ReadonlySet']);

/** The named type of an array annotation's elements: `Foo` for `Foo[]`, `Array<Foo>`, `readonly ns.Foo[]`. */
export function elementType(annotation: Node | null): string | undefined {
  let type = annotation?.namedChildren[0];
  if (type?.type === 'readonly_type') type = type.namedChildren[0];
  const element =
    type?.type === 'array_type'
      ? type.namedChildren[0]
      : type?.type === 'generic_type' && ARRAYS.has(type.childForFieldName('name')?.text ?? '')
        ? type.childForFieldName('type_arguments')?.namedChildren[0]
        : undefined;
  const named = element?.type === 'generic_type' ? element.childForFieldName('name') : element;
  return named?.type === 'type_identifier' || named?.type === 'nested_type_identifier' ? named.text : undefined;
}

/** Records a variable that may hold an array: its element type when its annotation says one. */
export function declareElements(ctx: TypedScopes, name: string, annotation: Node | null): void {
  const elements = elementType(annotation);
  // Only where some array is in play: a plain variable need not hide an outer array of its name unless it is one.
  if (elements || tsTypeOf(ctx, `${ELEMENTS}${name}`)) declareLocal(ctx, `${ELEMENTS}${name}`, elements);
}

/** The element type of the array `node` names (a variable, a parameter, a field of this class), as declared here. */
export function elementsOf(ctx: TypedScopes, node: Node): string | undefined {
  if (node.type === 'identifier') return tsTypeOf(ctx, `${ELEMENTS}${node.text}`);
  const field = node.type === 'member_expression' ? thisField(node) : undefined;
  return (
    (field && thisClass(ctx)?.locals?.get(`${THIS_FIELD}${ELEMENTS}${field.slice(THIS_FIELD.length)}`)) || undefined
  );
}

/** Array methods whose callback's first parameter is an element. */
const ELEMENT_CALLBACKS = new Set([
  'map',
  'forEach',
  'filter',
  'find',
  'findLast',
  'findIndex',
  'findLastIndex',
  'some',
  'every',
  'flatMap',
]);

/**
 * A callback's parameters, as its own scope: their declared types, and for the first parameter of an
 * array method's callback (`xs.map((x) => …)`) the element type of the array; '' for any other,
 * which hides a variable of the same name around it.
 */
// eslint-disable-next-line complexity -- one case per form of callback parameter
export function callbackParams(ctx: TypedScopes, fn: Node): Map<string, string> | undefined {
  const params = tsParamTypes(fn);
  const call = fn.parent?.type === 'arguments' && fn.parent.namedChildren[0]?.equals(fn) ? fn.parent.parent : null;
  const callee = call?.type === 'call_expression' ? call.childForFieldName('function') : null;
  const property = callee?.type === 'member_expression' ? callee.childForFieldName('property') : null;
  const object = callee?.type === 'member_expression' ? callee.childForFieldName('object') : null;
  if (!params || !object || !property || !ELEMENT_CALLBACKS.has(property.text)) return params;
  // The element is the first parameter when it is a plain name (not `({ id })` or `...rest`).
  const node = fn.childForFieldName('parameter') ?? fn.childForFieldName('parameters')?.namedChildren[0];
  const plain =
    node?.type === 'identifier' ? node : node?.type === 'required_parameter' ? node.childForFieldName('pattern') : null;
  const first = plain?.type === 'identifier' ? plain.text : undefined;
  if (first !== undefined && !params.get(first)) {
    const elements = elementsOf(ctx, object);
    if (elements) params.set(first, elements);
  }
  return params;
}

/** `for (const x of xs)`: the loop's variable, with the element type of the array when it is known. */
export function loopVariable(ctx: TypedScopes, node: Node): Map<string, string> | undefined {
  const left = node.childForFieldName('left');
  const right = node.childForFieldName('right');
  if (left?.type !== 'identifier') return left ? hiddenNames(left) : undefined;
  return new Map([
    [left.text, right && node.childForFieldName('operator')?.type === 'of' ? (elementsOf(ctx, right) ?? '') : ''],
  ]);
}

/** Most names one destructuring pattern is read for. */
const MAX_PATTERN_NAMES = 64;

/** The names a pattern binds (`{ a, b: [c] }`, `...rest`), each of unknown type (''): they hide the same names further out. */
export function hiddenNames(pattern: Node | null): Map<string, string> {
  const out = new Map<string, string>();
  const stack = pattern ? [pattern] : [];
  for (let seen = 0; stack.length && out.size < MAX_PATTERN_NAMES && seen < 4 * MAX_PATTERN_NAMES; seen++) {
    const n = stack.pop()!;
    if (n.type === 'identifier' || n.type === 'shorthand_property_identifier_pattern') out.set(n.text, '');
    else if (n.type === 'pair_pattern') {
      const value = n.childForFieldName('value');
      if (value) stack.push(value);
    } else if (n.type === 'assignment_pattern' || n.type === 'object_assignment_pattern') {
      const left = n.childForFieldName('left');
      if (left) stack.push(left);
    } else for (const c of n.namedChildren) if (c && c.type !== 'type_annotation') stack.push(c);
  }
  return out;
}

const PROMISES = new Set(['Promise', 'PromiseLike']);

/** A receiver that is the result of a call (`qb.where(…).execute()`): RESULT_OF and the called name. */
export function resultOf(call: Node): string | undefined {
  const fn = call.childForFieldName('function');
  const name =
    fn?.type === 'identifier' ? fn : fn?.type === 'member_expression' ? fn.childForFieldName('property') : null;
  return name?.type === 'identifier' || name?.type === 'property_identifier' ? `${RESULT_OF}${name.text}` : undefined;
}

/**
 * The named type a TypeScript function or method says it returns: `Foo` for `Foo<T>` or `ns.Foo`,
 * the class itself for `this`, `Foo` for `Promise<Foo>`, a primitive (`string`, `void`); undefined for
 * any other (a union, a literal, none).
 */
export function tsReturnType(node: Node, container?: string): string | undefined {
  let type = node.childForFieldName('return_type')?.namedChildren[0];
  // What a promise resolves to is what the caller gets from `await`, and nothing but then, catch
  // and finally is called on the promise itself.
  if (type?.type === 'generic_type' && PROMISES.has(type.childForFieldName('name')?.text ?? ''))
    type = type.childForFieldName('type_arguments')?.namedChildren[0];
  if (!type) return undefined;
  if (type.type === 'this_type') return container;
  // A primitive says the value has no workspace class's methods.
  if (type.type === 'predefined_type' || type.type === 'literal_type')
    return JS_PRIMITIVE_TYPES.has(type.text) ? type.text : undefined;
  const named = type.type === 'generic_type' ? (type.childForFieldName('name') ?? type.namedChildren[0]) : type;
  return named?.type === 'type_identifier' || named?.type === 'nested_type_identifier'
    ? lastName(named.text)
    : undefined;
}

/**
 * The declared type of `name` in the nearest named function around here whose parameters or
 * variables have it, else among the module's variables; for `this.x`, of the field `x` of the
 * nearest class.
 */
export function tsTypeOf(ctx: TypedScopes, name: string): string | undefined {
  const field = name.startsWith(THIS_FIELD);
  for (let i = ctx.frames.length - 1; i >= 0; i--) {
    const type = ctx.frames[i].locals?.get(name);
    if (type !== undefined) return type || undefined;
    if (field && ctx.frames[i].container) return undefined;
  }
  return (!field && ctx.moduleLocals?.get(name)) || undefined;
}

/** How a class's frame keys its fields among its locals: `this.` and the field's name. */
const THIS_FIELD = 'this.';

/**
 * The type of a call's receiver as far as this file says: a parameter's or variable's declared type,
 * a call's result (RESULT_OF), a field of this class; or FIELD_OF and owner for a field whose type
 * another definition says (`this.metadata` a base class declares, `this.dataSource.driver` and
 * `em.connection` of a value whose type is known).
 */
export function receiverType(ctx: TypedScopes, object: Node): string | undefined {
  if (object.type === 'identifier') {
    const type = tsTypeOf(ctx, object.text);
    return type?.startsWith(RESULT_OF) ? `${type}${RESULT_HOLDER}${object.text}` : type;
  }
  if (object.type === 'call_expression') return resultOf(object);
  return object.type === 'member_expression' ? fieldChain(ctx, object, 0) : undefined;
}

/** Most fields followed from a typed value: `this.a.b.c.d`. */
const MAX_CHAIN = 4;

/**
 * `this.x`, `v.x`, `this.a.b.x`: a plain type when this file says it (a field of this class), else
 * FIELD_OF, the owner type and the field names, for the index to follow.
 */
function fieldChain(ctx: TypedScopes, node: Node, depth: number): string | undefined {
  const field = thisField(node);
  if (field) return thisFieldType(ctx, field);
  const inner = node.childForFieldName('object');
  const property = node.childForFieldName('property');
  if (!inner || property?.type !== 'property_identifier' || depth >= MAX_CHAIN) return undefined;
  const owner =
    inner.type === 'identifier'
      ? tsTypeOf(ctx, inner.text)
      : inner.type === 'member_expression'
        ? fieldChain(ctx, inner, depth + 1)
        : undefined;
  if (!owner || owner.startsWith(RESULT_OF)) return undefined;
  return owner.startsWith(FIELD_OF) ? `${owner}.${property.text}` : `${FIELD_OF}${lastName(owner)}.${property.text}`;
}

/**
 * The class `this` is here: the nearest class around, when no function with a `this` of its own (a
 * `function`, an object literal's method, a class expression) stands between.
 */
function thisClass(ctx: TypedScopes): Frame | undefined {
  for (let i = ctx.frames.length - 1; i >= 0; i--) {
    const f = ctx.frames[i];
    if (f.container) return f.containerKind === 'class' ? f : undefined;
    if (f.ownThis) return undefined;
  }
  return undefined;
}

/** `this.x`: its type when the class declares it; the field of that class when it does not (a base may). */
function thisFieldType(ctx: TypedScopes, field: string): string | undefined {
  const cls = thisClass(ctx);
  if (!cls) return undefined;
  const type = cls.locals?.get(field);
  if (type !== undefined) return type || undefined;
  return `${FIELD_OF}${cls.container}.${field.slice(THIS_FIELD.length)}`;
}

/** A class's or interface's field types for the index: field name to the type's last name. */
export function storedFields(types: ReadonlyMap<string, string> | undefined): Record<string, string> | undefined {
  let out: Record<string, string> | undefined;
  // No prototype: a field may be called `__proto__`.
  for (const [key, type] of types ?? []) {
    const name = key.startsWith(THIS_FIELD) ? key.slice(THIS_FIELD.length) : key;
    if (type && !name.startsWith(ELEMENTS))
      (out ??= Object.create(null) as Record<string, string>)[name] = lastName(type);
  }
  return out;
}

/** An interface's properties with a named type (`driver: Driver`), by `this.` and name as a class's fields. */
export function interfaceFieldTypes(node: Node): Map<string, string> | undefined {
  let out: Map<string, string> | undefined;
  for (const member of node.childForFieldName('body')?.namedChildren ?? []) {
    if (member?.type !== 'property_signature' || (out?.size ?? 0) >= MAX_FIELDS) continue;
    const name = member.childForFieldName('name');
    const type = namedType(member.childForFieldName('type'));
    if (name?.type === 'property_identifier' && type) (out ??= new Map()).set(`${THIS_FIELD}${name.text}`, type);
  }
  return out;
}

/** The named type an annotation gives: `Foo`, `ns.Foo`, `Repo` for `Repo<User>`; undefined for any other. */
export function namedType(annotation: Node | null): string | undefined {
  const type = annotation?.namedChildren[0];
  const named = type?.type === 'generic_type' ? (type.childForFieldName('name') ?? type.namedChildren[0]) : type;
  return named?.type === 'type_identifier' || named?.type === 'nested_type_identifier' ? named.text : undefined;
}

/** Most fields read per class. */
const MAX_FIELDS = 256;
const NAMED_TYPES = new Set(['type_identifier', 'nested_type_identifier', 'generic_type']);
/** TypeScript's types made from other types (`ReturnType<typeof f>`, `Partial<User>`): they name no type a value is. */
const TYPE_OPERATORS = new Set([
  'ReturnType',
  'Awaited',
  'Partial',
  'Required',
  'Readonly',
  'Pick',
  'Omit',
  'Record',
  'InstanceType',
  'Parameters',
  'NonNullable',
  'Extract',
  'Exclude',
  'ThisType',
]);

/** A class's type parameters that say what they stand for, by name: the constraint, else the default (`EM extends EntityManager<D>`). */
function typeParamBounds(node: Node): Map<string, Node> | undefined {
  let out: Map<string, Node> | undefined;
  for (const p of node.childForFieldName('type_parameters')?.namedChildren ?? []) {
    const name = p?.type === 'type_parameter' ? p.childForFieldName('name') : null;
    const bound = p?.childForFieldName('constraint') ?? p?.childForFieldName('value');
    if (name && bound) (out ??= new Map()).set(name.text, bound);
  }
  return out;
}

/**
 * A field's named type, as namedType() reads it, and also: an intersection's only named member (`EM &
 * { '~entities'?: E }`), and for a type parameter of the class what it stands for (`em!: EM` under
 * `EM extends Driver[typeof T] & EntityManager<Driver>` is an EntityManager).
 */
function fieldType(
  annotation: Node | null,
  params: ReadonlyMap<string, Node> | undefined,
  depth = 0,
): string | undefined {
  let type = annotation?.namedChildren[0];
  if (type?.type === 'intersection_type') {
    const named = type.namedChildren.filter((c) => !!c && NAMED_TYPES.has(c.type));
    type = named.length === 1 ? named[0] : undefined;
  }
  const name = type?.type === 'generic_type' ? (type.childForFieldName('name') ?? type.namedChildren[0]) : type;
  if (name?.type !== 'type_identifier' && name?.type !== 'nested_type_identifier') return undefined;
  if (TYPE_OPERATORS.has(name.text)) return undefined;
  const bound = params?.get(name.text);
  return bound && depth < 2 ? fieldType(bound, params, depth + 1) : name.text;
}

/**
 * The types of a class's fields, by `this.` and name, as the class body declares them: a typed field
 * (`private em: EntityManager`), a getter's return type (`get req(): HonoRequest`), a constructor's parameter property (`constructor(private readonly
 * users: UsersService)`), or a field or constructor assignment of `new X(…)` (also JavaScript's
 * `this.client = new Client()`). '' for a field declared twice with different types.
 */
// eslint-disable-next-line complexity -- one case per form of class member
export function classFieldTypes(node: Node): Map<string, string> | undefined {
  const body = node.childForFieldName('body');
  if (!body) return undefined;
  const params = typeParamBounds(node);
  let out: Map<string, string> | undefined;
  const declare = (name: string | undefined, type: string | undefined) => {
    if (!name || !type || (out?.size ?? 0) >= MAX_FIELDS) return;
    const key = `${THIS_FIELD}${name}`;
    const prev = (out ??= new Map<string, string>()).get(key);
    out.set(key, prev === undefined || prev === type ? type : '');
  };
  for (const member of body.namedChildren) {
    if (member?.type === 'public_field_definition' || member?.type === 'field_definition') {
      const name = (member.childForFieldName('name') ?? member.childForFieldName('property'))?.text;
      declare(
        name,
        fieldType(member.childForFieldName('type'), params) ?? createdType(member.childForFieldName('value')),
      );
      const elements = elementType(member.childForFieldName('type'));
      if (name && elements) declare(`${ELEMENTS}${name}`, elements);
    } else if (member?.type === 'method_definition' && member.children.some((c) => c?.type === 'get')) {
      // A getter reads like a field: `get req(): HonoRequest`.
      declare(member.childForFieldName('name')?.text, fieldType(member.childForFieldName('return_type'), params));
    } else if (member?.type === 'method_definition' && member.childForFieldName('name')?.text === 'constructor') {
      for (const p of member.childForFieldName('parameters')?.namedChildren ?? []) {
        if (p?.type !== 'required_parameter' && p?.type !== 'optional_parameter') continue;
        if (!p.children.some((c) => c?.type === 'accessibility_modifier' || c?.type === 'readonly')) continue;
        const pattern = p.childForFieldName('pattern');
        if (pattern?.type !== 'identifier') continue;
        declare(pattern.text, fieldType(p.childForFieldName('type'), params));
        const elements = elementType(p.childForFieldName('type'));
        if (elements) declare(`${ELEMENTS}${pattern.text}`, elements);
      }
      for (const statement of member.childForFieldName('body')?.namedChildren ?? []) {
        const assign = statement?.type === 'expression_statement' ? statement.namedChildren[0] : null;
        const left = assign?.type === 'assignment_expression' ? assign.childForFieldName('left') : null;
        if (left?.type === 'member_expression' && left.childForFieldName('object')?.type === 'this')
          declare(left.childForFieldName('property')?.text, createdType(assign!.childForFieldName('right')));
      }
    }
  }
  return out;
}

/** The class `new X(…)` makes: `X`, `ns.X`; undefined for any other value. */
export function createdType(value: Node | null): string | undefined {
  const c = value?.type === 'new_expression' ? value.childForFieldName('constructor') : null;
  return c?.type === 'identifier' || c?.type === 'member_expression' ? c.text : undefined;
}

/** Most variables kept per function (and for the module). */
const MAX_LOCALS = 512;

/**
 * Records a variable among the locals of the nearest named function, or of the module: with its type
 * when known, else '' (it hides a parameter or variable of the same name further out). Declared
 * twice with different types, it is ''.
 */
export function declareLocal(ctx: TypedScopes, name: string, type: string | undefined): void {
  let scope: Map<string, string> | undefined;
  for (let i = ctx.frames.length - 1; i >= 0 && !scope; i--) {
    const f = ctx.frames[i];
    if (f.fn || f.ownScope) scope = f.locals ??= new Map<string, string>();
    // In a class body outside any method (a field's initializer), no scope of ours.
    else if (f.container) return;
  }
  scope ??= ctx.moduleLocals ??= new Map<string, string>();
  if (scope.size >= MAX_LOCALS) return;
  if (type) noteTypedName(ctx, name, type);
  const prev = scope.get(name);
  scope.set(name, prev === undefined || prev === (type ?? '') ? (type ?? '') : '');
}

/** Most distinct name and type pairs a file notes. */
const MAX_TYPED_NAMES = 256;
const PLAIN_NAME = /^[A-Za-z_$][\w$]{0,63}$/;

/**
 * Notes that a declaration here names the type of `name` (a parameter `ctx: Context`, a variable
 * `const em = new EntityManager()`), once per file; what a call returns is no declaration and is left out.
 */
export function noteTypedName(ctx: ExtractionContext, name: string, type: string): void {
  if (!type || type.startsWith(RESULT_OF) || type.startsWith(FIELD_OF) || !PLAIN_NAME.test(name)) return;
  const last = type.slice(type.lastIndexOf('.') + 1);
  // A one-letter type is a type parameter (`x: T`), which may be anything.
  if (last.length < 2 || !PLAIN_NAME.test(last) || TYPE_OPERATORS.has(last)) return;
  const list = (ctx.facts.typedNames ??= []);
  if (list.length >= MAX_TYPED_NAMES || list.some(([n, t]) => n === name && t === last)) return;
  list.push([name, last]);
}

/**
 * Notes the declared types among a function's parameters (not the element types kept beside them),
 * leaving out those typed by a type parameter of the function or of what is around it (`keyType: Key`
 * under `<Key extends …>`), which may be anything.
 */
export function noteTypedParams(
  ctx: ExtractionContext,
  locals: ReadonlyMap<string, string> | undefined,
  fn: Node,
): void {
  if (!locals) return;
  let generic: Set<string> | undefined;
  for (const [name, type] of locals) {
    if (!type) continue;
    generic ??= typeParamsAround(fn);
    if (!generic.has(type)) noteTypedName(ctx, name, type);
  }
}

/** Most enclosing nodes looked through for type parameters. */
const MAX_TYPE_PARAM_DEPTH = 32;

/** The names of the type parameters of a node and of the declarations around it. */
function typeParamsAround(node: Node): Set<string> {
  const out = new Set<string>();
  let n: Node | null = node;
  for (let depth = 0; n && depth < MAX_TYPE_PARAM_DEPTH; depth++, n = n.parent) {
    for (const p of n.childForFieldName('type_parameters')?.namedChildren ?? []) {
      const name = p?.type === 'type_parameter' ? p.childForFieldName('name') : null;
      if (name) out.add(name.text);
    }
  }
  return out;
}

/** The qualifier text of `this.x` when `node` is one, for looking up the field's type. */
export function thisField(node: Node): string | undefined {
  if (node.childForFieldName('object')?.type !== 'this') return undefined;
  const property = node.childForFieldName('property');
  return property?.type === 'property_identifier' || property?.type === 'private_property_identifier'
    ? `${THIS_FIELD}${property.text}`
    : undefined;
}

function lastName(text: string): string {
  return text.slice(text.lastIndexOf('.') + 1);
}
