import { statSync } from 'node:fs';
import { join } from 'node:path';
import type { Logger } from '../logger';
import type { ProactiveContextProvider } from '../provider/provider';
import type { DecisionSource } from '../sources/decisions/decisionSource';
import type { TestReportSource } from '../sources/reports/testReportSource';
import { EventLog, type FileBatch, type FileChange, type LoggedEvent, type WorkspaceEvent } from '../events/eventLog';
import { Emitter } from '../events/emitter';
import type { ContextSuggestion, SuggestionItem } from '../types';
import { GitHeadWatcher } from './gitWatch';
import type { Trigger } from './trigger';

export type { Trigger, TriggerType } from './trigger';
import { compileGlob, type GlobMatcher } from './glob';
import type { Watch, WatchFiring, WatchPattern, WatchStore } from './watchStore';
import { labelName } from '../sources/decisions/decisionItems';

/** What watches read of the engine (the engine's parts satisfy it). */
export interface WatchParts {
  readonly root: string;
  readonly stateDir: string;
  readonly logger: Logger;
  readonly clock: () => number;
  readonly decisions: DecisionSource;
  readonly reports: TestReportSource;
  readonly provider: ProactiveContextProvider;
}

export interface FiredWatch extends WatchFiring {
  watch: Watch;
}

/** Pending changes held before they are published at once (memory bound; a checkout is far below it). */
const MAX_PENDING_FILES = 200_000;
const BATCH_MS = 10;
const SEEN_KEYS = 2000;

/**
 * Makes watches push: publishes what this process sees (file changes, editor activity) to the
 * workspace's event log, tails the log for what every process sees, and fires each matching watch
 * once per event (claimed in the shared store), storing a ContextSuggestion for the trigger.
 */
export class WatchService {
  private readonly fired = new Emitter<FiredWatch>();
  private readonly changed = new Emitter<void>();
  private readonly log: EventLog;
  private tail: { dispose(): void } | undefined;
  private chain: Promise<void> = Promise.resolve();
  private readonly seen = new Set<string>();
  /** Firings this process made and told already; their log entries are skipped. */
  private readonly told = new Set<number>();
  private pendingFiles = new Map<string, FileChange>();
  private batchTimer: NodeJS.Timeout | undefined;
  private readonly git: GitHeadWatcher;
  private gitCheckQueued = false;
  private ready: Promise<void> = Promise.resolve();
  private matchers = new Map<string, GlobMatcher>();
  /** When this process last fired each watch: the store's copy of a watch read for an event may be older. */
  private readonly lastFired = new Map<string, number>();
  /** The bulk change each watch last fired for: one bulk change, split into parts, fires a watch once. */
  private readonly firedForBatch = new Map<string, string>();
  private disposed = false;

  constructor(
    private readonly parts: WatchParts,
    private readonly watches: WatchStore,
  ) {
    this.log = new EventLog(parts.stateDir, { logger: parts.logger, clock: parts.clock });
    this.git = new GitHeadWatcher(parts.root, parts.logger, () => this.gitMaybeMoved());
  }

  /** Starts evaluating watches in this process (idempotent). */
  start(): void {
    if (this.tail || this.disposed) return;
    this.ready = this.git
      .start()
      .catch((err: Error) => this.parts.logger.warn(`Commits will not fire watches: ${err.message}`));
    this.tail = this.log.tail((events) => {
      for (const e of events) this.enqueue(() => this.handle(e));
    });
  }

  /** Resolves once this process knows HEAD and watches git's files (commits before that are not news). */
  whenReady(): Promise<void> {
    return this.ready;
  }

  get started(): boolean {
    return this.tail !== undefined;
  }

  /** Fires in every process that started watching, for a firing made by any process. */
  onDidFire(listener: (f: FiredWatch) => void): { dispose(): void } {
    return this.fired.on(listener);
  }

  /** Watches were added, removed or renewed, here or in another process. */
  onDidChangeWatches(listener: () => void): { dispose(): void } {
    return this.changed.on(listener);
  }

  /** Tells every process that watches changed. */
  announceWatchesChanged(): void {
    this.log.append({ type: 'watches_changed' });
  }

  /** A file changed on disk (root-relative). Batched briefly, then published with its mtime and size. */
  fileChanged(path: string, deleted = false): void {
    if (this.disposed) return;
    if (this.pendingFiles.size >= MAX_PENDING_FILES && !this.pendingFiles.has(path)) {
      // Publish what is held and start a new batch rather than drop a change.
      clearTimeout(this.batchTimer);
      this.flushFiles();
    }
    let change: FileChange = { path, deleted: deleted || undefined };
    if (!deleted) {
      try {
        const st = statSync(join(this.parts.root, path), { throwIfNoEntry: false });
        if (st?.isDirectory()) return;
        change = st ? { path, mtimeMs: Math.round(st.mtimeMs), size: st.size } : { path, deleted: true };
      } catch {
        // Unreadable now: published without a stamp.
      }
    }
    this.pendingFiles.set(path, change);
    this.batchTimer ??= setTimeout(() => this.flushFiles(), BATCH_MS);
    this.batchTimer.unref?.();
  }

