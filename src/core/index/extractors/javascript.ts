import type { Node } from '@vscode/tree-sitter-wasm';
import { TYPED_RECEIVER, type ExportFlag, type ImportName, type SymbolFact } from '../facts';
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
  type ExtractionRules,
  type Frame,
  type Visitor,
} from './context';
import { applyReturns, expectReturns, noteReturn, type ReturnScopes } from './jsReturns';
import { extendsReactComponent, isComponentWrapper, visitJsxElement } from './react';
import { classSupers, typeNames } from './tsSupers';
import {
  callbackParams,
  classFieldTypes,
  noteTypedParams,
  createdType,
  declareElements,
  declareLocal,
  hiddenNames,
  loopVariable,
  interfaceFieldTypes,
  namedType,
  receiverType,
  resultOf,
  storedFields,
  tsParamTypes,
  tsReturnType,
} from './tsTypes';

// JavaScript, TypeScript and TSX: functions, classes, methods, interfaces, type aliases, enums,
// React components and JSX elements, namespaces, ES imports, require() and re-exports.

interface JsContext extends ReturnScopes {
  /** `export { a, b as default }` seen in the file: applied to the definitions once the walk is done. */
  lateExports?: Map<string, ExportFlag>;
  /** Definitions inside functions: `export { x }` at the end of a file never names them. */
  nested?: Set<SymbolFact>;
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
    const fields = storedFields(interfaceFieldTypes(node));
    if (fields) symbol.fields = fields;
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
      // `let orm: MikroORM<D>;`, `const parser = new Parser()`: a variable whose type the declaration
      // says; `const qr = ds.createQueryRunner()`, `const user = await repo.findOne()`: whatever
      // that call returns (a promise's value).
      const made = value?.type === 'await_expression' ? value.namedChildren[0] : value;
      const type =
        namedType(node.childForFieldName('type')) ??
        createdType(value) ??
        (made?.type === 'call_expression' ? resultOf(made) : undefined);
      declareLocal(ctx, nameNode.text, type);
      declareElements(ctx, nameNode.text, node.childForFieldName('type'));
      return undefined;
    }
    const name = nameNode.text;
    const exported = ctx.frames.some((f) => f.fn) ? 0 : jsExportFlag(node);
    const definition = addSymbol(
      ctx,
      node,
      name,
      wrapped ? 'component' : 'function',
      exported,
      jsDeprecated(node),
      namespacePath(ctx),
    );
    markNested(ctx);
    const returns = wrapped ? undefined : tsReturnType(value);
    if (returns) definition.returns = returns;
    if (!wrapped) expectReturns(ctx, definition, value);
    return {
      depth: ctx.depth,
      fn: name,
      definition,
      locals: tsParamTypes(value),
      ownThis: value.type !== 'arrow_function',
    };
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
  for_in_statement: (node, ctx) => ({ depth: ctx.depth, locals: loopVariable(ctx, node) }),
  // A callback's parameters hide the names around it; `this` stays the one around it.
  arrow_function: (node, ctx) =>
    node.parent?.type === 'variable_declarator'
      ? undefined
      : { depth: ctx.depth, locals: callbackParams(ctx, node), ownScope: true },
  catch_clause: (node, ctx) => ({ depth: ctx.depth, locals: hiddenNames(node.childForFieldName('parameter')) }),
  class: (_node, ctx) => ({ depth: ctx.depth, ownThis: true }),
  return_statement(node, ctx) {
    noteReturn(ctx, node);
    return undefined;
  },
  call_expression(node, ctx) {
    const fn = node.childForFieldName('function');
    if (!fn) return undefined;
    if (fn.type === 'import') {
      const arg = node.childForFieldName('arguments')?.namedChildren[0];
      if (arg?.type === 'string')
        ctx.facts.imports.push({ spec: stringContent(arg) ?? '', names: [], line: startLine(node) });
      return undefined;
    }
    if (fn.type === 'identifier') {
      if (fn.text === 'require') {
        const arg = node.childForFieldName('arguments')?.namedChildren[0];
        if (arg?.type === 'string') {
          ctx.facts.imports.push({
            spec: stringContent(arg) ?? '',
            names: jsRequireNames(node),
            line: startLine(node),
          });
          return undefined;
        }
      }
      // A parameter or variable of a function around (`({ status }) => status(201)`) is what is called,
      // not the workspace's definition of that name.
      if (ctx.frames.some((f) => !f.container && f.locals?.has(fn.text))) return undefined;
      addCall(ctx, fn);
    } else if (fn.type === 'member_expression') {
      const object = fn.childForFieldName('object');
      const typed = object ? receiverType(ctx, object) : undefined;
      addCall(ctx, fn.childForFieldName('property'), typed ? `${TYPED_RECEIVER}${typed}` : qualifierOf(object));
    }
    return undefined;
  },
  new_expression(node, ctx) {
    const c = node.childForFieldName('constructor');
    if (c?.type === 'identifier') addCall(ctx, c);
    else if (c?.type === 'member_expression')
      addCall(ctx, c.childForFieldName('property'), qualifierOf(c.childForFieldName('object')));
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
    if (source)
      ctx.facts.imports.push({
        spec: stringContent(source) ?? '',
        names: id ? [{ name: '*', local: id.text }] : [],
        line: startLine(node),
      });
    return undefined;
  },
  // eslint-disable-next-line complexity -- one case per form of export statement
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
  addSymbol(
    ctx,
    node,
    name,
    kind,
    ctx.frames.some((f) => f.fn) ? 0 : jsExportFlag(node),
    jsDeprecated(node),
    namespacePath(ctx),
  );
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
  // An anonymous function (a callback): its parameters are its own, and so is its `this`.
  if (!name) return { depth: ctx.depth, locals: callbackParams(ctx, node), ownThis: true, ownScope: true };
  const call = node.parent?.type === 'arguments' ? node.parent.parent : null;
  if (isComponentWrapper(call) && call?.parent?.type === 'export_statement') {
    const definition = addSymbol(ctx, node, name, 'component', 2, jsDeprecated(call), namespacePath(ctx));
    return { depth: ctx.depth, fn: name, definition, ownThis: true };
  }
  return { depth: ctx.depth, fn: name, locals: tsParamTypes(node), ownThis: true };
}

