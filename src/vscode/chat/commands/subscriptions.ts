import * as vscode from 'vscode';
import { UnknownSubscriptionError } from '../../../core/api/contextService';
import { SubscriptionLimitError } from '../../../core/api/errors';
import { describeSubscription, noSuchSubscription, removedAll, subscriptionLimit } from '../../../core/api/messages';
import { escapeMarkdown } from '../../../shared/text';
import type { SubscribeRequest } from '../../../core/api/types';
import { relativePath } from '../../activityTracker';
import { renderSubscribed, renderSubscriptionList } from '../chatText';
import { parseSubscribeArgs, parseUnsubscribeArgs, SUBSCRIBE_USAGE } from '../slashArgs';
import { chatCommands, type Turn } from '../turn';

/** `/subscribe [what]`: the argument, else the chat's #file references, else the active editor's file. */
export async function subscribe(t: Turn): Promise<void> {
  const { service, stream } = t;
  const parsed = parseSubscribeArgs(t.request.prompt);
  const requests = parsed ? [parsed] : referencedFiles(t);
  if (!requests.length) {
    stream.markdown(SUBSCRIBE_USAGE);
    return;
  }
  for (const req of requests) {
    let outcome;
    try {
      outcome = await service.subscriptions.subscribe(req, { signal: t.signal });
    } catch (err) {
      if (err instanceof SubscriptionLimitError) {
        stream.markdown(`⚠️ ${escapeMarkdown(subscriptionLimit(err, 'chat'))}`);
        stream.button({
          command: chatCommands.replaceOldest,
          title: 'Replace the oldest',
          arguments: [t.folder.uri.toString(), req],
        });
        return;
      }
      throw err;
    }
    stream.markdown(renderSubscribed(outcome, Date.now(), service.config.subscriptions.maxChars) + '\n\n');
    if (!outcome.preview.note && outcome.preview.location?.path)
      stream.reference(vscode.Uri.joinPath(t.folder.uri, ...outcome.preview.location.path.split('/')));
  }
}

/** `/unsubscribe <id…> | all`. */
export function unsubscribe(t: Turn): void {
  const args = parseUnsubscribeArgs(t.request.prompt);
  if (args.all) {
    t.stream.markdown(removedAll(t.service.subscriptions.unsubscribeAll()));
    return;
  }
  const removed: string[] = [];
  const failed: string[] = [];
  for (const id of args.ids) {
    try {
      removed.push(`\`${id}\` (${escapeMarkdown(describeSubscription(t.service.subscriptions.unsubscribe(id)))})`);
    } catch (err) {
      if (err instanceof UnknownSubscriptionError) failed.push(escapeMarkdown(noSuchSubscription(id, 'chat')));
      else throw err;
    }
  }
  const out: string[] = [];
  if (removed.length) out.push(`Removed ${removed.join(', ')}.`);
  for (const f of failed) out.push(`⚠️ ${f}`);
  t.stream.markdown(out.join('\n\n'));
}

/** `/list`. */
export function list(t: Turn): void {
  const { list: subs, max } = t.service.subscriptions.list();
  t.stream.markdown(renderSubscriptionList(subs, max, Date.now(), t.linkFor));
}

/** Files and ranges attached to the request (`#file`, drag and drop), as subscriptions. */
function referencedFiles(t: Turn): SubscribeRequest[] {
  const out: SubscribeRequest[] = [];
  for (const ref of t.request.references) {
    const v = ref.value;
    const uri = v instanceof vscode.Uri ? v : v instanceof vscode.Location ? v.uri : undefined;
    if (!uri || uri.scheme !== 'file') continue;
    const folder = vscode.workspace.getWorkspaceFolder(uri);
    if (folder?.uri.toString() !== t.folder.uri.toString()) continue;
    const path = relativePath(folder, uri);
    if (v instanceof vscode.Location && !v.range.isEmpty)
      out.push({ kind: 'lines', target: path, lines: { start: v.range.start.line + 1, end: v.range.end.line + 1 } });
    else out.push({ kind: 'file', target: path });
  }
  if (!out.length) {
    const here = t.deps.tracker.currentPlace(t.folder);
    if (here) out.push({ kind: 'file', target: here.place.file });
  }
  return out;
}
