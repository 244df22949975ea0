/** Listeners of one kind of value, called in the order they were added. */
type Listener<T> = (v: T) => void;

export class Emitter<T> {
  private readonly listeners = new Set<Listener<T>>();
  on(l: Listener<T>): { dispose(): void } {
    this.listeners.add(l);
    return { dispose: () => this.listeners.delete(l) };
  }
  fire(v: T): void {
    for (const l of [...this.listeners]) l(v);
  }
}
