import { all, type Database } from '../store/sqlite';

/** One class or interface definition: where it is and how it is exported (2: the default export). */
export interface TypeDefinition {
  path: string;
  name: string;
  exported: number;
}

/**
 * What each JavaScript or TypeScript class and interface extends or implements: up by name (a base
 * is known by its name alone), down by definition (the very classes that name it as their base). Read
 * whole from the index once, and again after the next write.
 */
export class Heritage {
  private constructor(
    private readonly up: ReadonlyMap<string, readonly string[]>,
    private readonly down: ReadonlyMap<string, readonly TypeDefinition[]>,
  ) {}

  static read(db: Database): Heritage {
    const up = new Map<string, string[]>();
    const down = new Map<string, TypeDefinition[]>();
    const rows = all<{ name: string; supers: string; path: string; exported: number }>(
      db,
      'SELECT s.name AS name, s.supers AS supers, f.path AS path, s.exported AS exported FROM symbols s JOIN files f ON f.id = s.file WHERE s.supers IS NOT NULL',
    );
    for (const r of rows) {
      const def: TypeDefinition = { path: r.path, name: r.name, exported: r.exported };
      for (const s of r.supers.split(' ')) {
        if (!s || s === r.name) continue;
        const supers = up.get(r.name);
        if (!supers) up.set(r.name, [s]);
        else if (!supers.includes(s)) supers.push(s);
        const subs = down.get(s);
        if (!subs) down.set(s, [def]);
        else subs.push(def);
      }
    }
    return new Heritage(up, down);
  }

  /** Whether the type has a base, an interface or a subtype. */
  has(type: string): boolean {
    return this.up.has(type) || this.down.has(type);
  }

  /** The names a type of this name extends or implements. */
  supersOf(type: string): readonly string[] {
    return this.up.get(type) ?? [];
  }

  /** The definitions that extend or implement a type of this name. */
  subsOf(type: string): readonly TypeDefinition[] {
    return this.down.get(type) ?? [];
  }
}
