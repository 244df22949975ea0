import type { Node } from '@vscode/tree-sitter-wasm';
import type { ExportFlag, FileFacts, SymbolFact, SymbolKind } from '../facts';
import type { Narrowing } from './phpNarrowing';

// The parts every language's extraction shares: scopes (frames) during the walk, and helpers that
// record definitions and calls.

export interface Frame {
  depth: number;
  /** A named function or method: calls inside are attributed to it. */
  fn?: string;
  /** A class-like container for the methods inside. */
  container?: string;
  containerExported?: boolean;
  containerKind?: 'class' | 'interface';
  /** A TypeScript namespace (`namespace A.B {}`): its functions are reached as `A.B.f()`. */
  namespace?: string;
  /** The definition this frame opened, when what is inside may still change it (JSX makes a function a component; its returns say its type). */
  definition?: SymbolFact;
  /** A function whose `this` is its own (a `function`, an object literal's method, a class expression), not the class around it. */
  ownThis?: boolean;
  /** An anonymous function: the variables declared inside are its own, as a named function's are. */
  ownScope?: boolean;
  /** Go: the declared type of each parameter and variable of the function ('' when unknown or declared twice); TypeScript: of each parameter, and on a class, of each field as `this.x`. */
  locals?: Map<string, string>;
  /** PHP: where a check (`$x instanceof Foo`) says more of a variable than `locals`, by span of the file's text. */
  narrowed?: Narrowing[];
}

/** The dotted namespace path around here, when definitions are directly inside TypeScript namespaces. */
export function namespacePath(ctx: ExtractionContext): string | undefined {
  const parts: string[] = [];
  for (const f of ctx.frames) {
    if (f.namespace) parts.push(f.namespace);
    else if (f.fn || f.container) return undefined;
  }
  return parts.length ? parts.join('.') : undefined;
}

/** What a walk over one file knows at the current node: the facts so far and the definitions around it. */
export interface ExtractionContext {
  facts: FileFacts;
  frames: Frame[];
  depth: number;
}

/** Handles one node type; returns a frame when the node opens a scope (function, class, namespace). */
export type Visitor<C extends ExtractionContext = ExtractionContext> = (node: Node, ctx: C) => Frame | undefined;

/** One language family's extraction: visitors by node type, and a last pass once the walk is done. */
export interface ExtractionRules<C extends ExtractionContext = ExtractionContext> {
  visitors: Record<string, Visitor<C>>;
  finish?(ctx: C): void;
}

const QUALIFIER_TEXT = /^[\w$.:#]{1,120}$/;

export function qualifierOf(node: Node | null): string | undefined {
  if (!node) return undefined;
  // A long receiver (a call chain, an inline function) is no name: skip reading its text at all.
  if (node.endIndex - node.startIndex > 120) return '()';
  const text = node.text;
  return QUALIFIER_TEXT.test(text) ? text : '()';
}

/** A variable's declared type, looking out from the innermost function; undefined when not known. */
export function localType(ctx: ExtractionContext, name: string): string | undefined {
  for (let i = ctx.frames.length - 1; i >= 0; i--) {
    const t = ctx.frames[i].locals?.get(name);
    if (t !== undefined) return t || undefined;
  }
  return undefined;
}

export function startLine(node: Node): number {
  return node.startPosition.row + 1;
}

export function enclosing(ctx: ExtractionContext): string | undefined {
  for (let i = ctx.frames.length - 1; i >= 0; i--) {
    const fn = ctx.frames[i].fn;
    if (fn) return fn;
  }
  return undefined;
}

export function currentContainer(ctx: ExtractionContext): Frame | undefined {
  for (let i = ctx.frames.length - 1; i >= 0; i--) {
    const f = ctx.frames[i];
    if (f.container) return f;
    // A function between the class and here means a nested helper, not a method.
    if (f.fn) return undefined;
  }
  return undefined;
}

export function addCall(ctx: ExtractionContext, nameNode: Node | null, qualifier?: string): void {
  if (!nameNode) return;
  const name = nameNode.text;
  if (!name || name.length > 200) return;
  ctx.facts.calls.push({
    name,
    qualifier,
    line: nameNode.startPosition.row + 1,
    column: nameNode.startPosition.column + 1,
    enclosing: enclosing(ctx),
  });
}

export function addSymbol(
  ctx: ExtractionContext,
  node: Node,
  name: string,
  kind: SymbolKind,
  exported: ExportFlag,
  deprecated: boolean,
  container?: string,
): SymbolFact {
  const symbol: SymbolFact = {
    name,
    kind,
    startLine: startLine(node),
    endLine: node.endPosition.row + 1,
    container,
    exported,
    deprecated,
  };
  ctx.facts.symbols.push(symbol);
  return symbol;
}

/** The comments (and attributes) directly above a node, nearest first. */
export function leadingSiblings(node: Node, types: ReadonlySet<string>, max = 8): Node[] {
  const out: Node[] = [];
  let prev = node.previousNamedSibling;
  let expectedRow = node.startPosition.row;
  while (prev && out.length < max && types.has(prev.type) && prev.endPosition.row >= expectedRow - 1) {
    out.push(prev);
    expectedRow = prev.startPosition.row;
    prev = prev.previousNamedSibling;
  }
  return out;
}

export const COMMENT = new Set(['comment', 'line_comment', 'block_comment']);

export function stringContent(node: Node | null): string | undefined {
  if (!node) return undefined;
  const t = node.text;
  const m = /^(['"`])(.*)\1$/s.exec(t);
  return m ? m[2] : t;
}

/** The simple name at the end of a possibly generic, possibly qualified type (`a.b.C<T>` gives `C`). */
export function lastTypeIdentifier(node: Node | null): Node | null {
  let t = node;
  while (t && t.type !== 'type_identifier' && t.type !== 'identifier') {
    if (t.type === 'generic_type' || t.type === 'generic_name') t = t.namedChildren[0];
    else if (t.type === 'scoped_type_identifier' || t.type === 'qualified_name')
      t = t.namedChildren[t.namedChildren.length - 1];
    else return null;
  }
  return t;
}
