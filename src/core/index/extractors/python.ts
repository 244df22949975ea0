import type { Node } from '@vscode/tree-sitter-wasm';
import type { ExportFlag, ImportName } from '../facts';
import { addCall, currentContainer, qualifierOf, startLine, type ExtractionRules, type Visitor } from './context';

// Python: functions, classes, methods, decorators and docstrings that deprecate, import and from-import.

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
      startLine: startLine(def),
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
    ctx.facts.symbols.push({ name, kind: 'class', startLine: startLine(def), endLine: def.endPosition.row + 1, exported: exported ? 1 : 0, deprecated: pyDeprecated(node) });
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
      if (n) ctx.facts.imports.push({ spec: n.name, names: [{ name: '*', local: n.local }], line: startLine(node) });
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
    ctx.facts.imports.push({ spec: mod.text, names, line: startLine(node) });
    return undefined;
  },
};

export const pythonRules: ExtractionRules = { visitors: pyVisitors };
