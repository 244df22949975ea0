import type { Node } from '@vscode/tree-sitter-wasm';
import { addCall, qualifierOf, type ExtractionContext } from './context';

// React components in JavaScript and TypeScript: which definitions are components, and JSX elements
// as their call sites.

const WRAPPERS = new Set(['memo', 'forwardRef']);
const COMPONENT_BASES = new Set(['Component', 'PureComponent', 'React.Component', 'React.PureComponent']);

/** Capitalized: JSX treats such a name as a component, a lower-case one as an HTML element. */
export function isComponentName(name: string): boolean {
  const c = name.charCodeAt(0);
  return c >= 65 && c <= 90;
}

/** PascalCase, not all capitals: `Page` renders, `GET` is a route handler that may build JSX too. */
function isPascalCase(name: string): boolean {
  return isComponentName(name) && name !== name.toUpperCase();
}

/** `memo(…)`, `forwardRef(…)`, `React.memo(…)`, `React.forwardRef(…)` (also around each other). */
export function isComponentWrapper(node: Node | null): boolean {
  if (node?.type !== 'call_expression') return false;
  const fn = node.childForFieldName('function');
  if (fn?.type === 'identifier') return WRAPPERS.has(fn.text);
  if (fn?.type !== 'member_expression' || fn.childForFieldName('object')?.text !== 'React') return false;
  return WRAPPERS.has(fn.childForFieldName('property')?.text ?? '');
}

/** `class X extends React.Component` (or Component, PureComponent). */
export function extendsReactComponent(classNode: Node): boolean {
  const heritage = classNode.namedChildren.find((c) => c?.type === 'class_heritage');
  if (!heritage) return false;
  // TypeScript wraps the base in an extends clause; JavaScript puts the expression right there.
  const clause = heritage.namedChildren.find((c) => c?.type === 'extends_clause');
  const base = clause ? clause.childForFieldName('value') : heritage.namedChildren[0];
  return (base?.type === 'identifier' || base?.type === 'member_expression') && COMPONENT_BASES.has(base.text);
}

/**
 * An opening or self-closing JSX element: the function around it renders JSX (a PascalCase one is
 * then a component), and a component's name is a call site of that component (`<X/>`, `<ns.X/>`).
 * Closing tags are not visited: one element is one use.
 */
export function visitJsxElement(node: Node, ctx: ExtractionContext): undefined {
  for (let i = ctx.frames.length - 1; i >= 0; i--) {
    const f = ctx.frames[i];
    if (f.container) break;
    if (!f.fn) continue;
    const def = f.definition;
    if (def?.kind === 'function' && isPascalCase(def.name)) def.kind = 'component';
    break;
  }
  const name = node.childForFieldName('name');
  if (name?.type === 'identifier' && isComponentName(name.text)) addCall(ctx, name);
  else if (name?.type === 'member_expression')
    addCall(ctx, name.childForFieldName('property'), qualifierOf(name.childForFieldName('object')));
  return undefined;
}
