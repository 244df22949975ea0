import * as vscode from 'vscode';

/**
 * Whether any chat model is there to answer `@context`. Without one VS Code turns every `@context`
 * request away before the participant runs, so the palette, the panel and the walkthrough say so
 * themselves. Kept current through `onDidChangeChatModels` (a model arrives when Copilot signs in).
 */
export class ChatModelAvailability implements vscode.Disposable {
  private known: boolean | undefined;
  private pending: Promise<boolean> | undefined;
  /** Bumped on every change, so an answer asked for before the change is not kept. */
  private generation = 0;
  private readonly subscription: vscode.Disposable;

  constructor(private readonly log: vscode.LogOutputChannel) {
    this.subscription = vscode.lm.onDidChangeChatModels(() => {
      this.generation++;
      this.known = undefined;
      this.pending = undefined;
      void this.available();
    });
  }

  /** True when at least one chat model is registered; asks VS Code once, then after each change. */
  available(): Promise<boolean> {
    if (this.known !== undefined) return Promise.resolve(this.known);
    const generation = this.generation;
    this.pending ??= Promise.resolve(vscode.lm.selectChatModels())
      .then(
        (models) => models.length > 0,
        (err: unknown) => {
          this.log.warn(`Could not list chat models: ${(err as Error)?.message ?? String(err)}`);
          return false;
        },
      )
      .then((found) => {
        if (generation !== this.generation) return found;
        this.pending = undefined;
        if (this.known !== found)
          this.log.info(
            found
              ? 'A chat model is available for @context'
              : 'No chat model is available: @context cannot answer until one is',
          );
        this.known = found;
        return found;
      });
    return this.pending;
  }

  dispose(): void {
    this.subscription.dispose();
  }
}
