/**
 * Every path history ever named, by number: the co-change counts, the per-file commit lists and the
 * large change sets all speak in these numbers, so each path is held once however many structures
 * refer to it.
 */
export class PathTable {
  private readonly ids = new Map<string, number>();
  private readonly names: string[] = [];

  get size(): number {
    return this.names.length;
  }

  /** The number of a path, added when new. */
  id(path: string): number {
    let id = this.ids.get(path);
    if (id === undefined) {
      id = this.names.length;
      this.ids.set(path, id);
      this.names.push(path);
    }
    return id;
  }

  /** The number of a path already in the table. */
  find(path: string): number | undefined {
    return this.ids.get(path);
  }

  path(id: number): string {
    return this.names[id];
  }

  /** The table's own copy of a path (so a decoded duplicate can be let go), added when new. */
  intern(path: string): string {
    return this.names[this.id(path)];
  }

  all(): readonly string[] {
    return this.names;
  }
}
