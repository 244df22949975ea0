import type { Node } from '@vscode/tree-sitter-wasm';
import type { ExportFlag, ImportName } from '../facts';
import { addCall, addSymbol, COMMENT, currentContainer, leadingSiblings, qualifierOf, startLine, stringContent, type ExtractionRules, type Visitor } from './context';

// Go: functions, methods by receiver type, structs, interfaces and other named types, "Deprecated:" comments, package imports.

function goExported(name: string): ExportFlag {
  const ch = name.charCodeAt(0);
  return ch >= 65 && ch <= 90 ? 1 : 0;
}

function goDeprecated(node: Node): boolean {
  const anchor = (node.type === 'type_spec' || node.type === 'type_alias') && node.parent?.type === 'type_declaration' ? node.parent : node;
  // Within one line only: `\s*` at every line start would rescan runs of blank lines again and again.
  return leadingSiblings(anchor, COMMENT, 40).some((c) => /^(?:\/\/)?[ \t]*Deprecated:/m.test(c.text));
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
    if (!name) return undefined;
    if (type !== 'struct_type' && type !== 'interface_type') {
      // `type Celsius float64`: a named type (its methods are found by receiver).
      addSymbol(ctx, node, name, 'type', goExported(name), goDeprecated(node));
      return undefined;
    }
    const kind = type === 'struct_type' ? 'class' : 'interface';
    addSymbol(ctx, node, name, kind, goExported(name), goDeprecated(node));
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
    ctx.facts.imports.push({ spec: path, names, line: startLine(node) });
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

export const goRules: ExtractionRules = { visitors: goVisitors };
