import { randomBytes } from 'node:crypto';
import {
  appendFileSync,
  closeSync,
  fstatSync,
  linkSync,
  mkdirSync,
  openSync,
  readSync,
  renameSync,
  rmSync,
  watch,
  writeFileSync,
  type FSWatcher,
} from 'node:fs';
import { join } from 'node:path';
import { nullLogger, type Logger } from '../logger';
import { LockTimeoutError, withFileLock } from '../store/fileLock';

export interface FileChange {
  /** Root-relative, forward slashes. */
  path: string;
  deleted?: boolean;
  mtimeMs?: number;
  size?: number;
}

/** What happened in a workspace, as told to every process on it (extension, MCP servers, CLI). */
export type WorkspaceEvent =
  /**
   * Files changed on disk; `mtimeMs`/`size` tell two processes' reports of the same write apart from
   * a new one. A change too large for one line is logged as consecutive parts of one `batch`.
   */
  | { type: 'file_change'; files: FileChange[]; batch?: FileBatch }
  /** The user is at a place in the editor. */
  | { type: 'activity'; path: string; line?: number; symbol?: string }
  /** A watch fired; its firing is stored under `seq`. */
  | { type: 'watch_fired'; watchId: string; seq: number }
  /** Watches were added, removed or renewed. */
  | { type: 'watches_changed' }
  /**
   * Never written: told by a reader whose file was rotated away before it read all of it, so the
   * events in between are lost to it. `bytes` is how much was missed, when the log can tell.
   */
  | { type: 'events_lost'; bytes?: number };

/** One bulk change split into parts by size: `files` is the count over all parts. */
export interface FileBatch {
  id: string;
  part: number;
  parts: number;
  files: number;
}

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
const LOCK = 'events.lock';
/** Longest line written or read, in bytes; a larger change is split into parts. */
const MAX_LINE = 8 * 1024;
const READ_CHUNK = 64 * 1024;
/**
 * The first line of every log file: names it (an inode number may be reused once a file is gone)
 * and, in a file made by a rotation, the file it follows and that file's final size.
 */
const START = 'log_start';

interface StartMark {
  type: typeof START;
  id: string;
  at: number;
  pid: number;
  prev?: { id: string; size: number };
}

/**
 * A small append-only log of workspace events in the state directory, shared by every process on
 * the workspace: the extension publishes where the user is, anyone publishes file changes and watch
 * firings, and every process tails it. Bounded (rotated past a size cap, keeping one older file),
 * crash-safe (a torn last line is skipped, never misread) and never loses an event silently: a
 * change too large for one line is split into parts, appends and rotation happen under one
 * cross-process lock (so two writers never rotate twice over unread data, nor append to a file
 * already rotated away), and a reader that falls more than one rotation behind says so.
 */
