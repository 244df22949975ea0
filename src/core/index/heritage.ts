import { all, one, type Database } from '../store/sqlite';
import { familyOf, type LangId } from './languages';
import { JS_GLOBAL_OBJECTS, JS_PRIMITIVE_TYPES } from './methodNames';

/** One class or interface definition: where it is and how it is exported (2: the default export). */
export interface TypeDefinition {
  path: string;
  name: string;
  exported: number;
}

/**
 * What each class and interface extends or implements, within one language family (JavaScript and
 * TypeScript, PHP): up by name (a base is known by its name alone), down by definition (the very
 * classes that name it as their base). Read whole from the index once, and again after the next write.
 */
export class Heritage {
  /** The declaring types of a method name, by name and languages: read once per state of the definitions. */
  private readonly owners = new Map<string, Map<string, TypeDefinition[]>>();

  private constructor(
    private readonly up: ReadonlyMap<string, readonly string[]>,
    private readonly down: ReadonlyMap<string, readonly TypeDefinition[]>,
  ) {}

  static read(db: Database): Heritage {
    const up = new Map<string, string[]>();
    const down = new Map<string, TypeDefinition[]>();
    const rows = all<{ name: string; supers: string; path: string; exported: number; lang: string }>(
      db,
      'SELECT s.name AS name, s.supers AS supers, f.path AS path, s.exported AS exported, f.lang AS lang FROM symbols s JOIN files f ON f.id = s.file WHERE s.supers IS NOT NULL',
    );
    const library = libraryNames(db);
    for (const r of rows) {
      const def: TypeDefinition = { path: r.path, name: r.name, exported: r.exported };
      const family = familyOf(r.lang as LangId);
      const own = key(family, r.name);
      for (const written of r.supers.split(' ')) {
        // JavaScript and TypeScript write a base as the file reads it (`vscode.TreeItem`): one the file
        // imports from a package outside the workspace is that library's, not a workspace class of its name.
        let s = written;
        if (family === 'js') {
          const dot = written.indexOf('.');
          if (library.get(r.path)?.has(dot < 0 ? written : written.slice(0, dot))) continue;
          s = written.slice(written.lastIndexOf('.') + 1);
        }
        if (!s || s === r.name) continue;
        const supers = up.get(own);
        if (!supers) up.set(own, [s]);
        else if (!supers.includes(s)) supers.push(s);
        const subs = down.get(key(family, s));
        if (!subs) down.set(key(family, s), [def]);
        else subs.push(def);
      }
    }
    return new Heritage(up, down);
  }

  /**
   * The top-level classes and interfaces of these languages that declare a method of this name. A
   * file may call a name that dozens of definitions declare (Python's `__init__` in a tree of type
   * stubs): each of them asks again, and the answer only changes with the definitions.
   */
  ownersOf(db: Database, method: string, langs: string): Map<string, TypeDefinition[]> {
    const key = `${langs}\0${method}`;
    let found = this.owners.get(key);
    if (!found) {
      if (this.owners.size >= MAX_OWNER_LISTS) this.owners.delete(this.owners.keys().next().value as string);
      this.owners.set(key, (found = methodOwners(db, method, langs)));
    }
    return found;
  }

  /** Whether the type has a base, an interface or a subtype. */
  has(family: Family, type: string): boolean {
    return this.up.has(key(family, type)) || this.down.has(key(family, type));
  }

  /** The names a type of this name extends or implements. */
  supersOf(family: Family, type: string): readonly string[] {
    return this.up.get(key(family, type)) ?? [];
  }

  /** The definitions that extend or implement a type of this name. */
  subsOf(family: Family, type: string): readonly TypeDefinition[] {
    return this.down.get(key(family, type)) ?? [];
  }
}

/**
 * The names each JavaScript or TypeScript file that declares a base imports from outside the
 * workspace (an import the index could not resolve to a file: `vscode`, `node:fs`, `react`).
 */
