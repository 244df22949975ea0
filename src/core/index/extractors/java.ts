import type { Node } from '@vscode/tree-sitter-wasm';
import {
  addCall,
  COMMENT,
  currentContainer,
  lastTypeIdentifier,
  leadingSiblings,
  qualifierOf,
  startLine,
  type ExtractionRules,
  type Visitor,
} from './context';
import { methodDeclaration, typeDeclaration, type DeclarationRules } from './declarations';

// Java: types, methods and constructors, @Deprecated, package and import declarations.

function javaModifiers(node: Node): Node | undefined {
  return node.namedChildren.find((c) => c?.type === 'modifiers') ?? undefined;
}

function javaDeprecated(node: Node): boolean {
  const mods = javaModifiers(node);
  if (
    mods?.namedChildren.some(
      (c) =>
        (c?.type === 'marker_annotation' || c?.type === 'annotation') &&
        c.childForFieldName('name')?.text.replace(/^java\.lang\./, '') === 'Deprecated',
    )
  )
    return true;
  return leadingSiblings(node, COMMENT, 2).some((c) => c.text.startsWith('/**') && c.text.includes('@deprecated'));
}

const JAVA: DeclarationRules = {
  declaredPublic: (node) => {
    const mods = javaModifiers(node);
    return !!mods && /\bpublic\b/.test(mods.text);
  },
  deprecated: javaDeprecated,
};

const javaVisitors: Record<string, Visitor> = {
  package_declaration(node, ctx) {
    ctx.facts.pkg = node.namedChildren.find((c) => c?.type === 'scoped_identifier' || c?.type === 'identifier')?.text;
    return undefined;
  },
  class_declaration: (n, c) => typeDeclaration(n, c, 'class', JAVA),
  enum_declaration: (n, c) => typeDeclaration(n, c, 'enum', JAVA),
  record_declaration: (n, c) => typeDeclaration(n, c, 'class', JAVA),
  interface_declaration: (n, c) => typeDeclaration(n, c, 'interface', JAVA),
  method_declaration: (n, c) => methodDeclaration(n, c, currentContainer(c), JAVA),
  constructor_declaration: (n, c) => methodDeclaration(n, c, currentContainer(c), JAVA),
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
    if (star) ctx.facts.imports.push({ spec: path, names: [{ name: '*', local: '*' }], line: startLine(node) });
    else {
      const dot = path.lastIndexOf('.');
      const last = path.slice(dot + 1);
      // `import a.b.C` names the class C (found in a/b/C.java); `import static a.b.C.m` names m in C.
      ctx.facts.imports.push({ spec: path, names: [{ name: last, local: last }], line: startLine(node) });
    }
    return undefined;
  },
};

export const javaRules: ExtractionRules = { visitors: javaVisitors };
