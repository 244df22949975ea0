import type { Node } from '@vscode/tree-sitter-wasm';
import type { ExtractionContext, Frame } from './context';

// PHP: what the code itself says of a receiver's class. A parameter's type (`FunFunFactory $factory`,
// `?Logger $logger`, `Foo|null $foo`), a variable bound only to `new Foo(…)`, and on `$this->x` a
// property's declared type, a promoted constructor parameter's, or what the constructor assigns it
// from a typed parameter or a `new`. Anything else, or a name bound two ways, stays unknown.

/** Most nodes of one function body read for its variables. */
const MAX_SCAN = 20_000;
/** Types that say nothing of a class. */
const UNTYPED = new Set(['mixed', 'object', 'callable', 'iterable', 'self', 'static', 'parent']);
/** Scopes of their own inside a body: their variables are not the function's. */
const OWN_SCOPES = new Set(['anonymous_function', 'anonymous_function_creation_expression', 'arrow_function', 'class_declaration', 'function_definition', 'method_declaration']);

/** The one class (or primitive) a type names, by its last name; undefined for a union of several, an intersection or no type. */
export function phpTypeName(node: Node | null | undefined): string | undefined {
  if (!node) return undefined;
  if (node.type === 'named_type') {
    const n = node.namedChildren[0];
    const text = n?.type === 'qualified_name' ? n.namedChildren[n.namedChildren.length - 1]?.text : n?.text;
    return text && !UNTYPED.has(text.toLowerCase()) ? text : undefined;
  }
  if (node.type === 'optional_type') return phpTypeName(node.namedChildren[0]);
  if (node.type === 'primitive_type') return UNTYPED.has(node.text.toLowerCase()) || node.text === 'null' ? undefined : node.text;
  if (node.type === 'union_type') {
    const parts = node.namedChildren.filter((c) => c && !(c.type === 'primitive_type' && c.text.toLowerCase() === 'null'));
    return parts.length === 1 ? phpTypeName(parts[0]) : undefined;
  }
  return undefined;
}

function typeChild(node: Node): Node | undefined {
  return node.namedChildren.find((c) => c?.type === 'named_type' || c?.type === 'optional_type' || c?.type === 'union_type' || c?.type === 'primitive_type') ?? undefined;
}

function variableOf(node: Node): string | undefined {
  const v = node.type === 'variable_name' ? node : node.namedChildren.find((c) => c?.type === 'variable_name');
  return v?.text.slice(1) || undefined;
}

/** Records a binding; a second, different one makes the name unknown (''). */
function bind(locals: Map<string, string>, key: string, type: string | undefined): void {
  const prev = locals.get(key);
  locals.set(key, prev === undefined || prev === (type ?? '') ? (type ?? '') : '');
}

/** A function's typed parameters and the variables its body binds (`$x` keys), read once when the function opens. */
export function phpFunctionLocals(fn: Node): Map<string, string> {
  const locals = new Map<string, string>();
  const declared = new Set<string>();
  for (const p of fn.childForFieldName('parameters')?.namedChildren ?? []) {
    if (p?.type !== 'simple_parameter' && p?.type !== 'property_promotion_parameter') continue;
    const name = variableOf(p);
    if (!name) continue;
    const type = phpTypeName(typeChild(p));
    bind(locals, `$${name}`, type);
    if (type) declared.add(`$${name}`);
  }
  const body = fn.childForFieldName('body');
  if (!body) return locals;
  const stack: Node[] = [body];
  for (let seen = 0; stack.length && seen < MAX_SCAN; seen++) {
    const n = stack.pop()!;
    if (OWN_SCOPES.has(n.type)) continue;
    if (n.type === 'assignment_expression') {
      const left = n.childForFieldName('left');
      const key = left?.type === 'variable_name' ? left.text : undefined;
      // A typed parameter keeps its type: PHP checks what is passed, and reassigning one is rare.
      if (key && !declared.has(key)) bind(locals, key, newType(n.childForFieldName('right')));
    }
    for (const c of n.namedChildren) if (c) stack.push(c);
  }
  // `foreach ($xs as $x)`, `list($a) = …`, `catch (E $e)`: bound some other way, unknown unless typed.
  if (body.text.includes('foreach') || body.text.includes('catch')) {
    for (const node of body.descendantsOfType(['foreach_statement', 'catch_clause'])) {
      if (!node) continue;
      if (node.type === 'catch_clause') {
        const name = node.childForFieldName('name')?.text;
        if (name && !declared.has(name)) bind(locals, name, phpTypeName(node.childForFieldName('type')?.namedChildren.length === 1 ? node.childForFieldName('type')!.namedChildren[0] : undefined));
      } else for (const v of node.namedChildren.slice(1)) if (v?.type === 'variable_name' && !declared.has(v.text)) bind(locals, v.text, undefined);
    }
  }
  return locals;
}

