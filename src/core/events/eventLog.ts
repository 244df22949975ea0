import { randomBytes } from 'node:crypto';
import { appendFileSync, closeSync, existsSync, fstatSync, mkdirSync, openSync, readSync, renameSync, statSync, watch, type FSWatcher } from 'node:fs';
import { join } from 'node:path';
import { nullLogger, type Logger } from '../logger';

export interface FileChange {
  /** Root-relative, forward slashes. */
  path: string;
  deleted?: boolean;
  mtimeMs?: number;
  size?: number;
}

/** What happened in a workspace, as told to every process on it (extension, MCP servers, CLI). */
export type WorkspaceEvent =
  /** Files changed on disk; `mtimeMs`/`size` tell two processes' reports of the same write apart from a new one. */
  | { type: 'file_change'; files: FileChange[] }
  /** The user is at a place in the editor. */
  | { type: 'activity'; path: string; line?: number; symbol?: string }
  /** A watch fired; its firing is stored under `seq`. */
  | { type: 'watch_fired'; watchId: string; seq: number }
  /** Watches were added, removed or renewed. */
  | { type: 'watches_changed' };

export type LoggedEvent = WorkspaceEvent & { id: string; at: number; pid: number };

export interface EventLogOptions {
  logger?: Logger;
  clock?: () => number;
  /** Rotate when the log grows past this many bytes (default 256 KiB). */
  maxBytes?: number;
  /** How often to look for new events when the OS does not say (ms, default 250). */
  pollMs?: number;
}

const FILE = 'events.jsonl';
const ROTATED = 'events.1.jsonl';
const MAX_LINE = 8 * 1024;
const READ_CHUNK = 64 * 1024;

/**
 * A small append-only log of workspace events in the state directory, shared by every process on
 * the workspace: the extension publishes where the user is, anyone publishes file changes and watch
 * firings, and every process tails it. Bounded (rotated past a size cap, keeping one older file),
 * crash-safe (a torn last line is skipped, never misread) and never blocks: appends are single
 * small writes with O_APPEND, so concurrent writers do not interleave.
 */
export class EventLog {
  private readonly path: string;
  private readonly rotated: string;
  private readonly logger: Logger;
  private readonly clock: () => number;
  private readonly maxBytes: number;
  private readonly pollMs: number;

  constructor(
    private readonly dir: string,
    options: EventLogOptions = {},
  ) {
    this.path = join(dir, FILE);
    this.rotated = join(dir, ROTATED);
    this.logger = options.logger ?? nullLogger;
    this.clock = options.clock ?? Date.now;
    this.maxBytes = options.maxBytes ?? 256 * 1024;
    this.pollMs = options.pollMs ?? 250;
  }

  /** Appends one event; returns it as logged. Never throws: a log that cannot be written only costs pushes. */
  append(event: WorkspaceEvent): LoggedEvent {
    const logged: LoggedEvent = { ...event, id: randomBytes(6).toString('hex'), at: this.clock(), pid: process.pid };
    const line = JSON.stringify(logged);
    if (line.length > MAX_LINE) {
      this.logger.debug(`Event not logged: ${line.length} characters is over the ${MAX_LINE} limit`);
      return logged;
    }
    try {
      mkdirSync(this.dir, { recursive: true });
      this.rotateIfFull();
      appendFileSync(this.path, line + '\n');
    } catch (err) {
      this.logger.warn(`Could not write to the event log ${this.path}: ${(err as Error).message}`);
    }
    return logged;
  }

