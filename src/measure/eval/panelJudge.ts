import type { SuggestionItem, SuggestionType } from '../../core/api/types';
import { LIMITS, PANEL_ITEM_TYPES } from '../../shared/protocol';
import type { PanelCase } from './panelLabels';
import type { PlaceHistory } from './panelGit';

/**
 * Items per group the panel shows before "Show N more". Mirrors VISIBLE_PER_GROUP of the panel page
 * (src/webview/panel.ts), which cannot be imported here: the page is a browser bundle.
 */
export const VISIBLE_PER_GROUP = 3;

/**
 * The items a user sees without expanding anything, in panel order: what the host keeps
 * (buildPanelState: panel kinds only, one per entity id, at most LIMITS.items), grouped in
 * PANEL_ITEM_TYPES order, the top VISIBLE_PER_GROUP of each group in rank order.
 */
export function visibleItems(items: readonly SuggestionItem[], perGroup = VISIBLE_PER_GROUP): SuggestionItem[] {
  const seen = new Set<string>();
  const kept: SuggestionItem[] = [];
  for (const item of items) {
    if (!PANEL_ITEM_TYPES.includes(item.type) || item.entityId.length === 0) continue;
    const id = item.entityId.slice(0, LIMITS.entityId);
    if (seen.has(id)) continue;
    seen.add(id);
    kept.push(item);
    if (kept.length >= LIMITS.items) break;
  }
  // A folded item (a weaker link below its group's best) waits for "Show N more", as on the page.
  return PANEL_ITEM_TYPES.flatMap((type) =>
    kept.filter((i) => i.type === type && i.meta?.folded !== true).slice(0, perGroup),
  );
}

/** ✓ right, ✗ noise, ~ acceptable (counted neither way). */
export type Verdict = 'correct' | 'noise' | 'neutral';

export interface JudgedItem {
  type: SuggestionType;
  /** What the item points at: a record, a doc section, `path:function`, a commit, a file. */
  target: string;
  title: string;
  verdict: Verdict;
  /** Why it got its verdict, for a person auditing the labels. */
  why: string;
  /** The reason the panel gives for the item, to audit that it names its evidence. */
  reason?: string;
  /** The item's relevance (0..1), to audit how near the items shown came to each other. */
  score?: number;
  /** The labelled (or git-derived) expected item it stands for, for recall. */
  expected?: string;
  /** A decision record: counts toward decision noise. */
  record?: boolean;
}

export interface ExpectedItem {
  kind: SuggestionType;
  key: string;
}

/** Lower case, runs of anything but letters and digits folded to one dash: `## Why we use X?` ≈ `why-we-use-x`. */
export function slugOf(s: string): string {
  return s
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '-')
    .replace(/^-+|-+$/g, '');
}

/** `path`, `path#section`: does a doc item match this label? */
function docMatches(label: string, item: SuggestionItem): boolean {
  const hash = label.indexOf('#');
  const path = hash < 0 ? label : label.slice(0, hash);
  if (path !== item.location.path) return false;
  if (hash < 0) return true;
  const want = slugOf(label.slice(hash + 1));
  const id = item.entityId;
  const slug = id.includes('#') ? id.slice(id.indexOf('#') + 1) : '';
  const heading = typeof item.meta?.heading === 'string' ? item.meta.heading : '';
  return want === slugOf(slug) || want === slugOf(heading);
}

/** `path`, `path:function`, `path:line`: does a caller item match this label? */
function callerMatches(label: string, item: SuggestionItem): boolean {
  const colon = label.lastIndexOf(':');
  const path = colon < 0 ? label : label.slice(0, colon);
  if (path !== item.location.path) return false;
  if (colon < 0) return true;
  const what = label.slice(colon + 1);
  if (/^\d+$/.test(what)) return Number(what) === item.location.line;
  const by = typeof item.meta?.enclosing === 'string' ? item.meta.enclosing : '';
  // `Class.method` and `method` name the same caller.
  return by === what || by.endsWith(`.${what}`) || what.endsWith(`.${by}`);
}

function commitOf(item: SuggestionItem): string | undefined {
  if (item.location.commit) return item.location.commit;
  const m = /^commit:([0-9a-f]{7,40})/.exec(item.entityId);
  return m?.[1];
}

/** A label of any kind that names this item (used for `acceptable`). */
function anyMatches(label: string, item: SuggestionItem): boolean {
  if (item.type === 'doc') return docMatches(label, item);
  if (item.type === 'related_code') return callerMatches(label, item);
  if (item.type === 'change') {
    const hash = commitOf(item);
    return Boolean(hash && /^[0-9a-f]{7,40}$/.test(label) && hash.startsWith(label));
  }
  return label === recordOf(item) || label === item.location.path;
}

/** The record a decision item or a retired-decision warning is about (inline notes: their file). */
function recordOf(item: SuggestionItem): string | undefined {
  const id = item.entityId;
  const about = id.startsWith('decision:')
    ? id.slice('decision:'.length)
    : id.startsWith('warning:decision:')
      ? id.slice('warning:decision:'.length)
      : undefined;
  if (about === undefined) return undefined;
  return about.includes('#note-') ? about.slice(0, about.indexOf('#note-')) : about;
}

/** The expected items of a case: labelled records, docs, callers and co-changes, and the symbol's latest commits. */
export function expectedItems(c: PanelCase, history: PlaceHistory): ExpectedItem[] {
  const commits = (
    c.line !== undefined && history.symbolCommits.length ? history.symbolCommits : history.fileCommits
  ).slice(0, VISIBLE_PER_GROUP);
  return [
    ...c.decisions.map((key) => ({ kind: 'decision' as const, key })),
    ...c.docs.map((key) => ({ kind: 'doc' as const, key })),
    ...c.callers.map((key) => ({ kind: 'related_code' as const, key })),
    ...c.cochange.map((key) => ({ kind: 'cochange' as const, key })),
    ...commits.map((key) => ({ kind: 'change' as const, key })),
  ];
}

