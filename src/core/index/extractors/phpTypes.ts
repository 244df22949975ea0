import type { Node } from '@vscode/tree-sitter-wasm';
import { COMMENT, leadingSiblings, type ExtractionContext, type Frame } from './context';
import { ELEMENTS, FIELD_OF, METHOD_OF, RESULT_OF } from '../facts';
import { collectNarrowing, narrowedType, type Narrowing } from './phpNarrowing';

// PHP: what the code itself says of a receiver's class. A parameter's type (`FunFunFactory $factory`,
// `?Logger $logger`, `Foo|null $foo`), a variable bound only to `new Foo(…)`, and on `$this->x` a
// property's declared type, a promoted constructor parameter's, or what the constructor assigns it
// from a typed parameter or a `new`; a doc block's `@param`, `@var` and `@return` where the code
// declares no type; and what a call returns (`()getFactory`, which the index answers from the
// method's return type). Anything else, or a name bound two ways, stays unknown.

/** Most nodes of one function body read for its variables. */
const MAX_SCAN = 20_000;
/** Types that say nothing of a class. */
const UNTYPED = new Set(['mixed', 'object', 'callable', 'iterable', 'self', 'static', 'parent']);
/** Nodes with nothing inside that binds or checks a variable: not descended into. */
const TERMINAL = new Set([
  'name',
  'variable_name',
  'qualified_name',
  'namespace_name',
  'string',
  'encapsed_string',
  'heredoc',
  'nowdoc',
  'integer',
  'float',
  'boolean',
  'null',
  'comment',
  'named_type',
  'primitive_type',
  'optional_type',
  'union_type',
  'class_constant_access_expression',
]);
/** Scopes of their own inside a body: their variables are not the function's. */
const OWN_SCOPES = new Set([
  'anonymous_function',
  'anonymous_function_creation_expression',
  'arrow_function',
  'class_declaration',
  'function_definition',
  'method_declaration',
]);

/** Longest doc block read for types. */
const MAX_DOC = 8_000;
/** One doc tag's type and, for `@param` and `@var`, its variable; each part bounded, so linear. */
const DOC_TAG = /@(param|var|return)[ \t]+(\S{1,200})(?:[ \t]+(?:\.\.\.)?&?\$(\w{1,100}))?/g;
const DOC_NAME = /^\\?[A-Za-z_][\w\\]*$/;
/** `list<Link>`, `array<string, Link>`, `iterable<Link>`: the element type after the last comma. */
const DOC_COLLECTION = /^(?:non-empty-)?(?:array|list|iterable)<([^<>]{1,200})>$/i;

/** A union's parts, split at `|` outside `<…>`. */
function unionParts(text: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let from = 0;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (ch === '<') depth++;
    else if (ch === '>') depth = Math.max(0, depth - 1);
    else if (ch === '|' && depth === 0) {
      parts.push(text.slice(from, i));
      from = i + 1;
    }
  }
  parts.push(text.slice(from));
  return parts;
}

function docClass(part: string): string | undefined {
  if (!DOC_NAME.test(part) || UNTYPED.has(part.toLowerCase())) return undefined;
  return part.slice(part.lastIndexOf('\\') + 1);
}

/**
 * The one class (or primitive) a doc block's type names (`?Foo`, `Foo|null`, `\\A\\Foo`); `$this`, `self`
 * and `static` name `container`. An array of one class (`Foo[]`, `list<Foo>`, `array<string, Foo>`) is
 * that class and ELEMENTS.
 */
export function phpDocType(text: string, container?: string): string | undefined {
  const parts = unionParts(text.replace(/^\?/, '')).filter((p) => p.toLowerCase() !== 'null');
  if (parts.length !== 1) return undefined;
  const part = parts[0];
  const lower = part.toLowerCase();
  if (lower === '$this' || lower === 'self' || lower === 'static') return container;
  const collection = part.endsWith(ELEMENTS)
    ? part.slice(0, -ELEMENTS.length)
    : DOC_COLLECTION.exec(part)?.[1].split(',').pop()?.trim();
  if (collection !== undefined) {
    const element = docClass(collection);
    return element && `${element}${ELEMENTS}`;
  }
  return docClass(part);
}

