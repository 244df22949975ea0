import { randomUUID } from 'node:crypto';
import * as vscode from 'vscode';
import type { NewDecision } from '../../../core/api/types';
import { buildDecisionPrompt, renderDecisionDraft, transcriptOf } from '../chatText';
import { parseDecisionTitle } from '../slashArgs';
import { chatCommands, historyTurns, NoModelError, streamFromModel, type ChatDeps, type Turn } from '../turn';

const MAX_DRAFTS = 20;

/** Decisions drafted in chat and not yet confirmed; nothing is written before the user confirms. */
export class DecisionDrafts {
  private readonly drafts = new Map<string, { folder: string; decision: NewDecision }>();

  constructor(private readonly deps: ChatDeps) {}

  /** `/decide <title>`: the model drafts an ADR from the conversation; a button records it. */
  async decide(t: Turn): Promise<void> {
    const title = parseDecisionTitle(t.request.prompt);
    const model = t.request.model;
    if (!model) throw new NoModelError();
    t.stream.progress('Drafting the decision from this conversation…');
    const prompt = buildDecisionPrompt(title, transcriptOf(historyTurns(t.chatContext)));
    let reply = '';
    await streamFromModel(model, [vscode.LanguageModelChatMessage.User(prompt)], t.token, (fragment) => {
      reply += fragment;
    });
    const decision = t.service.decisions.fromReply(title, reply);
    const id = randomUUID();
    this.drafts.set(id, { folder: t.folder.uri.toString(), decision });
    while (this.drafts.size > MAX_DRAFTS) this.drafts.delete(this.drafts.keys().next().value as string);
    t.stream.markdown(renderDecisionDraft(decision));
    t.stream.button({ command: chatCommands.confirmDecision, title: 'Record this decision', arguments: [id] });
  }

  /** Writes a confirmed draft (the newest one when no id is given) as an ADR and opens it; returns its root-relative path. */
  async confirm(draftId?: string): Promise<string | undefined> {
    if (typeof draftId !== 'string') draftId = [...this.drafts.keys()].pop();
    const draft = draftId === undefined ? undefined : this.drafts.get(draftId);
    if (!draft) {
      void vscode.window.showWarningMessage(
        'This decision draft was already recorded or is no longer available; draft it again with @context /decide.',
      );
      return undefined;
    }
    const folder = vscode.workspace.workspaceFolders?.find((f) => f.uri.toString() === draft.folder);
    if (!folder) {
      void vscode.window.showWarningMessage('The workspace folder of this draft is no longer open.');
      return undefined;
    }
    try {
      const path = await (await this.deps.services.get(folder)).decisions.record(draft.decision);
      this.drafts.delete(draftId as string);
      void vscode.window
        .showTextDocument(vscode.Uri.joinPath(folder.uri, ...path.split('/')), { preview: false })
        .then(undefined, () => undefined);
      void vscode.window.showInformationMessage(`Recorded the decision in ${path}.`);
      return path;
    } catch (err) {
      this.deps.log.error(`Recording a decision failed: ${(err as Error).message}`);
      void vscode.window.showErrorMessage(`Could not record the decision: ${(err as Error).message}`);
      return undefined;
    }
  }
}
