import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Disposable, Logger } from '../core/api/types';
import { DirectoryWatcher, type ChangeBatch } from './directoryWatcher';
import type { ResourceCatalog } from './resources';
import type { McpService } from './service';
import { invalidParams, type ResourceRef } from './uris';

/** Each subscribed resource may add a watched folder and work on every change; keep that bounded. */
export const MAX_RESOURCE_SUBSCRIPTIONS = 100;

export interface ResourceNotifier {
  updated(uri: string): Promise<void>;
  listChanged(): Promise<void>;
}

interface Subscribed {
  ref: ResourceRef;
  fingerprint: string;
}

/**
 * The resources one client subscribed to through `resources/subscribe`, kept fresh: folders that
 * matter are watched, every change batch re-fingerprints the affected resources, and only those
 * whose content really changed are announced, each under the exact URI the client subscribed to.
 * Also announces `list_changed` when the set of subscriptions (and so `resources/list`) changes.
 */
export class LiveResources {
  private readonly subscribed = new Map<string, Subscribed>();
  private readonly watcher: DirectoryWatcher;
  private readonly disposables: Disposable[] = [];
  private listedIds: string | undefined;
  private chain: Promise<void> = Promise.resolve();
  private disposed = false;

  constructor(
    private readonly service: McpService,
    private readonly catalog: ResourceCatalog,
    private readonly notify: ResourceNotifier,
    private readonly logger: Logger,
    debounceMs = 100,
  ) {
    this.watcher = new DirectoryWatcher(service.root, (batch) => this.onDiskBatch(batch), logger, debounceMs);
  }

  start(): void {
    this.disposables.push(
      this.service.subscriptions.onDidChange(() => {
        this.enqueue(async () => {
          await this.checkList();
          await this.evaluate((ref) => ref.kind === 'subscriptions' || ref.kind === 'subscription');
          await this.replan();
        });
      }),
    );
    this.disposables.push(
      this.service.workspace.onDidChangeWorkspaceData((paths) =>
        this.onBatch({ paths: new Set(paths), unknown: false }),
      ),
    );
    this.disposables.push(
      this.service.watches.onDidChange(() => this.enqueue(() => this.checkList())),
      // A firing (made here or by any other process on the workspace) updates its watch's resource.
      this.service.watches.onDidFire((f) =>
        this.enqueue(() => this.evaluate((ref) => ref.kind === 'watch' && ref.id === f.watchId)),
      ),
    );
    this.enqueue(() => this.checkList(false));
  }

  async subscribe(uri: string): Promise<void> {
    const ref = this.catalog.parse(uri);
    await this.catalog.assertReadable(uri, ref);
    await this.run(async () => {
      if (this.subscribed.has(uri)) return;
      if (this.subscribed.size >= MAX_RESOURCE_SUBSCRIPTIONS) {
        throw invalidParams(
          `At most ${MAX_RESOURCE_SUBSCRIPTIONS} resources can be subscribed at once; unsubscribe from one first.`,
        );
      }
      this.subscribed.set(uri, { ref, fingerprint: await this.fingerprint(ref) });
      this.logger.debug(`mcp: subscribed to ${uri}`);
      await this.replan();
    });
  }

  async unsubscribe(uri: string): Promise<void> {
    this.catalog.parse(uri);
    await this.run(async () => {
      if (this.subscribed.delete(uri)) this.logger.debug(`mcp: unsubscribed from ${uri}`);
      await this.replan();
    });
  }

  subscribedUris(): string[] {
    return [...this.subscribed.keys()];
  }

  watchedDirectories(): string[] {
    return this.watcher.watchedDirectories();
  }

  /** Sends `list_changed` if the listed subscriptions differ from the last time we looked. */
  async refreshList(): Promise<void> {
    await this.run(() => this.checkList());
  }

  dispose(): void {
    this.disposed = true;
    this.watcher.dispose();
    for (const d of this.disposables) d.dispose();
    this.disposables.length = 0;
    this.subscribed.clear();
  }

  /** The engine learns of what the watcher saw (to re-index it); the resources are checked at once. */
  private onDiskBatch(batch: ChangeBatch): void {
    for (const p of batch.paths) {
      if (!p) continue;
      try {
        const st = statSync(join(this.service.root, p), { throwIfNoEntry: false });
        if (!st?.isDirectory()) this.service.workspace.fileChanged(p, st === undefined);
      } catch (err) {
        this.logger.warn(`mcp: could not pass a change to the engine: ${(err as Error).message}`);
      }
    }
    this.onBatch(batch);
  }

