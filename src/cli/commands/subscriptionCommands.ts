import { StoreWriteError, SubscriptionLimitError, userMessageOf } from '../../core/api/errors';
import { UnknownSubscriptionError } from '../../core/api/contextService';
import {
  describeSubscription,
  noSuchSubscription,
  noSubscriptions,
  removedAll,
  renderSubscriptions,
  subscriptionLimit,
} from '../../core/api/messages';
import { safeLabel } from '../../shared/text';
import { SUBSCRIPTION_KINDS, toRelative, type SubscriptionKind } from '../../core/api/types';
import { UsageError } from '../args';
import { idOrAll, noPositionals, print, withService, type CliCommand } from './command';

export const subscribe: CliCommand = {
  name: 'subscribe',
  summary: 'subscribe chat context to a file, lines, pattern, symbol or memory search',
  usage:
    'subscribe --root R --kind file|lines|pattern|symbol|memory --target T [--lines a-b] [--pattern RE] [--replace-oldest]',
  description:
    'Adds (or renews) a subscription; its current content goes into every @context chat turn and the MCP resources.',
  flags: {
    kind: { type: 'string', value: 'KIND', description: 'file, lines, pattern, symbol or memory' },
    target: {
      type: 'string',
      value: 'T',
      description: 'path (file, lines, pattern), path::name or name (symbol), or search text (memory)',
    },
    lines: { type: 'string', value: 'a-b', description: 'line range for --kind lines' },
    pattern: { type: 'string', value: 'RE', description: 'regular expression for --kind pattern' },
    'replace-oldest': { type: 'boolean', description: 'when the limit is reached, replace the oldest subscription' },
  },
  async run(args) {
    noPositionals(args);
    const kind = args.flags.kind;
    if (typeof kind !== 'string' || !SUBSCRIPTION_KINDS.includes(kind as SubscriptionKind))
      throw new UsageError('--kind must be one of file, lines, pattern, symbol, memory');
    if (typeof args.flags.target !== 'string' || !args.flags.target.trim())
      throw new UsageError('subscribe needs --target');
    let lines: { start: number; end: number } | undefined;
    if (args.flags.lines !== undefined) {
      const m = /^(\d+)(?:-(\d+))?$/.exec(String(args.flags.lines));
      if (!m) throw new UsageError(`--lines must look like 10-20, got '${args.flags.lines}'`);
      lines = { start: Number(m[1]), end: Number(m[2] ?? m[1]) };
    }
    if (kind === 'lines' && !lines) throw new UsageError('--kind lines needs --lines a-b');
    if (kind === 'pattern' && typeof args.flags.pattern !== 'string')
      throw new UsageError('--kind pattern needs --pattern RE');
    return withService(args, async (service) => {
      const raw = args.flags.target as string;
      const target = kind === 'symbol' || kind === 'memory' ? raw : (toRelative(service.root, raw) ?? raw);
      try {
        const r = await service.subscriptions.subscribe(
          { kind: kind as SubscriptionKind, target, lines, pattern: args.flags.pattern as string | undefined },
          { replaceOldest: Boolean(args.flags['replace-oldest']) },
        );
        const s = r.subscription;
        const json = {
          subscription: s,
          renewed: r.renewed,
          replaced: r.replaced,
          note: r.preview.note,
          truncated: r.preview.truncated,
          limit: r.limit,
        };
        print(
          args,
          json,
          `${r.renewed ? 'renewed' : 'subscribed'} ${s.id}  ${s.kind}  ${describeSubscription(s)}  (expires ${new Date(s.expiresAt).toISOString()})${r.replaced ? `\nreplaced ${r.replaced.id} ${describeSubscription(r.replaced)}` : ''}${r.preview.note ? `\nnote: ${safeLabel(r.preview.note, 600)}` : ''}`,
        );
        return 0;
      } catch (err) {
        if (err instanceof SubscriptionLimitError) throw new Error(subscriptionLimit(err, 'cli'));
        // A refused target (outside the root, a secret, a bad pattern) is bad input.
        const message = err instanceof StoreWriteError ? undefined : userMessageOf(err);
        if (message) throw new UsageError(message);
        throw err;
      }
    });
  },
};

export const unsubscribe: CliCommand = {
  name: 'unsubscribe',
  summary: 'remove a subscription by id, or all of them',
  usage: 'unsubscribe --root R (--id ID | --all)',
  description: 'Removes one subscription (by the id shown by `subscriptions`) or every subscription of the workspace.',
  flags: {
    id: { type: 'string', value: 'ID', description: 'subscription id' },
    all: { type: 'boolean', description: 'remove every subscription' },
  },
  async run(args) {
    const which = idOrAll(args);
    return withService(args, async (service) => {
      if ('all' in which) {
        const n = service.subscriptions.unsubscribeAll();
        print(args, { removed: n }, removedAll(n));
        return 0;
      }
      try {
        const s = service.subscriptions.unsubscribe(which.id);
        print(args, { removed: 1, subscription: s }, `removed ${s.id} ${describeSubscription(s)}`);
        return 0;
      } catch (err) {
        if (err instanceof UnknownSubscriptionError) throw new Error(noSuchSubscription(err.id, 'cli'));
        throw err;
      }
    });
  },
};

export const subscriptions: CliCommand = {
  name: 'subscriptions',
  summary: 'list active subscriptions',
  usage: 'subscriptions --root R [--json]',
  description: 'Lists the active subscriptions with their ids, targets and expiry.',
  flags: {},
  async run(args) {
    noPositionals(args);
    return withService(args, async (service) => {
      const { list, max } = service.subscriptions.list();
      const text = list.length
        ? list
            .map(
              (s) =>
                `${s.id}  ${s.kind.padEnd(7)} ${describeSubscription(s)}  (expires ${new Date(s.expiresAt).toISOString()})`,
            )
            .join('\n')
        : noSubscriptions(max, 'cli');
      print(args, list, text);
      return 0;
    });
  },
};

export const materialize: CliCommand = {
  name: 'materialize',
  summary: 'print the subscribed content a chat turn would get',
  usage: 'materialize --root R [--dry-run] [--json]',
  description:
    'Resolves every active subscription to its current content, as the next @context turn would. --dry-run does not renew them or record their hashes.',
  flags: { 'dry-run': { type: 'boolean', description: 'do not renew or record hashes' } },
  async run(args) {
    noPositionals(args);
    return withService(args, async (service) => {
      const results = await service.subscriptions.materializeAll({ record: !args.flags['dry-run'] });
      print(args, results, results.length ? renderSubscriptions(results) : 'no active subscriptions');
      return 0;
    });
  },
};