/**
 * Judges the visible items of one panel against the labels and git. `range`: the symbol's lines,
 * for warnings that must be about this function.
 */
// eslint-disable-next-line max-lines-per-function -- one verdict per judged item, in order
export function judgePanel(
  c: PanelCase,
  history: PlaceHistory,
  visible: readonly SuggestionItem[],
  range?: { start: number; end: number },
): JudgedItem[] {
  const acceptable = c.acceptable ?? [];
  const warned = new Set<string>();
  // eslint-disable-next-line max-lines-per-function, complexity -- one verdict per judged item, in order
  return visible.map((item): JudgedItem => {
    const base = { type: item.type, title: item.title, reason: item.reason, score: item.relevanceScore };
    const fine = acceptable.some((a) => anyMatches(a, item));
    const verdict = (ok: boolean, why: string, target: string, expected?: string): JudgedItem =>
      ok
        ? { ...base, target, verdict: 'correct', why, expected }
        : fine
          ? { ...base, target, verdict: 'neutral', why: 'listed as acceptable' }
          : { ...base, target, verdict: 'noise', why };
    switch (item.type) {
      case 'decision': {
        const record = recordOf(item) ?? item.location.path;
        const note = item.entityId.includes('#note-');
        const listed = c.decisions.includes(record);
        if (note)
          return {
            ...verdict(
              listed || record === c.file,
              listed
                ? 'labelled'
                : record === c.file
                  ? 'a decision note in this file'
                  : 'a decision note in another file',
              record,
              listed ? record : undefined,
            ),
            record: true,
          };
        return { ...verdict(listed, listed ? 'labelled' : 'not a labelled record', record, record), record: true };
      }
      case 'doc': {
        const label = c.docs.find((d) => docMatches(d, item));
        const id = item.entityId.startsWith('doc:') ? item.entityId.slice(4) : item.location.path;
        return verdict(label !== undefined, label ? 'labelled' : 'not a labelled doc section', id, label);
      }
      case 'related_code': {
        const label = c.callers.find((l) => callerMatches(l, item));
        const by = typeof item.meta?.enclosing === 'string' ? item.meta.enclosing : String(item.location.line ?? '');
        return verdict(
          label !== undefined,
          label ? 'labelled caller' : 'not a labelled caller',
          `${item.location.path}:${by}`,
          label,
        );
      }
      case 'cochange': {
        const path = item.location.path;
        const label = c.cochange.includes(path);
        const mined = history.cochanged.has(path);
        return verdict(
          label || mined,
          label
            ? 'labelled'
            : mined
              ? `changed with this file in ≥ 2 of its last 20 commits`
              : 'not labelled, rarely changed with this file',
          path,
          label ? path : undefined,
        );
      }
      case 'change':
        return judgeChange(c, history, item, verdict);
      case 'warning': {
        const key = `${item.title}\u0000${item.location.path}\u0000${item.location.line ?? ''}`;
        const twice = warned.has(key);
        warned.add(key);
        const record = item.entityId.startsWith('warning:decision:') ? recordOf(item) : undefined;
        if (twice)
          return { ...verdict(false, 'the same warning again', item.location.path), record: record !== undefined };
        if (record !== undefined)
          return {
            ...verdict(
              c.decisions.includes(record),
              c.decisions.includes(record) ? 'about a labelled record' : 'about a record not labelled here',
              record,
            ),
            record: true,
          };
        return judgeWarning(c, item, verdict, range);
      }
    }
  });
}

type VerdictFn = (ok: boolean, why: string, target: string, expected?: string) => JudgedItem;

function judgeChange(c: PanelCase, history: PlaceHistory, item: SuggestionItem, verdict: VerdictFn): JudgedItem {
  const hash = commitOf(item);
  // An uncommitted change is in the case's file or it is not.
  if (!hash)
    return verdict(
      item.location.path === c.file,
      item.location.path === c.file ? 'uncommitted change in this file' : 'uncommitted change in another file',
      item.location.path,
    );
  const short = hash.slice(0, 12);
  if (history.bulk.has(hash)) return verdict(false, 'a bulk commit', short);
  if (history.symbolCommits.includes(hash)) return verdict(true, "changed the symbol's lines", short, hash);
  if (history.fileCommits.includes(hash)) return verdict(true, 'changed this file', short, hash);
  return verdict(false, 'did not touch this file', short);
}

function judgeWarning(
  c: PanelCase,
  item: SuggestionItem,
  verdict: VerdictFn,
  range?: { start: number; end: number },
): JudgedItem {
  const where = `${item.location.path}:${item.location.line ?? ''}`;
  if (item.entityId.startsWith('deprecated:')) {
    if (item.location.path !== c.file) return verdict(false, 'about another file', where);
    const line = item.location.line;
    const inside = !range || line === undefined || (line >= range.start && line <= range.end);
    return verdict(inside, inside ? 'deprecated use in this code' : 'about another function of this file', where);
  }
  // A failing test: about this file when its test file, summary or reason names it.
  const text = `${item.summary}\n${item.reason}\n${typeof item.meta?.testFile === 'string' ? item.meta.testFile : ''}`;
  const about = item.location.path === c.file || text.includes(c.file);
  return verdict(about, about ? 'about this file' : 'about another file', where);
}
