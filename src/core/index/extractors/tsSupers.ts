import type { Node } from '@vscode/tree-sitter-wasm';

// What a TypeScript or JavaScript class or interface extends and implements, as the file writes it.

/** Most base names kept for one class or interface. */
const MAX_SUPERS = 16;

/**
 * What a class extends and implements, as written: `extends ns.Base<T> implements I, J<X>` gives
 * ns.Base, I, J. A JavaScript mixin call (`extends Mixin(Base)`) gives the classes passed to it.
 */
export function classSupers(node: Node): string[] {
  const heritage = node.namedChildren.find((c) => c?.type === 'class_heritage');
  if (!heritage) return [];
  const out: string[] = [];
  const base = (expr: Node | null | undefined) => {
    if (!expr) return;
    if (expr.type === 'identifier' || expr.type === 'member_expression') out.push(writtenName(expr.text));
    else if (expr.type === 'call_expression')
      for (const a of expr.childForFieldName('arguments')?.namedChildren ?? []) base(a);
  };
  for (const c of heritage.namedChildren) {
    if (!c) continue;
    if (c.type === 'extends_clause') base(c.childForFieldName('value'));
    else if (c.type === 'implements_clause') out.push(...typeNames(c));
    else base(c); // JavaScript: the base expression right in the heritage
  }
  return [...new Set(out)].slice(0, MAX_SUPERS);
}

/** The type names of an `implements` or interface `extends` clause, as written (`vscode.TreeDataProvider`). */
export function typeNames(clause: Node): string[] {
  const out: string[] = [];
  for (const t of clause.namedChildren) {
    const named = t?.type === 'generic_type' ? (t.childForFieldName('name') ?? t.namedChildren[0]) : t;
    if (
      named &&
      (named.type === 'type_identifier' ||
        named.type === 'nested_type_identifier' ||
        named.type === 'identifier' ||
        named.type === 'member_expression')
    )
      out.push(writtenName(named.text));
  }
  return [...new Set(out)].slice(0, MAX_SUPERS);
}

/**
 * A base's name as the file writes it, without spaces: the namespace it is read through
 * (`vscode.FileSystemProvider`) tells a library's type from the workspace's class of the same name.
 */
function writtenName(text: string): string {
  return text.replace(/\s+/g, '');
}