/** The `@param` and `@var` (by `$name`), `@return` (as `return`) and a property's `@var` (as `var`) types of a `/** … *\/` doc block. */
function docTags(comment: string, container?: string): Map<string, string> {
  const out = new Map<string, string>();
  if (!comment.startsWith('/**') || comment.length > MAX_DOC) return out;
  // `array<string, Link>` read as one word.
  for (const m of comment.replace(/,[ \t]+/g, ',').matchAll(DOC_TAG)) {
    const type = phpDocType(m[2], container);
    if (!type) continue;
    if (m[1] === 'return') out.set('return', type);
    else if (m[3]) out.set(`$${m[3]}`, type);
    else if (m[1] === 'var') out.set('var', type);
  }
  return out;
}

/** The doc block right above a declaration, read for its tags. */
function docOf(node: Node, container?: string): Map<string, string> {
  const doc = leadingSiblings(node, COMMENT, 4).find((c) => c.text.startsWith('/**'));
  return doc ? docTags(doc.text, container) : new Map<string, string>();
}

/** What a method or function declares it returns (its type, else its doc block's `@return`); `self`, `static` and `$this` are `container`. */
export function phpReturnType(fn: Node, container?: string): string | undefined {
  const declared = fn.childForFieldName('return_type');
  if (declared) {
    const own =
      declared.type === 'named_type' || declared.type === 'optional_type'
        ? declared.text.replace(/^\?/, '').toLowerCase()
        : '';
    if (own === 'self' || own === 'static') return container;
    const type = phpTypeName(declared);
    // A declared `object`, `mixed` or `iterable` says less than the doc block may, and `array` less than its `Link[]`.
    if (isArray(declared)) return docArray(docOf(fn, container).get('return')) ?? type;
    if (type || !['mixed', 'object'].includes(declared.text.toLowerCase())) return type;
  }
  return docOf(fn, container).get('return');
}

/** Whether a declared type is `array` or `iterable` (or a nullable one): what a doc block's `Link[]` tells more of. */
function isArray(node: Node | undefined): boolean {
  const text = node?.text.replace(/^\?/, '').toLowerCase();
  return text === 'array' || text === 'iterable';
}

/** A doc block's type when it is an array of one class (`Link[]`); undefined otherwise. */
function docArray(type: string | undefined): string | undefined {
  return type?.endsWith(ELEMENTS) ? type : undefined;
}

/** The one class (or primitive) a type names, by its last name; undefined for a union of several, an intersection or no type. */
export function phpTypeName(node: Node | null | undefined): string | undefined {
  if (!node) return undefined;
  if (node.type === 'named_type') {
    const n = node.namedChildren[0];
    const text = n?.type === 'qualified_name' ? n.namedChildren[n.namedChildren.length - 1]?.text : n?.text;
    return text && !UNTYPED.has(text.toLowerCase()) ? text : undefined;
  }
  if (node.type === 'optional_type') return phpTypeName(node.namedChildren[0]);
  if (node.type === 'primitive_type')
    return UNTYPED.has(node.text.toLowerCase()) || node.text === 'null' ? undefined : node.text;
  if (node.type === 'union_type') {
    const parts = node.namedChildren.filter(
      (c) => c && !(c.type === 'primitive_type' && c.text.toLowerCase() === 'null'),
    );
    return parts.length === 1 ? phpTypeName(parts[0]) : undefined;
  }
  return undefined;
}

function typeChild(node: Node): Node | undefined {
  return (
    node.namedChildren.find(
      (c) =>
        c?.type === 'named_type' ||
        c?.type === 'optional_type' ||
        c?.type === 'union_type' ||
        c?.type === 'primitive_type',
    ) ?? undefined
  );
}

function variableOf(node: Node): string | undefined {
  const v = node.type === 'variable_name' ? node : node.namedChildren.find((c) => c?.type === 'variable_name');
  return v?.text.slice(1) || undefined;
}

/** Records a binding; a second, different one makes the name unknown (''). */
function bind(locals: Map<string, string>, key: string, type: string | undefined): void {
  const prev = locals.get(key);
  locals.set(key, prev === undefined || prev === (type ?? '') ? (type ?? '') : '');
}

