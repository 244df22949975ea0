import { createHash } from 'node:crypto';
import { withTimeout } from '../../shared/timeout';
import { open, realpath, stat } from 'node:fs/promises';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { defaultConfig, type CoreConfig } from '../config';
import { nullLogger, type Logger } from '../logger';
import type { MemorySearch } from '../memory/memoryStore';
import { renderMemoryHit } from '../memory/memoryHitLine';
import { redactionNote, redactSecrets, type Redaction } from '../security/secretRedaction';
import type { Subscription, SubscriptionRegistry } from './registry';
import { compileUserPattern, UserPatternError, type UserPattern } from './userPattern';
import { findSymbolInText, findSymbolInWorkspace, type SymbolLocator, type SymbolRange } from './symbolFinder';
import { checkWorkspaceFile, WorkspacePathError } from './workspacePaths';

/** One subscription resolved to its current content for one turn. */
export interface MaterializedSubscription {
  /** The subscription as it was before this turn (its renewal time orders what a tight budget cuts first). */
  subscription: Subscription;
  /** When it expires now; using it renewed it unless the materialization was a preview. */
  expiresAt: number;
  /** What the prompt gets: the content (capped, with a truncation notice line) or a one-line note. */
  text: string;
  /** Characters of the full content before capping. */
  chars: number;
  truncated: boolean;
  /** SHA-256 hex of the full content (of the note when there is no content). */
  hash: string;
  changedSinceLastTurn: boolean;
  /** Why there is no content (missing file or symbol, binary file, refused path...). */
  note?: string;
  /** Where the content came from, for labels (symbols move). */
  location?: { path: string; startLine?: number; endLine?: number };
  /** Secrets taken out of the content (the text says so in its last line). */
  redactions?: Redaction[];
}

export interface MaterializeOptions {
  /** Only this scope; all scopes when omitted. */
  scope?: string;
  /** Memory subscriptions skip episodes of this conversation (it is already in the history). */
  conversationId?: string;
  signal?: AbortSignal;
  /** Per subscription, for ports (symbol locator, memory search). Default 3 s. */
  timeoutMs?: number;
  /** Store the hashes and renew (default true). A preview (CLI `materialize --dry-run`) passes false. */
  record?: boolean;
}

export interface SubscriptionMaterializerOptions {
  config?: CoreConfig['subscriptions'];
  symbols?: SymbolLocator;
  memory?: MemorySearch;
  /** How many memory hits a memory subscription shows; default 5. */
  memoryLimit?: number;
  /** Files bigger than this are not read; default 8 MiB. */
  maxFileBytes?: number;
  /** Longest a pattern subscription may spend matching one file per turn; default 1,000 ms. */
  patternBudgetMs?: number;
  logger?: Logger;
}

interface Resolved {
  content?: string;
  note?: string;
  location?: MaterializedSubscription['location'];
  /** Hint appended to the truncation notice. */
  more: string;
}

const SNIFF_BYTES = 8192;
/** Lines longer than this are matched on their start only. */
const MAX_PATTERN_LINE = 4000;
/** Matching gives the event loop back after this much work. */
const PATTERN_SLICE_MS = 10;

/** Resolves subscriptions to their current content, confined to the workspace, and tells what changed since the last turn. */
export class SubscriptionMaterializer {
  private readonly config: CoreConfig['subscriptions'];
  private readonly logger: Logger;
  private readonly maxFileBytes: number;
  private readonly patternBudgetMs: number;

  constructor(
    private readonly registry: SubscriptionRegistry,
    private readonly options: SubscriptionMaterializerOptions = {},
  ) {
    this.config = options.config ?? registry.limits ?? defaultConfig.subscriptions;
    this.logger = options.logger ?? nullLogger;
    this.maxFileBytes = options.maxFileBytes ?? 8 * 1024 * 1024;
    this.patternBudgetMs = options.patternBudgetMs ?? 1000;
  }

  private get root(): string {
    return this.registry.workspaceRoot;
  }

