import type { Node } from '@vscode/tree-sitter-wasm';
import { RESULT_OF, TYPED_RECEIVER, type ExportFlag, type ImportName, type SymbolFact } from '../facts';
import {
  addCall,
  addSymbol,
  COMMENT,
  currentContainer,
  leadingSiblings,
  namespacePath,
  qualifierOf,
  startLine,
  stringContent,
  type ExtractionContext,
  type ExtractionRules,
  type Frame,
  type Visitor,
} from './context';
import { extendsReactComponent, isComponentWrapper, visitJsxElement } from './react';

// JavaScript, TypeScript and TSX: functions, classes, methods, interfaces, type aliases, enums,
// React components and JSX elements, namespaces, ES imports, require() and re-exports.

interface JsContext extends ExtractionContext {
  /** `export { a, b as default }` seen in the file: applied to the definitions once the walk is done. */
  lateExports?: Map<string, ExportFlag>;
  /** Definitions inside functions: `export { x }` at the end of a file never names them. */
  nested?: Set<SymbolFact>;
  /** The module's variables outside any named function, with their declared types ('' unknown). */
  moduleLocals?: Map<string, string>;
}

/**
 * The parameters of a function by name, with the type each declares when it is a named one (`ctx:
 * Context`, `r: api.Route`, `qb: SelectQueryBuilder<T>`); '' for any other (union, literal or none),
 * which says too little.
 */