/**
 * A function's typed parameters and the variables its body binds (`$x` keys), read once when the
 * function opens; with `narrowed`, also where its checks (`$x instanceof Foo`) say more. Its class's
 * `properties` (`this.x` keys) type loops over them.
 */
// eslint-disable-next-line max-lines-per-function, complexity -- one walk over a function body, a case per assignment and narrowing form
export function phpFunctionLocals(
  fn: Node,
  narrowed?: Narrowing[],
  properties?: ReadonlyMap<string, string>,
): Map<string, string> {
  const locals = new Map<string, string>();
  const declared = new Set<string>();
  const doc = fn.type === 'method_declaration' || fn.type === 'function_definition' ? docOf(fn) : undefined;
  for (const p of fn.childForFieldName('parameters')?.namedChildren ?? []) {
    if (p?.type !== 'simple_parameter' && p?.type !== 'property_promotion_parameter') continue;
    const name = variableOf(p);
    if (!name) continue;
    const native = typeChild(p);
    const type = isArray(native)
      ? (docArray(doc?.get(`$${name}`)) ?? phpTypeName(native))
      : (phpTypeName(native) ?? (native ? undefined : doc?.get(`$${name}`)));
    bind(locals, `$${name}`, type);
    if (type) declared.add(`$${name}`);
  }
  const body = fn.childForFieldName('body');
  if (!body) return locals;
  const text = body.text;
  // Checks are read only where there are some.
  const checks = narrowed && (text.includes('instanceof') ? narrowed : undefined);
  const vars = text.includes('@var');
  const stack: Node[] = [body];
  const later: Array<[key: string, receiver: string, method: string]> = [];
  for (let seen = 0; stack.length && seen < MAX_SCAN; seen++) {
    const n = stack.pop()!;
    const type = n.type;
    if (OWN_SCOPES.has(type)) continue;
    if (checks) collectNarrowing(n, type, checks);
    if (type === 'assignment_expression') {
      const left = n.childForFieldName('left');
      const key = left?.type === 'variable_name' ? left.text : undefined;
      const right = n.childForFieldName('right');
      // A typed parameter keeps its type: PHP checks what is passed, and reassigning one is rare.
      // `$x = null` first says nothing of what `$x` later holds.
      if (key && !declared.has(key) && right?.type !== 'null') {
        bind(
          locals,
          key,
          valueType(right, (o) => declaredClass(o, locals, declared, properties)),
        );
        // `$x = $y->m()` with `$y` bound further on (`$y = new Foo()`): read once the whole body is.
        const object = right?.type === 'member_call_expression' ? right.childForFieldName('object') : null;
        if (object?.type === 'variable_name' && !declared.has(object.text))
          later.push([key, object.text, calledName(right!) ?? '']);
      }
    } else if (type === 'comment' && vars && n.text.includes('@var')) {
      // `/** @var Foo $x */` says what the code cannot: the variable's type from here on.
      for (const [key, type] of docTags(n.text))
        if (key.startsWith('$') && !declared.has(key)) {
          locals.set(key, type);
          declared.add(key);
        }
    }
    if (!TERMINAL.has(type)) for (const c of n.namedChildren) if (c) stack.push(c);
  }
  for (const [key, receiver, method] of later) {
    const owner = locals.get(receiver);
    if (owner && PLAIN_CLASS.test(owner) && locals.get(key) === `${RESULT_OF}${method}`)
      locals.set(key, `${RESULT_OF}${owner}${METHOD_OF}${method}`);
  }
  // `foreach ($xs as $x)`, `list($a) = …`, `catch (E $e)`: bound some other way, unknown unless typed.
  if (text.includes('foreach') || text.includes('catch')) {
    for (const node of body.descendantsOfType(['foreach_statement', 'catch_clause'])) {
      if (!node) continue;
      if (node.type === 'catch_clause') {
        const name = node.childForFieldName('name')?.text;
        if (name && !declared.has(name))
          bind(
            locals,
            name,
            phpTypeName(
              node.childForFieldName('type')?.namedChildren.length === 1
                ? node.childForFieldName('type')!.namedChildren[0]
                : undefined,
            ),
          );
      } else {
        // `foreach ($links as $k => $link)`: the value is an element of what is iterated, the key unknown.
        const element = elementOf(node.namedChildren[0], locals, properties);
        for (const v of node.namedChildren.slice(1)) {
          if (v?.type === 'pair') {
            const [key, value] = [v.namedChildren[0], v.namedChildren[v.namedChildren.length - 1]];
            if (key?.type === 'variable_name' && !declared.has(key.text)) bind(locals, key.text, undefined);
            if (value?.type === 'variable_name' && !declared.has(value.text)) bind(locals, value.text, element);
          } else if (v?.type === 'variable_name' && !declared.has(v.text)) bind(locals, v.text, element);
        }
      }
    }
  }
  return locals;
}

