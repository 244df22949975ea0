import { all, type Database } from '../store/sqlite';
import { familyOf, type LangId } from './languages';

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
    for (const r of rows) {
      const def: TypeDefinition = { path: r.path, name: r.name, exported: r.exported };
      const family = familyOf(r.lang as LangId);
      const own = key(family, r.name);
      for (const s of r.supers.split(' ')) {
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

type Family = ReturnType<typeof familyOf>;

function key(family: Family, name: string): string {
  return `${family}\0${name}`;
}
