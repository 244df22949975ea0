/** A change set as the logs keep it: its files and when it was made. */
export interface LoggedChange {
  readonly files: readonly string[];
  readonly time: number;
}

/**
 * Change sets in the order they were added, indexed by file, removed first in, first out: what a
 * window sliding over history needs. Paths are shared between sets, one copy each.
 */
export class ChangeLog {
  private readonly sets: LoggedChange[] = [];
  private head = 0;
  private readonly byFile = new Map<string, LoggedChange[]>();
  private readonly names = new Map<string, string>();

  get size(): number {
    return this.sets.length - this.head;
  }

  add(files: readonly string[], time: number): LoggedChange {
    const set: LoggedChange = { files: files.map((f) => this.names.get(f) ?? (this.names.set(f, f), f)), time };
    this.sets.push(set);
    for (const f of set.files) {
      const list = this.byFile.get(f);
      if (list) list.push(set);
      else this.byFile.set(f, [set]);
    }
    return set;
  }

  /** Removes the oldest set when it has exactly these files; says whether it did. */
  removeOldest(files: readonly string[]): boolean {
    const set = this.sets[this.head];
    if (!set || (set.files !== files && !sameFiles(set.files, files))) return false;
    this.sets[this.head++] = undefined as unknown as LoggedChange;
    if (this.head > 1024 && this.head * 2 > this.sets.length) {
      this.sets.splice(0, this.head);
      this.head = 0;
    }
    for (const f of set.files) {
      const list = this.byFile.get(f);
      if (!list) continue;
      if (list[0] === set) list.shift();
      if (list.length === 0) {
        this.byFile.delete(f);
        this.names.delete(f);
      }
    }
    return true;
  }

  /** The oldest set still kept. */
  oldest(): LoggedChange | undefined {
    return this.sets[this.head];
  }

  /** The sets that touched `path`, newest first, at most `limit`. */
  of(path: string, limit: number): readonly LoggedChange[] {
    const list = this.byFile.get(path);
    if (!list) return [];
    const out: LoggedChange[] = [];
    for (let i = list.length - 1; i >= 0 && out.length < limit; i--) out.push(list[i]);
    return out;
  }

  /** Every set kept, oldest first. */
  all(): readonly LoggedChange[] {
    return this.sets.slice(this.head);
  }

  clear(): void {
    this.sets.length = 0;
    this.head = 0;
    this.byFile.clear();
    this.names.clear();
  }
}

function sameFiles(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((f, i) => f === b[i]);
}
