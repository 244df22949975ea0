/** What IndexSaves needs from the store: the cache's bytes and the two ways to write them. */
export interface IndexSaveIO {
  /** Delay before a change is written (coalesces bursts). */
  delayMs: number;
  /** The same while a bulk change holds saves back. */
  heldDelayMs: number;
  /** The whole cache as bytes, or undefined when there is nothing to write (not loaded, or unwritable). */
  exportIndex(): Uint8Array | undefined;
  /** Writes the file at once, on this thread; throws when it cannot. */
  writeNow(data: Uint8Array): void;
  /**
   * Writes the file with the slow parts (writing, syncing) off the event loop; puts it in place only
   * when `stillWanted()` holds at that moment, and resolves whether it did.
   */
  writeInBackground(data: Uint8Array, stillWanted: () => boolean): Promise<boolean>;
  /** The file on disk is now this process's cache. */
  saved(): void;
  warn(err: unknown): void;
}

/**
 * When the index cache is written. A timed save exports the cache (one synchronous copy) and writes
 * and syncs the file in the background: writing tens of megabytes and waiting for the disk held the
 * editor's thread for 100 ms and more per save on a cold open. flush() (and so dispose) still writes
 * at once, including what a background write has not put in place yet; a background write that was
 * overtaken by a newer save, or whose file was replaced meanwhile (a snapshot, a reset), is dropped.
 */
export class IndexSaves {
  private dirty = false;
  private timer: NodeJS.Timeout | undefined;
  private holds = 0;
  private stopped = false;
  /** Moves with every save and every replacement of the file: a background write of an older one is stale. */
  private generation = 0;
  /** A background write holds data that is not on disk yet. */
  private writing = false;

  constructor(private readonly io: IndexSaveIO) {}

  markDirty(): void {
    this.dirty = true;
    if (this.timer || this.stopped) return;
    this.timer = setTimeout(() => this.onTimer(), this.holds > 0 ? this.io.heldDelayMs : this.io.delayMs);
    this.timer.unref?.();
  }

  /** See Store.holdIndexSaves. */
  hold(): () => void {
    this.holds++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.holds--;
      if (this.holds === 0 && this.dirty && !this.stopped) {
        this.clearTimer();
        this.markDirty();
      }
    };
  }

  /** Writes now, on this thread: pending changes, and those a background write has not put in place yet. */
  flush(force = false): void {
    this.clearTimer();
    if (this.stopped || !(force || this.dirty || this.writing)) return;
    try {
      const data = this.io.exportIndex();
      if (!data) return;
      this.generation++;
      this.io.writeNow(data);
      this.dirty = false;
      this.writing = false;
      this.io.saved();
    } catch (err) {
      this.dirty = true;
      this.io.warn(err);
    }
  }

  /** The cache was replaced (a snapshot adopted, a reset, a damaged file): nothing pending of the old one is written. */
  discard(): void {
    this.clearTimer();
    this.generation++;
    this.dirty = false;
    this.writing = false;
  }

  stop(): void {
    this.discard();
    this.stopped = true;
  }

  private onTimer(): void {
    this.timer = undefined;
    // One background write at a time; when it ends it arms the timer again for what changed meanwhile.
    if (this.writing || !this.dirty || this.stopped) return;
    let data: Uint8Array | undefined;
    try {
      data = this.io.exportIndex();
    } catch (err) {
      this.io.warn(err);
      return;
    }
    if (!data) return;
    const generation = ++this.generation;
    this.dirty = false;
    this.writing = true;
    const current = () => this.generation === generation;
    this.io.writeInBackground(data, current).then(
      (written) => {
        if (!current()) return;
        this.writing = false;
        if (written) this.io.saved();
        if (this.dirty) this.markDirty();
      },
      (err: unknown) => {
        if (!current()) return;
        this.writing = false;
        // Saved by the next change's save, a flush or dispose, as a failed save on this thread was.
        this.dirty = true;
        this.io.warn(err);
      },
    );
  }

  private clearTimer(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }
}
