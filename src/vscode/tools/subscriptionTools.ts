import * as vscode from 'vscode';
import { UnknownSubscriptionError } from '../../core/api/contextService';
import { SubscriptionLimitError } from '../../core/api/errors';
import {
  activeCount,
  describeSubscription,
  expiresIn,
  noSubscriptions,
  noSuchSubscription,
  removedAll,
  removedSubscription,
  subscribed,
  subscriptionLimit,
} from '../../core/api/messages';
import { escapeMarkdown } from '../../shared/text';
import type { SubscribeRequest } from '../../core/api/types';
import { ContextTool, type ToolRun } from './contextTool';
import { toolNames } from './toolNames';
import { noInput, subscribeFileRequest, subscribeMemoryRequest, ToolInputError, unsubscribeId } from './toolInput';

type Input = Record<string, unknown>;

/** A model-given field as trimmed text; anything but a string or number counts as empty. */
function textField(input: Input | undefined, key: string): string {
  const v = input?.[key];
  return typeof v === 'string' || typeof v === 'number' ? String(v).trim() : '';
}

/** Subscribes and reports what the next turns get, the same sentences as the chat and the palette. */
async function subscribeAndReport(request: SubscribeRequest, { service, signal }: ToolRun): Promise<string> {
  try {
    const outcome = await service.subscriptions.subscribe(request, { signal });
    return subscribed(outcome, Date.now(), { maxChars: service.config.subscriptions.maxChars }).join('\n');
  } catch (err) {
    if (err instanceof SubscriptionLimitError) throw new ToolInputError(subscriptionLimit(err, 'tool'));
    throw err;
  }
}

function requestLabel(r: SubscribeRequest): string {
  if (r.kind === 'lines' && r.lines) return `${r.target} lines ${r.lines.start}–${r.lines.end}`;
  if (r.kind === 'pattern') return `${r.target} lines matching ${r.pattern}`;
  return r.target;
}

export class SubscribeFileTool extends ContextTool<Input> {
  prepareInvocation(o: vscode.LanguageModelToolInvocationPrepareOptions<Input>): vscode.PreparedToolInvocation {
    let what: string;
    try {
      what = requestLabel(subscribeFileRequest(o.input));
    } catch {
      what = textField(o.input, 'path') || 'a file';
    }
    return {
      invocationMessage: `Subscribing the chat to ${what}`,
      confirmationMessages: {
        title: 'Subscribe the chat to a file?',
        message: new vscode.MarkdownString(
          `Every following \`@context\` turn will include the current content of **${escapeMarkdown(what)}**.`,
        ),
      },
    };
  }

  protected run(input: Input, r: ToolRun): Promise<string> {
    return subscribeAndReport(subscribeFileRequest(input), r);
  }
}

export class SubscribeMemoryTool extends ContextTool<Input> {
  prepareInvocation(o: vscode.LanguageModelToolInvocationPrepareOptions<Input>): vscode.PreparedToolInvocation {
    const query = textField(o.input, 'query');
    return {
      invocationMessage: `Subscribing the chat to the memory search “${query}”`,
      confirmationMessages: {
        title: 'Subscribe the chat to a memory search?',
        message: new vscode.MarkdownString(
          `Every following \`@context\` turn will include the top decisions and past chats matching **${escapeMarkdown(query)}**.`,
        ),
      },
    };
  }

  protected run(input: Input, r: ToolRun): Promise<string> {
    return subscribeAndReport(subscribeMemoryRequest(input), r);
  }
}

export class UnsubscribeTool extends ContextTool<Input> {
  async prepareInvocation(
    o: vscode.LanguageModelToolInvocationPrepareOptions<Input>,
  ): Promise<vscode.PreparedToolInvocation> {
    const id = textField(o.input, 'id');
    const sub = id ? (await this.peekService())?.subscriptions.get(id) : undefined;
    const what = sub ? `${describeSubscription(sub)} (id ${sub.id})` : `subscription ${id}`;
    return {
      invocationMessage: `Removing ${what}`,
      confirmationMessages: {
        title: 'Remove a context subscription?',
        message: new vscode.MarkdownString(`\`@context\` will stop including **${escapeMarkdown(what)}**.`),
      },
    };
  }

  protected run(input: Input, { service }: ToolRun): string {
    const id = unsubscribeId(input);
    try {
      const removed = service.subscriptions.unsubscribe(id);
      const { list, max } = service.subscriptions.list();
      return `${removedSubscription(removed)} ${activeCount(list.length, max)}`;
    } catch (err) {
      if (err instanceof UnknownSubscriptionError) throw new ToolInputError(noSuchSubscription(id, 'tool'));
      throw err;
    }
  }
}

export class UnsubscribeAllTool extends ContextTool<Input> {
  async prepareInvocation(): Promise<vscode.PreparedToolInvocation> {
    const n = (await this.peekService())?.subscriptions.list().list.length ?? 0;
    return {
      invocationMessage: 'Removing all context subscriptions',
      confirmationMessages: {
        title: 'Remove all context subscriptions?',
        message: new vscode.MarkdownString(
          `\`@context\` will stop including all ${n} subscribed file${n === 1 ? '' : 's'} and searches of this workspace.`,
        ),
      },
    };
  }

  protected run(input: Input, { service }: ToolRun): string {
    noInput(input, toolNames.unsubscribeAll);
    return removedAll(service.subscriptions.unsubscribeAll());
  }
}

export class ListSubscriptionsTool extends ContextTool<Input> {
  prepareInvocation(): vscode.PreparedToolInvocation {
    return { invocationMessage: 'Listing context subscriptions' };
  }

  protected run(input: Input, { service }: ToolRun): string {
    noInput(input, toolNames.listSubscriptions);
    const { list, max } = service.subscriptions.list();
    if (!list.length) return noSubscriptions(max, 'tool');
    const now = Date.now();
    return [
      `${list.length} of ${max} active subscriptions (id · kind · what · expires in):`,
      ...list.map((s) => `- ${s.id} · ${s.kind} · ${describeSubscription(s)} · ${expiresIn(s, now)}`),
    ].join('\n');
  }
}