  /** Where the user is in the editor, for watches made anywhere (an agent in a terminal included). */
  activity(place: { path: string; line?: number; symbol?: string }): void {
    if (!this.disposed) this.log.append({ type: 'activity', path: place.path, line: place.line, symbol: place.symbol });
  }

  dispose(): void {
    this.disposed = true;
    clearTimeout(this.batchTimer);
    this.tail?.dispose();
    this.git.dispose();
  }

  private flushFiles(): void {
    this.batchTimer = undefined;
    const files = [...this.pendingFiles.values()];
    this.pendingFiles.clear();
    // One event however many files: the log splits it into parts by size and marks them one batch.
    if (files.length) this.log.append({ type: 'file_change', files });
  }

  /** git's own files say HEAD may have moved: look once, however many of them changed. */
  private gitMaybeMoved(): void {
    if (this.disposed || this.gitCheckQueued) return;
    this.gitCheckQueued = true;
    this.enqueue(async () => {
      this.gitCheckQueued = false;
      const commits = await this.git.commitsSinceLastLook();
      if (commits.length) await this.evaluate(this.watches.list(), commits, this.parts.clock());
    });
  }

  private enqueue(fn: () => Promise<void>): void {
    this.chain = this.chain
      .then(fn)
      .catch((err: Error) => this.parts.logger.warn(`A watch could not be evaluated: ${err.message}`));
  }

  private async handle(e: LoggedEvent): Promise<void> {
    if (this.disposed) return;
    switch (e.type) {
      case 'watches_changed':
        this.changed.fire();
        return;
      case 'watch_fired': {
        // Told already when this process made the firing.
        if (this.told.delete(e.seq)) return;
        const firing = this.watches.firingsSince(e.seq - 1, { watchIds: [e.watchId], limit: 1 })[0];
        const watch = this.watches.get(e.watchId);
        if (firing && watch && firing.seq === e.seq) this.fired.fire({ ...firing, watch });
        return;
      }
      case 'events_lost':
        // The reader warned already; a commit among the lost events can still be found from git.
        this.gitMaybeMoved();
        return;
      default: {
        const active = this.watches.list();
        if (active.length)
          await this.evaluate(active, await this.triggersOf(e), e.at, e.type === 'file_change' ? e.batch : undefined);
      }
    }
  }

  /**
   * Fires each watch that a trigger matches, at most once per group of triggers: all plain file
   * changes of an event (or of a bulk change split into parts) are one group, anything else is its
   * own. Whether a watch is quiet is decided before anything is built for it, so a bulk change costs
   * at most one suggestion per watch.
   */
  private async evaluate(active: Watch[], all: Trigger[], at: number, batch?: FileBatch): Promise<void> {
    const triggers = all.filter((t) => !this.seen.has(t.key));
    for (const t of triggers) this.remember(t.key);
    if (!triggers.length) return;
    for (const watch of active) {
      // What happened before a watch was made is not news to it (an event read late, under load).
      if (watch.createdAt > at) continue;
      if (batch && this.firedForBatch.get(watch.id) === batch.id) continue;
      const files: { t: Trigger; matched: WatchPattern[] }[] = [];
      for (const t of triggers) {
        if (this.quiet(watch)) break;
        const matched = watch.patterns.filter((p) => this.matches(p, t));
        if (!matched.length) continue;
        if (t.type === 'file_change') files.push({ t, matched });
        else await this.fire(watch, matched, t);
      }
      if (!files.length || this.quiet(watch)) continue;
      const matched = [...new Map(files.flatMap((f) => f.matched).map((p) => [`${p.type}\0${p.pattern}`, p])).values()];
      await this.fire(
        watch,
        matched,
        bulkTrigger(
          files.map((f) => f.t),
          batch,
        ),
      );
      // Fired here or claimed by another process: either way the rest of the bulk change is not news.
      if (batch) this.firedForBatch.set(watch.id, batch.id);
    }
  }

  /** In its cooldown, by the store or by what this process fired since it read the store. */
  private quiet(watch: Watch): boolean {
    const last = Math.max(watch.lastTriggeredAt ?? -Infinity, this.lastFired.get(watch.id) ?? -Infinity);
    return this.parts.clock() - last < watch.cooldownMs;
  }