/** The class a `new Foo(…)` makes; undefined for anything else. */
function newType(node: Node | null): string | undefined {
  if (node?.type !== 'object_creation_expression') return undefined;
  const n = node.namedChildren.find((c) => c?.type === 'name' || c?.type === 'qualified_name');
  const text = n?.type === 'qualified_name' ? n.namedChildren[n.namedChildren.length - 1]?.text : n?.text;
  return text && !UNTYPED.has(text.toLowerCase()) ? text : undefined;
}

/**
 * A class's property types as `this.x` keys: declared types, promoted constructor parameters, and
 * what the constructor assigns an untyped property from a typed parameter or a `new`.
 */
export function phpClassProperties(cls: Node): Map<string, string> {
  const props = new Map<string, string>();
  const body = cls.childForFieldName('body');
  const typed = new Set<string>();
  for (const member of body?.namedChildren ?? []) {
    if (member?.type === 'property_declaration') {
      const type = phpTypeName(typeChild(member));
      for (const el of member.namedChildren) {
        const name = el?.type === 'property_element' ? variableOf(el) : undefined;
        if (!name || !type) continue;
        props.set(`this.${name}`, type);
        typed.add(name);
      }
    } else if (member?.type === 'method_declaration' && member.childForFieldName('name')?.text === '__construct') {
      const params = phpFunctionLocals(member);
      for (const p of member.childForFieldName('parameters')?.namedChildren ?? []) {
        const name = p?.type === 'property_promotion_parameter' ? variableOf(p) : undefined;
        const type = name && params.get(`$${name}`);
        if (name && type) {
          props.set(`this.${name}`, type);
          typed.add(name);
        }
      }
      for (const a of member.childForFieldName('body')?.descendantsOfType('assignment_expression') ?? []) {
        const left = a?.childForFieldName('left');
        if (left?.type !== 'member_access_expression' || left.childForFieldName('object')?.text !== '$this') continue;
        const name = left.childForFieldName('name')?.text;
        if (!name || typed.has(name)) continue;
        const right = a!.childForFieldName('right');
        const type = right?.type === 'variable_name' ? params.get(right.text) || undefined : newType(right ?? null);
        bind(props, `this.${name}`, type);
      }
    }
  }
  return props;
}

/** The class the code says a call's receiver is: a typed or `new`-bound variable, or `$this->prop`. */
export function phpReceiverType(node: Node | null, ctx: ExtractionContext): string | undefined {
  if (!node) return undefined;
  if (node.type === 'variable_name' && node.text !== '$this') return variableType(ctx.frames, node.text);
  if (node.type === 'member_access_expression' && node.childForFieldName('object')?.text === '$this') {
    const name = node.childForFieldName('name');
    return name?.type === 'name' ? lookup(ctx.frames, `this.${name.text}`, (f) => !!f.container) : undefined;
  }
  return undefined;
}

/** A variable's type: a closure's own, else what the scope around it binds, up to the named function. */
function variableType(frames: readonly Frame[], key: string): string | undefined {
  for (let i = frames.length - 1; i >= 0; i--) {
    const f = frames[i];
    if (!f.fn && !f.ownScope) continue;
    const t = f.locals?.get(key);
    if (t !== undefined || f.fn) return t || undefined;
  }
  return undefined;
}

/** The type of `key` in the nearest frame that `owns` says holds it: a function's variables, a class's properties. */
function lookup(frames: readonly Frame[], key: string, owns: (f: Frame) => boolean): string | undefined {
  for (let i = frames.length - 1; i >= 0; i--) {
    if (!owns(frames[i])) continue;
    return frames[i].locals?.get(key) || undefined;
  }
  return undefined;
}