function libraryNames(db: Database): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  const rows = all<{ path: string; names: string }>(
    db,
    `SELECT f.path AS path, i.names AS names FROM imports i JOIN files f ON f.id = i.file
     WHERE i.resolved IS NULL AND f.lang IN ('typescript', 'tsx', 'javascript') AND i.file IN (SELECT file FROM symbols WHERE supers IS NOT NULL)`,
  );
  for (const r of rows) {
    let list: unknown;
    try {
      list = JSON.parse(r.names);
    } catch {
      continue; // An unreadable row names nothing.
    }
    if (!Array.isArray(list)) continue;
    let names = out.get(r.path);
    for (const n of list as Array<{ local?: unknown }>) {
      if (typeof n?.local !== 'string') continue;
      if (!names) out.set(r.path, (names = new Set()));
      names.add(n.local);
    }
  }
  return out;
}

type Family = ReturnType<typeof familyOf>;

/** Most classes and interfaces a method's family takes in besides its own class. */
export const MAX_FAMILY = 64;
/** Method names whose declaring types are kept between queries. */
const MAX_OWNER_LISTS = 256;

/** Most class and interface definitions whose imports a method's family follows. */
const MAX_FAMILY_DEFINITIONS = 128;

/**
 * The other classes and interfaces whose `method` a call may mean when it means `type`'s, as the
 * TypeScript language service counts references: the bases and interfaces that declare the method,
 * the classes and interfaces below one of them, and the bases declaring it of those in turn (an
 * interface's method a class inherits from its abstract base). Names, and the definitions to follow
 * imports from; empty when `type` has no relatives.
 */
export function methodFamily(
  db: Database,
  heritage: Heritage,
  family: Family,
  type: string,
  method: string,
  ownPath: string,
  langs: string,
): { names: string[]; definitions: TypeDefinition[] } {
  if (!heritage.has(family, type)) return { names: [], definitions: [] };
  // The classes and interfaces that declare the method, by name: read once.
  let owners: Map<string, TypeDefinition[]> | undefined;
  const declarationsOf = (t: string) => (owners ??= heritage.ownersOf(db, method, langs)).get(t) ?? [];
  // TypeScript relates sibling implementations through the interface they share; PHP's language
  // servers do not: there only the bases above and the classes below the method's own class count.
  const siblings = family === 'js';
  const names = new Set([type]);
  const definitions = new Map<string, TypeDefinition>([
    [`${ownPath}\0${type}`, { path: ownPath, name: type, exported: 0 }],
  ]);
  const queue = [type];
  const below = new Set([type]);
  const add = (d: TypeDefinition, under: boolean) => {
    const key = `${d.path}\0${d.name}`;
    if (definitions.has(key) || definitions.size > MAX_FAMILY_DEFINITIONS) return;
    definitions.set(key, d);
    if (under) below.add(d.name);
    if (!names.has(d.name) && names.size <= MAX_FAMILY) {
      names.add(d.name);
      queue.push(d.name);
    }
  };
  for (let i = 0; i < queue.length; i++) {
    // Up through every base, keeping those that declare the method.
    const seen = new Set([queue[i]]);
    const up = [queue[i]];
    for (let j = 0; j < up.length && seen.size <= MAX_FAMILY; j++) {
      for (const s of heritage.supersOf(family, up[j])) {
        if (seen.has(s)) continue;
        seen.add(s);
        up.push(s);
        for (const d of declarationsOf(s)) add(d, false);
      }
    }
    const under = below.has(queue[i]);
    if (siblings || under) for (const d of heritage.subsOf(family, queue[i])) add(d, under);
  }
  names.delete(type);
  definitions.delete(`${ownPath}\0${type}`);
  return { names: [...names], definitions: [...definitions.values()] };
}

/**
 * The top-level classes and interfaces of these languages (an SQL list) that declare a method of this name, by name.
 * The class is looked up by its name (`+c.file` keeps SQLite off the file's index): by file, each of
 * the 1,900 `__init__` of mypy's type stubs scanned every symbol of its stub, 90 ms for one name.
 */
function methodOwners(db: Database, method: string, langs: string): Map<string, TypeDefinition[]> {
  const owners = new Map<string, TypeDefinition[]>();
  const rows = all<TypeDefinition>(
    db,
    `SELECT DISTINCT f.path AS path, c.name AS name, c.exported AS exported FROM symbols m JOIN files f ON f.id = m.file JOIN symbols c ON +c.file = m.file AND c.name = m.container WHERE m.name = ? AND m.kind = 'method' AND f.lang IN ${langs} AND c.container IS NULL AND c.kind IN ('class', 'interface', 'component')`,
    [method],
  );
  for (const r of rows) {
    const defs = owners.get(r.name);
    if (!defs) owners.set(r.name, [r]);
    else defs.push(r);
  }
  return owners;
}

