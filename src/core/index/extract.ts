import type { Language, Node, Tree } from '@vscode/tree-sitter-wasm';
import { familyOf, type LangId } from './languages';

export type SymbolKind = 'function' | 'method' | 'class' | 'interface';

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
}

export interface CallFact {
  /** The called name: `foo` in `foo()`, `obj.foo()`, `new foo()`, `pkg::foo()`. */
  name: string;
  /** What the name was reached through (`obj` in `obj.foo()`); '()' for a computed receiver. */
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
}

interface Frame {
  depth: number;
  /** A named function or method: calls inside are attributed to it. */
  fn?: string;
  /** A class-like container for the methods inside. */
  container?: string;
  containerExported?: boolean;
  containerKind?: 'class' | 'interface';
  /** A TypeScript namespace (`namespace A.B {}`): its functions are reached as `A.B.f()`. */
  namespace?: string;
}

/** The dotted namespace path around here, when definitions are directly inside TypeScript namespaces. */
function namespacePath(ctx: Ctx): string | undefined {
  const parts: string[] = [];
  for (const f of ctx.frames) {
    if (f.namespace) parts.push(f.namespace);
    else if (f.fn || f.container) return undefined;
  }
  return parts.length ? parts.join('.') : undefined;
}

interface Ctx {
  facts: FileFacts;
  frames: Frame[];
  depth: number;
}

type Visitor = (node: Node, ctx: Ctx) => Frame | undefined;

