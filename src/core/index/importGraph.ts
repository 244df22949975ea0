import { all, type Database } from '../store/sqlite';
import type { ImportName } from './facts';
import type { ResolvedImport } from './resolve';

/**
 * The import rows held in memory, by imported file, plus each file's module-bound names. Read once
 * from the imports table and kept in step with every write instead of being read again.
 */
export class ImportGraph {
  /** Import rows by the file they resolve to. */
  readonly importers = new Map<string, Array<{ path: string; names: ImportName[] }>>();
  /** Per importing file: names bound to whole modules. */
  readonly modules = new Map<string, Set<string>>();
  /** Per importing file: the files its rows resolve to, to drop them when it changes. */
  readonly targets = new Map<string, Set<string>>();

  static read(db: Database): ImportGraph {
    const graph = new ImportGraph();
    // Every row read is a fresh copy of its strings: share equal paths and equal name lists instead
    // (a large repository repeats a few thousand paths and import lists over tens of thousands of rows).
    const paths = new Map<string, string>();
    const path = (p: string) => paths.get(p) ?? (paths.set(p, p), p);
    const lists = new Map<string, ImportName[]>();
    for (const r of all<{ path: string; resolved: string | null; names: string }>(db, 'SELECT f.path AS path, i.resolved AS resolved, i.names AS names FROM imports i JOIN files f ON f.id = i.file')) {
      let names = lists.get(r.names);
      if (!names) {
        try {
          names = JSON.parse(r.names) as ImportName[];
        } catch {
          // An unreadable row resolves nothing.
          continue;
        }
        lists.set(r.names, names);
      }
      graph.add(path(r.path), r.resolved === null ? null : path(r.resolved), names);
    }
    return graph;
  }

  /** Forgets the rows of files that were re-indexed or removed, then adds their new rows. */
  replace(replaced: readonly string[], added: ReadonlyArray<{ path: string; imports: readonly ResolvedImport[] }>): void {
    for (const p of replaced) {
      for (const t of this.targets.get(p) ?? []) {
        const rows = this.importers.get(t)?.filter((r) => r.path !== p);
        if (rows?.length) this.importers.set(t, rows);
        else this.importers.delete(t);
      }
      this.targets.delete(p);
      this.modules.delete(p);
    }
    for (const e of added) for (const i of e.imports) this.add(e.path, i.resolved, i.names);
  }

  private add(path: string, resolved: string | null, names: ImportName[]): void {
    for (const n of names) {
      if (n.name === '*' && n.local !== '*' && !n.reexport) {
        let set = this.modules.get(path);
        if (!set) this.modules.set(path, (set = new Set()));
        set.add(n.local);
      }
    }
    if (resolved === null) return;
    let list = this.importers.get(resolved);
    if (!list) this.importers.set(resolved, (list = []));
    // Rows importing a file from itself are local aliases: `export { a as b }`.
    list.push({ path, names });
    let targets = this.targets.get(path);
    if (!targets) this.targets.set(path, (targets = new Set()));
    targets.add(resolved);
  }
}