  /**
   * Calls `listener` with each event appended after now (by any process), in order. Events of this
   * process are included; filter on `pid` if they are not wanted.
   */
  tail(listener: (events: LoggedEvent[]) => void): { dispose(): void } {
    const reader = new TailReader(this.path, this.rotated, this.logger);
    reader.skipToEnd();
    let disposed = false;
    const poll = (): void => {
      if (disposed) return;
      const events = reader.read();
      if (events.length) {
        try {
          listener(events);
        } catch (err) {
          this.logger.warn(`An event listener failed: ${(err as Error).message}`);
        }
      }
    };
    let watcher: FSWatcher | undefined;
    try {
      mkdirSync(this.dir, { recursive: true });
      watcher = watch(this.dir, { persistent: false }, (_kind, name) => {
        if (!name || name.toString() === FILE || name.toString() === ROTATED) poll();
      });
      watcher.on('error', () => undefined);
    } catch (err) {
      this.logger.debug(`Watching ${this.dir} failed (${(err as Error).message}); polling the event log instead`);
    }
    // The OS may miss or merge notifications (network file systems, some containers): poll as well.
    const timer = setInterval(poll, this.pollMs);
    timer.unref?.();
    return {
      dispose: () => {
        disposed = true;
        clearInterval(timer);
        watcher?.close();
      },
    };
  }

  private rotateIfFull(): void {
    let size: number;
    try {
      size = statSync(this.path).size;
    } catch {
      return;
    }
    if (size < this.maxBytes) return;
    try {
      // rename is atomic: readers that still hold the old file finish reading it as events.1.jsonl.
      renameSync(this.path, this.rotated);
    } catch (err) {
      this.logger.debug(`Could not rotate the event log: ${(err as Error).message}`);
    }
  }
}

/** Reads whole new lines from the log, following it across a rotation. */
class TailReader {
  private ino = 0;
  private offset = 0;
  private partial = '';

  constructor(
    private readonly path: string,
    private readonly rotated: string,
    private readonly logger: Logger,
  ) {}

  skipToEnd(): void {
    const st = statOrUndefined(this.path);
    this.ino = st?.ino ?? 0;
    this.offset = st?.size ?? 0;
  }

  read(): LoggedEvent[] {
    const st = statOrUndefined(this.path);
    const out: LoggedEvent[] = [];
    if (st && st.ino !== this.ino) {
      // Rotated since the last read: finish the old file (now events.1.jsonl), then start the new one.
      const old = statOrUndefined(this.rotated);
      if (this.ino && old?.ino === this.ino) this.readFrom(this.rotated, out);
      this.ino = st.ino;
      this.offset = 0;
      this.partial = '';
    }
    if (st) this.readFrom(this.path, out);
    return out;
  }

  private readFrom(file: string, out: LoggedEvent[]): void {
    let fd: number;
    try {
      fd = openSync(file, 'r');
    } catch {
      return;
    }
    try {
      const size = fstatSync(fd).size;
      if (size < this.offset) {
        // Truncated by someone: start over rather than read garbage.
        this.offset = 0;
        this.partial = '';
      }
      const buf = Buffer.alloc(READ_CHUNK);
      while (this.offset < size) {
        const n = readSync(fd, buf, 0, Math.min(READ_CHUNK, size - this.offset), this.offset);
        if (n <= 0) break;
        this.offset += n;
        this.partial += buf.subarray(0, n).toString('utf8');
        let nl: number;
        while ((nl = this.partial.indexOf('\n')) >= 0) {
          const line = this.partial.slice(0, nl);
          this.partial = this.partial.slice(nl + 1);
          const event = parseEvent(line);
          if (event) out.push(event);
          else if (line.trim()) this.logger.debug('Skipped a damaged event log line');
        }
        // A line longer than any event we write is garbage: drop it instead of growing without bound.
        if (this.partial.length > MAX_LINE) this.partial = '';
      }
    } finally {
      closeSync(fd);
    }
  }
}

function parseEvent(line: string): LoggedEvent | undefined {
  if (!line || line.length > MAX_LINE) return undefined;
  try {
    const v = JSON.parse(line) as Partial<LoggedEvent>;
    if (typeof v !== 'object' || v === null || typeof v.type !== 'string' || typeof v.id !== 'string' || typeof v.at !== 'number') return undefined;
    return v as LoggedEvent;
  } catch {
    return undefined;
  }
}

function statOrUndefined(path: string): { ino: number; size: number } | undefined {
  if (!existsSync(path)) return undefined;
  try {
    const s = statSync(path);
    return { ino: s.ino, size: s.size };
  } catch {
    return undefined;
  }
}