const QUALIFIER_TEXT = /^[\w$.:#]{1,120}$/;

function qualifierOf(node: Node | null): string | undefined {
  if (!node) return undefined;
  const text = node.text;
  return QUALIFIER_TEXT.test(text) ? text : '()';
}

function line(node: Node): number {
  return node.startPosition.row + 1;
}

function enclosing(ctx: Ctx): string | undefined {
  for (let i = ctx.frames.length - 1; i >= 0; i--) {
    const fn = ctx.frames[i].fn;
    if (fn) return fn;
  }
  return undefined;
}

function currentContainer(ctx: Ctx): Frame | undefined {
  for (let i = ctx.frames.length - 1; i >= 0; i--) {
    const f = ctx.frames[i];
    if (f.container) return f;
    // A function between the class and here means a nested helper, not a method.
    if (f.fn) return undefined;
  }
  return undefined;
}

function addCall(ctx: Ctx, nameNode: Node | null, qualifier?: string): void {
  if (!nameNode) return;
  const name = nameNode.text;
  if (!name || name.length > 200) return;
  ctx.facts.calls.push({
    name,
    qualifier,
    line: nameNode.startPosition.row + 1,
    column: nameNode.startPosition.column + 1,
    enclosing: enclosing(ctx),
  });
}

function addSymbol(ctx: Ctx, node: Node, name: string, kind: SymbolKind, exported: ExportFlag, deprecated: boolean, container?: string): void {
  ctx.facts.symbols.push({
    name,
    kind,
    startLine: line(node),
    endLine: node.endPosition.row + 1,
    container,
    exported,
    deprecated,
  });
}

/** The comments (and attributes) directly above a node, nearest first. */
function leadingSiblings(node: Node, types: ReadonlySet<string>, max = 8): Node[] {
  const out: Node[] = [];
  let prev = node.previousNamedSibling;
  let expectedRow = node.startPosition.row;
  while (prev && out.length < max && types.has(prev.type) && prev.endPosition.row >= expectedRow - 1) {
    out.push(prev);
    expectedRow = prev.startPosition.row;
    prev = prev.previousNamedSibling;
  }
  return out;
}

const COMMENT = new Set(['comment', 'line_comment', 'block_comment']);

function stringContent(node: Node | null): string | undefined {
  if (!node) return undefined;
  const t = node.text;
  const m = /^(['"`])(.*)\1$/s.exec(t);
  return m ? m[2] : t;
}

// ---------------------------------------------------------------- JavaScript / TypeScript

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

const jsVisitors: Record<string, Visitor> = {
  function_declaration: jsFunction,
  generator_function_declaration: jsFunction,
  function_signature: jsFunction,
  class_declaration: jsClass,
  abstract_class_declaration: jsClass,
  interface_declaration(node, ctx) {
    const name = node.childForFieldName('name')?.text;
    if (!name) return undefined;
    const exported = jsExportFlag(node);
    addSymbol(ctx, node, name, 'interface', exported, jsDeprecated(node));
    return { depth: ctx.depth, container: name, containerExported: exported > 0, containerKind: 'interface' };
  },
  method_definition: jsMethod,
  method_signature: jsMethod,
  abstract_method_signature: jsMethod,
  public_field_definition: jsFieldFunction,
  field_definition: jsFieldFunction,
  variable_declarator(node, ctx) {
    const value = node.childForFieldName('value');
    const nameNode = node.childForFieldName('name');
    if (!value || nameNode?.type !== 'identifier' || !JS_FUNCTION_VALUES.has(value.type)) return undefined;
    const name = nameNode.text;
    const exported = ctx.frames.some((f) => f.fn) ? 0 : jsExportFlag(node);
    addSymbol(ctx, node, name, 'function', exported, jsDeprecated(node), namespacePath(ctx));
    markNested(ctx);
    return { depth: ctx.depth, fn: name };
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
      if (arg?.type === 'string') ctx.facts.imports.push({ spec: stringContent(arg) ?? '', names: [], line: line(node) });
      return undefined;
    }
    if (fn.type === 'identifier') {
      if (fn.text === 'require') {
        const arg = node.childForFieldName('arguments')?.namedChildren[0];
        if (arg?.type === 'string') {
          ctx.facts.imports.push({ spec: stringContent(arg) ?? '', names: jsRequireNames(node), line: line(node) });
          return undefined;
        }
      }
      addCall(ctx, fn);
    } else if (fn.type === 'member_expression') {
      addCall(ctx, fn.childForFieldName('property'), qualifierOf(fn.childForFieldName('object')));
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
    ctx.facts.imports.push({ spec, names, line: line(node) });
    return undefined;
  },
  import_require_clause(node, ctx) {
    // `import x = require('y')` nested inside an import_statement is handled there.
    if (node.parent?.type === 'import_statement') return undefined;
    const source = node.childForFieldName('source');
    const id = node.namedChildren.find((c) => c?.type === 'identifier');
    if (source) ctx.facts.imports.push({ spec: stringContent(source) ?? '', names: id ? [{ name: '*', local: id.text }] : [], line: line(node) });
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
      ctx.facts.imports.push({ spec: stringContent(source) ?? '', names, line: line(node) });
      return undefined;
    }
    // `export { a, b as c }` and `export default a;` export declarations found elsewhere in the file.
    const pending = (ctx as JsCtx).lateExports ?? ((ctx as JsCtx).lateExports = new Map());
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
      if (aliases.length) ctx.facts.imports.push({ spec: '', names: aliases, line: line(node) });
    }
    const value = node.childForFieldName('value');
    if (value?.type === 'identifier') pending.set(value.text, 2);
    return undefined;
  },
};

interface JsCtx extends Ctx {
  lateExports?: Map<string, ExportFlag>;
  /** Definitions inside functions: `export { x }` at the end of a file never names them. */
  nested?: Set<SymbolFact>;
}

function markNested(ctx: Ctx): void {
  if (!ctx.frames.some((f) => f.fn)) return;
  const js = ctx as JsCtx;
  (js.nested ??= new Set()).add(ctx.facts.symbols[ctx.facts.symbols.length - 1]);
}

/** `module.exports = function legacy() {…}`: no definition of its own, but calls inside belong to it. */
function jsNamedExpression(node: Node, ctx: Ctx): Frame | undefined {
  if (node.parent?.type === 'variable_declarator') return undefined;
  const name = node.childForFieldName('name')?.text;
  return name ? { depth: ctx.depth, fn: name } : undefined;
}

function jsFunction(node: Node, ctx: Ctx): Frame | undefined {
  const name = node.childForFieldName('name')?.text;
  if (!name) return undefined;
  const nested = ctx.frames.some((f) => f.fn);
  addSymbol(ctx, node, name, 'function', nested ? 0 : jsExportFlag(node), jsDeprecated(node), namespacePath(ctx));
  markNested(ctx);
  return { depth: ctx.depth, fn: name };
}

function jsClass(node: Node, ctx: Ctx): Frame | undefined {
  const name = node.childForFieldName('name')?.text;
  if (!name) return undefined;
  const exported = jsExportFlag(node);
  addSymbol(ctx, node, name, 'class', exported, jsDeprecated(node));
  markNested(ctx);
  return { depth: ctx.depth, container: name, containerExported: exported > 0, containerKind: 'class' };
}

function jsMemberExported(node: Node, owner: Frame, name: string): ExportFlag {
  if (!owner.containerExported || name.startsWith('#')) return 0;
  const access = node.namedChildren.find((c) => c?.type === 'accessibility_modifier')?.text;
  return access === 'private' || access === 'protected' ? 0 : 1;
}

function jsMethod(node: Node, ctx: Ctx): Frame | undefined {
  const name = node.childForFieldName('name')?.text;
  if (!name) return undefined;
  const owner = currentContainer(ctx);
  if (!owner) return { depth: ctx.depth, fn: name }; // object literal method: calls still get a name
  addSymbol(ctx, node, name, 'method', jsMemberExported(node, owner, name), jsDeprecated(node), owner.container);
  return { depth: ctx.depth, fn: name };
}

function jsFieldFunction(node: Node, ctx: Ctx): Frame | undefined {
  const value = node.childForFieldName('value');
  if (!value || !JS_FUNCTION_VALUES.has(value.type)) return undefined;
  const name = (node.childForFieldName('name') ?? node.childForFieldName('property'))?.text;
  const owner = currentContainer(ctx);
  if (!name || !owner) return undefined;
  addSymbol(ctx, node, name, 'method', jsMemberExported(node, owner, name), jsDeprecated(node), owner.container);
  return { depth: ctx.depth, fn: name };
}

// ---------------------------------------------------------------- Python

function pyDeprecated(node: Node): boolean {
  const decorated = node.parent?.type === 'decorated_definition' ? node.parent : undefined;
  if (decorated?.namedChildren.some((c) => c?.type === 'decorator' && /deprecat/i.test(c.text))) return true;
  const body = node.childForFieldName('body');
  if (!body) return false;
  const first = body.namedChildren[0];
  if (first?.type === 'expression_statement' && first.namedChildren[0]?.type === 'string' && /deprecated/i.test(first.text)) return true;
  for (const stmt of body.namedChildren.slice(0, 3)) if (stmt && /\bwarn\(/.test(stmt.text) && /DeprecationWarning/.test(stmt.text)) return true;
  return false;
}

function pyDefinitionNode(node: Node): Node {
  return node.parent?.type === 'decorated_definition' ? node.parent : node;
}

function pyImportName(node: Node): ImportName | undefined {
  if (node.type === 'dotted_name') return { name: node.text, local: node.text };
  if (node.type === 'aliased_import') {
    const name = node.childForFieldName('name')?.text;
    const alias = node.childForFieldName('alias')?.text;
    return name ? { name, local: alias ?? name } : undefined;
  }
  return undefined;
}

const pyVisitors: Record<string, Visitor> = {
  function_definition(node, ctx) {
    const name = node.childForFieldName('name')?.text;
    if (!name) return undefined;
    const owner = currentContainer(ctx);
    const nested = !owner && ctx.frames.some((f) => f.fn);
    const exported: ExportFlag = nested || name.startsWith('_') || (owner && !owner.containerExported) ? 0 : 1;
    const def = pyDefinitionNode(node);
    ctx.facts.symbols.push({
      name,
      kind: owner ? 'method' : 'function',
      startLine: line(def),
      endLine: def.endPosition.row + 1,
      container: owner?.container,
      exported: exported || (owner && /^__\w+__$/.test(name) && owner.containerExported ? 1 : 0),
      deprecated: pyDeprecated(node),
    });
    return { depth: ctx.depth, fn: name };
  },
  class_definition(node, ctx) {
    const name = node.childForFieldName('name')?.text;
    if (!name) return undefined;
    const exported = !name.startsWith('_') && !ctx.frames.some((f) => f.fn);
    const def = pyDefinitionNode(node);
    ctx.facts.symbols.push({ name, kind: 'class', startLine: line(def), endLine: def.endPosition.row + 1, exported: exported ? 1 : 0, deprecated: pyDeprecated(node) });
    return { depth: ctx.depth, container: name, containerExported: exported, containerKind: 'class' };
  },
  call(node, ctx) {
    const fn = node.childForFieldName('function');
    if (fn?.type === 'identifier') addCall(ctx, fn);
    else if (fn?.type === 'attribute') addCall(ctx, fn.childForFieldName('attribute'), qualifierOf(fn.childForFieldName('object')));
    return undefined;
  },
  import_statement(node, ctx) {
    for (const c of node.namedChildren) {
      const n = c && pyImportName(c);
      // `import a.b` binds `a.b` as a module; calls look like `a.b.f()`.
      if (n) ctx.facts.imports.push({ spec: n.name, names: [{ name: '*', local: n.local }], line: line(node) });
    }
    return undefined;
  },
  import_from_statement(node, ctx) {
    const mod = node.childForFieldName('module_name');
    if (!mod) return undefined;
    const names: ImportName[] = [];
    for (const c of node.namedChildren) {
      if (!c || c.equals(mod)) continue;
      if (c.type === 'wildcard_import') names.push({ name: '*', local: '*' });
      else {
        const n = pyImportName(c);
        if (n) names.push(n);
      }
    }
    ctx.facts.imports.push({ spec: mod.text, names, line: line(node) });
    return undefined;
  },
};

// ---------------------------------------------------------------- Go

function goExported(name: string): ExportFlag {
  const ch = name.charCodeAt(0);
  return ch >= 65 && ch <= 90 ? 1 : 0;
}

function goDeprecated(node: Node): boolean {
  const anchor = node.type === 'type_spec' && node.parent?.type === 'type_declaration' ? node.parent : node;
  return leadingSiblings(anchor, COMMENT, 40).some((c) => /^\/\/\s*Deprecated:/m.test(c.text) || /^\s*Deprecated:/m.test(c.text));
}

function goReceiverType(node: Node): string | undefined {
  const recv = node.childForFieldName('receiver');
  const param = recv?.namedChildren.find((c) => c?.type === 'parameter_declaration');
  let t = param?.childForFieldName('type') ?? null;
  while (t && (t.type === 'pointer_type' || t.type === 'generic_type')) t = t.type === 'pointer_type' ? t.namedChildren[0] : t.childForFieldName('type');
  return t?.text;
}

const goVisitors: Record<string, Visitor> = {
  package_clause(node, ctx) {
    ctx.facts.pkg = node.namedChildren[0]?.text;
    return undefined;
  },
  function_declaration(node, ctx) {
    const name = node.childForFieldName('name')?.text;
    if (!name) return undefined;
    addSymbol(ctx, node, name, 'function', goExported(name), goDeprecated(node));
    return { depth: ctx.depth, fn: name };
  },
  method_declaration(node, ctx) {
    const name = node.childForFieldName('name')?.text;
    if (!name) return undefined;
    const recv = goReceiverType(node);
    addSymbol(ctx, node, name, 'method', recv && goExported(recv) ? goExported(name) : 0, goDeprecated(node), recv);
    return { depth: ctx.depth, fn: name };
  },
  type_spec(node, ctx) {
    const name = node.childForFieldName('name')?.text;
    const type = node.childForFieldName('type')?.type;
    if (!name || (type !== 'struct_type' && type !== 'interface_type')) return undefined;
    const kind = type === 'struct_type' ? 'class' : 'interface';
    addSymbol(ctx, node, name, kind, goExported(name), goDeprecated(node));
    return { depth: ctx.depth, container: name, containerExported: goExported(name) > 0, containerKind: kind };
  },
  method_elem(node, ctx) {
    const name = node.childForFieldName('name')?.text;
    const owner = currentContainer(ctx);
    if (name && owner) addSymbol(ctx, node, name, 'method', owner.containerExported ? goExported(name) : 0, goDeprecated(node), owner.container);
    return undefined;
  },
  call_expression(node, ctx) {
    let fn = node.childForFieldName('function');
    if (fn?.type === 'index_expression' || fn?.type === 'generic_type') fn = fn.namedChildren[0];
    if (fn?.type === 'identifier') addCall(ctx, fn);
    else if (fn?.type === 'selector_expression') addCall(ctx, fn.childForFieldName('field'), qualifierOf(fn.childForFieldName('operand')));
    return undefined;
  },
  import_spec(node, ctx) {
    const path = stringContent(node.childForFieldName('path'));
    if (!path) return undefined;
    const alias = node.childForFieldName('name');
    let names: ImportName[];
    if (alias?.type === 'dot') names = [{ name: '*', local: '*' }];
    else if (alias?.type === 'blank_identifier') names = [];
    else names = [{ name: '*', local: alias?.text ?? goPackageGuess(path) }];
    ctx.facts.imports.push({ spec: path, names, line: line(node) });
    return undefined;
  },
};

/** The package name Go code uses for an import path without an alias: its last element, minus a version suffix. */
function goPackageGuess(path: string): string {
  const parts = path.split('/');
  let last = parts[parts.length - 1];
  if (/^v\d+$/.test(last) && parts.length > 1) last = parts[parts.length - 2];
  return last.replace(/^go-/, '').replace(/[.-]go$/, '').replace(/[^\w]/g, '_');
}

// ---------------------------------------------------------------- Java

function javaModifiers(node: Node): Node | undefined {
  return node.namedChildren.find((c) => c?.type === 'modifiers') ?? undefined;
}

function javaDeprecated(node: Node): boolean {
  const mods = javaModifiers(node);
  if (mods?.namedChildren.some((c) => (c?.type === 'marker_annotation' || c?.type === 'annotation') && c.childForFieldName('name')?.text.replace(/^java\.lang\./, '') === 'Deprecated')) return true;
  return leadingSiblings(node, COMMENT, 2).some((c) => c.text.startsWith('/**') && c.text.includes('@deprecated'));
}

function javaPublic(node: Node, owner?: Frame): boolean {
  if (owner?.containerKind === 'interface') return owner.containerExported ?? false;
  const mods = javaModifiers(node);
  const pub = !!mods && /\bpublic\b/.test(mods.text);
  return owner ? pub && !!owner.containerExported : pub;
}

function javaType(node: Node, ctx: Ctx, kind: SymbolKind): Frame | undefined {
  const name = node.childForFieldName('name')?.text;
  if (!name) return undefined;
  const owner = currentContainer(ctx);
  const exported = javaPublic(node, owner);
  addSymbol(ctx, node, name, kind, exported ? 1 : 0, javaDeprecated(node), owner?.container);
  return { depth: ctx.depth, container: name, containerExported: exported, containerKind: kind === 'interface' ? 'interface' : 'class' };
}

function javaMethod(node: Node, ctx: Ctx): Frame | undefined {
  const name = node.childForFieldName('name')?.text;
  if (!name) return undefined;
  const owner = currentContainer(ctx);
  addSymbol(ctx, node, name, owner ? 'method' : 'function', javaPublic(node, owner) ? 1 : 0, javaDeprecated(node), owner?.container);
  return { depth: ctx.depth, fn: name };
}

function lastTypeIdentifier(node: Node | null): Node | null {
  let t = node;
  while (t && t.type !== 'type_identifier' && t.type !== 'identifier') {
    if (t.type === 'generic_type' || t.type === 'generic_name') t = t.namedChildren[0];
    else if (t.type === 'scoped_type_identifier' || t.type === 'qualified_name') t = t.namedChildren[t.namedChildren.length - 1];
    else return null;
  }
  return t;
}

const javaVisitors: Record<string, Visitor> = {
  package_declaration(node, ctx) {
    ctx.facts.pkg = node.namedChildren.find((c) => c?.type === 'scoped_identifier' || c?.type === 'identifier')?.text;
    return undefined;
  },
  class_declaration: (n, c) => javaType(n, c, 'class'),
  enum_declaration: (n, c) => javaType(n, c, 'class'),
  record_declaration: (n, c) => javaType(n, c, 'class'),
  interface_declaration: (n, c) => javaType(n, c, 'interface'),
  method_declaration: javaMethod,
  constructor_declaration: javaMethod,
  method_invocation(node, ctx) {
    const obj = node.childForFieldName('object');
    addCall(ctx, node.childForFieldName('name'), obj ? qualifierOf(obj) : undefined);
    return undefined;
  },
  object_creation_expression(node, ctx) {
    addCall(ctx, lastTypeIdentifier(node.childForFieldName('type')));
    return undefined;
  },
  import_declaration(node, ctx) {
    const m = /^import\s+(static\s+)?([\w.]+?)(\.\*)?\s*;/.exec(node.text);
    if (!m) return undefined;
    const [, , path, star] = m;
    if (star) ctx.facts.imports.push({ spec: path, names: [{ name: '*', local: '*' }], line: line(node) });
    else {
      const dot = path.lastIndexOf('.');
      const last = path.slice(dot + 1);
      // `import a.b.C` names the class C (found in a/b/C.java); `import static a.b.C.m` names m in C.
      ctx.facts.imports.push({ spec: path, names: [{ name: last, local: last }], line: line(node) });
    }
    return undefined;
  },
};

// ---------------------------------------------------------------- C#

function csDeprecated(node: Node): boolean {
  return node.namedChildren.some((c) => c?.type === 'attribute_list' && c.namedChildren.some((a) => a?.type === 'attribute' && /^(System\.)?Obsolete(Attribute)?$/.test(a.childForFieldName('name')?.text ?? '')));
}

function csPublic(node: Node, owner?: Frame): boolean {
  if (owner?.containerKind === 'interface') return owner.containerExported ?? false;
  const pub = node.namedChildren.some((c) => c?.type === 'modifier' && c.text === 'public');
  return owner ? pub && !!owner.containerExported : pub;
}

function csType(node: Node, ctx: Ctx, kind: SymbolKind): Frame | undefined {
  const name = node.childForFieldName('name')?.text;
  if (!name) return undefined;
  const owner = currentContainer(ctx);
  const exported = csPublic(node, owner);
  addSymbol(ctx, node, name, kind, exported ? 1 : 0, csDeprecated(node), owner?.container);
  return { depth: ctx.depth, container: name, containerExported: exported, containerKind: kind === 'interface' ? 'interface' : 'class' };
}

function csMethod(node: Node, ctx: Ctx): Frame | undefined {
  const name = node.childForFieldName('name')?.text;
  if (!name) return undefined;
  const owner = node.type === 'local_function_statement' ? undefined : currentContainer(ctx);
  addSymbol(ctx, node, name, owner ? 'method' : 'function', csPublic(node, owner) ? 1 : 0, csDeprecated(node), owner?.container);
  return { depth: ctx.depth, fn: name };
}

const csVisitors: Record<string, Visitor> = {
  namespace_declaration(node, ctx) {
    ctx.facts.pkg = node.childForFieldName('name')?.text;
    return undefined;
  },
  file_scoped_namespace_declaration(node, ctx) {
    ctx.facts.pkg = node.childForFieldName('name')?.text;
    return undefined;
  },
  class_declaration: (n, c) => csType(n, c, 'class'),
  struct_declaration: (n, c) => csType(n, c, 'class'),
  record_declaration: (n, c) => csType(n, c, 'class'),
  interface_declaration: (n, c) => csType(n, c, 'interface'),
  method_declaration: csMethod,
  constructor_declaration: csMethod,
  local_function_statement: csMethod,
  invocation_expression(node, ctx) {
    const fn = node.childForFieldName('function');
    if (!fn) return undefined;
    if (fn.type === 'member_access_expression') addCall(ctx, lastTypeIdentifier(fn.childForFieldName('name')), qualifierOf(fn.childForFieldName('expression')));
    else addCall(ctx, lastTypeIdentifier(fn));
    return undefined;
  },
  object_creation_expression(node, ctx) {
    addCall(ctx, lastTypeIdentifier(node.childForFieldName('type')));
    return undefined;
  },
  using_directive(node, ctx) {
    const m = /^(?:global\s+)?using\s+(static\s+)?(?:(\w+)\s*=\s*)?([\w.]+)\s*;/.exec(node.text);
    if (!m) return undefined;
    const [, , alias, path] = m;
    ctx.facts.imports.push({ spec: path, names: [{ name: '*', local: alias ?? '*' }], line: line(node) });
    return undefined;
  },
};

// ---------------------------------------------------------------- Rust

const RUST_LEADING = new Set(['attribute_item', 'line_comment', 'block_comment']);

function rustDeprecated(node: Node): boolean {
  return leadingSiblings(node, RUST_LEADING, 8).some((c) => c.type === 'attribute_item' && /^#\[\s*deprecated\b/.test(c.text));
}

function rustPublic(node: Node): ExportFlag {
  return node.namedChildren.some((c) => c?.type === 'visibility_modifier') ? 1 : 0;
}

function rustTypeName(node: Node | null): string | undefined {
  let t = node;
  while (t && t.type !== 'type_identifier') {
    if (t.type === 'generic_type') t = t.childForFieldName('type');
    else if (t.type === 'scoped_type_identifier') t = t.childForFieldName('name');
    else if (t.type === 'reference_type') t = t.childForFieldName('type');
    else return undefined;
  }
  return t?.text;
}

/** Flattens a `use` tree into (module path, name, local) triples. */
function rustUse(node: Node, prefix: string, out: { path: string; name: ImportName }[]): void {
  const join = (a: string, b: string) => (a ? `${a}::${b}` : b);
  switch (node.type) {
    case 'scoped_identifier': {
      const path = node.childForFieldName('path')?.text;
      const name = node.childForFieldName('name')?.text;
      if (name) out.push({ path: join(prefix, path ?? ''), name: { name, local: name } });
      break;
    }
    case 'identifier':
    case 'crate':
    case 'super':
      out.push({ path: prefix, name: { name: node.text, local: node.text } });
      break;
    case 'self':
      if (prefix) {
        const cut = prefix.lastIndexOf('::');
        const last = prefix.slice(cut + 2);
        out.push({ path: cut < 0 ? '' : prefix.slice(0, cut), name: { name: last, local: last } });
      }
      break;
    case 'use_as_clause': {
      const inner: { path: string; name: ImportName }[] = [];
      const p = node.childForFieldName('path');
      if (p) rustUse(p, prefix, inner);
      const alias = node.childForFieldName('alias')?.text;
      for (const i of inner) out.push({ path: i.path, name: { name: i.name.name, local: alias ?? i.name.local } });
      break;
    }
    case 'use_wildcard': {
      const p = node.namedChildren[0];
      out.push({ path: join(prefix, p?.text ?? ''), name: { name: '*', local: '*' } });
      break;
    }
    case 'scoped_use_list': {
      const p = node.childForFieldName('path')?.text ?? '';
      const list = node.childForFieldName('list');
      if (list) rustUse(list, join(prefix, p), out);
      break;
    }
    case 'use_list':
      for (const c of node.namedChildren) if (c) rustUse(c, prefix, out);
      break;
  }
}

const rustVisitors: Record<string, Visitor> = {
  function_item: rustFunction,
  function_signature_item: rustFunction,
  struct_item: (n, c) => rustType(n, c, 'class'),
  enum_item: (n, c) => rustType(n, c, 'class'),
  trait_item: (n, c) => rustType(n, c, 'interface'),
  impl_item(node, ctx) {
    const name = rustTypeName(node.childForFieldName('type'));
    return name ? { depth: ctx.depth, container: name, containerExported: true, containerKind: 'class' } : undefined;
  },
  call_expression(node, ctx) {
    let fn = node.childForFieldName('function');
    if (fn?.type === 'generic_function') fn = fn.childForFieldName('function');
    if (fn?.type === 'identifier') addCall(ctx, fn);
    else if (fn?.type === 'field_expression') addCall(ctx, fn.childForFieldName('field'), qualifierOf(fn.childForFieldName('value')));
    else if (fn?.type === 'scoped_identifier') addCall(ctx, fn.childForFieldName('name'), qualifierOf(fn.childForFieldName('path')));
    return undefined;
  },
  use_declaration(node, ctx) {
    const arg = node.childForFieldName('argument');
    if (!arg) return undefined;
    const flat: { path: string; name: ImportName }[] = [];
    rustUse(arg, '', flat);
    const byPath = new Map<string, ImportName[]>();
    for (const f of flat) {
      const list = byPath.get(f.path) ?? [];
      list.push(f.name);
      byPath.set(f.path, list);
    }
    for (const [spec, names] of byPath) ctx.facts.imports.push({ spec, names, line: line(node) });
    return undefined;
  },
  mod_item(node, ctx) {
    const name = node.childForFieldName('name')?.text;
    // `mod a;` pulls in a file; `mod a { … }` is inline.
    if (name && !node.childForFieldName('body')) ctx.facts.imports.push({ spec: `self::${name}`, names: [{ name: '*', local: name }], line: line(node) });
    return undefined;
  },
};

function rustFunction(node: Node, ctx: Ctx): Frame | undefined {
  const name = node.childForFieldName('name')?.text;
  if (!name) return undefined;
  const owner = currentContainer(ctx);
  addSymbol(ctx, node, name, owner ? 'method' : 'function', owner?.containerKind === 'interface' ? 1 : rustPublic(node), rustDeprecated(node), owner?.container);
  return { depth: ctx.depth, fn: name };
}

function rustType(node: Node, ctx: Ctx, kind: SymbolKind): Frame | undefined {
  const name = node.childForFieldName('name')?.text;
  if (!name) return undefined;
  addSymbol(ctx, node, name, kind, rustPublic(node), rustDeprecated(node));
  return kind === 'interface' ? { depth: ctx.depth, container: name, containerExported: rustPublic(node) > 0, containerKind: 'interface' } : undefined;
}

// ---------------------------------------------------------------- walk

const VISITORS: Record<ReturnType<typeof familyOf>, Record<string, Visitor>> = {
  js: jsVisitors,
  python: pyVisitors,
  go: goVisitors,
  java: javaVisitors,
  csharp: csVisitors,
  rust: rustVisitors,
};

const byLanguage = new WeakMap<Language, Visitor[]>();

/** Visitors indexed by node type id: the walk then reads one number per node instead of a string. */
function visitorsById(language: Language, family: ReturnType<typeof familyOf>): Visitor[] {
  let table = byLanguage.get(language);
  if (!table) {
    const named = VISITORS[family];
    table = language.types.map((type) => (Object.prototype.hasOwnProperty.call(named, type) ? named[type] : undefined)) as Visitor[];
    byLanguage.set(language, table);
  }
  return table;
}

/** Definitions, call sites and imports of one parsed file, by a single cursor walk over the tree. */
export function extractFacts(lang: LangId, tree: Tree): FileFacts {
  const visitors = visitorsById(tree.language, familyOf(lang));
  const ctx: JsCtx = { facts: { symbols: [], calls: [], imports: [] }, frames: [], depth: 0 };
  const cursor = tree.walk();
  try {
    for (;;) {
      while (ctx.frames.length && ctx.frames[ctx.frames.length - 1].depth >= ctx.depth) ctx.frames.pop();
      const visit = visitors[cursor.nodeTypeId];
      if (visit) {
        const frame = visit(cursor.currentNode, ctx);
        if (frame) ctx.frames.push(frame);
      }
      if (cursor.gotoFirstChild()) {
        ctx.depth++;
        continue;
      }
      let moved = false;
      while (!moved) {
        if (cursor.gotoNextSibling()) moved = true;
        else if (cursor.gotoParent()) ctx.depth--;
        else break;
      }
      if (!moved) break;
    }
  } finally {
    cursor.delete();
  }
  if (ctx.lateExports) {
    for (const s of ctx.facts.symbols) {
      const flag = ctx.lateExports.get(s.name);
      if (flag && !s.container && flag > s.exported && !ctx.nested?.has(s)) s.exported = flag;
    }
  }
  return ctx.facts;
}
