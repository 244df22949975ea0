import type { Node } from '@vscode/tree-sitter-wasm';
import type { ExportFlag, ImportName, SymbolKind } from '../facts';
import { addCall, addSymbol, currentContainer, leadingSiblings, qualifierOf, startLine } from './context';
import type { ExtractionContext, ExtractionRules, Frame, Visitor } from './context';

// Rust: functions, impl methods, structs, enums, traits and type aliases, #[deprecated], mod declarations and use trees.

const RUST_LEADING = new Set(['attribute_item', 'line_comment', 'block_comment']);

function rustDeprecated(node: Node): boolean {
  return leadingSiblings(node, RUST_LEADING, 8).some(
    (c) => c.type === 'attribute_item' && /^#\[\s*deprecated\b/.test(c.text),
  );
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
// eslint-disable-next-line complexity -- one case per form of use tree
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
  enum_item: (n, c) => rustType(n, c, 'enum'),
  type_item: (n, c) => rustType(n, c, 'type'),
  trait_item: (n, c) => rustType(n, c, 'interface'),
  impl_item(node, ctx) {
    const name = rustTypeName(node.childForFieldName('type'));
    return name ? { depth: ctx.depth, container: name, containerExported: true, containerKind: 'class' } : undefined;
  },
  call_expression(node, ctx) {
    let fn = node.childForFieldName('function');
    if (fn?.type === 'generic_function') fn = fn.childForFieldName('function');
    if (fn?.type === 'identifier') addCall(ctx, fn);
    else if (fn?.type === 'field_expression')
      addCall(ctx, fn.childForFieldName('field'), qualifierOf(fn.childForFieldName('value')));
    else if (fn?.type === 'scoped_identifier')
      addCall(ctx, fn.childForFieldName('name'), qualifierOf(fn.childForFieldName('path')));
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
    for (const [spec, names] of byPath) ctx.facts.imports.push({ spec, names, line: startLine(node) });
    return undefined;
  },
  mod_item(node, ctx) {
    const name = node.childForFieldName('name')?.text;
    // `mod a;` pulls in a file; `mod a { … }` is inline.
    if (name && !node.childForFieldName('body'))
      ctx.facts.imports.push({ spec: `self::${name}`, names: [{ name: '*', local: name }], line: startLine(node) });
    return undefined;
  },
};

function rustFunction(node: Node, ctx: ExtractionContext): Frame | undefined {
  const name = node.childForFieldName('name')?.text;
  if (!name) return undefined;
  const owner = currentContainer(ctx);
  addSymbol(
    ctx,
    node,
    name,
    owner ? 'method' : 'function',
    owner?.containerKind === 'interface' ? 1 : rustPublic(node),
    rustDeprecated(node),
    owner?.container,
  );
  return { depth: ctx.depth, fn: name };
}

function rustType(node: Node, ctx: ExtractionContext, kind: SymbolKind): Frame | undefined {
  const name = node.childForFieldName('name')?.text;
  if (!name) return undefined;
  addSymbol(ctx, node, name, kind, rustPublic(node), rustDeprecated(node));
  return kind === 'interface'
    ? { depth: ctx.depth, container: name, containerExported: rustPublic(node) > 0, containerKind: 'interface' }
    : undefined;
}

export const rustRules: ExtractionRules = { visitors: rustVisitors };
