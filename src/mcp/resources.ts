import { createHash } from 'node:crypto';
import { posix } from 'node:path';
import type {
  ReadResourceResult,
  Resource,
  ResourceTemplateType as ResourceTemplate,
} from '@modelcontextprotocol/server';
import type { ContextSuggestion, DecisionRecord, Subscription } from '../core/api/types';
import { describeSubscription, describeWatch } from '../core/api/messages';
import { bounded, subscriptionJson, watchJson, type McpService, type WatchResourceJson } from './service';
import {
  DECISIONS_URI,
  SUBSCRIPTIONS_URI,
  URI_TEMPLATES,
  decisionUri,
  invalidParams,
  parseResourceUri,
  subscriptionUri,
  watchUri,
  type ResourceRef,
} from './uris';

/** Folders where decision records usually live; watched when they exist, in addition to the folders of known decisions. */
export const DEFAULT_DECISION_DIRS = [
  'docs/adr',
  'docs/decisions',
  'docs/architecture/decisions',
  'doc/adr',
  'adr',
  'decisions',
];

/**
 * Everything the server exposes as resources: listing, templates, reading, and a cheap content
 * fingerprint used to tell whether a resource really changed before telling a client so.
 */
export class ResourceCatalog {
  constructor(
    private readonly service: McpService,
    private readonly timeoutMs: number,
  ) {}

  private subs(): Promise<Subscription[]> {
    return bounded(this.service.subscriptions.list().list, 'Listing subscriptions', this.timeoutMs);
  }

  private decisions(): Promise<DecisionRecord[]> {
    return bounded(this.service.decisions.list(), 'Reading decisions', this.timeoutMs);
  }

  private suggest(path: string, record = true): Promise<ContextSuggestion> {
    return bounded(
      this.service.suggestions.suggestForInput({ file: path }, { record }),
      'Suggesting context',
      this.timeoutMs,
    );
  }

  private readFile(path: string): Promise<string> {
    return bounded(this.service.workspace.readFile(path), `Reading ${path}`, this.timeoutMs);
  }

  parse(uri: string): ResourceRef {
    return parseResourceUri(uri, this.service.root);
  }

  async list(): Promise<Resource[]> {
    const subs = await this.subs();
    return [
      {
        uri: SUBSCRIPTIONS_URI,
        name: 'Active subscriptions',
        description: 'Every active context subscription with its kind, target and expiry.',
        mimeType: 'application/json',
      },
      {
        uri: DECISIONS_URI,
        name: 'Decisions',
        description: 'Decision records (ADRs) of the workspace: number, title, status, path.',
        mimeType: 'application/json',
      },
      ...subs.map((s) => ({
        uri: subscriptionUri(s.id),
        name: `Subscription ${describeSubscription(s)}`,
        description: `Current content of the subscription to ${describeSubscription(s)}, expires ${new Date(s.expiresAt).toISOString()}.`,
        mimeType: 'text/plain',
      })),
      ...this.service.watches.list().map((w) => ({
        uri: watchUri(w.id),
        name: `Watch ${describeWatch(w)}`,
        description: `The latest context pushed for the watch on ${describeWatch(w)}, and its settings; resources/subscribe to be told of each firing. Expires ${new Date(w.expiresAt).toISOString()}.`,
        mimeType: 'application/json',
      })),
    ];
  }

  /** A watch's resource body: the latest firing's trigger and items, and the watch's settings. */
  readWatch(id: string): WatchResourceJson {
    let r;
    try {
      r = this.service.watches.read(id);
    } catch {
      throw invalidParams(`No watch has the id ${id}; list_watches shows the watches in use.`);
    }
    const latest = r.latest?.suggestion ?? null;
    return {
      watch: watchJson(r.watch, watchUri(id)),
      trigger: latest?.trigger ?? null,
      items: latest?.items ?? [],
      seq: r.latest?.seq ?? 0,
      firedAt: r.latest?.firedAt ?? null,
      latest,
    };
  }