  /** Materializes every active subscription (oldest first); records hashes and renews them. Never throws for a missing target. */
  async materialize(options: MaterializeOptions = {}): Promise<MaterializedSubscription[]> {
    const subs = this.registry.list(options.scope);
    const results: MaterializedSubscription[] = [];
    for (const sub of subs) {
      if (options.signal?.aborted) throw options.signal.reason ?? new Error('aborted');
      results.push(await this.materializeOne(sub, options));
    }
    if (options.record === false) return results;
    const stamp = this.registry.recordMaterialized(results.map((r) => ({ id: r.subscription.id, hash: r.hash })));
    return results.map((r) => ({ ...r, expiresAt: stamp.expiresAt }));
  }

  /** Resolves one subscription without recording anything. */
  async materializeOne(
    sub: Subscription,
    options: Omit<MaterializeOptions, 'scope' | 'record'> = {},
  ): Promise<MaterializedSubscription> {
    let resolved: Resolved;
    try {
      resolved = await this.resolve(sub, options);
    } catch (err) {
      if (options.signal?.aborted) throw err;
      this.logger.warn(`Subscription ${sub.id} (${sub.target}) could not be read: ${(err as Error).message}`);
      resolved = { note: `could not be read: ${(err as Error).message}`, more: '' };
    }
    // What goes into a prompt leaves the machine: well-known keys are redacted before the cap, and a
    // line after it says what was taken out. The hash is of the file's own content, as before.
    const redacted = resolved.content === undefined ? undefined : redactSecrets(resolved.content);
    const full = redacted?.text ?? '';
    const hash = sha256(resolved.content ?? `note:${resolved.note ?? ''}`);
    let text: string;
    let truncated = false;
    if (resolved.content === undefined) text = `[${resolved.note ?? 'no content'}]`;
    else {
      const capped = capText(full, this.config.maxChars, resolved.more);
      text = capped.text + (redacted?.redactions.length ? `\n${redactionNote(redacted.redactions)}` : '');
      truncated = capped.truncated;
    }
    return {
      subscription: sub,
      expiresAt: sub.expiresAt,
      text,
      chars: full.length,
      truncated,
      hash,
      changedSinceLastTurn: sub.lastHash !== hash,
      note: resolved.note,
      location: resolved.location,
      ...(redacted?.redactions.length ? { redactions: redacted.redactions } : {}),
    };
  }

  private async resolve(
    sub: Subscription,
    options: { conversationId?: string; signal?: AbortSignal; timeoutMs?: number },
  ): Promise<Resolved> {
    const timeoutMs = options.timeoutMs ?? 3000;
    switch (sub.kind) {
      case 'memory':
        return this.resolveMemory(sub, options.conversationId, timeoutMs, options.signal);
      case 'symbol':
        return this.resolveSymbol(sub, timeoutMs, options.signal);
      case 'file': {
        const file = await this.readWorkspaceText(sub.path ?? sub.target, options.signal);
        if ('note' in file) return { note: file.note, more: '' };
        return { content: file.text, location: { path: file.path }, more: 'subscribe to a line range for more' };
      }
      case 'lines': {
        const file = await this.readWorkspaceText(sub.path ?? '', options.signal);
        if ('note' in file) return { note: file.note, more: '' };
        const lines = splitLines(file.text);
        const range = sub.lines ?? { start: 1, end: lines.length };
        if (range.start > lines.length)
          return {
            note: `${file.path} has ${lines.length} lines; lines ${range.start}-${range.end} do not exist`,
            more: '',
          };
        const end = Math.min(range.end, lines.length);
        const body = numbered(lines, range.start, end);
        const suffix = end < range.end ? `\n(the file ends at line ${lines.length})` : '';
        return {
          content: body + suffix,
          location: { path: file.path, startLine: range.start, endLine: end },
          more: 'subscribe to a smaller range',
        };
      }
      case 'pattern': {
        const file = await this.readWorkspaceText(sub.path ?? '', options.signal);
        if ('note' in file) return { note: file.note, more: '' };
        return this.matchLines(sub, file, options.signal);
      }
    }
  }

