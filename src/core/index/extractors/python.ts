import type { Node } from '@vscode/tree-sitter-wasm';
import type { ExportFlag, ImportName, SymbolFact } from '../facts';
import {
  addCall,
  currentContainer,
  enclosing,
  qualifierOf,
  startLine,
  type ExtractionContext,
  type ExtractionRules,
  type Visitor,
} from './context';
import { annotationType, moduleImports, moduleTypeVars, pySupers } from './pyAnnotations';
import { classFields } from './pyFields';
import { applyPyReturns, expectPyReturn, isFixture } from './pyReturns';
import { comprehensionFrame, functionFrame, lambdaFrame, moduleFrame, receiverQualifier, valueIn } from './pyTypes';

// Python: functions, classes, methods, decorators and docstrings that deprecate, import and from-import.

/** A docstring line that deprecates what it documents: `.. deprecated:: 3.2`, `Deprecated: use y`, `DEPRECATED since 2.0`. */
const DOC_DEPRECATES = /^[ \t]*(?:\.\. deprecated::|deprecated(?:[:.!]| since\b| in favou?r\b| as of\b| -| \u2014))/i;
/** A section header of a Google-style docstring: `Args:`, `Keyword Arguments:`, `Attributes:`. */
const DOC_SECTION = /^[ \t]*[A-Z][A-Za-z]*(?: [A-Za-z]+){0,2}:[ \t]*$/;

function indentOf(line: string): number {
  return line.length - line.trimStart().length;
}

/**
 * Whether a docstring line deprecates what the docstring documents. A line indented under a section
 * header is an entry of that section: `deprecated: A deprecation message…` under `Args:` documents a
 * parameter named `deprecated`, and says nothing about the function.
 */
function docDeprecates(doc: string): boolean {
  let section = -1;
  for (const line of doc.split('\n')) {
    if (!line.trim()) continue;
    const indent = indentOf(line);
    if (section >= 0 && indent <= section) section = -1;
    if (DOC_DEPRECATES.test(line)) {
      if (section < 0) return true;
      continue;
    }
    if (DOC_SECTION.test(line)) section = indent;
  }
  return false;
}

/** "This function is deprecated", "The method has been deprecated". */
const DOC_SAYS_DEPRECATED =
  /\b(?:this|the) (?:function|method|class|property|attribute|decorator|helper|alias|module|endpoint|view) (?:is|has been|was) deprecated\b/i;
/** Names a deprecation's warning category: DeprecationWarning, PendingDeprecationWarning, a project's own `XDeprecatedWarning`, Django's `RemovedInDjango60Warning`. */
function namesDeprecationCategory(text: string): boolean {
  for (const [word] of text.matchAll(/\w+/g))
    if (word.endsWith('Warning') && (word.includes('Deprecat') || word.startsWith('RemovedIn'))) return true;
  return false;
}

/**
 * Deprecated by a decorator (`@deprecated(…)`, `@warnings.deprecated`), by its docstring, or by a
 * deprecation warning its body raises first thing. A warning inside an `if` (a deprecated argument,
 * a module `__getattr__` for an old name) or a docstring that only mentions the word does not count.
 */
