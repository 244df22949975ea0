import { posix } from 'node:path';
import type { DecisionRecord } from './decisionItems';
import { fileStem } from './explicitLinks';
import { labelName } from './decisionItems';
import type { InlineScan } from './inlineRefs';

/** A definition of a file, as the code index knows it (1-based, inclusive lines). */
export interface AnchorSymbol {
  name: string;
  startLine: number;
  endLine: number;
}

/** A decision record in the few words an editor hint needs. */
export interface AnchorDecision {
  label: string;
  number?: number;
  title: string;
  status: string;
  /** Root-relative path of the record. */
  path: string;
  /** 1-based line of its heading, for an entry of a decision log. */
  line?: number;
}

/** One definition governed by one decision record, and how that was found. */
export interface DecisionAnchor {
  symbol: AnchorSymbol;
  decision: AnchorDecision;
  /** The record that replaced a superseded or deprecated one, when it can be found. */
  successor?: AnchorDecision;
  /**
   * `names`: the record names this file (path, folder or glob) and this definition in code;
   * `reference`: an `ADR-12` or record path in a comment inside or right above the definition.
   */
  how: 'names' | 'reference';
  /** The line of the record that names the definition, or the code line of the reference. */
  line?: number;
  reason: string;
}

/** A comment line above a definition may be separated from it by at most this many comment lines. */
const MAX_LEAD_LINES = 6;
const LEAD_LINE = /^\s*(?:$|\/\/|\/\*|\*|#|--|@|<!--|"""|''')/;

/**
 * The decision records that govern each definition of a file. Deliberately strict so the hints stay
 * quiet: a record governs a definition when it names both the file (its path, a folder above it or a
 * glob over it) and the definition (in backticks or a code block), or when a comment inside or right
 * above the definition refers to the record (`ADR-12`, `docs/adr/0012-x.md`).
 */
export function decisionAnchors(input: {
  file: string;
  symbols: readonly AnchorSymbol[];
  records: readonly DecisionRecord[];
  inline: InlineScan;
  /** The file's lines, to tell whether only comments lie between a reference and the definition below it. */
  lines: readonly string[];
}): DecisionAnchor[] {
  const { file, symbols, records } = input;
  if (!symbols.length || !records.length) return [];
  const out = new Map<string, DecisionAnchor>();
  const add = (
    symbol: AnchorSymbol,
    record: DecisionRecord,
    how: DecisionAnchor['how'],
    line: number | undefined,
    reason: string,
  ) => {
    const key = `${symbol.startLine}:${symbol.name}\u0000${record.path}#${record.span?.line ?? ''}`;
    const prev = out.get(key);
    // An explicit reference in the code says more than a mention in the record.
    if (prev && (prev.how === 'reference' || how === 'names')) return;
    out.set(key, { symbol, decision: brief(record), successor: successorBrief(record, records), how, line, reason });
  };

  const covering = records.filter((r) => r.links.paths.some((p) => p.match(file)));
  for (const record of covering) {
    for (const s of symbols) {
      const line = record.links.codeIdentifiers.get(s.name);
      if (line !== undefined) add(s, record, 'names', line, `${nameOf(record)} names \`${s.name}\` and ${file}`);
    }
  }

  for (const ref of input.inline.refs) {
    const record = ref.path
      ? byPath(records, ref.path)
      : ref.number !== undefined
        ? byNumber(records, ref.number, file)
        : undefined;
    if (!record) continue;
    const owner = innermostAt(symbols, ref.line) ?? definitionBelow(symbols, ref.line, input.lines);
    if (owner) add(owner, record, 'reference', ref.line, `line ${ref.line} refers to ${ref.text}`);
  }

  return [...out.values()].sort(
    (a, b) =>
      a.symbol.startLine - b.symbol.startLine || rank(a) - rank(b) || a.decision.label.localeCompare(b.decision.label),
  );
}

/** The record that replaced `record`: the one its status links to, the one with its number, or one that says it supersedes it. */
export function successorOf(record: DecisionRecord, records: readonly DecisionRecord[]): DecisionRecord | undefined {
  if (record.status !== 'superseded' && record.status !== 'deprecated') return undefined;
  const ref = record.supersededBy;
  if (ref?.target) {
    const target = posix.normalize(posix.join(posix.dirname(record.path), ref.target));
    const linked = records.find((r) => r.path === target);
    if (linked) return linked;
  }
  if (ref?.number !== undefined) {
    const numbered = records.filter((r) => r.number === ref.number);
    const hit = numbered.find((r) => r.folder === record.folder) ?? numbered[0];
    if (hit) return hit;
  }
  if (record.number === undefined) return undefined;
  return records.find(
    (r) => r !== record && r.folder === record.folder && r.supersedes.some((s) => s.number === record.number),
  );
}

function brief(r: DecisionRecord): AnchorDecision {
  const d: AnchorDecision = { label: r.label, title: r.title, status: r.status, path: r.path };
  if (r.number !== undefined) d.number = r.number;
  if (r.span) d.line = r.span.line;
  return d;
}

function successorBrief(r: DecisionRecord, records: readonly DecisionRecord[]): AnchorDecision | undefined {
  const s = successorOf(r, records);
  return s ? brief(s) : undefined;
}

function nameOf(r: DecisionRecord): string {
  return r.number !== undefined ? labelName(r.label) : `“${r.title}”`;
}

/** Live decisions before retired ones. */
function rank(a: DecisionAnchor): number {
  const s = a.decision.status;
  return s === 'superseded' || s === 'deprecated' ? 2 : s === 'rejected' ? 1 : 0;
}

function innermostAt(symbols: readonly AnchorSymbol[], line: number): AnchorSymbol | undefined {
  let best: AnchorSymbol | undefined;
  for (const s of symbols) {
    if (s.startLine <= line && line <= s.endLine && (!best || s.endLine - s.startLine < best.endLine - best.startLine))
      best = s;
  }
  return best;
}

/** The definition starting below a comment line when only comments, blank lines or decorators lie between. */
function definitionBelow(
  symbols: readonly AnchorSymbol[],
  line: number,
  lines: readonly string[],
): AnchorSymbol | undefined {
  const next = symbols.filter((s) => s.startLine > line).sort((a, b) => a.startLine - b.startLine)[0];
  if (!next || next.startLine - line > MAX_LEAD_LINES) return undefined;
  for (let l = line + 1; l < next.startLine; l++) if (!LEAD_LINE.test(lines[l - 1] ?? '')) return undefined;
  return next;
}

function byPath(records: readonly DecisionRecord[], p: string): DecisionRecord | undefined {
  const clean = p.replace(/^\.?\//, '');
  return records.find((r) => r.path === clean) ?? records.find((r) => r.path.endsWith('/' + clean));
}

/** `ADR-4`: the record with that number, preferring one whose folder is nearest to the file. */
function byNumber(records: readonly DecisionRecord[], n: number, file: string): DecisionRecord | undefined {
  return pickNumbered(
    records.filter((r) => r.number === n),
    file,
  );
}

/**
 * Of the records sharing a number, the one `file` most likely means: the nearest folder first (each
 * package of a monorepo numbers its own), then one that names the file or its module (a folder may
 * hold two 0057s), then the first.
 */
export function pickNumbered(numbered: readonly DecisionRecord[], file: string): DecisionRecord | undefined {
  if (numbered.length <= 1) return numbered[0];
  const b = file.split('/');
  const stem = fileStem(file);
  const shared = (r: DecisionRecord) => {
    const a = r.folder.split('/');
    let k = 0;
    while (k < a.length && k < b.length && a[k] === b[k]) k++;
    return k;
  };
  const names = (r: DecisionRecord) =>
    r.links.paths.some((p) => p.kind === 'file' && p.match(file))
      ? 2
      : r.links.codeIdentifiers.has(stem) || r.links.camelWords.has(stem)
        ? 1
        : 0;
  return [...numbered].sort((x, y) => shared(y) - shared(x) || names(y) - names(x))[0];
}
