import type { Node } from '@vscode/tree-sitter-wasm';
import { FIELD_OF, RESULT_OF, TYPED_RECEIVER, type ExportFlag, type ImportName } from '../facts';
import {
  addCall,
  addSymbol,
  COMMENT,
  currentContainer,
  leadingSiblings,
  localType,
  qualifierOf,
  startLine,
  stringContent,
} from './context';
import type { ExtractionContext, ExtractionRules, Visitor } from './context';

// Go: functions, methods by receiver type, structs, interfaces and other named types, "Deprecated:" comments, package imports.

function goExported(name: string): ExportFlag {
  const ch = name.charCodeAt(0);
  return ch >= 65 && ch <= 90 ? 1 : 0;
}

function goDeprecated(node: Node): boolean {
  const anchor =
    (node.type === 'type_spec' || node.type === 'type_alias') && node.parent?.type === 'type_declaration'
      ? node.parent
      : node;
  // Within one line only: `\s*` at every line start would rescan runs of blank lines again and again.
  return leadingSiblings(anchor, COMMENT, 40).some((c) => /^(?:\/\/)?[ \t]*Deprecated:/m.test(c.text));
}

function goReceiverType(node: Node): string | undefined {
  const recv = node.childForFieldName('receiver');
  const param = recv?.namedChildren.find((c) => c?.type === 'parameter_declaration');
  let t = param?.childForFieldName('type') ?? null;
  while (t && (t.type === 'pointer_type' || t.type === 'generic_type'))
    t = t.type === 'pointer_type' ? t.namedChildren[0] : t.childForFieldName('type');
  return t?.text;
}

/** A named type (`T`, `pkg.T`) behind pointers and type arguments; undefined for slices, maps, funcs. */
function namedType(t: Node | null): string | undefined {
  while (t && (t.type === 'pointer_type' || t.type === 'generic_type' || t.type === 'parenthesized_type'))
    t = t.type === 'generic_type' ? t.childForFieldName('type') : t.namedChildren[0];
  return t && (t.type === 'type_identifier' || t.type === 'qualified_type') && t.endIndex - t.startIndex <= 120
    ? t.text
    : undefined;
}

/**
 * The type a value's expression says: `T{}`, `&T{}`, `new(T)`, `x.(*T)`; for a call `f()`, `pkg.F()`
 * or `x.m()`, RESULT_OF and the called name (its definition says the type); undefined for anything else.
 */
function typeOfValue(e: Node | null): string | undefined {
  if (e?.type === 'unary_expression' && e.childForFieldName('operator')?.text === '&')
    e = e.childForFieldName('operand');
  if (!e) return undefined;
  if (e.type === 'composite_literal') return namedType(e.childForFieldName('type'));
  if (e.type === 'type_assertion_expression') return namedType(e.childForFieldName('type'));
  if (e.type === 'parenthesized_expression') return typeOfValue(e.namedChildren[0] ?? null);
  if (e.type !== 'call_expression') return undefined;
  let fn = e.childForFieldName('function');
  if (fn?.type === 'index_expression' || fn?.type === 'generic_type') fn = fn.namedChildren[0];
  if (fn?.type === 'identifier')
    return fn.text === 'new'
      ? namedType(e.childForFieldName('arguments')?.namedChildren[0] ?? null)
      : `${RESULT_OF}${fn.text}`;
  const called = fn?.type === 'selector_expression' ? fn.childForFieldName('field')?.text : undefined;
  return called ? `${RESULT_OF}${called}` : undefined;
}

/** The named type of a function's first result: `*Route` in `func f() *Route` or `func f() (*Route, error)`. */
function resultType(node: Node): string | undefined {
  const result = node.childForFieldName('result');
  if (result?.type !== 'parameter_list') return namedType(result);
  const first = result.namedChildren.find((c) => c?.type === 'parameter_declaration');
  return first ? namedType(first.childForFieldName('type')) : undefined;
}

/** Records that `name` has `type` ('' for unknown) in this scope; a second, different declaration makes it unknown. */
function declare(locals: Map<string, string>, name: string, type: string | undefined): void {
  if (name === '_') return;
  const prev = locals.get(name);
  locals.set(name, prev === undefined || prev === (type ?? '') ? (type ?? '') : '');
}