function jsFunction(node: Node, ctx: JsContext): Frame | undefined {
  const name = node.childForFieldName('name')?.text;
  if (!name) return undefined;
  const nested = ctx.frames.some((f) => f.fn);
  const definition = addSymbol(
    ctx,
    node,
    name,
    'function',
    nested ? 0 : jsExportFlag(node),
    jsDeprecated(node),
    namespacePath(ctx),
  );
  const returns = tsReturnType(node);
  if (returns) definition.returns = returns;
  expectReturns(ctx, definition, node);
  markNested(ctx);
  return { depth: ctx.depth, fn: name, definition, locals: tsParamTypes(node), ownThis: true };
}

function jsClass(node: Node, ctx: JsContext): Frame | undefined {
  const name = node.childForFieldName('name')?.text;
  if (!name) return undefined;
  const exported = jsExportFlag(node);
  const symbol = addSymbol(
    ctx,
    node,
    name,
    extendsReactComponent(node) ? 'component' : 'class',
    exported,
    jsDeprecated(node),
  );
  const supers = classSupers(node);
  if (supers.length) symbol.supers = supers;
  const locals = classFieldTypes(node);
  const fields = storedFields(locals);
  if (fields) symbol.fields = fields;
  markNested(ctx);
  return { depth: ctx.depth, container: name, containerExported: exported > 0, containerKind: 'class', locals };
}

function jsMemberExported(node: Node, owner: Frame, name: string): ExportFlag {
  if (!owner.containerExported || name.startsWith('#')) return 0;
  const access = node.namedChildren.find((c) => c?.type === 'accessibility_modifier')?.text;
  return access === 'private' || access === 'protected' ? 0 : 1;
}

function jsMethod(node: Node, ctx: JsContext): Frame | undefined {
  const name = node.childForFieldName('name')?.text;
  if (!name) return undefined;
  // An object literal's method (also one in a class field's initializer) is no method of the class.
  const owner = node.parent?.type === 'object' ? undefined : currentContainer(ctx);
  if (!owner) return { depth: ctx.depth, fn: name, locals: tsParamTypes(node), ownThis: true }; // object literal method: calls still get a name
  return jsMemberFunction(ctx, node, node, owner, name);
}

function jsFieldFunction(node: Node, ctx: JsContext): Frame | undefined {
  const value = node.childForFieldName('value');
  if (!value || !JS_FUNCTION_VALUES.has(value.type)) return undefined;
  const name = (node.childForFieldName('name') ?? node.childForFieldName('property'))?.text;
  const owner = currentContainer(ctx);
  if (!name || !owner) return undefined;
  return jsMemberFunction(ctx, node, value, owner, name);
}

/** A class member that is a function (`fn`: the method itself, or the arrow function a field holds). */
function jsMemberFunction(ctx: JsContext, node: Node, fn: Node, owner: Frame, name: string): Frame {
  const method = addSymbol(
    ctx,
    node,
    name,
    'method',
    jsMemberExported(node, owner, name),
    jsDeprecated(node),
    owner.container,
  );
  const returns = tsReturnType(fn, owner.container);
  if (returns) method.returns = returns;
  expectReturns(ctx, method, fn, isStatic(node) ? undefined : owner.container);
  return { depth: ctx.depth, fn: name, definition: method, locals: tsParamTypes(fn) };
}

/** A static member: its `this` is the class itself, not an instance. */
function isStatic(node: Node): boolean {
  return node.children.some((c) => c?.type === 'static');
}

/** `export { a }` may come before or after `a` is defined: mark the definitions once everything is seen. */
function applyLateExports(ctx: JsContext): void {
  if (!ctx.lateExports) return;
  for (const s of ctx.facts.symbols) {
    const flag = ctx.lateExports.get(s.name);
    if (flag && !s.container && flag > s.exported && !ctx.nested?.has(s)) s.exported = flag;
  }
}

/** A function's typed parameters are noted for the workspace's view of what each name usually is. */
function notingParams(visit: Visitor<JsContext>): Visitor<JsContext> {
  return (node, ctx) => {
    const frame = visit(node, ctx);
    if (frame?.locals && !frame.container) noteTypedParams(ctx, frame.locals, node);
    return frame;
  };
}

export const javascriptRules: ExtractionRules<JsContext> = {
  visitors: Object.fromEntries(Object.entries(jsVisitors).map(([type, visit]) => [type, notingParams(visit)])),
  finish: (ctx) => {
    applyLateExports(ctx);
    applyReturns(ctx);
  },
};
