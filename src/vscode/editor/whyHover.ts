import * as vscode from 'vscode';
import { renderWhyHover } from './hintText';
import { isCancellation } from '../../core/api/errors';
import type { WhyCard } from '../../core/api/types';
import { relativePath } from '../activityTracker';
import type { SuggestionsController } from '../suggestionsController';
import type { WorkspaceServices } from '../workspaceServices';
import type { AnchorCache } from './anchorCache';

const MAX_CARDS = 50;

/**
 * The why-card over the declaration line of a governed definition: the decisions over it, the last
 * change to its lines and its callers. Built from the panel's suggestion when it is for this file
 * (no new pass) and kept per document version and definition, so hovering again costs nothing.
 */
export class WhyHoverProvider implements vscode.HoverProvider {
  private readonly cards = new Map<string, Promise<WhyCard | undefined>>();
  private requestCount = 0;

  constructor(
    private readonly anchors: AnchorCache,
    private readonly services: WorkspaceServices,
    private readonly controller: SuggestionsController,
    private readonly enabled: () => boolean,
    private readonly log: vscode.LogOutputChannel,
  ) {}

  get requests(): number {
    return this.requestCount;
  }

  async provideHover(
    document: vscode.TextDocument,
    position: vscode.Position,
    token: vscode.CancellationToken,
  ): Promise<vscode.Hover | undefined> {
    if (!this.enabled()) return undefined;
    const at = this.anchors.get(document)?.at(position.line + 1);
    const folder = vscode.workspace.getWorkspaceFolder(document.uri);
    if (!at || !folder) return undefined;
    this.requestCount++;
    const card = await this.card(document, folder, at.onDisk, token);
    if (token.isCancellationRequested) return undefined;
    const linkTo = (path: string, line?: number) =>
      vscode.Uri.joinPath(folder.uri, ...path.split('/'))
        .with({ fragment: line ? `L${line}` : '' })
        .toString();
    const markdown = new vscode.MarkdownString(renderWhyHover(at.anchors, card, linkTo, Date.now()), true);
    return new vscode.Hover(markdown, document.lineAt(position.line).range);
  }

  private card(
    document: vscode.TextDocument,
    folder: vscode.WorkspaceFolder,
    span: { name: string; startLine: number; endLine: number },
    token: vscode.CancellationToken,
  ): Promise<WhyCard | undefined> {
    const key = `${document.uri.toString()}@${document.version}#${span.name}:${span.startLine}`;
    let card = this.cards.get(key);
    if (!card) {
      const service = this.services.peek(folder);
      if (!service) return Promise.resolve(undefined);
      const file = relativePath(folder, document.uri);
      const last = this.controller.lastFor(document.uri);
      // Not tied to this hover's token: a card half computed when the pointer moves on is still worth keeping.
      card = service.suggestions
        .explainWhy({ file, line: span.startLine, symbol: { ...span } }, { suggestion: last?.suggestion })
        .catch((err: unknown) => {
          this.cards.delete(key);
          if (!isCancellation(err))
            this.log.warn(`Could not explain ${span.name} in ${file}: ${(err as Error).message}`);
          return undefined;
        });
      this.cards.set(key, card);
      if (this.cards.size > MAX_CARDS) this.cards.delete(this.cards.keys().next().value as string);
    }
    return token.isCancellationRequested ? Promise.resolve(undefined) : card;
  }
}