export class EventLog {
  private readonly path: string;
  private readonly rotated: string;
  private readonly lock: string;
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
    this.lock = join(dir, LOCK);
    this.logger = options.logger ?? nullLogger;
    this.clock = options.clock ?? Date.now;
    this.maxBytes = options.maxBytes ?? 256 * 1024;
    this.pollMs = options.pollMs ?? 250;
  }

  /**
   * Appends one event (a large file change as several consecutive lines); returns it as logged.
   * Never throws: a log that cannot be written only costs pushes, and is warned of.
   */
  append(event: WorkspaceEvent): LoggedEvent {
    const logged: LoggedEvent = { ...event, id: newId(), at: this.clock(), pid: process.pid };
    const lines = this.linesOf(logged);
    if (!lines.length) return logged;
    const text = lines.join('\n') + '\n';
    try {
      mkdirSync(this.dir, { recursive: true });
      try {
        withFileLock(this.lock, () => {
          this.startOrRotate();
          appendFileSync(this.path, text);
        });
      } catch (err) {
        if (!(err instanceof LockTimeoutError)) throw err;
        // An event late is better than an event lost: append without rotating.
        this.logger.warn(`Event log: ${err.message}; appending without the lock`);
        appendFileSync(this.path, text);
      }
    } catch (err) {
      this.logger.warn(
        `Could not write ${lines.length} event(s) to the event log ${this.path}: ${(err as Error).message}`,
      );
    }
    return logged;
  }

  /**
   * Calls `listener` with each event appended after now (by any process), in order. Events of this
   * process are included; filter on `pid` if they are not wanted. A reader that fell behind past a
   * rotation gets an `events_lost` event where the gap is.
   */
  tail(listener: (events: LoggedEvent[]) => void): { dispose(): void } {
    const reader = new TailReader(this.path, this.rotated, this.logger, this.clock);
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

  /** The event as lines of at most MAX_LINE bytes: a file change split by size, anything else whole. */
  private linesOf(logged: LoggedEvent): string[] {
    if (logged.type !== 'file_change' || !Array.isArray(logged.files)) {
      const line = JSON.stringify(logged);
      if (Buffer.byteLength(line) <= MAX_LINE) return [line];
      this.logger.warn(
        `Event log: a ${logged.type} event of ${Buffer.byteLength(line)} bytes is over the ${MAX_LINE}-byte line limit and was not logged`,
      );
      return [];
    }
    const whole = JSON.stringify(logged);
    if (Buffer.byteLength(whole) <= MAX_LINE) return [whole];
    // Room for the envelope with the largest batch numbers this change can have.
    const envelope = Buffer.byteLength(
      JSON.stringify({
        ...logged,
        id: newId(),
        files: [],
        batch: { id: logged.id, part: logged.files.length, parts: logged.files.length, files: logged.files.length },
      }),
    );
    const parts: FileChange[][] = [];
    let part: FileChange[] = [];
    let bytes = envelope;
    let tooLong = 0;
    for (const f of logged.files) {
      const size = Buffer.byteLength(JSON.stringify(f)) + 1;
      if (envelope + size > MAX_LINE) {
        tooLong++;
        continue;
      }
      if (bytes + size > MAX_LINE) {
        parts.push(part);
        part = [];
        bytes = envelope;
      }
      part.push(f);
      bytes += size;
    }
    if (part.length) parts.push(part);
    if (tooLong)
      this.logger.warn(`Event log: ${tooLong} changed file(s) with a path over ${MAX_LINE} bytes could not be logged`);
    const files = logged.files.length - tooLong;
    return parts.map((p, i) =>
      JSON.stringify({
        ...logged,
        id: i === 0 ? logged.id : newId(),
        files: p,
        batch: { id: logged.id, part: i, parts: parts.length, files },
      }),
    );
  }

  /** Under the lock: starts the live file when there is none, and rotates it once it is full. */
  private startOrRotate(): void {
    const cur = openLog(this.path);
    if (cur) closeSync(cur.fd);
    if (cur && cur.size < this.maxBytes) return;
    if (cur) {
      try {
        // rename is atomic: readers that still hold the old file finish reading it as events.1.jsonl.
        renameSync(this.path, this.rotated);
      } catch (err) {
        this.logger.warn(`Could not rotate the event log: ${(err as Error).message}`);
        return;
      }
    }
    const mark: StartMark = {
      type: START,
      id: newId(),
      at: this.clock(),
      pid: process.pid,
      prev: cur ? { id: cur.id, size: cur.size } : undefined,
    };
    // Written whole, then linked into place: a reader never sees the file without its mark.
    const tmp = `${this.path}.${process.pid}.${newId()}.tmp`;
    writeFileSync(tmp, JSON.stringify(mark) + '\n', { flag: 'wx' });
    try {
      linkSync(tmp, this.path);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') renameSync(tmp, this.path);
    } finally {
      rmSync(tmp, { force: true });
    }
  }
}

/** Reads whole new lines from the log, following it across a rotation and noticing when it missed one. */
class TailReader {
  /** The file being read, by its start mark (or inode, for a file written before marks); '' before the first file. */
  private file = '';
  private offset = 0;
  private partial = '';

  constructor(
    private readonly path: string,
    private readonly rotated: string,
    private readonly logger: Logger,
    private readonly clock: () => number,
  ) {}

