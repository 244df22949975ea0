import type { Node } from '@vscode/tree-sitter-wasm';
import { addCall, addSymbol, COMMENT, currentContainer, leadingSiblings, qualifierOf, startLine } from './context';
import type { ExtractionContext, ExtractionRules, Frame, Visitor } from './context';
import { ELEMENTS, RESULT_OF, TYPED_RECEIVER } from '../facts';
import { phpClassProperties, phpFunctionLocals, phpReceiverType, phpReturnType } from './phpTypes';
import type { Narrowing } from './phpNarrowing';

// PHP: classes, interfaces, traits and enums, methods and functions, `@deprecated` doc blocks and
// #[Deprecated], namespaces, `use` imports (grouped and aliased), calls on objects, classes and
// functions, and `new X()` constructions.

/** What PHP writes for the object itself and its class; stored as the receivers every language shares. */
const RECEIVERS: Record<string, string> = { $this: 'this', self: 'self', static: 'self', parent: 'super' };

function phpDeprecated(node: Node): boolean {
  if (node.namedChildren.some((c) => c?.type === 'attribute_list' && /\bDeprecated\b/.test(c.text))) return true;
  return leadingSiblings(node, COMMENT, 4).some((c) => c.text.startsWith('/**') && /@deprecated\b/.test(c.text));
}

function isPublic(node: Node): boolean {
  const v = node.namedChildren.find((c) => c?.type === 'visibility_modifier');
  return !v || v.text === 'public';
}

/** The last name of `A\B\C` (or of a plain name). */
function lastName(node: Node | null): Node | null {
  if (!node) return null;
  if (node.type === 'name') return node;
  if (node.type === 'qualified_name') return node.namedChildren[node.namedChildren.length - 1] ?? null;
  return null;
}

function typeDeclaration(kind: 'class' | 'interface' | 'enum'): Visitor {
  return (node, ctx) => {
    const name = node.childForFieldName('name')?.text;
    if (!name) return undefined;
    const nested = ctx.frames.some((f) => f.fn);
    const symbol = addSymbol(ctx, node, name, kind, nested ? 0 : 1, phpDeprecated(node));
    const supers = phpSupers(node);
    if (supers.length) symbol.supers = supers;
    const properties = phpClassProperties(node);
    // Kept with the class for its subclasses: `$this->io->write()` where a base types `$io`.
    const fields = Object.fromEntries(
      [...properties].filter(([, t]) => t && !t.startsWith(RESULT_OF)).map(([k, t]) => [k.slice('this.'.length), t]),
    );
    if (Object.keys(fields).length) symbol.fields = fields;
    return {
      depth: ctx.depth,
      container: name,
      containerExported: !nested,
      containerKind: kind === 'interface' ? 'interface' : 'class',
      locals: properties,
    };
  };
}

/** Most base names kept for one class or interface. */
const MAX_SUPERS = 16;

/**
 * What a class extends, implements and uses (its traits, whose methods become its own), or an
 * interface extends, by last name (`Base` for `\\Foo\\Base`).
 */
function phpSupers(node: Node): string[] {
  const out: string[] = [];
  const body = node.childForFieldName('body');
  const clauses = [...node.namedChildren, ...(body?.namedChildren.filter((c) => c?.type === 'use_declaration') ?? [])];
  for (const clause of clauses) {
    if (
      clause?.type !== 'base_clause' &&
      clause?.type !== 'class_interface_clause' &&
      clause?.type !== 'use_declaration'
    )
      continue;
    for (const t of clause.namedChildren) {
      const name = lastName(t);
      if (name && !out.includes(name.text)) out.push(name.text);
    }
  }
  return out.slice(0, MAX_SUPERS);
}

function receiver(node: Node | null): string | undefined {
  if (!node) return undefined;
  const text = node.endIndex - node.startIndex <= 120 ? node.text : '';
  const own = RECEIVERS[text];
  if (own) return own;
  if (node.type === 'variable_name') return text.slice(1) || undefined;
  return qualifierOf(node)?.replace(/^\\/, '');
}

function addUse(ctx: ExtractionContext, clause: Node, prefix: string, line: number): void {
  const target = clause.namedChildren.find((c) => c?.type === 'qualified_name' || c?.type === 'name');
  if (!target) return;
  const path = (prefix ? `${prefix}\\${target.text}` : target.text).replace(/^\\/, '');
  if (path.length > 300) return;
  const name = path.slice(path.lastIndexOf('\\') + 1);
  const alias = clause.childForFieldName('alias')?.text;
  ctx.facts.imports.push({ spec: path, names: [{ name, local: alias ?? name }], line });
}

