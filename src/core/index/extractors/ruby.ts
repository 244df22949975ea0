import type { Node } from '@vscode/tree-sitter-wasm';
import {
  addCall,
  addSymbol,
  COMMENT,
  currentContainer,
  leadingSiblings,
  qualifierOf,
  startLine,
  stringContent,
} from './context';
import type { ExtractionContext, ExtractionRules, Visitor } from './context';

// Ruby: classes and modules (nested or `A::B`), methods and `def self.` methods, `private` sections,
// `@deprecated` comments, calls with and without a receiver, `X.new` constructions, require and require_relative.

const VISIBILITY = new Set(['private', 'protected', 'public']);
/** How far back a method looks for a bare `private` among the statements of its class body. */
const MAX_VISIBILITY_LOOKBACK = 400;

/** Parents whose identifier children all name new local variables. */
const BINDING_LISTS = new Set([
  'method_parameters',
  'lambda_parameters',
  'block_parameters',
  'destructured_parameter',
  'left_assignment_list',
  'destructured_left_assignment',
  'rest_assignment',
  'exception_variable',
]);
/** Parents that bind the identifier in one field: `b = 1` in a parameter list, `x = …`, `for x in`. */
const BINDING_FIELD: Record<string, string> = {
  optional_parameter: 'name',
  splat_parameter: 'name',
  keyword_parameter: 'name',
  hash_splat_parameter: 'name',
  block_parameter: 'name',
  assignment: 'left',
  operator_assignment: 'left',
  for: 'pattern',
};
/** Parents where an identifier is a name being declared or already handled: `def x`, `alias a b`, `obj.x`. */
const NAME_FIELD: Record<string, string> = { method: 'name', singleton_method: 'name', call: 'method' };

/** The local variables seen so far in each method (or at the top of each file), as Ruby's parser knows them. */
const localsByScope = new WeakMap<object, Set<string>>();

function localsOf(ctx: ExtractionContext): Set<string> {
  let scope: object = ctx;
  for (let i = ctx.frames.length - 1; i >= 0; i--) {
    if (ctx.frames[i].fn) {
      scope = ctx.frames[i];
      break;
    }
  }
  let set = localsByScope.get(scope);
  if (!set) localsByScope.set(scope, (set = new Set()));
  return set;
}

function isField(parent: Node, field: string, node: Node): boolean {
  return parent.childForFieldName(field)?.startIndex === node.startIndex;
}

/** The comments right above a definition; the first statement of a body has them before the body node. */
function leadingComments(node: Node): Node[] {
  const own = leadingSiblings(node, COMMENT, 8);
  if (own.length || node.previousNamedSibling) return own;
  const body = node.parent;
  return body?.type === 'body_statement' ? leadingSiblings(body, COMMENT, 8) : own;
}

function rbDeprecated(node: Node): boolean {
  return leadingComments(node).some((c) => /@deprecated\b|^#\s*deprecated\b/i.test(c.text));
}

/** Whether a bare `private` / `protected` comes before this method in its class body (Ruby's visibility sections). */
function inPrivateSection(node: Node): boolean {
  let prev = node.previousNamedSibling;
  for (let i = 0; prev && i < MAX_VISIBILITY_LOOKBACK; i++, prev = prev.previousNamedSibling) {
    if (prev.type === 'identifier' && VISIBILITY.has(prev.text)) return prev.text !== 'public';
  }
  return false;
}

/** `Billing::Tax` names `Tax` inside `Billing`; `::Tax` is top level. */
function constantName(node: Node | null): { name: Node; scope?: string } | undefined {
  if (!node) return undefined;
  if (node.type === 'constant') return { name: node };
  if (node.type === 'scope_resolution') {
    const name = node.childForFieldName('name');
    if (name?.type !== 'constant') return undefined;
    const scope = node.childForFieldName('scope');
    return { name, scope: scope ? qualifierOf(scope) : undefined };
  }
  return undefined;
}

/** A class or module: a container for the methods inside, named by its last constant. */
const container: Visitor = (node, ctx) => {
  const c = constantName(node.childForFieldName('name'));
  if (!c) return undefined;
  const outer = currentContainer(ctx);
  const nested = ctx.frames.some((f) => f.fn);
  const scope = [outer?.container, c.scope].filter(Boolean).join('::') || undefined;
  addSymbol(ctx, node, c.name.text, 'class', nested ? 0 : 1, rbDeprecated(node), scope);
  return { depth: ctx.depth, container: c.name.text, containerExported: !nested, containerKind: 'class' };
};

const rbVisitors: Record<string, Visitor> = {
  class: container,
  module: container,
  method(node, ctx) {
    const name = node.childForFieldName('name')?.text;
    if (!name) return undefined;
    const owner = currentContainer(ctx);
    const exported = owner ? !!owner.containerExported && !inPrivateSection(node) : !ctx.frames.some((f) => f.fn);
    addSymbol(ctx, node, name, owner ? 'method' : 'function', exported ? 1 : 0, rbDeprecated(node), owner?.container);
    return { depth: ctx.depth, fn: name };
  },
  singleton_method(node, ctx) {
    const name = node.childForFieldName('name')?.text;
    if (!name) return undefined;
    const object = node.childForFieldName('object');
    // `def self.build` belongs to the class around it; `def Other.build` to Other.
    const owner = object?.type === 'self' ? currentContainer(ctx)?.container : constantName(object)?.name.text;
    addSymbol(ctx, node, name, owner ? 'method' : 'function', 1, rbDeprecated(node), owner);
    return { depth: ctx.depth, fn: name };
  },
  /**
   * A bare name is a local variable once assigned or a parameter, and otherwise a method called on
   * self with no arguments (`subtotal + tax`), the same rule Ruby's parser applies.
   */
  identifier(node, ctx) {
    const parent = node.parent;
    if (!parent || parent.type === 'alias' || parent.type === 'undef') return undefined;
    const named = NAME_FIELD[parent.type];
    if (named && isField(parent, named, node)) return undefined;
    const bound = BINDING_FIELD[parent.type];
    if (BINDING_LISTS.has(parent.type) || (bound && isField(parent, bound, node))) {
      localsOf(ctx).add(node.text);
      return undefined;
    }
    if (!VISIBILITY.has(node.text) && !localsOf(ctx).has(node.text)) addCall(ctx, node);
    return undefined;
  },
  call(node, ctx) {
    const method = node.childForFieldName('method');
    if (!method) return undefined;
    const receiver = node.childForFieldName('receiver');
    if (!receiver) {
      if (method.text === 'require' || method.text === 'require_relative') {
        const arg = node.childForFieldName('arguments')?.namedChildren[0];
        const spec = arg?.type === 'string' && arg.namedChildCount <= 1 ? stringContent(arg) : undefined;
        if (spec && spec.length <= 300) {
          const relative = method.text === 'require_relative' && !spec.startsWith('.') ? `./${spec}` : spec;
          ctx.facts.imports.push({ spec: relative, names: [{ name: '*', local: '*' }], line: startLine(node) });
          return undefined;
        }
      }
      addCall(ctx, method);
      return undefined;
    }
    // `Invoice.new(…)` constructs an Invoice: a call of the class, as `new Invoice()` is elsewhere.
    const constructed = method.text === 'new' ? constantName(receiver) : undefined;
    if (constructed) addCall(ctx, constructed.name, constructed.scope);
    else addCall(ctx, method, qualifierOf(receiver));
    return undefined;
  },
};

export const rubyRules: ExtractionRules = { visitors: rbVisitors };
