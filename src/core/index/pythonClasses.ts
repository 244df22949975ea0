import { all, type Database } from '../store/sqlite';
import type { FieldTypes } from './fieldTypes';
import { PY_BUILTINS } from './extractors/pyAnnotations';
import { MAX_FAMILY, type Heritage } from './heritage';
import type { CallerConfidence } from './indexTypes';
import { lastSegment } from './indexRows';


/**
 * A Python call whose receiver the code types as `type`, neither the method's class nor one of its
 * family: whether it may still reach the method. Not where the receiver is a builtin, a library's
 * class, or a workspace class that has a method of that name itself (or through its bases): that is
 * the one called. Likely where the class has no such method (a mixin's or a template method's
 * `self.save()`, which the class mixed in provides), where it is a Protocol (matched by shape, not
 * by inheritance), and where the name is no class the workspace defines (an alias, a type variable):
 * reading the code alone cannot rule it out.
 */
export function pyOtherClass(
  db: Database,
  heritage: Heritage,
  type: string,
  method: string,
  file: string,
  fields: FieldTypes,
  cache: Map<string, CallerConfidence | undefined>,
): CallerConfidence | undefined {
  const name = lastSegment(type);
  if (PY_BUILTINS.has(name)) return undefined;
  const key = `${type}\0${file}`;
  if (cache.has(key)) return cache.get(key);
  let verdict: CallerConfidence | undefined;
  const kinds = classDeclares(db, heritage, name, method);
  if (kinds === 'declares') verdict = undefined;
  else if (kinds === 'class') verdict = 'likely';
  else verdict = fields.fromLibrary(file, type) ? undefined : 'likely';
  cache.set(key, verdict);
  return verdict;
}

/** Whether a workspace class of this name, or a base of it, has the method; 'class' when none does; 'none' when no such class. */
function classDeclares(db: Database, heritage: Heritage, name: string, method: string): 'declares' | 'class' | 'none' {
  const exists = all(db, "SELECT 1 FROM symbols s JOIN files f ON f.id = s.file WHERE s.name = ? AND s.kind = 'class' AND f.lang = 'python' LIMIT 1", [name]).length > 0;
  if (!exists) return 'none';
  const seen = new Set([name]);
  const queue = [name];
  for (let i = 0; i < queue.length && i < MAX_FAMILY; i++) {
    const supers = heritage.supersOf('python', queue[i]);
    if (supers.includes('Protocol')) return 'class';
    if (all(db, "SELECT 1 FROM symbols s JOIN files f ON f.id = s.file WHERE s.container = ? AND s.name = ? AND s.kind = 'method' AND f.lang = 'python' LIMIT 1", [queue[i], method]).length) return 'declares';
    for (const s of supers) {
      if (seen.has(s)) continue;
      seen.add(s);
      queue.push(s);
    }
  }
  return 'class';
}