/** `$x->m()`, `$x?->m()`: on a receiver whose class the code says (or the call whose result it is), that class's m. */
function memberCall(node: Node, ctx: ExtractionContext): undefined {
  const object = node.childForFieldName('object');
  const type = phpReceiverType(object, ctx);
  // An array has no methods: a doc block's `Link[]` for what is an object (a collection) says nothing of it.
  const known = type && !(type.endsWith(ELEMENTS) && !type.startsWith(RESULT_OF)) ? type : undefined;
  addCall(ctx, lastName(node.childForFieldName('name')), known ? `${TYPED_RECEIVER}${known}` : receiver(object));
  return undefined;
}

/** A function's frame: its variables' types, and where checks narrow them. */
function scope(node: Node, ctx: ExtractionContext, frame: Partial<Frame>): Frame {
  const narrowed: Narrowing[] = [];
  // The class around, for `$this`'s properties (in a closure of a method too).
  const cls = [...ctx.frames].reverse().find((f) => f.container);
  const locals = phpFunctionLocals(node, narrowed, cls?.locals);
  return { ...frame, depth: ctx.depth, locals, narrowed };
}

function closure(node: Node, ctx: ExtractionContext): Frame {
  return scope(node, ctx, { ownScope: true });
}

const phpVisitors: Record<string, Visitor> = {
  namespace_definition(node, ctx) {
    ctx.facts.pkg = node.childForFieldName('name')?.text;
    return undefined;
  },
  namespace_use_declaration(node, ctx) {
    const line = startLine(node);
    const group = node.childForFieldName('body');
    if (group) {
      const prefix = node.namedChildren.find((c) => c?.type === 'namespace_name')?.text ?? '';
      for (const clause of group.namedChildren)
        if (clause?.type === 'namespace_use_clause') addUse(ctx, clause, prefix, line);
    } else {
      for (const clause of node.namedChildren)
        if (clause?.type === 'namespace_use_clause') addUse(ctx, clause, '', line);
    }
    return undefined;
  },
  class_declaration: typeDeclaration('class'),
  trait_declaration: typeDeclaration('class'),
  interface_declaration: typeDeclaration('interface'),
  enum_declaration: typeDeclaration('enum'),
  method_declaration(node, ctx) {
    const name = node.childForFieldName('name')?.text;
    if (!name) return undefined;
    const owner: Frame | undefined = currentContainer(ctx);
    const exported = owner ? !!owner.containerExported && isPublic(node) : true;
    const symbol = addSymbol(
      ctx,
      node,
      name,
      owner ? 'method' : 'function',
      exported ? 1 : 0,
      phpDeprecated(node),
      owner?.container,
    );
    const returns = phpReturnType(node, owner?.container);
    if (returns) symbol.returns = returns;
    return scope(node, ctx, { fn: name });
  },
  function_definition(node, ctx) {
    const name = node.childForFieldName('name')?.text;
    if (!name) return undefined;
    const symbol = addSymbol(ctx, node, name, 'function', ctx.frames.some((f) => f.fn) ? 0 : 1, phpDeprecated(node));
    const returns = phpReturnType(node);
    if (returns) symbol.returns = returns;
    return scope(node, ctx, { fn: name });
  },
  // A closure's or an arrow function's parameters are its own; what it does not bind comes from around it.
  anonymous_function: closure,
  anonymous_function_creation_expression: closure,
  arrow_function: closure,
  function_call_expression(node, ctx) {
    const fn = node.childForFieldName('function');
    const name = lastName(fn);
    if (name) addCall(ctx, name);
    return undefined;
  },
  member_call_expression: memberCall,
  nullsafe_member_call_expression: memberCall,
  scoped_call_expression(node, ctx) {
    const scope = node.childForFieldName('scope');
    const own = scope && RECEIVERS[scope.text];
    // `Foo::m()` names the class itself: that class's m (or a base's), no other.
    const named = scope?.type === 'name' || scope?.type === 'qualified_name' ? lastName(scope)?.text : undefined;
    addCall(
      ctx,
      lastName(node.childForFieldName('name')),
      own ?? (named ? `${TYPED_RECEIVER}${named}` : receiver(scope)),
    );
    return undefined;
  },
  object_creation_expression(node, ctx) {
    // `new static()` / `new self()` build the class around: no name to find callers by.
    const name = lastName(node.namedChildren.find((c) => c?.type === 'name' || c?.type === 'qualified_name') ?? null);
    if (name && !(name.text in RECEIVERS)) addCall(ctx, name);
    return undefined;
  },
};

export const phpRules: ExtractionRules = { visitors: phpVisitors };
