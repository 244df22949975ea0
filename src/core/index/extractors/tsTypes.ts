import type { Node } from '@vscode/tree-sitter-wasm';
import { RESULT_OF } from '../facts';
import type { ExtractionContext } from './context';

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
  const params = fn?.childForFieldName('parameters');
  if (!params) return undefined;
  let out: Map<string, string> | undefined;
  for (const p of params.namedChildren) {
    const name = p?.type === 'identifier' ? p : p?.type === 'required_parameter' || p?.type === 'optional_parameter' ? p.childForFieldName('pattern') : null;
    if (name?.type !== 'identifier') continue;
    (out ??= new Map()).set(name.text, namedType(p!.childForFieldName('type')) ?? '');
  }
  return out;
}

const PROMISES = new Set(['Promise', 'PromiseLike']);

/** A receiver that is the result of a call (`qb.where(…).execute()`): RESULT_OF and the called name. */
export function resultOf(call: Node): string | undefined {
  const fn = call.childForFieldName('function');
  const name = fn?.type === 'identifier' ? fn : fn?.type === 'member_expression' ? fn.childForFieldName('property') : null;
  return name?.type === 'identifier' || name?.type === 'property_identifier' ? `${RESULT_OF}${name.text}` : undefined;
}

/**
 * The named type a TypeScript function or method says it returns: `Foo` for `Foo<T>` or `ns.Foo`,
 * the class itself for `this`, `Foo` for `Promise<Foo>`; undefined for any other (a union, a literal, none).
 */
export function tsReturnType(node: Node, container?: string): string | undefined {
  let type = node.childForFieldName('return_type')?.namedChildren[0];
  // What a promise resolves to is what the caller gets from `await`, and nothing but then, catch
  // and finally is called on the promise itself.
  if (type?.type === 'generic_type' && PROMISES.has(type.childForFieldName('name')?.text ?? '')) type = type.childForFieldName('type_arguments')?.namedChildren[0];
  if (!type) return undefined;
  if (type.type === 'this_type') return container;
  const named = type.type === 'generic_type' ? type.childForFieldName('name') ?? type.namedChildren[0] : type;
  return named?.type === 'type_identifier' || named?.type === 'nested_type_identifier' ? lastName(named.text) : undefined;
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

/** The named type an annotation gives: `Foo`, `ns.Foo`, `Repo` for `Repo<User>`; undefined for any other. */
export function namedType(annotation: Node | null): string | undefined {
  const type = annotation?.namedChildren[0];
  const named = type?.type === 'generic_type' ? type.childForFieldName('name') ?? type.namedChildren[0] : type;
  return named?.type === 'type_identifier' || named?.type === 'nested_type_identifier' ? named.text : undefined;
}

/** Most fields read per class. */
const MAX_FIELDS = 256;

/**
 * The types of a class's fields, by `this.` and name, as the class body declares them: a typed field
 * (`private em: EntityManager`), a constructor's parameter property (`constructor(private readonly
 * users: UsersService)`), or a field or constructor assignment of `new X(…)` (also JavaScript's
 * `this.client = new Client()`). '' for a field declared twice with different types.
 */
export function classFieldTypes(node: Node): Map<string, string> | undefined {
  const body = node.childForFieldName('body');
  if (!body) return undefined;
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
      declare(name, namedType(member.childForFieldName('type')) ?? createdType(member.childForFieldName('value')));
    } else if (member?.type === 'method_definition' && member.childForFieldName('name')?.text === 'constructor') {
      for (const p of member.childForFieldName('parameters')?.namedChildren ?? []) {
        if (p?.type !== 'required_parameter' && p?.type !== 'optional_parameter') continue;
        if (!p.children.some((c) => c?.type === 'accessibility_modifier' || c?.type === 'readonly')) continue;
        const pattern = p.childForFieldName('pattern');
        if (pattern?.type === 'identifier') declare(pattern.text, namedType(p.childForFieldName('type')));
      }
      for (const statement of member.childForFieldName('body')?.namedChildren ?? []) {
        const assign = statement?.type === 'expression_statement' ? statement.namedChildren[0] : null;
        const left = assign?.type === 'assignment_expression' ? assign.childForFieldName('left') : null;
        if (left?.type === 'member_expression' && left.childForFieldName('object')?.type === 'this') declare(left.childForFieldName('property')?.text, createdType(assign!.childForFieldName('right')));
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
    if (f.fn) scope = f.locals ??= new Map<string, string>();
    // In a class body outside any method (a field's initializer), no scope of ours.
    else if (f.container) return;
  }
  scope ??= ctx.moduleLocals ??= new Map<string, string>();
  if (scope.size >= MAX_LOCALS) return;
  const prev = scope.get(name);
  scope.set(name, prev === undefined || prev === (type ?? '') ? (type ?? '') : '');
}

/** The qualifier text of `this.x` when `node` is one, for looking up the field's type. */
export function thisField(node: Node): string | undefined {
  if (node.childForFieldName('object')?.type !== 'this') return undefined;
  const property = node.childForFieldName('property');
  return property?.type === 'property_identifier' || property?.type === 'private_property_identifier' ? `${THIS_FIELD}${property.text}` : undefined;
}

/** Most base names kept for one class or interface. */
const MAX_SUPERS = 16;

/**
 * What a class extends and implements, by last name: `extends ns.Base<T> implements I, J<X>` gives
 * Base, I, J. A JavaScript mixin call (`extends Mixin(Base)`) gives the classes passed to it.
 */
export function classSupers(node: Node): string[] {
  const heritage = node.namedChildren.find((c) => c?.type === 'class_heritage');
  if (!heritage) return [];
  const out: string[] = [];
  const base = (expr: Node | null | undefined) => {
    if (!expr) return;
    if (expr.type === 'identifier' || expr.type === 'member_expression') out.push(lastName(expr.text));
    else if (expr.type === 'call_expression') for (const a of expr.childForFieldName('arguments')?.namedChildren ?? []) base(a);
  };
  for (const c of heritage.namedChildren) {
    if (!c) continue;
    if (c.type === 'extends_clause') base(c.childForFieldName('value'));
    else if (c.type === 'implements_clause') out.push(...typeNames(c));
    else base(c); // JavaScript: the base expression right in the heritage
  }
  return [...new Set(out)].slice(0, MAX_SUPERS);
}

/** The type names of an `implements` or interface `extends` clause, by last name. */
export function typeNames(clause: Node): string[] {
  const out: string[] = [];
  for (const t of clause.namedChildren) {
    const named = t?.type === 'generic_type' ? t.childForFieldName('name') ?? t.namedChildren[0] : t;
    if (named && (named.type === 'type_identifier' || named.type === 'nested_type_identifier' || named.type === 'identifier' || named.type === 'member_expression')) out.push(lastName(named.text));
  }
  return [...new Set(out)].slice(0, MAX_SUPERS);
}

function lastName(text: string): string {
  return text.slice(text.lastIndexOf('.') + 1);
}

