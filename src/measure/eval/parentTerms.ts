import { extractTerms, TermIndex } from '../../core/cochange/termIndex';
import { readBlobs, type TreeEntry } from '../../core/git/catFile';

/**
 * The term index of the source files at a commit's parent, moved forward from one parent to the
 * next by the blobs that differ, so that each query sees the contents of its own parent only.
 */
export class ParentTerms {
  readonly index = new TermIndex();
  private readonly oids = new Map<string, string>();

  constructor(
    private readonly root: string,
    private readonly include: (entry: TreeEntry) => boolean,
    private readonly signal?: AbortSignal,
  ) {}

  async moveTo(tree: readonly TreeEntry[]): Promise<TermIndex> {
    const wanted = new Map<string, string>();
    for (const e of tree) if (this.include(e)) wanted.set(e.path, e.oid);
    for (const path of this.oids.keys()) {
      if (wanted.has(path)) continue;
      this.index.delete(path);
      this.oids.delete(path);
    }
    const changed = [...wanted].filter(([path, oid]) => this.oids.get(path) !== oid);
    if (changed.length) {
      const blobs = await readBlobs(this.root, [...new Set(changed.map(([, oid]) => oid))], { signal: this.signal });
      for (const [path, oid] of changed) {
        this.index.set(path, extractTerms(blobs.get(oid) ?? ''));
        this.oids.set(path, oid);
      }
    }
    return this.index;
  }
}