  skipToEnd(): void {
    // Between a rotation's rename and the new file, the file just rotated is the newest.
    const cur = openLog(this.path) ?? openLog(this.rotated);
    if (!cur) return;
    closeSync(cur.fd);
    this.file = cur.id;
    this.offset = cur.size;
  }

  read(): LoggedEvent[] {
    const out: LoggedEvent[] = [];
    // Read through one descriptor: a rotation meanwhile cannot mix two files.
    const cur = openLog(this.path);
    if (!cur) return out;
    try {
      if (cur.id !== this.file) {
        this.catchUp(cur.prev, out);
        this.file = cur.id;
        this.offset = 0;
        this.partial = '';
      }
      this.readFrom(cur.fd, cur.size, out);
    } finally {
      closeSync(cur.fd);
    }
    return out;
  }

  /** The live file is not the one this reader was in: finish that one (now events.1.jsonl), or say what was lost. */
  private catchUp(follows: { id: string } | undefined, out: LoggedEvent[]): void {
    // Started before there was a log: nothing to catch up if the live file is the first one.
    if (!this.file && !follows) return;
    const old = openLog(this.rotated);
    if (!old) {
      this.lost(out, undefined);
      return;
    }
    try {
      if (old.id === this.file || (!this.file && !old.prev)) {
        // The file this reader was in, or the first file ever when it started before it.
        this.readFrom(old.fd, old.size, out);
        return;
      }
      // Rotated more than once: the file this reader was in is gone. What it had not read of it is
      // lost; events.1.jsonl says how long that file ended up, when it directly follows it.
      const missed = old.prev?.id === this.file ? old.prev.size - this.offset : undefined;
      if (missed === undefined || missed > 0) this.lost(out, missed);
      this.offset = 0;
      this.partial = '';
      this.readFrom(old.fd, old.size, out);
    } finally {
      closeSync(old.fd);
    }
  }

  private lost(out: LoggedEvent[], bytes: number | undefined): void {
    this.logger.warn(
      `The event log rotated past events this process had not read yet (${bytes === undefined ? 'at least one whole file' : `${bytes} bytes`}); changes in between may not have reached watches`,
    );
    out.push({ type: 'events_lost', bytes, id: newId(), at: this.clock(), pid: process.pid });
  }

  private readFrom(fd: number, size: number, out: LoggedEvent[]): void {
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
        if (event) {
          if ((event.type as string) !== START) out.push(event);
        } else if (line.trim()) this.logger.debug('Skipped a damaged event log line');
      }
      // A line longer than any event we write is garbage: drop it instead of growing without bound.
      if (this.partial.length > MAX_LINE) this.partial = '';
    }
  }
}

function newId(): string {
  return randomBytes(6).toString('hex');
}

/** An open log file: its descriptor, size, identity and, from its start mark, the file it follows. */
function openLog(
  path: string,
): { fd: number; size: number; id: string; prev?: { id: string; size: number } } | undefined {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch {
    return undefined;
  }
  try {
    const st = fstatSync(fd);
    const buf = Buffer.alloc(Math.min(1024, st.size));
    const n = buf.length ? readSync(fd, buf, 0, buf.length, 0) : 0;
    const text = buf.subarray(0, n).toString('utf8');
    const nl = text.indexOf('\n');
    const mark = parseEvent(nl >= 0 ? text.slice(0, nl) : '') as unknown as Partial<StartMark> | undefined;
    if (mark?.type !== START) return { fd, size: st.size, id: `ino:${st.ino}` };
    const prev = typeof mark.prev?.id === 'string' && typeof mark.prev.size === 'number' ? mark.prev : undefined;
    return { fd, size: st.size, id: String(mark.id), prev };
  } catch (err) {
    closeSync(fd);
    throw err;
  }
}

function parseEvent(line: string): LoggedEvent | undefined {
  if (!line || line.length > MAX_LINE) return undefined;
  try {
    const v = JSON.parse(line) as Partial<LoggedEvent>;
    if (
      typeof v !== 'object' ||
      v === null ||
      typeof v.type !== 'string' ||
      typeof v.id !== 'string' ||
      typeof v.at !== 'number'
    )
      return undefined;
    return v as LoggedEvent;
  } catch {
    return undefined;
  }
}
