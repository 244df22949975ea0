/**
 * What the editor shows where the eyes are (CodeLens over governed definitions, the why-card hover,
 * failing tests in the Problems view), as plain functions and one small line tracker, so the words
 * are the same everywhere and the cost per request can be measured without an editor.
 */
import { labelName } from '../../core/api/messages';
import { escapeMarkdown, formatAge, oneLine, plural } from '../../shared/text';
import type { DecisionAnchor, FailingTest, LineCommit, WhyCard } from '../../core/api/types';

/** A CodeLens to draw: on a 1-based line, opening a decision record. */
export interface LensSpec {
  line: number;
  title: string;
  tooltip: string;
  /** Root-relative path of the record the lens opens. */
  path: string;
  /** Where the record starts in a file that keeps several (a decision log). */
  recordLine?: number;
}

/** At most this many lenses over one definition; the hover lists them all. */
const LENSES_PER_DEFINITION = 2;

/** "ADR 0003: Cap discounts at fifty percent", or "Governed by superseded ADR 0002 → ADR 0004" for a retired record. */
export function lensTitle(a: DecisionAnchor): string {
  const d = a.decision;
  const name = d.number !== undefined ? labelName(d.label) : `“${d.title}”`;
  if (d.status === 'superseded' || d.status === 'deprecated') {
    const next = a.successor
      ? ` → ${a.successor.number !== undefined ? labelName(a.successor.label) : `“${a.successor.title}”`}`
      : '';
    return `$(warning) Governed by ${d.status} ${name}${next}`;
  }
  const tag = d.status === 'proposed' || d.status === 'rejected' ? ` (${d.status})` : '';
  return d.number !== undefined ? `$(law) ${name}: ${d.title}${tag}` : `$(law) ${d.title}${tag}`;
}

/** The lenses of a file: one line each for the first decisions of every governed definition. */
export function lensesOf(anchors: readonly DecisionAnchor[]): LensSpec[] {
  const perLine = new Map<number, number>();
  const out: LensSpec[] = [];
  for (const a of anchors) {
    const n = perLine.get(a.symbol.startLine) ?? 0;
    if (n >= LENSES_PER_DEFINITION) continue;
    perLine.set(a.symbol.startLine, n + 1);
    const retired = a.successor ? ` It was replaced by ${a.successor.label}: ${a.successor.title}.` : '';
    out.push({
      line: a.symbol.startLine,
      title: lensTitle(a),
      tooltip: `${a.decision.title} (${a.decision.status}): ${a.reason}.${retired} Click to open ${a.decision.path}.`,
      path: a.decision.path,
      ...(a.decision.line ? { recordLine: a.decision.line } : {}),
    });
  }
  return out;
}

/** Turns a root-relative path and optional line into a link target (a file URI in the editor). */
export type LinkTo = (path: string, line?: number) => string;

/**
 * The why-card of a governed definition: the decisions over it, the last change to its lines and how
 * many places call it. `card` is undefined while history and callers are not known yet.
 */
export function renderWhyHover(
  anchors: readonly DecisionAnchor[],
  card: Pick<WhyCard, 'lineHistory' | 'callers' | 'notes'> | undefined,
  linkTo: LinkTo,
  now: number,
): string {
  const name = anchors[0]?.symbol.name ?? '';
  const out = [`**Why \`${escapeMarkdown(name)}\` is the way it is**`, ''];
  for (const a of anchors) {
    const d = a.decision;
    const label = d.number !== undefined ? `${labelName(d.label)}: ${d.title}` : d.title;
    const next = a.successor
      ? ` — replaced by [${escapeMarkdown(`${labelName(a.successor.label)}: ${a.successor.title}`)}](${target(linkTo(a.successor.path, a.successor.line))})`
      : '';
    out.push(
      `- $(law) [${escapeMarkdown(label)}](${target(linkTo(d.path, d.line))}) · ${escapeMarkdown(d.status)}${next}  `,
      `  ${withCode(a.reason)}`,
    );
  }
  out.push('');
  if (card) {
    const last: LineCommit | undefined = card.lineHistory[0];
    out.push(
      last
        ? `$(git-commit) Last change to these lines: ${escapeMarkdown(last.subject)} — ${escapeMarkdown(last.author || 'unknown author')}, ${formatAge(last.date, now)} (\`${last.hash.slice(0, 7)}\`)`
        : '$(git-commit) No commit changed these lines yet.',
    );
    out.push(
      '',
      `$(call-incoming) ${card.callers ? `${plural(card.callers, 'place calls', 'places call')} \`${escapeMarkdown(name)}\`` : `Nothing in the index calls \`${escapeMarkdown(name)}\``}`,
    );
    if (card.notes.length) out.push('', `_${card.notes.map(escapeMarkdown).join(' · ')}_`);
  }
  return out.join('\n');
}

/** The Problems-view text of a failing test, at the test itself or at a line its stack passes through. */
export function failureMessage(f: FailingTest, at: 'test' | 'source', now: number): string {
  const name = f.suite && !f.name.startsWith(f.suite) ? `${f.suite} › ${f.name}` : f.name;
  const where = `${f.report}, ${formatAge(f.time, now)}`;
  return at === 'test'
    ? `Failing test “${name}”: ${f.message} (${where})`
    : `The failing test “${name}” passes through this line: ${f.message} (${where})`;
}

/** Text whose `backticked` parts stay code and whose other parts cannot become markup. */
function withCode(text: string): string {
  return oneLine(text)
    .split('`')
    .map((part, i) => (i % 2 ? `\`${part}\`` : part.replace(/[\\*_{}[\]()#+!|<>~]/g, (c) => `\\${c}`)))
    .join('');
}

function target(uri: string): string {
  return uri.replace(/[()\s]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`);
}

/**
 * The governed definitions of one open document, kept on their lines while the user types: each
 * edit moves the anchors below it, so lenses and hovers need no new lookup until the file is saved.
 */
export class AnchorLines {
  private current: DecisionAnchor[];

  constructor(
    /** As the index knows them: the file on disk. */
    readonly onDisk: readonly DecisionAnchor[],
    /** The document version they are placed for. */
    public version: number,
  ) {
    this.current = onDisk.map((a) => ({ ...a, symbol: { ...a.symbol } }));
  }

  get anchors(): readonly DecisionAnchor[] {
    return this.current;
  }

  /**
   * One replaced range: 1-based first and last line it covered, how many line breaks its new text
   * has, and whether it ended at the very start of its last line (so that whole line moves with the
   * lines below). Apply the edits of one change event from the last one in the document to the first.
   */
  edit(startLine: number, endLine: number, newLines: number, endsAtLineStart = false): void {
    const delta = newLines - (endLine - startLine);
    if (delta === 0) return;
    const below = (line: number) => line > endLine || (endsAtLineStart && line === endLine);
    const move = (line: number) =>
      below(line) ? line + delta : line > startLine ? Math.min(line, startLine + newLines) : line;
    for (const a of this.current) {
      a.symbol.startLine = move(a.symbol.startLine);
      a.symbol.endLine = Math.max(a.symbol.startLine, move(a.symbol.endLine));
    }
  }

  /** The anchors of the definition declared on a 1-based line, with where that definition is on disk. */
  at(line: number): { anchors: DecisionAnchor[]; onDisk: DecisionAnchor['symbol'] } | undefined {
    const i = this.current.findIndex((a) => a.symbol.startLine === line);
    if (i < 0) return undefined;
    const anchors = this.current.filter((a) => a.symbol.startLine === line);
    return { anchors, onDisk: this.onDisk[i].symbol };
  }
}