  templates(): ResourceTemplate[] {
    return [
      {
        uriTemplate: URI_TEMPLATES.subscription,
        name: 'Subscription content',
        description: 'The current materialized content of one subscription.',
        mimeType: 'text/plain',
      },
      {
        uriTemplate: URI_TEMPLATES.suggestions,
        name: 'Suggestions for a file',
        description: 'Ranked context suggestions for a workspace file (root-relative path).',
        mimeType: 'application/json',
      },
      {
        uriTemplate: URI_TEMPLATES.decision,
        name: 'Decision record',
        description: 'One decision record by its number.',
        mimeType: 'text/markdown',
      },
      {
        uriTemplate: URI_TEMPLATES.watch,
        name: 'Watch',
        description: 'The latest context a watch pushed (trigger and items) and its settings.',
        mimeType: 'application/json',
      },
      {
        uriTemplate: URI_TEMPLATES.file,
        name: 'Workspace file',
        description: 'A file inside the workspace root (root-relative path); file:/// URIs inside the root work too.',
      },
    ];
  }

  async read(uri: string, ref: ResourceRef = this.parse(uri)): Promise<ReadResourceResult> {
    switch (ref.kind) {
      case 'subscriptions': {
        const subs = await this.subs();
        const body = subs.map((s) => ({ ...subscriptionJson(s), uri: subscriptionUri(s.id) }));
        return { contents: [{ uri, mimeType: 'application/json', text: JSON.stringify(body, null, 2) }] };
      }
      case 'subscription': {
        await this.requireSubscription(ref.id);
        const m = await bounded(
          this.service.subscriptions.read(ref.id),
          `Reading subscription ${ref.id}`,
          this.timeoutMs,
        );
        const text = m.text || (m.note ? `(${m.note})` : '');
        return {
          contents: [
            {
              uri,
              mimeType: 'text/plain',
              text,
              _meta: { hash: m.hash, truncated: m.truncated, ...(m.note ? { note: m.note } : {}) },
            },
          ],
        };
      }
      case 'suggestions': {
        const s = await this.suggest(ref.path);
        return { contents: [{ uri, mimeType: 'application/json', text: JSON.stringify(s, null, 2) }] };
      }
      case 'decisions': {
        const list = (await this.decisions()).map(({ body: _body, label: _label, ...d }) => ({
          ...d,
          ...(d.number !== undefined ? { uri: decisionUri(d.number) } : {}),
        }));
        return { contents: [{ uri, mimeType: 'application/json', text: JSON.stringify(list, null, 2) }] };
      }
      case 'decision': {
        const d = await this.decision(ref.number);
        if (!d) throw invalidParams(`No decision numbered ${ref.number}.`);
        return { contents: [{ uri, mimeType: 'text/markdown', text: d.body }] };
      }
      case 'watch':
        return {
          contents: [{ uri, mimeType: 'application/json', text: JSON.stringify(this.readWatch(ref.id), null, 2) }],
        };
      case 'file': {
        let text: string;
        try {
          text = await this.readFile(ref.path);
        } catch (err) {
          throw invalidParams(`Cannot read ${ref.path}: ${(err as Error).message}`);
        }
        return { contents: [{ uri, mimeType: mimeTypeOf(ref.path), text }] };
      }
    }
  }