  private remember(key: string): void {
    this.seen.add(key);
    if (this.seen.size > SEEN_KEYS) this.seen.delete(this.seen.values().next().value as string);
  }

  /** What an event means for watches: file changes split into plain changes, records, reports and commits. */
  private async triggersOf(e: LoggedEvent): Promise<Trigger[]> {
    if (e.type === 'activity') {
      const symbol = e.symbol || undefined;
      return [
        {
          type: symbol ? 'symbol_focus' : 'activity',
          source: symbol ? `${e.path}#${symbol}` : e.path,
          key: `a:${e.id}`,
          files: [e.path],
          symbol,
          line: e.line,
          focus: { file: e.path, line: e.line, symbol },
        },
      ];
    }
    if (e.type !== 'file_change') return [];
    const out: Trigger[] = [];
    const changes = Array.isArray(e.files) ? e.files.filter((f) => f && typeof f.path === 'string') : [];
    const decisionPaths = new Set<string>();
    const reportPaths = new Set<string>();
    if (changes.some((f) => /\.(md|mdx|markdown|rst)$/i.test(f.path))) {
      await this.parts.decisions.refresh().catch(() => undefined);
      for (const d of this.parts.decisions.list()) decisionPaths.add(d.path);
    }
    if (changes.some((f) => /\.(xml|json|tap)$/i.test(f.path))) {
      await this.parts.reports.refresh().catch(() => undefined);
      for (const t of this.parts.reports.list()) reportPaths.add(t.report);
    }
    for (const f of changes) {
      const stamp = `${f.path}:${f.mtimeMs ?? ''}:${f.size ?? ''}:${f.deleted ? 'd' : ''}`;
      if (f.path === '.git' || f.path.startsWith('.git/')) {
        // Reported by a process watching the root; this process looks at git's real files itself as well.
        if (f.path === '.git/HEAD' || f.path.startsWith('.git/refs/') || f.path === '.git/packed-refs')
          this.gitMaybeMoved();
        continue;
      }
      if (decisionPaths.has(f.path)) out.push(this.decisionTrigger(f.path, stamp));
      else if (reportPaths.has(f.path)) out.push(this.reportTrigger(f.path, stamp));
      else
        out.push({
          type: 'file_change',
          source: f.path,
          key: `f:${stamp}`,
          files: [f.path],
          focus: f.deleted ? undefined : { file: f.path },
        });
    }
    return out;
  }

  private decisionTrigger(path: string, stamp: string): Trigger {
    const d = this.parts.decisions.list().find((x) => x.path === path);
    const title = d ? `${labelName(d.label)}: ${d.title}` : path;
    const lead: SuggestionItem[] = d
      ? [
          {
            type: 'decision',
            title,
            summary: `${d.status} · ${d.body.replace(/\s+/g, ' ').slice(0, 300)}`,
            relevanceScore: 0.9,
            reason: 'the decision record changed',
            location: { path, adr: d.label },
            entityId: `adr:${path}`,
            meta: { status: d.status },
          },
        ]
      : [];
    return {
      type: 'decision',
      source: path,
      key: `d:${stamp}`,
      files: [path],
      text: d ? `${d.title}\n${d.body}` : undefined,
      lead,
    };
  }

  private reportTrigger(path: string, stamp: string): Trigger {
    const failures = this.parts.reports.list().filter((t) => t.report === path);
    const files = [path, ...new Set(failures.flatMap((t) => (t.testFile ? [t.testFile] : [])))];
    const lead: SuggestionItem[] = failures.slice(0, 10).map((t) => ({
      type: 'warning',
      title: `Failing test: ${t.name}`,
      summary: t.message.slice(0, 300),
      relevanceScore: 0.9,
      reason: `failed in ${path}`,
      location: { path: t.testFile ?? path },
      entityId: `test:${t.id}`,
      timestamp: t.time,
    }));
    const text = failures.map((t) => `${t.suite ?? ''} ${t.name} ${t.message}`).join('\n');
    const first = failures.find((t) => t.testFile)?.testFile;
    return {
      type: 'test_report',
      source: path,
      key: `t:${stamp}`,
      files,
      text,
      lead,
      focus: first ? { file: first } : undefined,
    };
  }

  private matches(p: WatchPattern, t: Trigger): boolean {
    switch (p.type) {
      case 'file':
        return t.files.some((f) => this.glob(p.pattern).matches(f));
      case 'symbol': {
        const at = p.pattern.lastIndexOf('::');
        const path = at >= 0 ? p.pattern.slice(0, at) : '';
        const name = at >= 0 ? p.pattern.slice(at + 2) : p.pattern;
        const inFile = !path || t.files.some((f) => this.glob(path).matches(f));
        if (t.symbol) return inFile && sameSymbol(name, t.symbol);
        // A change on disk to the file a symbol lives in may have changed the symbol.
        return !!path && t.type === 'file_change' && inFile;
      }
      case 'topic':
        return !!t.text && topicMatches(p.pattern, t.text);
    }
  }

