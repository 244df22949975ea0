import type { Node } from '@vscode/tree-sitter-wasm';
import type { PyScope } from './pyAnnotations';

// Python: the names a body binds and what each is bound to, statement by statement, for pyTypes.ts
// to read their types.

/** Most binding nodes of one body read for its variables: a generated module's function stops early. */
const MAX_SCAN_NODES = 20_000;

/**
 * How a name is bound to a value: as the value itself, as what iterating it gives (`for x in v`),
 * as an instance of the class it names (`except E as e`), or as what `with v as x` gives (an instance
 * made there, never a function's result: a context manager's `__enter__` may give anything).
 */
export type BindKind = 'value' | 'element' | 'instance' | 'context';
/** A name bound to a value (read as `kind` says) or to what an annotation declares; null when unread. */
type Bind = (name: string, value: Node | null, annotation?: Node | null, kind?: BindKind) => void;

/** Every name a body binds, with the value or annotation bound; null when the value is not one expression's. */
// eslint-disable-next-line complexity -- one case per form of binding statement
export function bindings(body: Node, scope: PyScope, bind: Bind): boolean {
  const nodes = scopeNodes(body);
  for (const n of nodes) {
    switch (n.type) {
      case 'function_definition':
      case 'class_definition': {
        const name = n.childForFieldName('name');
        if (name) bind(name.text, null);
        break;
      }
      case 'assignment': {
        // `a = b = Foo()`: each target gets the last value.
        let value = n.childForFieldName('right');
        const lefts = [n.childForFieldName('left')];
        for (let i = 0; value?.type === 'assignment' && i < 16; i++) {
          lefts.push(value.childForFieldName('left'));
          value = value.childForFieldName('right');
        }
        for (const left of lefts) {
          if (left?.type === 'identifier')
            bind(left.text, value, left === lefts[0] ? n.childForFieldName('type') : undefined);
          else if (left) targets(left, bind);
        }
        break;
      }
      case 'case_clause':
        // `case Bar() as c:`, `case c:`: names a pattern binds, each unknown.
        for (const c of n.namedChildren)
          if (c && c.type !== 'block' && c.type !== 'if_clause') for (const id of idents(c)) bind(id.text, null);
        break;
      case 'for_statement':
      case 'for_in_clause': {
        const left = n.childForFieldName('left');
        if (left?.type === 'identifier') bind(left.text, n.childForFieldName('right'), undefined, 'element');
        else if (left) targets(left, bind);
        break;
      }
      case 'augmented_assignment': {
        const left = n.childForFieldName('left');
        if (left) targets(left, bind);
        break;
      }
      case 'named_expression': {
        const name = n.childForFieldName('name');
        if (name) bind(name.text, n.childForFieldName('value'));
        break;
      }
      case 'as_pattern': {
        const alias = n.childForFieldName('alias');
        const value = n.namedChildren[0];
        // `except HTTPError as e`: an instance of the class named; `with Client() as c`: what the call makes.
        const caught =
          n.parent?.type === 'except_clause' && (value?.type === 'identifier' || value?.type === 'attribute')
            ? value
            : undefined;
        const names = alias ? idents(alias) : [];
        if (caught && names.length === 1) bind(names[0].text, caught, undefined, 'instance');
        else for (const id of names) bind(id.text, names.length === 1 ? value : null, undefined, 'context');
        break;
      }
      case 'import_statement':
      case 'import_from_statement':
        // `import a.b` binds a; `from m import x as y` binds y, and never m.
        for (const name of n.childrenForFieldName('name')) {
          const local =
            name?.type === 'aliased_import'
              ? name.childForFieldName('alias')
              : name?.type === 'dotted_name'
                ? name.namedChildren[n.type === 'import_statement' ? 0 : name.namedChildren.length - 1]
                : name;
          if (local?.type === 'identifier') bind(local.text, null);
        }
        break;
      default:
        // global, nonlocal: names bound to something unread.
        for (const id of idents(n)) bind(id.text, null);
    }
  }
  return nodes.length >= MAX_SCAN_NODES;
}

/** Statements that hold others: their blocks and clauses are read for bindings too. */
const COMPOUND = new Set([
  'block',
  'if_statement',
  'elif_clause',
  'else_clause',
  'while_statement',
  'try_statement',
  'except_clause',
  'except_group_clause',
  'finally_clause',
  'with_statement',
  'with_clause',
  'with_item',
  'match_statement',
]);
const BINDS_NAMES = new Set([
  'function_definition',
  'class_definition',
  'import_statement',
  'import_from_statement',
  'global_statement',
  'nonlocal_statement',
  'as_pattern',
]);

/**
 * The statements of a body that bind names, in source order: assignments, loops, `with … as`,
 * `except … as`, imports, nested definitions (whose own bodies are their own scopes). Read statement
 * by statement, never into expressions: a name bound inside one (`:=`) is left unread.
 */
export function scopeNodes(body: Node): Node[] {
  const out: Node[] = [];
  const collect = (node: Node) => {
    for (const c of node.namedChildren) {
      if (!c || out.length >= MAX_SCAN_NODES) return;
      if (c.type === 'expression_statement') {
        const e = c.namedChildren[0];
        if (e?.type === 'assignment' || e?.type === 'augmented_assignment') out.push(e);
      } else if (BINDS_NAMES.has(c.type)) out.push(c);
      else if (c.type === 'decorated_definition') {
        const def = c.childForFieldName('definition');
        if (def) out.push(def);
      } else if (c.type === 'for_statement') {
        out.push(c);
        collect(c);
      } else if (c.type === 'case_clause') {
        out.push(c);
        collect(c);
      } else if (COMPOUND.has(c.type)) {
        // `if (m := pattern.match(s)):`, `while (chunk := f.read()):`
        const condition = c.childForFieldName('condition');
        if (condition?.type === 'named_expression') out.push(condition);
        else if (
          condition?.type === 'parenthesized_expression' &&
          condition.namedChildren[0]?.type === 'named_expression'
        )
          out.push(condition.namedChildren[0]);
        collect(c);
      }
    }
  };
  collect(body);
  return out;
}

/** Names bound by a target (`a, b = …`, `for k, v in …`): each unknown. */
function targets(left: Node, bind: Bind): void {
  if (left.type === 'attribute' || left.type === 'subscript') return;
  for (const id of idents(left)) bind(id.text, null);
}

export function idents(node: Node, depth = 0): Node[] {
  if (node.type === 'identifier') return [node];
  const out: Node[] = [];
  // Deeper nesting than any real target (`((((a,),),),)` by the thousand) binds nothing read.
  if (depth > 32) return out;
  for (const c of node.namedChildren)
    if (c && c.type !== 'attribute' && c.type !== 'subscript') out.push(...idents(c, depth + 1));
  return out;
}
