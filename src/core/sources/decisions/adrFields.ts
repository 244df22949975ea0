/** The fields a decision record states about itself (status, date, deciders), however it writes them. */
import { plainHeading } from './adrStatus';

/** `* Status: accepted`, `- Date: …`; also bold, `* **Status:** approved` or `* **Status**: approved`. */
export const BULLET_FIELD =
  /^[ \t]*([*-])[ \t]+(?:\*\*|__)?(Status|Statut|Estado|Stato|Date|Deciders|Technical Story|Consulted|Informed)(?:\*\*|__)?[ \t]*:(?:\*\*|__)?[ \t]*(.*)$/i;
/** `Status: accepted`, `**Status**: accepted`, `:Status: accepted` (reStructuredText field). */
export const PLAIN_FIELD =
  /^[ \t]*[*:]{0,2}(Status|Statut|Estado|Stato|Date|Technical Story)[ \t]*([*:]{1,3})[ \t]*(\S.*)$/i;

/**
 * Fields kept in a markdown table under the title: `| Status | Accepted |` rows of name and value,
 * or a header row (`| Status | Date |`) over a separator and one row of values.
 */
export function tableFields(lines: readonly string[]): Record<string, string> {
  const fields: Record<string, string> = {};
  const cellsOf = (line: string) => {
    const t = line.trim();
    if (!t.startsWith('|')) return undefined;
    return t
      .slice(1, t.endsWith('|') ? -1 : undefined)
      .split('|')
      .map((c) =>
        c
          .trim()
          .replace(/^(?:\*\*|__)|(?:\*\*|__)$/g, '')
          .replace(/:$/, '')
          .trim(),
      );
  };
  const isField = (name: string) => STATUS_NAMES.has(name.toLowerCase()) || name.toLowerCase() === 'date';
  const isSeparator = (cells: string[] | undefined) => !!cells?.length && cells.every((c) => /^:?-{3,}:?$/.test(c));
  for (let i = 0; i < lines.length; i++) {
    const cells = cellsOf(lines[i]);
    if (!cells || isSeparator(cells)) continue;
    // `| Status | Accepted |` over a separator is a row of name and value that markdown made the header.
    const pair = cells.length >= 2 && isField(cells[0]) && !isField(cells[1]);
    if (!pair && isSeparator(cellsOf(lines[i + 1] ?? ''))) {
      // A header row: its values are the one row under it; a table of many rows lists other things.
      const values = cellsOf(lines[i + 2] ?? '');
      if (values && !cellsOf(lines[i + 3] ?? '')) {
        cells.forEach((name, k) => {
          if (isField(name) && values[k]) fields[fieldName(name)] ??= values[k];
        });
      }
      continue;
    }
    if (pair) fields[fieldName(cells[0])] ??= cells[1];
  }
  return fields;
}

/** Status in the languages records are kept in (`Statut`, `Estado`, `Stato`). */
export const STATUS_NAMES: ReadonlySet<string> = new Set(['status', 'statut', 'estado', 'stato']);

/** `## Status`, `## 📌 Status`, `## Status:`: the heading of a record's status section. */
export function isStatusHeading(heading: string): boolean {
  return STATUS_NAMES.has(plainHeading(heading).toLowerCase());
}

export function fieldName(name: string): string {
  const k = name.toLowerCase();
  return STATUS_NAMES.has(k) ? 'status' : k;
}

export function fieldOf(bullet: RegExpExecArray | null): { name: string; value: string } | undefined {
  return bullet ? { name: bullet[2], value: bullet[3] } : undefined;
}

/** The lines of a record without its fields and headings: what a summary is made from. */
export function stripFields(lines: readonly string[]): string {
  return lines
    .filter((l) => !BULLET_FIELD.test(l) && !PLAIN_FIELD.test(l) && !l.trimStart().startsWith('#'))
    .join('\n');
}