function tsParamTypes(fn: Node | null): Map<string, string> | undefined {
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

/** A receiver that is the result of a call (`qb.where(…).execute()`): RESULT_OF and the called name. */
function resultOf(call: Node): string | undefined {
  const fn = call.childForFieldName('function');
  const name = fn?.type === 'identifier' ? fn : fn?.type === 'member_expression' ? fn.childForFieldName('property') : null;
  return name?.type === 'identifier' || name?.type === 'property_identifier' ? `${RESULT_OF}${name.text}` : undefined;
}

/**
 * The named type a TypeScript function or method says it returns: `Foo` for `Foo<T>` or `ns.Foo`,
 * the class itself for `this`; undefined for any other (a union, a literal, none).
 */
function tsReturnType(node: Node, container?: string): string | undefined {
  const type = node.childForFieldName('return_type')?.namedChildren[0];
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
function tsTypeOf(ctx: JsContext, name: string): string | undefined {
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
function namedType(annotation: Node | null): string | undefined {
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
function classFieldTypes(node: Node): Map<string, string> | undefined {
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
function createdType(value: Node | null): string | undefined {
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
function declareLocal(ctx: JsContext, name: string, type: string | undefined): void {
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
function thisField(node: Node): string | undefined {
  if (node.childForFieldName('object')?.type !== 'this') return undefined;
  const property = node.childForFieldName('property');
  return property?.type === 'property_identifier' || property?.type === 'private_property_identifier' ? `${THIS_FIELD}${property.text}` : undefined;
}

function jsExportFlag(node: Node): ExportFlag {
  let p = node.parent;
  if (p && (p.type === 'lexical_declaration' || p.type === 'variable_declaration')) p = p.parent;
  if (!p || p.type !== 'export_statement') return 0;
  return p.children.some((c) => c?.type === 'default') ? 2 : 1;
}

function jsDeprecated(node: Node): boolean {
  let anchor: Node = node;
  const p = node.parent;
  if (p && (p.type === 'lexical_declaration' || p.type === 'variable_declaration')) anchor = p;
  if (anchor.parent?.type === 'export_statement') anchor = anchor.parent;
  return leadingSiblings(anchor, COMMENT, 3).some((c) => c.text.startsWith('/*') && c.text.includes('@deprecated'));
}

function jsImportNames(clause: Node): ImportName[] {
  const names: ImportName[] = [];
  for (const c of clause.namedChildren) {
    if (!c) continue;
    if (c.type === 'identifier') names.push({ name: 'default', local: c.text });
    else if (c.type === 'namespace_import') {
      const id = c.namedChildren.find((x) => x?.type === 'identifier');
      if (id) names.push({ name: '*', local: id.text });
    } else if (c.type === 'named_imports') {
      for (const s of c.namedChildren) {
        if (s?.type !== 'import_specifier') continue;
        const name = s.childForFieldName('name')?.text;
        if (!name) continue;
        names.push({ name, local: s.childForFieldName('alias')?.text ?? name });
      }
    }
  }
  return names;
}

function jsRequireNames(call: Node): ImportName[] {
  const decl = call.parent;
  if (decl?.type !== 'variable_declarator') return [];
  const target = decl.childForFieldName('name');
  if (!target) return [];
  if (target.type === 'identifier') return [{ name: '*', local: target.text }];
  if (target.type !== 'object_pattern') return [];
  const names: ImportName[] = [];
  for (const p of target.namedChildren) {
    if (!p) continue;
    if (p.type === 'shorthand_property_identifier_pattern') names.push({ name: p.text, local: p.text });
    else if (p.type === 'pair_pattern') {
      const key = p.childForFieldName('key')?.text;
      const value = p.childForFieldName('value');
      if (key && value?.type === 'identifier') names.push({ name: key, local: value.text });
    }
  }
  return names;
}

const JS_FUNCTION_VALUES = new Set(['arrow_function', 'function_expression', 'function', 'generator_function']);

const jsVisitors: Record<string, Visitor<JsContext>> = {
  function_declaration: jsFunction,
  generator_function_declaration: jsFunction,
  function_signature: jsFunction,
  class_declaration: jsClass,
  abstract_class_declaration: jsClass,
  interface_declaration(node, ctx) {
    const name = node.childForFieldName('name')?.text;
    if (!name) return undefined;
    const exported = jsExportFlag(node);
    const symbol = addSymbol(ctx, node, name, 'interface', exported, jsDeprecated(node));
    const clause = node.namedChildren.find((c) => c?.type === 'extends_type_clause');
    if (clause) symbol.supers = typeNames(clause);
    return { depth: ctx.depth, container: name, containerExported: exported > 0, containerKind: 'interface' };
  },
  type_alias_declaration: (node, ctx) => jsTypeDefinition(node, ctx, 'type'),
  enum_declaration: (node, ctx) => jsTypeDefinition(node, ctx, 'enum'),
  jsx_opening_element: visitJsxElement,
  jsx_self_closing_element: visitJsxElement,
  method_definition: jsMethod,
  method_signature: jsMethod,
  abstract_method_signature: jsMethod,
  public_field_definition: jsFieldFunction,
  field_definition: jsFieldFunction,
  variable_declarator(node, ctx) {
    const value = node.childForFieldName('value');
    const nameNode = node.childForFieldName('name');
    if (nameNode?.type !== 'identifier') return undefined;
    // `const X = memo(…)` / `forwardRef(…)`: a component whatever its body looks like.
    const wrapped = !!value && isComponentWrapper(value);
    if (!value || (!wrapped && !JS_FUNCTION_VALUES.has(value.type))) {
      // `let orm: MikroORM<D>;`, `const parser = new Parser()`: a variable whose type the declaration says.
      declareLocal(ctx, nameNode.text, namedType(node.childForFieldName('type')) ?? createdType(value));
      return undefined;
    }
    const name = nameNode.text;
    const exported = ctx.frames.some((f) => f.fn) ? 0 : jsExportFlag(node);
    const definition = addSymbol(ctx, node, name, wrapped ? 'component' : 'function', exported, jsDeprecated(node), namespacePath(ctx));
    markNested(ctx);
    return { depth: ctx.depth, fn: name, definition, locals: tsParamTypes(value) };
  },
  internal_module(node, ctx) {
    const name = node.childForFieldName('name');
    return name && name.type !== 'string' ? { depth: ctx.depth, namespace: name.text } : undefined;
  },
  module(node, ctx) {
    const name = node.childForFieldName('name');
    return name && name.type !== 'string' ? { depth: ctx.depth, namespace: name.text } : undefined;
  },
  function_expression: jsNamedExpression,
  generator_function: jsNamedExpression,
  call_expression(node, ctx) {
    const fn = node.childForFieldName('function');
    if (!fn) return undefined;
    if (fn.type === 'import') {
      const arg = node.childForFieldName('arguments')?.namedChildren[0];
      if (arg?.type === 'string') ctx.facts.imports.push({ spec: stringContent(arg) ?? '', names: [], line: startLine(node) });
      return undefined;
    }
    if (fn.type === 'identifier') {
      if (fn.text === 'require') {
        const arg = node.childForFieldName('arguments')?.namedChildren[0];
        if (arg?.type === 'string') {
          ctx.facts.imports.push({ spec: stringContent(arg) ?? '', names: jsRequireNames(node), line: startLine(node) });
          return undefined;
        }
      }
      addCall(ctx, fn);
    } else if (fn.type === 'member_expression') {
      const object = fn.childForFieldName('object');
      const field = object?.type === 'member_expression' ? thisField(object) : undefined;
      const typed = object?.type === 'identifier' ? tsTypeOf(ctx, object.text) : field ? tsTypeOf(ctx, field) : object?.type === 'call_expression' ? resultOf(object) : undefined;
      addCall(ctx, fn.childForFieldName('property'), typed ? `${TYPED_RECEIVER}${typed}` : qualifierOf(object));
    }
    return undefined;
  },
  new_expression(node, ctx) {
    const c = node.childForFieldName('constructor');
    if (c?.type === 'identifier') addCall(ctx, c);
    else if (c?.type === 'member_expression') addCall(ctx, c.childForFieldName('property'), qualifierOf(c.childForFieldName('object')));
    return undefined;
  },
  import_statement(node, ctx) {
    const source = node.childForFieldName('source');
    if (!source) return undefined;
    const spec = stringContent(source) ?? '';
    const clause = node.namedChildren.find((c) => c?.type === 'import_clause');
    const req = node.namedChildren.find((c) => c?.type === 'import_require_clause');
    let names: ImportName[] = [];
    if (clause) names = jsImportNames(clause);
    else if (req) {
      const id = req.namedChildren.find((c) => c?.type === 'identifier');
      if (id) names = [{ name: '*', local: id.text }];
    }
    ctx.facts.imports.push({ spec, names, line: startLine(node) });
    return undefined;
  },
  import_require_clause(node, ctx) {
    // `import x = require('y')` nested inside an import_statement is handled there.
    if (node.parent?.type === 'import_statement') return undefined;
    const source = node.childForFieldName('source');
    const id = node.namedChildren.find((c) => c?.type === 'identifier');
    if (source) ctx.facts.imports.push({ spec: stringContent(source) ?? '', names: id ? [{ name: '*', local: id.text }] : [], line: startLine(node) });
    return undefined;
  },
  export_statement(node, ctx) {
    const source = node.childForFieldName('source');
    const clause = node.namedChildren.find((c) => c?.type === 'export_clause');
    if (source) {
      const names: ImportName[] = [];
      if (clause) {
        for (const s of clause.namedChildren) {
          if (s?.type !== 'export_specifier') continue;
          const name = s.childForFieldName('name')?.text;
          if (name) names.push({ name, local: s.childForFieldName('alias')?.text ?? name, reexport: true });
        }
      } else {
        const ns = node.namedChildren.find((c) => c?.type === 'namespace_export');
        const id = ns?.namedChildren.find((c) => c?.type === 'identifier');
        names.push({ name: '*', local: id ? id.text : '*', reexport: true });
      }
      ctx.facts.imports.push({ spec: stringContent(source) ?? '', names, line: startLine(node) });
      return undefined;
    }
    // `export { a, b as c }` and `export default a;` export declarations found elsewhere in the file.
    const pending = (ctx.lateExports ??= new Map<string, ExportFlag>());
    if (clause) {
      const aliases: ImportName[] = [];
      for (const s of clause.namedChildren) {
        if (s?.type !== 'export_specifier') continue;
        const name = s.childForFieldName('name')?.text;
        const alias = s.childForFieldName('alias')?.text;
        if (!name) continue;
        pending.set(name, alias === 'default' ? 2 : (Math.max(1, pending.get(name) ?? 0) as ExportFlag));
        if (alias && alias !== name) aliases.push({ name, local: alias, reexport: true });
      }
      // `export { a as b }`: the module also offers `a` under the name `b` (an import of itself, spec '').
      if (aliases.length) ctx.facts.imports.push({ spec: '', names: aliases, line: startLine(node) });
    }
    const value = node.childForFieldName('value');
    if (value?.type === 'identifier') pending.set(value.text, 2);
    // `export default memo(Button)`: Button is what a default import gets, wrapped.
    const wrappedArg = isComponentWrapper(value) ? value?.childForFieldName('arguments')?.namedChildren[0] : undefined;
    if (wrappedArg?.type === 'identifier') pending.set(wrappedArg.text, 2);
    return undefined;
  },
};

/** A type alias or enum: a definition, not a scope of its own. */
function jsTypeDefinition(node: Node, ctx: JsContext, kind: 'type' | 'enum'): undefined {
  const name = node.childForFieldName('name')?.text;
  if (!name) return undefined;
  addSymbol(ctx, node, name, kind, ctx.frames.some((f) => f.fn) ? 0 : jsExportFlag(node), jsDeprecated(node), namespacePath(ctx));
  markNested(ctx);
  return undefined;
}


function markNested(ctx: JsContext): void {
  if (!ctx.frames.some((f) => f.fn)) return;
  (ctx.nested ??= new Set()).add(ctx.facts.symbols[ctx.facts.symbols.length - 1]);
}

/**
 * `module.exports = function legacy() {…}`: no definition of its own, but calls inside belong to it.
 * `export default memo(function Card() {…})`: the module's default export, a component.
 */
function jsNamedExpression(node: Node, ctx: JsContext): Frame | undefined {
  if (node.parent?.type === 'variable_declarator') return undefined;
  const name = node.childForFieldName('name')?.text;
  if (!name) return undefined;
  const call = node.parent?.type === 'arguments' ? node.parent.parent : null;
  if (isComponentWrapper(call) && call?.parent?.type === 'export_statement') {
    const definition = addSymbol(ctx, node, name, 'component', 2, jsDeprecated(call), namespacePath(ctx));
    return { depth: ctx.depth, fn: name, definition };
  }
  return { depth: ctx.depth, fn: name };
}

function jsFunction(node: Node, ctx: JsContext): Frame | undefined {
  const name = node.childForFieldName('name')?.text;
  if (!name) return undefined;
  const nested = ctx.frames.some((f) => f.fn);
  const definition = addSymbol(ctx, node, name, 'function', nested ? 0 : jsExportFlag(node), jsDeprecated(node), namespacePath(ctx));
  const returns = tsReturnType(node);
  if (returns) definition.returns = returns;
  markNested(ctx);
  return { depth: ctx.depth, fn: name, definition, locals: tsParamTypes(node) };
}

function jsClass(node: Node, ctx: JsContext): Frame | undefined {
  const name = node.childForFieldName('name')?.text;
  if (!name) return undefined;
  const exported = jsExportFlag(node);
  const symbol = addSymbol(ctx, node, name, extendsReactComponent(node) ? 'component' : 'class', exported, jsDeprecated(node));
  const supers = classSupers(node);
  if (supers.length) symbol.supers = supers;
  markNested(ctx);
  return { depth: ctx.depth, container: name, containerExported: exported > 0, containerKind: 'class', locals: classFieldTypes(node) };
}

/** Most base names kept for one class or interface. */
const MAX_SUPERS = 16;

/**
 * What a class extends and implements, by last name: `extends ns.Base<T> implements I, J<X>` gives
 * Base, I, J. A JavaScript mixin call (`extends Mixin(Base)`) gives the classes passed to it.
 */
function classSupers(node: Node): string[] {
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
function typeNames(clause: Node): string[] {
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

function jsMemberExported(node: Node, owner: Frame, name: string): ExportFlag {
  if (!owner.containerExported || name.startsWith('#')) return 0;
  const access = node.namedChildren.find((c) => c?.type === 'accessibility_modifier')?.text;
  return access === 'private' || access === 'protected' ? 0 : 1;
}

function jsMethod(node: Node, ctx: JsContext): Frame | undefined {
  const name = node.childForFieldName('name')?.text;
  if (!name) return undefined;
  const owner = currentContainer(ctx);
  if (!owner) return { depth: ctx.depth, fn: name, locals: tsParamTypes(node) }; // object literal method: calls still get a name
  const method = addSymbol(ctx, node, name, 'method', jsMemberExported(node, owner, name), jsDeprecated(node), owner.container);
  const returns = tsReturnType(node, owner.container);
  if (returns) method.returns = returns;
  return { depth: ctx.depth, fn: name, locals: tsParamTypes(node) };
}

function jsFieldFunction(node: Node, ctx: JsContext): Frame | undefined {
  const value = node.childForFieldName('value');
  if (!value || !JS_FUNCTION_VALUES.has(value.type)) return undefined;
  const name = (node.childForFieldName('name') ?? node.childForFieldName('property'))?.text;
  const owner = currentContainer(ctx);
  if (!name || !owner) return undefined;
  addSymbol(ctx, node, name, 'method', jsMemberExported(node, owner, name), jsDeprecated(node), owner.container);
  return { depth: ctx.depth, fn: name, locals: tsParamTypes(value) };
}

/** `export { a }` may come before or after `a` is defined: mark the definitions once everything is seen. */
function applyLateExports(ctx: JsContext): void {
  if (!ctx.lateExports) return;
  for (const s of ctx.facts.symbols) {
    const flag = ctx.lateExports.get(s.name);
    if (flag && !s.container && flag > s.exported && !ctx.nested?.has(s)) s.exported = flag;
  }
}

export const javascriptRules: ExtractionRules<JsContext> = { visitors: jsVisitors, finish: applyLateExports };
