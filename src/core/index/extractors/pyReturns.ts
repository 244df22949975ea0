import type { Node } from '@vscode/tree-sitter-wasm';
import { FIELD_OF, RESULT_OF, type SymbolFact } from '../facts';
import type { ExtractionContext, Frame } from './context';
import { ELEMENTS, TYPE_NAME } from './pyAnnotations';

// Python: what a function that annotates no return type returns, read from its return statements
// (`return CliRunner()`, `return self`, `return cls(…)`, a variable of known class), and what a
// pytest fixture gives the tests that ask for it (its `return` or its `yield`).

/** Most nodes of one body read for its return statements. */
const MAX_RETURN_SCAN = 5000;

interface Pending {
  symbol: SymbolFact;
  fn: Node;
  frames: Frame[];
  fixture: boolean;
}

const pendingOf = new WeakMap<ExtractionContext, Pending[]>();

/** `@pytest.fixture`, `@pytest.fixture(scope="module")`, `@fixture`, `@pytest_asyncio.fixture`. */
export function isFixture(fn: Node): boolean {
  const decorated = fn.parent?.type === 'decorated_definition' ? fn.parent : undefined;
  if (!decorated) return false;
  for (const d of decorated.namedChildren) {
    if (d?.type !== 'decorator' || d.text.length > 300) continue;
    const text = d.text.slice(1).trim();
    const paren = text.indexOf('(');
    const callee = (paren < 0 ? text : text.slice(0, paren)).trim();
    if (callee === 'fixture' || callee.endsWith('.fixture')) return true;
  }
  return false;
}

/** Notes a function without a return annotation, for its return statements to type once the walk is done. */
export function expectPyReturn(
  ctx: ExtractionContext,
  symbol: SymbolFact,
  fn: Node,
  frames: Frame[],
  fixture: boolean,
): void {
  const list = pendingOf.get(ctx);
  if (list) list.push({ symbol, fn, frames, fixture });
  else pendingOf.set(ctx, [{ symbol, fn, frames, fixture }]);
}

/**
 * Types each noted function by what all its return statements agree on (a bare `return` and
 * `return None` aside). A generator returns a generator, not what it yields: it is left untyped,
 * except a fixture, whose `yield` is what its tests get.
 */
export function applyPyReturns(
  ctx: ExtractionContext,
  valueOf: (node: Node, frames: readonly Frame[]) => string | undefined,
): void {
  for (const p of pendingOf.get(ctx) ?? []) {
    const values = returnedValues(p.fn, p.fixture);
    if (!values?.length) continue;
    let type: string | undefined;
    for (const v of values) {
      const t = valueOf(v, p.frames);
      if (
        !t ||
        t.startsWith(RESULT_OF) ||
        t.startsWith(FIELD_OF) ||
        t.startsWith(ELEMENTS) ||
        !TYPE_NAME.test(t) ||
        (type !== undefined && t !== type)
      ) {
        type = undefined;
        break;
      }
      type = t;
    }
    if (type) p.symbol.returns = type;
  }
  pendingOf.delete(ctx);
}

/** The values a function's own body returns (or, for a fixture, yields); undefined when it yields otherwise or the body is too large to read. */
function returnedValues(fn: Node, fixture: boolean): Node[] | undefined {
  const body = fn.childForFieldName('body');
  if (!body) return undefined;
  const out: Node[] = [];
  const stack: Node[] = [body];
  for (let seen = 0; stack.length; seen++) {
    if (seen > MAX_RETURN_SCAN) return undefined;
    const n = stack.pop()!;
    if (n.type === 'function_definition' || n.type === 'lambda' || n.type === 'class_definition') continue;
    if (n.type === 'yield') {
      const value = n.namedChildren[0];
      // `yield from`, or a generator that is no fixture: what calling it gives is a generator.
      if (!fixture || !value || n.text.startsWith('yield from')) return undefined;
      if (value.type !== 'none') out.push(value);
      continue;
    }
    if (n.type === 'return_statement') {
      const value = n.namedChildren[0];
      if (value && value.type !== 'none') out.push(value);
      continue;
    }
    for (const c of n.namedChildren) if (c) stack.push(c);
  }
  return out;
}
