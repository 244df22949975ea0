import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { HookItem } from '../../core/api/messages';

const LEDGER_FILE = 'hook-sessions.json';
/** Sessions kept; the least recently used go first. */
const MAX_SESSIONS = 64;
const MAX_ITEMS_PER_SESSION = 400;
const MAX_AGE_MS = 7 * 24 * 3600_000;

interface SessionEntry {
  touched: number;
  /** Item key → fingerprint of what was said. */
  items: Record<string, string>;
}

interface LedgerFile {
  version: 1;
  sessions: Record<string, SessionEntry>;
}

/**
 * What each agent session has already been told, so an item is said once per session unless it
 * changed. Small and bounded: old sessions are pruned on every write. A lost race between two
 * hooks of one session costs at most one repeated item.
 */
export class SessionLedger {
  private constructor(
    private readonly file: string,
    private readonly data: LedgerFile,
  ) {}

  static open(stateDir: string): SessionLedger {
    const file = join(stateDir, LEDGER_FILE);
    return new SessionLedger(file, readLedger(file));
  }

  /** The items this session has not been told yet, or told in another form. */
  unseen(sessionId: string, items: readonly HookItem[]): HookItem[] {
    const told = this.data.sessions[sessionId]?.items ?? {};
    return items.filter((i) => told[i.key] !== i.fingerprint);
  }

  /** Records the items as told and writes the ledger (atomically, by a rename). */
  record(sessionId: string, items: readonly HookItem[], now: number): void {
    const entry = (this.data.sessions[sessionId] ??= { touched: now, items: {} });
    entry.touched = now;
    for (const i of items) {
      delete entry.items[i.key];
      entry.items[i.key] = i.fingerprint;
    }
    const keys = Object.keys(entry.items);
    for (const k of keys.slice(0, Math.max(0, keys.length - MAX_ITEMS_PER_SESSION))) delete entry.items[k];
    this.prune(now);
    mkdirSync(join(this.file, '..'), { recursive: true, mode: 0o700 });
    const tmp = `${this.file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
    writeFileSync(tmp, JSON.stringify(this.data), { mode: 0o600 });
    renameSync(tmp, this.file);
  }

  private prune(now: number): void {
    const sessions = Object.entries(this.data.sessions)
      .filter(([, s]) => now - s.touched <= MAX_AGE_MS)
      .sort((a, b) => b[1].touched - a[1].touched)
      .slice(0, MAX_SESSIONS);
    this.data.sessions = Object.fromEntries(sessions);
  }
}

/** The ledger on disk; a missing or damaged file starts a new one (it only holds what was said). */
function readLedger(file: string): LedgerFile {
  try {
    const parsed = JSON.parse(readFileSync(file, 'utf8')) as Partial<LedgerFile>;
    if (parsed.version === 1 && parsed.sessions && typeof parsed.sessions === 'object')
      return { version: 1, sessions: parsed.sessions };
  } catch {
    // Missing or damaged: start over.
  }
  return { version: 1, sessions: {} };
}