  /**
   * The lines of a file that match a subscription's pattern. The match runs on a linear-time engine,
   * in slices that give the event loop back, and stops at a time budget with a note, so no pattern
   * and no file can hold a turn (or the extension host) for long.
   */
  private async matchLines(
    sub: Subscription,
    file: { path: string; text: string },
    signal?: AbortSignal,
  ): Promise<Resolved> {
    const shown = `/${sub.pattern ?? ''}/${sub.flags ?? ''}`;
    let re: UserPattern;
    try {
      re = compileUserPattern(sub.pattern ?? '', sub.flags ?? '');
    } catch (err) {
      // Stored before patterns were checked this way: disabled, and the turn says why.
      if (err instanceof UserPatternError) return { note: `pattern ${shown} is disabled: ${err.message}`, more: '' };
      throw err;
    }
    const lines = splitLines(file.text);
    const width = String(lines.length).length;
    const hits: string[] = [];
    const started = performance.now();
    let sliceStart = started;
    for (let i = 0; i < lines.length; i++) {
      if (i % 64 === 0 && i > 0) {
        const now = performance.now();
        if (now - started > this.patternBudgetMs) {
          const stopped = `[matching ${shown} stopped at line ${i.toLocaleString('en-US')} of ${lines.length.toLocaleString('en-US')} of ${file.path}: it took over ${this.patternBudgetMs.toLocaleString('en-US')} ms; narrow the pattern or subscribe to a smaller file]`;
          return {
            content: [...hits, stopped].join('\n'),
            location: { path: file.path },
            more: 'use a narrower pattern',
          };
        }
        if (now - sliceStart > PATTERN_SLICE_MS) {
          await new Promise<void>((r) => setImmediate(r));
          signal?.throwIfAborted();
          sliceStart = performance.now();
        }
      }
      const line = lines[i];
      if (re.test(line.length > MAX_PATTERN_LINE ? line.slice(0, MAX_PATTERN_LINE) : line))
        hits.push(`${String(i + 1).padStart(width)} | ${line}`);
    }
    const content = hits.length ? hits.join('\n') : `(no line of ${file.path} matches ${shown} now)`;
    return { content, location: { path: file.path }, more: 'use a narrower pattern' };
  }

  private async resolveSymbol(sub: Subscription, timeoutMs: number, signal?: AbortSignal): Promise<Resolved> {
    const name = sub.symbol ?? sub.target.replace(/^.*::/, '');
    const where = sub.path ? `${sub.path}` : 'the workspace';
    let range: SymbolRange | undefined;
    if (this.options.symbols) {
      try {
        range = await withTimeout(this.options.symbols.locate(sub.path ?? '', name), timeoutMs, {
          what: `Finding ${name}`,
          signal,
        });
      } catch (err) {
        if (signal?.aborted) throw err;
        this.logger.debug(`Symbol locator failed for ${name}: ${(err as Error).message}`);
      }
    }
    let text: string | undefined;
    if (range) {
      const file = await this.readWorkspaceText(range.path, signal);
      if ('note' in file) range = undefined;
      else text = file.text;
    }
    if (!range) {
      if (sub.path) {
        const file = await this.readWorkspaceText(sub.path, signal);
        if ('note' in file) return { note: file.note, more: '' };
        text = file.text;
        range = findSymbolInText(file.text, name, file.path);
      } else {
        range = await findSymbolInWorkspace(this.root, name, { signal, timeBudgetMs: timeoutMs });
        if (range) {
          const file = await this.readWorkspaceText(range.path, signal);
          if ('note' in file) return { note: file.note, more: '' };
          text = file.text;
        }
      }
    }
    if (!range || text === undefined) return { note: `symbol ${name} was not found in ${where}`, more: '' };
    const lines = splitLines(text);
    const start = Math.max(1, range.startLine);
    const end = Math.min(lines.length, Math.max(start, range.endLine));
    return {
      content: numbered(lines, start, end),
      location: { path: range.path, startLine: start, endLine: end },
      more: 'subscribe to a line range for more',
    };
  }

