import type { Hunk } from './hunks';

/** Lines start..end, 1-based and inclusive. */
export interface LineRange {
  start: number;
  end: number;
}

/**
 * Whether a zero-context diff changed any line of `range` (numbered as after the diff). A deletion
 * counts when it sits between two lines of the range.
 */
export function touches(hunks: readonly Hunk[], range: LineRange): boolean {
  return hunks.some((h) =>
    h.newLines > 0
      ? h.newStart <= range.end && h.newStart + h.newLines - 1 >= range.start
      : range.start <= h.newStart && h.newStart < range.end,
  );
}

/**
 * The lines of `range` as they were before the diff: unchanged lines move by the lines added and
 * removed above them, and a hunk that touches the range brings all the lines it replaced. Undefined
 * when every line of the range is new (the code was written in this diff).
 */
export function rangeBefore(hunks: readonly Hunk[], range: LineRange): LineRange | undefined {
  let lo = Number.POSITIVE_INFINITY;
  let hi = Number.NEGATIVE_INFINITY;
  const add = (a: number, b: number): void => {
    if (a > b) return;
    lo = Math.min(lo, a);
    hi = Math.max(hi, b);
  };
  /** Unchanged lines from..to (after the diff) that lie in the range, moved by `shift`. */
  const keep = (from: number, to: number, shift: number): void =>
    add(Math.max(from, range.start) + shift, Math.min(to, range.end) + shift);
  let shift = 0;
  let next = 1;
  for (const h of [...hunks].sort((x, y) => x.newStart - y.newStart)) {
    const gapEnd = h.newLines > 0 ? h.newStart - 1 : h.newStart;
    keep(next, gapEnd, shift);
    if (h.oldLines > 0 && touches([h], range)) add(h.oldStart, h.oldStart + h.oldLines - 1);
    shift += h.oldLines - h.newLines;
    next = h.newLines > 0 ? h.newStart + h.newLines : h.newStart + 1;
  }
  keep(next, Number.POSITIVE_INFINITY, shift);
  return lo <= hi ? { start: lo, end: hi } : undefined;
}