  private glob(pattern: string): GlobMatcher {
    let m = this.matchers.get(pattern);
    if (!m) {
      m = compileGlob(pattern);
      this.matchers.set(pattern, m);
    }
    return m;
  }

  /**
   * Builds what the watch pushes for the trigger, then claims and stores it in one step: every
   * process may build it, only the first to claim the event records it (the others drop theirs).
   * The firing is told here at once and to every other process through the log.
   */
  private async fire(watch: Watch, matched: WatchPattern[], t: Trigger): Promise<void> {
    const now = this.parts.clock();
    const started = performance.now();
    const type = matched.some((p) => p.type === 'symbol') && t.type === 'activity' ? 'symbol_focus' : t.type;
    let items: SuggestionItem[] = [...(t.lead ?? [])];
    let notes: string[] | undefined;
    if (t.focus) {
      const s = await this.parts.provider.suggest(
        {
          currentFile: t.focus.file,
          cursorPosition: t.focus.line ? { line: t.focus.line, column: 1 } : undefined,
          currentSymbol: t.focus.symbol,
        },
        { trigger: type, record: false },
      );
      const lead = new Set(items.map((i) => i.entityId));
      items.push(...s.items.filter((i) => !lead.has(i.entityId)));
      notes = s.notes;
    }
    items = items.filter((i) => i.relevanceScore >= watch.minRelevanceScore).slice(0, watch.maxSuggestionsPerTrigger);
    const suggestion: ContextSuggestion = {
      id: `sug_${now.toString(36)}${watch.id}`,
      trigger: { type, source: t.source },
      query: {
        currentFile: t.focus?.file,
        cursorPosition: t.focus?.line ? { line: t.focus.line, column: 1 } : undefined,
        currentSymbol: t.focus?.symbol,
      },
      items,
      status: 'pending',
      createdAt: now,
      latencyMs: Math.round((performance.now() - started) * 100) / 100,
      notes: [`watch ${watch.id} matched ${matched.map((p) => `${p.type} ${p.pattern}`).join(', ')}`, ...(notes ?? [])],
    };
    const seq = this.watches.claimAndRecord(watch.id, t.key, suggestion);
    if (seq === undefined) return;
    this.lastFired.set(watch.id, now);
    this.parts.logger.debug(`Watch ${watch.id} fired on ${type} ${t.source} with ${items.length} item(s)`);
    this.told.add(seq);
    this.fired.fire({ seq, watchId: watch.id, firedAt: now, suggestion, watch: { ...watch, lastTriggeredAt: now } });
    this.log.append({ type: 'watch_fired', watchId: watch.id, seq });
  }
}

/**
 * The file changes of one event (or one bulk change) as one trigger: the first changed file is
 * where context is looked up, every file is matched. Keyed by the bulk change when there is one, so
 * each process claims the same firing for it whichever part it read first.
 */
function bulkTrigger(ts: Trigger[], batch: FileBatch | undefined): Trigger {
  if (ts.length === 1 && !batch) return ts[0];
  const count = Math.max(batch?.files ?? 0, ts.length);
  const names = ts.slice(0, 3).map((t) => t.source);
  return {
    type: 'file_change',
    source: `${count} files changed: ${names.join(', ')}${count > names.length ? ', …' : ''}`,
    key: batch ? `fb:${batch.id}` : ts[0].key,
    files: ts.flatMap((t) => t.files),
    focus: ts.find((t) => t.focus)?.focus,
  };
}

/** `Cart.total` names `total` in `Cart`; a bare name matches either form. */
function sameSymbol(pattern: string, symbol: string): boolean {
  return pattern === symbol || symbol.endsWith(`.${pattern}`) || pattern.endsWith(`.${symbol}`);
}

/**
 * Whole words, case-insensitive: every word of the topic must appear in the text as a word; a
 * topic in quotes must appear as that phrase. Linear in the text.
 */
export function topicMatches(topic: string, text: string): boolean {
  const words = (s: string) => s.toLowerCase().match(/[\p{L}\p{N}_]+/gu) ?? [];
  const phrase = /^".*"$/s.test(topic.trim());
  const want = words(topic);
  if (!want.length) return false;
  const have = words(text);
  if (!phrase) {
    const set = new Set(have);
    return want.every((w) => set.has(w));
  }
  outer: for (let i = 0; i + want.length <= have.length; i++) {
    for (let k = 0; k < want.length; k++) if (have[i + k] !== want[k]) continue outer;
    return true;
  }
  return false;
}

export type { WorkspaceEvent };
