import type { Node } from '@vscode/tree-sitter-wasm';
import type { SymbolKind } from '../facts';
import { addSymbol, currentContainer, type ExtractionContext, type Frame } from './context';

/** What differs between Java and C# declarations; the rest of their rules is shared below. */
export interface DeclarationRules {
  /** The declaration itself says `public`. */
  declaredPublic(node: Node): boolean;
  deprecated(node: Node): boolean;
}

/** Visible outside its package: public itself and inside a visible type, or any member of a visible interface. */
function visible(node: Node, owner: Frame | undefined, rules: DeclarationRules): boolean {
  if (owner?.containerKind === 'interface') return owner.containerExported ?? false;
  const pub = rules.declaredPublic(node);
  return owner ? pub && !!owner.containerExported : pub;
}

/** A class, interface, record, struct or enum: a definition and a container for the members inside. */
export function typeDeclaration(
  node: Node,
  ctx: ExtractionContext,
  kind: SymbolKind,
  rules: DeclarationRules,
): Frame | undefined {
  const name = node.childForFieldName('name')?.text;
  if (!name) return undefined;
  const owner = currentContainer(ctx);
  const exported = visible(node, owner, rules);
  addSymbol(ctx, node, name, kind, exported ? 1 : 0, rules.deprecated(node), owner?.container);
  return {
    depth: ctx.depth,
    container: name,
    containerExported: exported,
    containerKind: kind === 'interface' ? 'interface' : 'class',
  };
}

/** A method or constructor of `owner`, or a function when there is none (a local function). */
export function methodDeclaration(
  node: Node,
  ctx: ExtractionContext,
  owner: Frame | undefined,
  rules: DeclarationRules,
): Frame | undefined {
  const name = node.childForFieldName('name')?.text;
  if (!name) return undefined;
  addSymbol(
    ctx,
    node,
    name,
    owner ? 'method' : 'function',
    visible(node, owner, rules) ? 1 : 0,
    rules.deprecated(node),
    owner?.container,
  );
  return { depth: ctx.depth, fn: name };
}
