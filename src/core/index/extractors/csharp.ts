import type { Node } from '@vscode/tree-sitter-wasm';
import {
  addCall,
  currentContainer,
  lastTypeIdentifier,
  qualifierOf,
  startLine,
  type ExtractionRules,
  type Visitor,
} from './context';
import { methodDeclaration, typeDeclaration, type DeclarationRules } from './declarations';

// C#: classes, structs, records, interfaces, enums, methods, local functions, [Obsolete], namespaces and using directives.

function csDeprecated(node: Node): boolean {
  return node.namedChildren.some(
    (c) =>
      c?.type === 'attribute_list' &&
      c.namedChildren.some(
        (a) =>
          a?.type === 'attribute' && /^(System\.)?Obsolete(Attribute)?$/.test(a.childForFieldName('name')?.text ?? ''),
      ),
  );
}

const CSHARP: DeclarationRules = {
  declaredPublic: (node) => node.namedChildren.some((c) => c?.type === 'modifier' && c.text === 'public'),
  deprecated: csDeprecated,
};

const csVisitors: Record<string, Visitor> = {
  namespace_declaration(node, ctx) {
    ctx.facts.pkg = node.childForFieldName('name')?.text;
    return undefined;
  },
  file_scoped_namespace_declaration(node, ctx) {
    ctx.facts.pkg = node.childForFieldName('name')?.text;
    return undefined;
  },
  class_declaration: (n, c) => typeDeclaration(n, c, 'class', CSHARP),
  struct_declaration: (n, c) => typeDeclaration(n, c, 'class', CSHARP),
  record_declaration: (n, c) => typeDeclaration(n, c, 'class', CSHARP),
  interface_declaration: (n, c) => typeDeclaration(n, c, 'interface', CSHARP),
  enum_declaration: (n, c) => typeDeclaration(n, c, 'enum', CSHARP),
  method_declaration: (n, c) => methodDeclaration(n, c, currentContainer(c), CSHARP),
  constructor_declaration: (n, c) => methodDeclaration(n, c, currentContainer(c), CSHARP),
  local_function_statement: (n, c) => methodDeclaration(n, c, undefined, CSHARP),
  invocation_expression(node, ctx) {
    const fn = node.childForFieldName('function');
    if (!fn) return undefined;
    if (fn.type === 'member_access_expression')
      addCall(ctx, lastTypeIdentifier(fn.childForFieldName('name')), qualifierOf(fn.childForFieldName('expression')));
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
    ctx.facts.imports.push({ spec: path, names: [{ name: '*', local: alias ?? '*' }], line: startLine(node) });
    return undefined;
  },
};

export const csharpRules: ExtractionRules = { visitors: csVisitors };
