/**
 * Whether the engine may start git processes. Off (with a reason the user reads) for a folder that
 * is not trusted yet: a repository's own config can make git run programs (fsmonitor, filters), so
 * nothing reads history until the adapter allows it, and then history switches on in place.
 */
export class GitAccess {
  private offReason: string | undefined;
  private readonly listeners = new Set<() => void>();

  constructor(offReason?: string) {
    this.offReason = offReason;
  }

  get allowed(): boolean {
    return this.offReason === undefined;
  }

  /** Why git is off, for the places where history would be; undefined when it is on. */
  get reason(): string | undefined {
    return this.offReason;
  }

  /** Switches git on (once); listeners run so that history is mined and watches start. */
  allow(): void {
    if (this.allowed) return;
    this.offReason = undefined;
    for (const l of [...this.listeners]) l();
  }

  onDidAllow(listener: () => void): { dispose(): void } {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }
}
