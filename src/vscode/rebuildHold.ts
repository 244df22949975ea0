// No `vscode` import: the rule is unit-tested in Node.

/** Where an answer was asked for: a file of a folder, a line, and the definition around it. */
export interface AnswerPlace {
  /** The folder's URI and the root-relative path, so two folders' files never mix. */
  key: string;
  line: number;
  symbol?: { name: string; startLine: number; endLine: number };
}

const MAX_ANSWERS = 64;

/**
 * Keeps the panel's previous answers while the index is rebuilt. During a rebuild the index is
 * empty at first and then partial, so a pass would show fewer items, and a symbol the half-built
 * index (or a language server on a busy host) guesses; until the new index is ready the panel shows
 * the answer it gave before for the same place instead. The same place is the same line of the same
 * file, or a line inside the same definition as the tracker names now: a nested definition the
 * old answer did not know about never borrows its parent's answer.
 */
export class AnswerMemo<T> {
  private readonly answers: { place: AnswerPlace; answer: T }[] = [];
  private rebuilds = 0;

  /** True while at least one rebuild runs. */
  get holding(): boolean {
    return this.rebuilds > 0;
  }

  /** Notes a complete answer; answers given during a rebuild are partial and not kept. */
  remember(place: AnswerPlace, answer: T): void {
    if (this.holding) return;
    const i = this.answers.findIndex((a) => a.place.key === place.key && a.place.line === place.line);
    if (i >= 0) this.answers.splice(i, 1);
    this.answers.unshift({ place, answer });
    if (this.answers.length > MAX_ANSWERS) this.answers.length = MAX_ANSWERS;
  }

  /** A rebuild starts; call the returned function once it has ended (done, failed or cancelled). */
  begin(): () => void {
    this.rebuilds++;
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      this.rebuilds--;
    };
  }

  /** While a rebuild runs: the earlier answer for this place, with the place it was given for. */
  lookup(place: AnswerPlace): { place: AnswerPlace; answer: T } | undefined {
    if (!this.holding) return undefined;
    const sameFile = this.answers.filter((a) => a.place.key === place.key);
    const sameLine = sameFile.find((a) => a.place.line === place.line);
    if (sameLine) return sameLine;
    const now = place.symbol;
    if (!now) return undefined;
    return sameFile.find(
      (a) =>
        a.place.symbol?.name === now.name &&
        a.place.symbol.startLine === now.startLine &&
        place.line >= a.place.symbol.startLine &&
        place.line <= a.place.symbol.endLine,
    );
  }
}