/** The parameters' (and the receiver's) declared types. */
function paramTypes(node: Node): Map<string, string> {
  const locals = new Map<string, string>();
  for (const field of ['receiver', 'parameters']) {
    for (const p of node.childForFieldName(field)?.namedChildren ?? []) {
      if (p?.type !== 'parameter_declaration' && p?.type !== 'variadic_parameter_declaration') continue;
      const type = p.type === 'parameter_declaration' ? namedType(p.childForFieldName('type')) : undefined;
      for (const n of p.childrenForFieldName('name')) if (n) declare(locals, n.text, type);
    }
  }
  return locals;
}

/** The scope that declares variables here: the innermost function's. */
function scopeOf(ctx: ExtractionContext): Map<string, string> | undefined {
  for (let i = ctx.frames.length - 1; i >= 0; i--) if (ctx.frames[i].locals) return ctx.frames[i].locals;
  return undefined;
}

/** Most fields kept per struct. */
const MAX_FIELDS = 256;
/** Most fields followed from a typed value: `n.a.b.c.d`. */
const MAX_CHAIN = 4;

/** A struct's fields with a named type (`lines *text.Segments` gives lines: text.Segments; an embedded `*Base`, Base: Base). */
function structFields(struct: Node | null): Record<string, string> | undefined {
  let out: Record<string, string> | undefined;
  const list = struct?.namedChildren.find((c) => c?.type === 'field_declaration_list');
  for (const f of list?.namedChildren ?? []) {
    if (f?.type !== 'field_declaration') continue;
    const type = namedType(f.childForFieldName('type'));
    if (!type) continue;
    const names = f.childrenForFieldName('name').map((n) => n?.text);
    // An embedded field is named by its type: `n.Embedded.M()`.
    if (!names.length) names.push(type.slice(type.lastIndexOf('.') + 1));
    for (const n of names) {
      if (!n || (out && Object.keys(out).length >= MAX_FIELDS)) continue;
      // No prototype: a field may be called `__proto__`.
      (out ??= Object.create(null) as Record<string, string>)[n] = type;
    }
  }
  return out;
}

/** `v.f`, `v.a.b` where `v`'s type is known: FIELD_OF, that type and the fields, for the index to follow. */
function fieldChain(ctx: ExtractionContext, node: Node, depth: number): string | undefined {
  const operand = node.childForFieldName('operand');
  const field = node.childForFieldName('field');
  if (!operand || field?.type !== 'field_identifier' || depth >= MAX_CHAIN) return undefined;
  const owner =
    operand.type === 'identifier'
      ? localType(ctx, operand.text)
      : operand.type === 'selector_expression'
        ? fieldChain(ctx, operand, depth + 1)
        : undefined;
  if (!owner || owner.startsWith(RESULT_OF)) return undefined;
  // A type of another package keeps its package's name: `text/Segments`.
  return owner.startsWith(FIELD_OF) ? `${owner}.${field.text}` : `${FIELD_OF}${owner.replace('.', '/')}.${field.text}`;
}

/** A value's type as `typeOfValue` reads it, or a field of a typed value (`x := n.next`). */
function valueType(ctx: ExtractionContext, e: Node | null): string | undefined {
  return e?.type === 'selector_expression' ? fieldChain(ctx, e, 0) : typeOfValue(e);
}