/** While a body is read: a typed parameter's or `@var` variable's class, or an own property's. */
function declaredClass(
  node: Node,
  locals: ReadonlyMap<string, string>,
  declared: ReadonlySet<string>,
  properties?: ReadonlyMap<string, string>,
): string | undefined {
  if (node.type === 'variable_name') return declared.has(node.text) ? locals.get(node.text) : undefined;
  if (node.type !== 'member_access_expression' || node.childForFieldName('object')?.text !== '$this') return undefined;
  return properties?.get(`this.${node.childForFieldName('name')?.text ?? ''}`);
}

/** What iterating a value gives: an array variable's or own property's class (`Link[]`), or the elements of a call's result (`()getRequires[]`). */
function elementOf(
  node: Node | null | undefined,
  locals: ReadonlyMap<string, string>,
  properties?: ReadonlyMap<string, string>,
): string | undefined {
  const own =
    node?.type === 'member_access_expression' && node.childForFieldName('object')?.text === '$this'
      ? node.childForFieldName('name')
      : undefined;
  const type =
    node?.type === 'variable_name'
      ? locals.get(node.text)
      : own
        ? properties?.get(`this.${own.text}`)
        : valueType(node);
  if (!type) return undefined;
  if (type.startsWith(RESULT_OF)) return type.endsWith(ELEMENTS) ? undefined : `${type}${ELEMENTS}`;
  return type.endsWith(ELEMENTS) ? type.slice(0, -ELEMENTS.length) : undefined;
}

/** The function or method a call calls, by its last name: `m` in `$x->m()`, `X::m()`, `\\ns\\m()`. */
function calledName(node: Node): string | undefined {
  const name =
    node.type === 'function_call_expression' ? node.childForFieldName('function') : node.childForFieldName('name');
  if (name?.type === 'name') return name.text;
  if (name?.type === 'qualified_name') return name.namedChildren[name.namedChildren.length - 1]?.text;
  return undefined;
}

const CALLS = new Set([
  'member_call_expression',
  'nullsafe_member_call_expression',
  'scoped_call_expression',
  'function_call_expression',
]);

/** What a value is: the class a `new` makes, or RESULT_OF and the name of the call that gives it. */
function valueType(node: Node | null | undefined, classOf?: (object: Node) => string | undefined): string | undefined {
  if (!node) return undefined;
  if (node.type === 'parenthesized_expression') return valueType(node.namedChildren[0], classOf);
  if (CALLS.has(node.type)) {
    const name = calledName(node);
    if (!name) return undefined;
    // A method of a receiver whose class the code says: that class's method (`()ContainerBuilder#getDefinition`).
    const object =
      node.type === 'member_call_expression' || node.type === 'nullsafe_member_call_expression'
        ? node.childForFieldName('object')
        : null;
    const owner = object && classOf?.(object);
    return owner && PLAIN_CLASS.test(owner) ? `${RESULT_OF}${owner}${METHOD_OF}${name}` : `${RESULT_OF}${name}`;
  }
  return newType(node);
}

/** A class by its name alone: no call's result, field or array. */
const PLAIN_CLASS = /^[A-Za-z_]\w*$/;