function pyDeprecated(node: Node): boolean {
  const decorated = node.parent?.type === 'decorated_definition' ? node.parent : undefined;
  if (decorated?.namedChildren.some((c) => c?.type === 'decorator' && /deprecat/i.test(calleeOf(c.text)))) return true;
  const body = node.childForFieldName('body');
  if (!body) return false;
  const statements = body.namedChildren;
  const first = statements[0];
  if (first?.type === 'expression_statement' && first.namedChildren[0]?.type === 'string') {
    const doc = first.text.length > 20_000 ? first.text.slice(0, 20_000) : first.text;
    const summary = doc.replace(/^[rRuUbBfF]{0,2}(?:"""|\'\'\'|"|')\s*/, '');
    if (/^deprecated\b/i.test(summary) || docDeprecates(doc) || DOC_SAYS_DEPRECATED.test(doc)) return true;
  }
  for (const stmt of statements.slice(0, 4)) {
    if (stmt?.type !== 'expression_statement' || stmt.text.length > 2000) continue;
    if (/\bwarn(?:_explicit)?\(/.test(stmt.text) && namesDeprecationCategory(stmt.text)) return true;
  }
  return false;
}

/** `warnings.deprecated` of `@warnings.deprecated("…")`: the decorator without its arguments. */
function calleeOf(decorator: string): string {
  const paren = decorator.indexOf('(');
  return paren < 0 ? decorator : decorator.slice(0, paren);
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

/** The module's type variables, per walk. */
const typeVarsOf = new WeakMap<ExtractionContext, Set<string>>();
/** Per walk, the names the module binds to whole modules. */
const modulesOf = new WeakMap<ExtractionContext, ReadonlySet<string>>();
/** Per class, the element classes of its collection fields, for its methods' loops. */
const elementsOf = new WeakMap<SymbolFact, ReadonlyMap<string, string>>();

const comprehension: Visitor = (node, ctx) => comprehensionFrame(node, ctx);

const pyVisitors: Record<string, Visitor> = {
  list_comprehension: comprehension,
  set_comprehension: comprehension,
  dictionary_comprehension: comprehension,
  generator_expression: comprehension,
  lambda: (node, ctx) => lambdaFrame(node, ctx),
  module(node, ctx) {
    const typeVars = moduleTypeVars(node);
    typeVarsOf.set(ctx, typeVars);
    const modules = moduleImports(node);
    modulesOf.set(ctx, modules);
    return moduleFrame(node, { typeVars, modules }, ctx);
  },
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
    const scope = {
      typeVars: typeVarsOf.get(ctx) ?? new Set<string>(),
      ownClass: owner?.container,
      ownElements: owner?.definition && elementsOf.get(owner.definition),
      modules: modulesOf.get(ctx),
    };
    const symbol = ctx.facts.symbols[ctx.facts.symbols.length - 1];
    const returnType = node.childForFieldName('return_type');
    const returns = annotationType(returnType, scope);
    if (returns) symbol.returns = returns;
    const fixture = !owner && isFixture(node);
    const frame = functionFrame(node, scope, ctx, name, !!owner, fixture);
    if (!returnType) expectPyReturn(ctx, symbol, node, [...ctx.frames, frame], fixture);
    return frame;
  },
  class_definition(node, ctx) {
    const name = node.childForFieldName('name')?.text;
    if (!name) return undefined;
    const exported = !name.startsWith('_') && !ctx.frames.some((f) => f.fn);
    const def = pyDefinitionNode(node);
    const symbol: SymbolFact = {
      name,
      kind: 'class',
      startLine: startLine(def),
      endLine: def.endPosition.row + 1,
      exported: exported ? 1 : 0,
      deprecated: pyDeprecated(node),
    };
    // A class made inside a function (a test's own subclass) is that function's, no module's class.
    const local = enclosing(ctx);
    if (local) symbol.container = local;
    const supers = pySupers(node);
    if (supers.length) symbol.supers = supers;
    const { fields, elements } = classFields(node, {
      typeVars: typeVarsOf.get(ctx) ?? new Set<string>(),
      ownClass: name,
      modules: modulesOf.get(ctx),
    });
    if (fields) symbol.fields = fields;
    if (elements.size) elementsOf.set(symbol, elements);
    ctx.facts.symbols.push(symbol);
    return {
      depth: ctx.depth,
      container: name,
      containerExported: exported,
      containerKind: 'class',
      definition: symbol,
    };
  },
  call(node, ctx) {
    const fn = node.childForFieldName('function');
    if (fn?.type === 'identifier') addCall(ctx, fn);
    else if (fn?.type === 'attribute') {
      const recv = fn.childForFieldName('object');
      addCall(ctx, fn.childForFieldName('attribute'), receiverQualifier(recv, ctx) ?? qualifierOf(recv));
    }
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

export const pythonRules: ExtractionRules = {
  visitors: pyVisitors,
  finish(ctx) {
    applyPyReturns(ctx, (node, frames) => valueIn(ctx, frames, node));
  },
};