  private async resolveMemory(
    sub: Subscription,
    conversationId: string | undefined,
    timeoutMs: number,
    signal?: AbortSignal,
  ): Promise<Resolved> {
    const query = sub.query ?? sub.target;
    if (!this.options.memory) return { note: 'memory search is not available here', more: '' };
    const hits = await withTimeout(
      this.options.memory.search(query, {
        limit: this.options.memoryLimit ?? 5,
        excludeConversationId: conversationId,
        signal,
      }),
      timeoutMs,
      { what: 'Searching memory', signal },
    );
    if (!hits.length) return { content: `(nothing in memory matches "${query}" yet)`, more: '' };
    return { content: hits.map(renderMemoryHit).join('\n'), more: 'narrow the query' };
  }

  /** Reads a workspace file as text, or says in one line why not (missing, outside, secret, binary, too large). */
  private async readWorkspaceText(
    path: string,
    signal?: AbortSignal,
  ): Promise<{ path: string; text: string } | { note: string }> {
    let rel: string;
    try {
      rel = checkWorkspaceFile(this.root, path);
    } catch (err) {
      if (err instanceof WorkspacePathError) return { note: err.message };
      throw err;
    }
    const abs = resolve(this.root, rel);
    let real: string;
    try {
      real = await realpath(abs);
    } catch {
      return { note: `${rel} does not exist (deleted or renamed?)` };
    }
    const realRoot = await realpath(this.root).catch(() => this.root);
    const inside = relative(realRoot, real);
    if (inside.startsWith('..' + sep) || inside === '..' || isAbsolute(inside))
      return { note: `${rel} leads outside the workspace and is not read` };
    const st = await stat(real);
    if (!st.isFile()) return { note: `${rel} is not a file` };
    if (st.size > this.maxFileBytes)
      return { note: `${rel} is too large to include (${st.size.toLocaleString('en-US')} bytes)` };
    signal?.throwIfAborted();
    const handle = await open(real, 'r');
    let buf: Buffer;
    try {
      buf = Buffer.alloc(st.size);
      let off = 0;
      while (off < st.size) {
        const { bytesRead } = await handle.read(buf, off, st.size - off, off);
        if (!bytesRead) break;
        off += bytesRead;
      }
      buf = buf.subarray(0, off);
    } finally {
      await handle.close();
    }
    if (isBinary(buf)) return { note: `${rel} is a binary file and is not included` };
    return { path: rel, text: buf.toString('utf8') };
  }
}

/** Caps content at maxChars (at a line break when one is near) and appends an explicit notice line. */
export function capText(full: string, maxChars: number, more: string): { text: string; truncated: boolean } {
  if (full.length <= maxChars) return { text: full, truncated: false };
  let cut = full.lastIndexOf('\n', maxChars);
  if (cut < maxChars * 0.5) cut = maxChars;
  const shown = full.slice(0, cut).replace(/\n$/, '');
  const fmt = (n: number) => n.toLocaleString('en-US');
  return {
    text: `${shown}\n… [truncated: showing ${fmt(shown.length)} of ${fmt(full.length)} characters${more ? `; ${more}` : ''}]`,
    truncated: true,
  };
}

function sha256(s: string): string {
  return createHash('sha256').update(s).digest('hex');
}

function splitLines(text: string): string[] {
  const lines = text.split(/\r?\n/);
  if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
  return lines;
}

function numbered(lines: string[], start: number, end: number): string {
  const width = String(end).length;
  const out: string[] = [];
  for (let i = start; i <= end; i++) out.push(`${String(i).padStart(width)} | ${lines[i - 1]}`);
  return out.join('\n');
}

function isBinary(buf: Buffer): boolean {
  const n = Math.min(buf.length, SNIFF_BYTES);
  for (let i = 0; i < n; i++) if (buf[i] === 0) return true;
  return false;
}
