import type { Node } from '@vscode/tree-sitter-wasm';
import { FIELD_OF } from '../facts';
import { annotationType, declaredType, ELEMENTS, type PyScope } from './pyAnnotations';
import { scopeNodes } from './pyBindings';
import { declare, functionLocals, valueType } from './pyTypes';

// Python: the fields a class gives its instances, as its body and its methods say.

/** Most fields kept per class. */
const MAX_FIELDS = 256;

/**
 * The fields a class gives its instances and their classes: annotations in its body
 * (`session_interface: SessionInterface`), `self.x = …` in its methods (from a parameter's annotation,
 * a class called, another field), and properties by their return annotation. A field bound to two
 * classes is left out; `None` binds nothing.
 */
// eslint-disable-next-line complexity -- one case per form of field assignment
export function classFields(
  cls: Node,
  scope: PyScope,
): { fields?: Record<string, string>; elements: ReadonlyMap<string, string> } {
  const declared = new Map<string, string>();
  const assigned = new Map<string, string>();
  const body = cls.childForFieldName('body');
  for (const stmt of body?.namedChildren ?? []) {
    if (!stmt) continue;
    const def = stmt.type === 'decorated_definition' ? stmt.childForFieldName('definition') : stmt;
    if (stmt.type === 'expression_statement') {
      const a = stmt.namedChildren[0];
      const left = a?.type === 'assignment' ? a.childForFieldName('left') : undefined;
      if (a && left?.type === 'identifier') {
        const annotation = a.childForFieldName('type');
        if (annotation) declare(declared, left.text, declaredType(annotation, scope));
      }
    } else if (def?.type === 'function_definition') {
      const decorators =
        stmt.type === 'decorated_definition'
          ? stmt.namedChildren.filter((d) => d?.type === 'decorator').map((d) => d!.text)
          : [];
      const name = def.childForFieldName('name')?.text;
      if (name && decorators.some((d) => /^@\s*(?:\w+\.)?(?:cached_)?property\s*$/.test(d))) {
        declare(declared, name, annotationType(def.childForFieldName('return_type'), scope));
        continue;
      }
      if (decorators.some((d) => /^@\s*(?:staticmethod|classmethod)\b/.test(d))) continue;
      selfAssignments(def, scope, assigned);
    }
  }
  const fields: Record<string, string> = Object.create(null) as Record<string, string>;
  const elements = new Map<string, string>();
  let n = 0;
  for (const [field, type] of [...assigned, ...declared]) {
    if (declared.has(field) && declared.get(field) !== type) continue;
    elements.delete(field);
    // A field holding another field's value is left out: its class is the other field's to say. One
    // holding a call's result keeps the call (`self._transport = self._init_transport()`), read at query time.
    if (type && !type.startsWith(FIELD_OF) && n++ < MAX_FIELDS) {
      if (type.startsWith(ELEMENTS)) elements.set(field, type.slice(ELEMENTS.length));
      // As written (`httpcore.ConnectionPool`): whether the module is a library's, the declaring file's imports say.
      fields[field] = type.startsWith(ELEMENTS) ? 'list' : type;
    } else delete fields[field];
  }
  return { fields: Object.keys(fields).length ? fields : undefined, elements };
}

/** `self.x = value` in one method, each field's class from the method's own variables. */
function selfAssignments(fn: Node, scope: PyScope, assigned: Map<string, string>): void {
  const self = fn.childForFieldName('parameters')?.namedChildren[0];
  const body = fn.childForFieldName('body');
  if (self?.type !== 'identifier' || !body) return;
  let locals: Map<string, string> | undefined;
  const lookup = (name: string) => (locals ??= functionLocals(fn, scope, true, () => undefined)).get(name);
  for (const n of scopeNodes(body)) {
    if (n.type !== 'assignment') continue;
    const left = n.childForFieldName('left');
    const object = left?.type === 'attribute' ? left.childForFieldName('object') : undefined;
    const field = left?.childForFieldName('attribute')?.text;
    if (object?.type !== 'identifier' || object.text !== self.text || !field) continue;
    const annotation = n.childForFieldName('type');
    const right = n.childForFieldName('right');
    // `self.x = None` first, an instance later: the instance says what the field holds.
    if (annotation || right?.type !== 'none')
      declare(assigned, field, annotation ? declaredType(annotation, scope) : valueType(right, lookup, scope.modules));
  }
}