  /**
   * A short digest of what reading the resource would return now. Volatile parts (suggestion ids,
   * timings, subscription renewal times) are left out so that only real changes count.
   */
  async fingerprint(ref: ResourceRef): Promise<string> {
    switch (ref.kind) {
      case 'subscriptions': {
        const subs = await this.subs();
        return digest(
          subs
            .map((s) => ({ id: s.id, kind: s.kind, target: s.target, lines: s.lines, pattern: s.pattern }))
            .sort((a, b) => a.id.localeCompare(b.id)),
        );
      }
      case 'subscription': {
        const subs = await this.subs();
        if (!subs.some((s) => s.id === ref.id)) return 'gone';
        try {
          return (
            await bounded(this.service.subscriptions.read(ref.id), `Reading subscription ${ref.id}`, this.timeoutMs)
          ).hash;
        } catch (err) {
          return 'error:' + (err as Error).message;
        }
      }
      case 'suggestions':
        // Only a check for changes: not a suggestion anyone sees, so not kept for feedback or metrics.
        return suggestionFingerprint(await this.suggest(ref.path, false));
      case 'decisions':
        return digest((await this.decisions()).map(({ body: _body, ...d }) => d));
      case 'decision': {
        const d = await this.decision(ref.number);
        return d ? digest(d) : 'gone';
      }
      case 'watch': {
        const w = this.service.watches.list().find((x) => x.id === ref.id);
        if (!w) return 'gone';
        return `seq:${this.service.watches.firingsSince(0, { watchIds: [ref.id], limit: 200 }).firings.at(-1)?.seq ?? 0}`;
      }
      case 'file':
        try {
          return digest(await this.readFile(ref.path));
        } catch (err) {
          return 'error:' + (err as Error).message;
        }
    }
  }

  /** Throws InvalidParams when the resource cannot be served now (unknown id, missing file, secret...). */
  async assertReadable(uri: string, ref: ResourceRef): Promise<void> {
    await this.read(uri, ref);
  }

  /** Root-relative folders whose changes may change the resource. */
  async dependencies(ref: ResourceRef, subs: readonly Subscription[], decisionDirs: string[]): Promise<string[]> {
    switch (ref.kind) {
      case 'file':
        return [dirOf(ref.path)];
      case 'suggestions':
        return [dirOf(ref.path), ...decisionDirs];
      case 'decisions':
      case 'decision':
        return decisionDirs;
      case 'subscription': {
        const s = subs.find((x) => x.id === ref.id);
        if (!s) return [];
        const file = s.path ?? (s.kind === 'file' || s.kind === 'lines' || s.kind === 'pattern' ? s.target : undefined);
        if (file !== undefined) return [dirOf(file)];
        // Symbols without a file and memory queries can be anywhere; decisions are the common source.
        return decisionDirs;
      }
      case 'subscriptions':
      case 'watch':
        return [];
    }
  }

  async decisionDirs(exists: (rel: string) => boolean): Promise<string[]> {
    const dirs = new Set<string>();
    try {
      for (const d of await this.decisions()) dirs.add(dirOf(d.path));
    } catch {
      // No decisions available: only the usual folders.
    }
    for (const d of DEFAULT_DECISION_DIRS) if (exists(d)) dirs.add(d);
    return [...dirs];
  }

  private async decision(n: number): Promise<DecisionRecord | undefined> {
    return (await this.decisions()).find((d) => d.number === n);
  }

  private async requireSubscription(id: string): Promise<void> {
    const subs = await this.subs();
    if (!subs.some((s) => s.id === id)) throw invalidParams(`No subscription with id ${id}.`);
  }
}

function suggestionFingerprint(s: ContextSuggestion): string {
  return digest({
    items: s.items.map((i) => [
      i.entityId,
      i.type,
      i.title,
      i.summary,
      i.reason,
      Math.round(i.relevanceScore * 1000),
      i.location,
    ]),
    notes: s.notes ?? [],
  });
}

function digest(value: unknown): string {
  return createHash('sha256')
    .update(typeof value === 'string' ? value : JSON.stringify(value))
    .digest('hex')
    .slice(0, 32);
}

function dirOf(rel: string): string {
  const d = posix.dirname(rel);
  return d === '.' ? '' : d;
}

const MIME_TYPES: Record<string, string> = {
  '.md': 'text/markdown',
  '.json': 'application/json',
  '.ts': 'text/x-typescript',
  '.tsx': 'text/x-typescript',
  '.js': 'text/javascript',
  '.mjs': 'text/javascript',
  '.cjs': 'text/javascript',
  '.py': 'text/x-python',
  '.html': 'text/html',
  '.css': 'text/css',
  '.yaml': 'application/yaml',
  '.yml': 'application/yaml',
};

function mimeTypeOf(rel: string): string {
  return MIME_TYPES[posix.extname(rel).toLowerCase()] ?? 'text/plain';
}
