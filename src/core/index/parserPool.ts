import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { Logger } from '../logger';
import { parseFile, type ParseOutcome, type ParseRequest } from './parseFile';

/** Reads and parses files, on this thread or another. */
export interface FileParser {
  /** How many requests are worth keeping in flight: enough to keep every parsing thread busy. */
  readonly window: number;
  parse(req: ParseRequest): Promise<ParseOutcome>;
  dispose(): void;
}

/** Parses on the calling thread: the fallback, and the path when no worker may start. */
export class InProcessParser implements FileParser {
  readonly window = 8;
  parse(req: ParseRequest): Promise<ParseOutcome> {
    return parseFile(req);
  }
  dispose(): void {}
}

/** How many parse workers by default: one less than the cores (the main thread writes), 1 to 4. */
export function defaultParseWorkers(): number {
  return Math.max(1, Math.min(4, availableParallelism() - 1));
}

export interface ParserPoolOptions {
  size: number;
  logger: Logger;
  /** The worker's script; the bundled or compiled `parseWorker.js` next to this module by default. */
  script?: string;
  /** Workers stop after this long without work (their grammars and heaps are then freed). */
  idleMs?: number;
}

interface Slot {
  worker: Worker;
  busy: number;
  stopping: boolean;
}

interface Pending {
  req: ParseRequest;
  slot: Slot;
  resolve: (o: ParseOutcome) => void;
}

const IDLE_MS = 5_000;

/**
 * Parses in worker threads, so tree-sitter's parses (the bulk of indexing) never hold the thread
 * that serves the editor. Workers start on the first request and stop when idle. A worker that dies
 * is not restarted: its requests and every later one are parsed on this thread, and the reason is
 * logged once, so indexing finishes either way.
 */
export class ParserPool implements FileParser {
  private readonly slots: Slot[] = [];
  private readonly pending = new Map<number, Pending>();
  private nextId = 0;
  private idleTimer: NodeJS.Timeout | undefined;
  private broken: string | undefined;
  private disposed = false;

  constructor(private readonly options: ParserPoolOptions) {}

  get window(): number {
    return 16 * Math.max(1, this.options.size);
  }

  /** Why parsing fell back to this thread, when a worker died. */
  get fallbackReason(): string | undefined {
    return this.broken;
  }

  parse(req: ParseRequest): Promise<ParseOutcome> {
    if (this.broken || this.disposed) return parseFile(req);
    clearTimeout(this.idleTimer);
    const slot = this.pick();
    const id = ++this.nextId;
    return new Promise<ParseOutcome>((resolve) => {
      this.pending.set(id, { req, slot, resolve });
      if (slot.busy++ === 0) slot.worker.ref();
      slot.worker.postMessage({ id, req });
    });
  }

  dispose(): void {
    this.disposed = true;
    clearTimeout(this.idleTimer);
    this.stopAll();
    // Whatever was asked still gets an answer.
    for (const [id, p] of [...this.pending]) {
      this.pending.delete(id);
      void parseFile(p.req).then(p.resolve);
    }
  }

  private pick(): Slot {
    if (this.slots.length < this.options.size) {
      const least = this.slots.find((s) => s.busy === 0);
      if (least) return least;
      return this.spawn();
    }
    return this.slots.reduce((a, b) => (b.busy < a.busy ? b : a));
  }

  private spawn(): Slot {
    const worker = new Worker(this.options.script ?? join(__dirname, 'parseWorker.js'));
    const slot: Slot = { worker, busy: 0, stopping: false };
    worker.on('message', (msg: { id: number; outcome?: ParseOutcome; error?: string }) => this.answer(slot, msg));
    worker.on('error', (err) => this.died(slot, err.message));
    worker.on('exit', (code) => {
      if (!slot.stopping) this.died(slot, `exited with code ${code}`);
    });
    worker.unref();
    this.slots.push(slot);
    return slot;
  }

  private answer(slot: Slot, msg: { id: number; outcome?: ParseOutcome; error?: string }): void {
    const p = this.pending.get(msg.id);
    if (!p) return;
    this.pending.delete(msg.id);
    this.release(slot);
    p.resolve(
      msg.outcome ?? {
        kind: 'skipped',
        log: { level: 'warn', message: `Could not index ${p.req.path}: ${msg.error ?? 'no answer'}` },
      },
    );
  }

  private release(slot: Slot): void {
    if (--slot.busy === 0) slot.worker.unref();
    if (this.pending.size === 0 && !this.disposed) {
      this.idleTimer = setTimeout(() => this.stopAll(), this.options.idleMs ?? IDLE_MS);
      this.idleTimer.unref?.();
    }
  }

  private died(slot: Slot, reason: string): void {
    if (slot.stopping) return;
    slot.stopping = true;
    if (!this.broken) {
      this.broken = reason;
      this.options.logger.warn(
        `The code parser's worker thread stopped (${reason}); parsing goes on in the main thread.`,
      );
    }
    this.stopAll();
    for (const [id, p] of [...this.pending]) {
      this.pending.delete(id);
      void parseFile(p.req).then(p.resolve);
    }
  }

  private stopAll(): void {
    for (const s of this.slots.splice(0)) {
      s.stopping = true;
      void s.worker.terminate();
    }
  }
}