/** The class a `new Foo(…)` makes; undefined for anything else. */
function newType(node: Node | null): string | undefined {
  if (node?.type !== 'object_creation_expression') return undefined;
  const n = node.namedChildren.find((c) => c?.type === 'name' || c?.type === 'qualified_name');
  const text = n?.type === 'qualified_name' ? n.namedChildren[n.namedChildren.length - 1]?.text : n?.text;
  return text && !UNTYPED.has(text.toLowerCase()) ? text : undefined;
}

/**
 * A class's property types as `this.x` keys: declared types, promoted constructor parameters, and
 * what the constructor assigns an untyped property from a typed parameter or a `new`.
 */
// eslint-disable-next-line complexity -- one case per form of property declaration and promotion
export function phpClassProperties(cls: Node): Map<string, string> {
  const props = new Map<string, string>();
  const body = cls.childForFieldName('body');
  const typed = new Set<string>();
  for (const member of body?.namedChildren ?? []) {
    if (member?.type === 'property_declaration') {
      const native = typeChild(member);
      const doc = !native || isArray(native) ? docOf(member) : undefined;
      for (const el of member.namedChildren) {
        const name = el?.type === 'property_element' ? variableOf(el) : undefined;
        const documented = doc?.get('var') ?? doc?.get(`$${name}`);
        const type = !native
          ? documented
          : isArray(native)
            ? (docArray(documented) ?? phpTypeName(native))
            : phpTypeName(native);
        if (!name || !type) continue;
        props.set(`this.${name}`, type);
        typed.add(name);
      }
    } else if (member?.type === 'method_declaration' && member.childForFieldName('name')?.text === '__construct') {
      const params = phpFunctionLocals(member);
      for (const p of member.childForFieldName('parameters')?.namedChildren ?? []) {
        const name = p?.type === 'property_promotion_parameter' ? variableOf(p) : undefined;
        const type = name && params.get(`$${name}`);
        if (name && type) {
          props.set(`this.${name}`, type);
          typed.add(name);
        }
      }
      for (const a of member.childForFieldName('body')?.descendantsOfType('assignment_expression') ?? []) {
        const left = a?.childForFieldName('left');
        if (left?.type !== 'member_access_expression' || left.childForFieldName('object')?.text !== '$this') continue;
        const name = left.childForFieldName('name')?.text;
        if (!name || typed.has(name)) continue;
        const right = a!.childForFieldName('right');
        const type = right?.type === 'variable_name' ? params.get(right.text) || undefined : valueType(right);
        bind(props, `this.${name}`, type);
      }
    }
  }
  return props;
}

/**
 * The class the code says a call's receiver is: a typed or bound variable, `$this->prop`, a `new`, or
 * RESULT_OF and a call's name for what that call returns; FIELD_OF and `Class.prop` for a property
 * this class does not type, which a base may.
 */
export function phpReceiverType(node: Node | null, ctx: ExtractionContext): string | undefined {
  if (!node) return undefined;
  if (node.type !== 'variable_name' && node.type !== 'member_access_expression')
    return valueType(node, (o) => phpReceiverType(o, ctx));
  if (node.type === 'variable_name' && node.text !== '$this')
    return variableType(ctx.frames, node.text, node.startIndex);
  if (node.type === 'member_access_expression' && node.childForFieldName('object')?.text === '$this') {
    const name = node.childForFieldName('name');
    if (name?.type !== 'name') return undefined;
    const cls = [...ctx.frames].reverse().find((f) => f.container);
    const own = cls?.locals?.get(`this.${name.text}`);
    // A property this class does not declare may be one a base does: the index looks it up there.
    if (own === undefined) return cls?.container ? `${FIELD_OF}${cls.container}.${name.text}` : undefined;
    return own || undefined;
  }
  return undefined;
}

/** A variable's type at `at`: what a check there says, else a closure's own, else what the scope around it binds, up to the named function. */
function variableType(frames: readonly Frame[], key: string, at: number): string | undefined {
  for (let i = frames.length - 1; i >= 0; i--) {
    const f = frames[i];
    if (!f.fn && !f.ownScope) continue;
    const t = narrowedType(f.narrowed, key, at) ?? f.locals?.get(key);
    if (t !== undefined || f.fn) return t || undefined;
  }
  return undefined;
}
