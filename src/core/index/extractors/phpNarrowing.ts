import type { Node } from '@vscode/tree-sitter-wasm';

// PHP: what a check says of a variable where it holds. `if ($x instanceof Foo) { … }` and
// `$x instanceof Foo && $x->m()` make `$x` a Foo inside; `if (!$x instanceof Foo) { return; }` and
// `assert($x instanceof Foo);` make it one from there to the end of the block.

/** Inside [start, end) of the file's text, the variable `key` (`$x`) is a `type`. */
export interface Narrowing {
  key: string;
  type: string;
  start: number;
  end: number;
}

/** Statements after which the code around does not go on. */
const EXITS = new Set(['return_statement', 'throw_expression', 'continue_statement', 'break_statement']);
/** Most checks one condition is read for. */
const MAX_CHECKS = 16;

type Checks = Array<[key: string, type: string]>;

function operator(node: Node): string | undefined {
  return node.childForFieldName('operator')?.text.toLowerCase();
}

function className(node: Node | null): string | undefined {
  if (node?.type === 'name') return node.text;
  if (node?.type === 'qualified_name') return node.namedChildren[node.namedChildren.length - 1]?.text;
  return undefined;
}

/** The checks that hold when `cond` is true (`when` true) or false. */
function checks(cond: Node | null, when: boolean, out: Checks, depth = 0): Checks {
  if (!cond || depth > 8 || out.length >= MAX_CHECKS) return out;
  if (cond.type === 'parenthesized_expression') return checks(cond.namedChildren[0], when, out, depth + 1);
  if (cond.type === 'unary_op_expression' && cond.children[0]?.text === '!')
    return checks(cond.namedChildren[0], !when, out, depth + 1);
  if (cond.type !== 'binary_expression') return out;
  const op = operator(cond);
  if (op === 'instanceof') {
    const left = cond.childForFieldName('left');
    const type = className(cond.childForFieldName('right'));
    if (when && left?.type === 'variable_name' && type) out.push([left.text, type]);
  } else if ((when && (op === '&&' || op === 'and')) || (!when && (op === '||' || op === 'or'))) {
    // Both sides hold when `a && b` is true, and neither when `a || b` is false.
    checks(cond.childForFieldName('left'), when, out, depth + 1);
    checks(cond.childForFieldName('right'), when, out, depth + 1);
  }
  return out;
}

function add(out: Narrowing[], found: Checks, start: number, end: number): void {
  for (const [key, type] of found) if (start < end) out.push({ key, type, start, end });
}

/** Whether a statement (a block's last one, or itself) leaves the code around. */
function exits(node: Node | null): boolean {
  if (!node) return false;
  if (node.type === 'compound_statement') return exits(node.namedChildren[node.namedChildren.length - 1] ?? null);
  if (node.type === 'expression_statement') return exits(node.namedChildren[0] ?? null);
  return EXITS.has(node.type);
}

/** The block a statement sits in, for where a check after it holds. */
function enclosingEnd(node: Node): number | undefined {
  const parent = node.parent;
  return parent && (parent.type === 'compound_statement' || parent.type === 'program') ? parent.endIndex : undefined;
}

/** Records what one node (of this `type`) of a function body says: an `if`, an `&&`, or an `assert(…)`. */
export function collectNarrowing(n: Node, type: string, out: Narrowing[]): void {
  if (type === 'if_statement') {
    const cond = n.childForFieldName('condition');
    const body = n.childForFieldName('body');
    if (body) add(out, checks(cond, true, []), body.startIndex, body.endIndex);
    const alternative = n.namedChildren.find((c) => c?.type === 'else_clause' || c?.type === 'else_if_clause');
    if (alternative?.type === 'else_clause')
      add(out, checks(cond, false, []), alternative.startIndex, alternative.endIndex);
    const end = enclosingEnd(n);
    if (!alternative && end !== undefined && exits(body)) add(out, checks(cond, false, []), n.endIndex, end);
  } else if (type === 'binary_expression') {
    const op = operator(n);
    const right = op === '&&' || op === 'and' ? n.childForFieldName('right') : null;
    if (right) add(out, checks(n.childForFieldName('left'), true, []), right.startIndex, right.endIndex);
  } else if (type === 'expression_statement') {
    const call = n.namedChildren[0];
    const fn = call?.type === 'function_call_expression' ? className(call.childForFieldName('function')) : undefined;
    const end = enclosingEnd(n);
    if (fn?.toLowerCase() !== 'assert' || end === undefined) return;
    const arg = call!.childForFieldName('arguments')?.namedChildren[0];
    add(out, checks(arg?.namedChildren[0] ?? null, true, []), n.endIndex, end);
  }
}

/** The type a check gives `key` at `at`: the nearest (latest-starting) narrowing that covers it. */
export function narrowedType(narrowed: readonly Narrowing[] | undefined, key: string, at: number): string | undefined {
  let best: Narrowing | undefined;
  for (const n of narrowed ?? [])
    if (n.key === key && n.start <= at && at < n.end && (!best || n.start >= best.start)) best = n;
  return best?.type;
}
