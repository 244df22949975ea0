import type { Node } from '@vscode/tree-sitter-wasm';
import { FIELD_OF, RESULT_OF, type SymbolFact } from '../facts';
import { COMMENT } from './context';
import { createdType, tsTypeOf, type TypedScopes } from './tsTypes';

// What a JavaScript or TypeScript function that declares no return type gives back, when every one of
// its return statements says the same by its look: `return new Foo(…)`, `return this` in a method, a
// variable declared as a type, what another method of the same class returns (`return this._addCheck(…)`).
// Plain JavaScript never annotates, and a factory or a builder says it this way.

/** Before a type: what the method of this name of the same class returns, known once the file is read. */
const OWN_METHOD = '\0';

interface Returns {
  /** What `this` is inside: the class, for a method that is not static. */
  self?: string;
  /** What the returns seen so far agree on; null once one says nothing or another type. */
  type?: string | null;
}

export interface ReturnScopes extends TypedScopes {
  /** The functions and methods whose returns are being read, by definition. */
  returned?: Map<SymbolFact, Returns>;
}

/**
 * Starts reading the returns of a function or method just defined: none when it declares a return
 * type (that says it) or is a generator (it returns an iterator). An arrow function's expression body
 * is its one return, read now: only `new Foo(…)`, as its parameters are not in scope yet.
 */
export function expectReturns(ctx: ReturnScopes, def: SymbolFact, fn: Node, self?: string): void {
  if (
    def.returns ||
    fn.childForFieldName('return_type') ||
    fn.type.startsWith('generator') ||
    fn.children.some((c) => c?.type === '*')
  )
    return;
  const returns: Returns = { self };
  (ctx.returned ??= new Map()).set(def, returns);
  const body = fn.childForFieldName('body');
  if (fn.type === 'arrow_function' && body && body.type !== 'statement_block')
    returns.type = body.type === 'new_expression' ? typeOf(body, ctx, undefined) : null;
}

/** A return statement: what it gives back counts for the named function or method it returns from. */
export function noteReturn(ctx: ReturnScopes, node: Node): void {
  const value = node.namedChildren.find((c) => c && !COMMENT.has(c.type));
  if (!value || !ctx.returned) return;
  for (let i = ctx.frames.length - 1; i >= 0; i--) {
    const f = ctx.frames[i];
    if (f.fn) {
      const returns = f.definition && ctx.returned.get(f.definition);
      if (returns && returns.type !== null) {
        const type = typeOf(value, ctx, returns.self);
        returns.type = returns.type === undefined || returns.type === type ? type : null;
      }
      return;
    }
    // A callback's or a class expression's return is its own.
    if (f.ownScope || f.ownThis || f.container) return;
  }
}

/** Once the walk is done: each function whose returns agree on one type returns it. */
export function applyReturns(ctx: ReturnScopes): void {
  if (!ctx.returned) return;
  const methods = new Map<string, SymbolFact>();
  for (const def of ctx.facts.symbols)
    if (def.kind === 'method' && def.container) methods.set(`${def.container}.${def.name}`, def);
  // A method that returns another's result takes its type once that one's is known, a few calls deep.
  for (let round = 0; round < 4; round++) {
    let pending = false;
    for (const [def, r] of ctx.returned) {
      if (!r.type || def.returns) continue;
      if (!r.type.startsWith(OWN_METHOD)) def.returns = r.type;
      else {
        const other = methods.get(`${def.container}.${r.type.slice(OWN_METHOD.length)}`);
        if (other?.returns) def.returns = other.returns;
        else pending = true;
      }
    }
    if (!pending) break;
  }
}

const SEE_THROUGH = new Set([
  'await_expression',
  'parenthesized_expression',
  'as_expression',
  'satisfies_expression',
  'non_null_expression',
]);

function typeOf(value: Node, ctx: ReturnScopes, self: string | undefined): string | null {
  let e = value;
  for (let i = 0; i < 4 && SEE_THROUGH.has(e.type); i++) {
    // `x as Foo` is a Foo; `x as any`, `x!` and `x satisfies Foo` are what x is.
    const cast = e.type === 'as_expression' ? e.namedChildren[1] : undefined;
    if (cast && cast.type !== 'predefined_type')
      return cast.type === 'type_identifier' || cast.type === 'nested_type_identifier'
        ? cast.text.slice(cast.text.lastIndexOf('.') + 1)
        : null;
    e = e.namedChildren[0] ?? e;
  }
  if (self && e.type === 'call_expression') {
    const fn = e.childForFieldName('function');
    const name =
      fn?.type === 'member_expression' && fn.childForFieldName('object')?.type === 'this'
        ? fn.childForFieldName('property')?.text
        : undefined;
    return name ? `${OWN_METHOD}${name}` : null;
  }
  const type =
    e.type === 'new_expression'
      ? createdType(e)
      : e.type === 'this'
        ? self
        : e.type === 'identifier'
          ? tsTypeOf(ctx, e.text)
          : undefined;
  if (!type || type.startsWith(RESULT_OF) || type.startsWith(FIELD_OF)) return null;
  return type.slice(type.lastIndexOf('.') + 1);
}