const goVisitors: Record<string, Visitor> = {
  package_clause(node, ctx) {
    ctx.facts.pkg = node.namedChildren[0]?.text;
    return undefined;
  },
  function_declaration(node, ctx) {
    const name = node.childForFieldName('name')?.text;
    if (!name) return undefined;
    addSymbol(ctx, node, name, 'function', goExported(name), goDeprecated(node)).returns = resultType(node);
    return { depth: ctx.depth, fn: name, locals: paramTypes(node) };
  },
  method_declaration(node, ctx) {
    const name = node.childForFieldName('name')?.text;
    if (!name) return undefined;
    const recv = goReceiverType(node);
    addSymbol(
      ctx,
      node,
      name,
      'method',
      recv && goExported(recv) ? goExported(name) : 0,
      goDeprecated(node),
      recv,
    ).returns = resultType(node);
    return { depth: ctx.depth, fn: name, locals: paramTypes(node) };
  },
  func_literal(node, ctx) {
    return { depth: ctx.depth, locals: paramTypes(node) };
  },
  var_spec(node, ctx) {
    const locals = scopeOf(ctx);
    if (!locals) return undefined;
    const declared = namedType(node.childForFieldName('type'));
    const values = node.childForFieldName('value')?.namedChildren ?? [];
    node
      .childrenForFieldName('name')
      .forEach(
        (n, i) =>
          n && declare(locals, n.text, node.childForFieldName('type') ? declared : valueType(ctx, values[i] ?? null)),
      );
    return undefined;
  },
  short_var_declaration(node, ctx) {
    const locals = scopeOf(ctx);
    if (!locals) return undefined;
    const values = node.childForFieldName('right')?.namedChildren ?? [];
    const names = node.childForFieldName('left')?.namedChildren ?? [];
    // `r, err := NewRouter()` and `t, ok := x.(T)`: the first name gets the first result.
    const firstOnly = names.length > 1 && values.length === 1;
    names.forEach(
      (n, i) =>
        n?.type === 'identifier' &&
        declare(
          locals,
          n.text,
          names.length === values.length || (firstOnly && i === 0) ? valueType(ctx, values[i] ?? null) : undefined,
        ),
    );
    return undefined;
  },
  type_spec(node, ctx) {
    const name = node.childForFieldName('name')?.text;
    const type = node.childForFieldName('type')?.type;
    if (!name) return undefined;
    if (type !== 'struct_type' && type !== 'interface_type') {
      // `type Celsius float64`: a named type (its methods are found by receiver).
      addSymbol(ctx, node, name, 'type', goExported(name), goDeprecated(node));
      return undefined;
    }
    const kind = type === 'struct_type' ? 'class' : 'interface';
    const symbol = addSymbol(ctx, node, name, kind, goExported(name), goDeprecated(node));
    const fields = kind === 'class' ? structFields(node.childForFieldName('type')) : undefined;
    if (fields) symbol.fields = fields;
    return { depth: ctx.depth, container: name, containerExported: goExported(name) > 0, containerKind: kind };
  },
  type_alias(node, ctx) {
    const name = node.childForFieldName('name')?.text;
    if (name) addSymbol(ctx, node, name, 'type', goExported(name), goDeprecated(node));
    return undefined;
  },
  method_elem(node, ctx) {
    const name = node.childForFieldName('name')?.text;
    const owner = currentContainer(ctx);
    if (name && owner)
      addSymbol(
        ctx,
        node,
        name,
        'method',
        owner.containerExported ? goExported(name) : 0,
        goDeprecated(node),
        owner.container,
      );
    return undefined;
  },
  call_expression(node, ctx) {
    let fn = node.childForFieldName('function');
    if (fn?.type === 'index_expression' || fn?.type === 'generic_type') fn = fn.namedChildren[0];
    if (fn?.type === 'identifier') addCall(ctx, fn);
    else if (fn?.type === 'selector_expression') {
      const operand = fn.childForFieldName('operand');
      const typed =
        operand?.type === 'identifier'
          ? localType(ctx, operand.text)
          : operand?.type === 'selector_expression'
            ? fieldChain(ctx, operand, 0)
            : typeOfValue(operand);
      addCall(ctx, fn.childForFieldName('field'), typed ? `${TYPED_RECEIVER}${typed}` : qualifierOf(operand));
    }
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
    ctx.facts.imports.push({ spec: path, names, line: startLine(node) });
    return undefined;
  },
};

/** The package name Go code uses for an import path without an alias: its last element, minus a version suffix. */
function goPackageGuess(path: string): string {
  const parts = path.split('/');
  let last = parts[parts.length - 1];
  if (/^v\d+$/.test(last) && parts.length > 1) last = parts[parts.length - 2];
  return last
    .replace(/^go-/, '')
    .replace(/[.-]go$/, '')
    .replace(/[^\w]/g, '_');
}

export const goRules: ExtractionRules = { visitors: goVisitors };