  private onBatch(batch: ChangeBatch): void {
    this.enqueue(async () => {
      await this.evaluate((ref) => {
        if (ref.kind !== 'file' || batch.unknown) return true;
        for (const p of batch.paths) if (p === ref.path || ref.path.startsWith(p + '/')) return true;
        return false;
      });
      // A folder may have appeared or gone: watch the right ones again.
      await this.replan();
    });
  }

  private async evaluate(affected: (ref: ResourceRef) => boolean): Promise<void> {
    for (const [uri, entry] of this.subscribed) {
      if (!affected(entry.ref)) continue;
      const fp = await this.fingerprint(entry.ref);
      // The client may have unsubscribed while we computed.
      if (this.disposed || this.subscribed.get(uri) !== entry || fp === entry.fingerprint) continue;
      entry.fingerprint = fp;
      await this.notify.updated(uri);
    }
  }

  private async checkList(announce = true): Promise<void> {
    const ids = [
      ...this.service.subscriptions.list().list.map((s) => s.id),
      ...this.service.watches.list().map((w) => `watch:${w.id}`),
    ]
      .sort()
      .join('\n');
    const changed = this.listedIds !== undefined && ids !== this.listedIds;
    this.listedIds = ids;
    if (changed && announce) await this.notify.listChanged();
  }

  private async replan(): Promise<void> {
    if (this.disposed) return;
    const refs = [...this.subscribed.values()].map((s) => s.ref);
    const needsSubs = refs.some((r) => r.kind === 'subscription');
    const needsDecisions = refs.some((r) => r.kind !== 'file' && r.kind !== 'subscriptions');
    const subs = needsSubs ? this.service.subscriptions.list().list : [];
    const decisionDirs = needsDecisions
      ? await this.catalog.decisionDirs((rel) => existsSync(join(this.service.root, rel)))
      : [];
    const dirs = new Set<string>();
    for (const ref of refs) for (const d of await this.catalog.dependencies(ref, subs, decisionDirs)) dirs.add(d);
    this.watcher.setDirectories(dirs);
  }

  private async fingerprint(ref: ResourceRef): Promise<string> {
    try {
      return await this.catalog.fingerprint(ref);
    } catch (err) {
      return 'error:' + (err as Error).message;
    }
  }

  /** Runs after everything queued so far, so changes are evaluated in order and never overlap. */
  private run<T>(fn: () => Promise<T>): Promise<T> {
    const result = this.chain.then(fn);
    this.chain = result.then(
      () => undefined,
      () => undefined,
    );
    return result;
  }

  private enqueue(fn: () => Promise<void>): void {
    this.run(fn).catch((err: Error) => this.logger.warn(`mcp: resource update failed: ${err.message}`));
  }
}

/**
 * For clients that never subscribe: each `poll_updates` call reports which resources changed since
 * that client's previous call, by comparing content fingerprints.
 */
export class PollTracker {
  private snapshot: Map<string, string> | undefined;
  private readonly extra = new Set<string>();

  constructor(private readonly catalog: ResourceCatalog) {}

  /** `uris` are added to the polled set (beyond everything in `resources/list`) for this and later polls. */
  async poll(uris: string[] = []): Promise<{ changed: string[]; removed: string[]; firstPoll: boolean }> {
    for (const uri of uris) {
      if (this.extra.has(uri)) continue;
      const ref = this.catalog.parse(uri);
      await this.catalog.assertReadable(uri, ref);
    }
    for (const uri of uris) this.extra.add(uri);
    const current = new Map<string, string>();
    const listed = (await this.catalog.list()).map((r) => r.uri);
    for (const uri of new Set([...listed, ...this.extra])) {
      let fp: string;
      try {
        fp = await this.catalog.fingerprint(this.catalog.parse(uri));
      } catch (err) {
        fp = 'error:' + (err as Error).message;
      }
      current.set(uri, fp);
    }
    const previous = this.snapshot;
    this.snapshot = current;
    if (!previous) return { changed: [...current.keys()], removed: [], firstPoll: true };
    const changed = [...current].filter(([uri, fp]) => previous.get(uri) !== fp).map(([uri]) => uri);
    const removed = [...previous.keys()].filter((uri) => !current.has(uri));
    return { changed, removed, firstPoll: false };
  }
}