/**
 * A JavaScript or TypeScript type and its bases, nearest first, as far as the workspace defines them:
 * `test` sees each name and stops the walk by returning true. A name the workspace does not define as
 * a class or interface (a library's type, a type alias, a type parameter) ends its path, and is seen
 * as unknown, unless it is one of JavaScript's own classes.
 */
function basesWalker(db: Database, heritage: Heritage, langs: string, family: Family = 'js') {
  const defined = new Map<string, boolean>();
  const isWorkspaceType = (t: string) => {
    let v = defined.get(t);
    if (v === undefined)
      defined.set(
        t,
        (v = !!one<{ n: number }>(
          db,
          `SELECT 1 AS n FROM symbols s JOIN files f ON f.id = s.file WHERE s.name = ? AND s.container IS NULL AND s.kind IN ('class', 'interface', 'component', 'enum') AND f.lang IN ${langs} LIMIT 1`,
          [t],
        )),
      );
    return v;
  };
  return (type: string, test: (name: string, defined: boolean) => boolean): boolean => {
    // A primitive has no bases, and no workspace type's methods.
    if (JS_PRIMITIVE_TYPES.has(type)) return false;
    const seen = new Set([type]);
    const queue = [type];
    for (let i = 0; i < queue.length && i < MAX_FAMILY; i++) {
      const known = isWorkspaceType(queue[i]);
      // JavaScript's own classes (RegExp, Date, Promise) are known to have none of the workspace's methods.
      if (test(queue[i], known || JS_GLOBAL_OBJECTS.has(queue[i]))) return true;
      if (!known) continue;
      for (const s of heritage.supersOf(family, queue[i])) {
        if (seen.has(s)) continue;
        seen.add(s);
        queue.push(s);
      }
    }
    return false;
  };
}

/** Answers of `answer` kept by type, for one query. */
function kept(answer: (type: string) => boolean): (type: string) => boolean {
  const answers = new Map<string, boolean>();
  return (type) => {
    let v = answers.get(type);
    if (v === undefined) answers.set(type, (v = answer(type)));
    return v;
  };
}

/**
 * Whether a JavaScript or TypeScript (or, by `family`, PHP) value of a type may have a method named `method`: the type or one
 * of its bases declares one, or one of them is a type the workspace does not define as a class or
 * interface (a library's, a type alias), which may.
 */
export function methodHolder(
  db: Database,
  heritage: Heritage,
  method: string,
  langs: string,
  family: Family = 'js',
): (type: string) => boolean {
  let owners: Map<string, TypeDefinition[]> | undefined;
  const walk = basesWalker(db, heritage, langs, family);
  return kept((type) => walk(type, (t, known) => !known || (owners ??= heritage.ownersOf(db, method, langs)).has(t)));
}

/** A JavaScript or TypeScript (or, by `family`, PHP) type and its bases, as far as the workspace defines them. */
export function basesOf(
  db: Database,
  heritage: Heritage,
  type: string,
  langs: string,
  family: Family = 'js',
): Set<string> {
  const out = new Set<string>();
  basesWalker(db, heritage, langs, family)(type, (t) => !out.add(t));
  return out;
}

/**
 * Whether a JavaScript or TypeScript value of a type may have one family's method: the type or one of
 * its bases is of the family (`ours`), or is a type the workspace does not define as a class or
 * interface, which may be. A value whose bases are all the workspace's and none of the family's has
 * another method of that name, or none.
 */
export function familyHolder(
  db: Database,
  heritage: Heritage,
  ours: (type: string) => boolean,
  langs: string,
): (type: string) => boolean {
  const walk = basesWalker(db, heritage, langs);
  return kept((type) => walk(type, (t, known) => !known || ours(t)));
}

function key(family: Family, name: string): string {
  return `${family}\0${name}`;
}
