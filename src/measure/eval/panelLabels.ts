import { isText, isTextList, readLabelObject } from './labelFile';

/**
 * One labelled place: a file, a line and the symbol there, with everything a senior engineer of the
 * repository would want the panel to show for it. Lists may be empty ("nothing of this kind helps
 * here"); they must be present so that an unlabelled kind is never mistaken for "none wanted".
 */
export interface PanelCase {
  file: string;
  line?: number;
  /** Last line of the symbol, when the code index cannot tell (languages it does not parse). */
  endLine?: number;
  symbol?: string;
  /** Decision record paths (root-relative) that govern this code. */
  decisions: string[];
  /** Doc sections: `path` (any section of the file) or `path#heading`. */
  docs: string[];
  /** Expected callers: `path` (any call in the file), `path:function` or `path:line`. */
  callers: string[];
  /** Files a developer editing this code usually has to change too. */
  cochange: string[];
  /** Fair to show, neither right nor noise: any of the forms above, or a commit hash (≥ 7 characters). */
  acceptable?: string[];
  why?: string;
}

export type PanelSet = 'reported' | 'check';

/** A label file: one repository at one commit and its labelled places. */
export interface PanelLabels {
  repo: string;
  url?: string;
  commit: string;
  /** `check`: kept aside to confirm that a change generalizes; never tuned on. */
  set: PanelSet;
  language?: string;
  /** A commit touching more files than this is a bulk change, never a symbol's history (default: see bulkLimit). */
  bulkFiles?: number;
  cases: PanelCase[];
}

const CASE_KEYS = new Set([
  'file',
  'line',
  'endLine',
  'symbol',
  'decisions',
  'docs',
  'callers',
  'cochange',
  'acceptable',
  'why',
]);
const LISTS = ['decisions', 'docs', 'callers', 'cochange'] as const;
const TOP_KEYS = new Set(['repo', 'url', 'commit', 'set', 'language', 'layout', 'bulkFiles', 'notes', 'cases']);

const isLine = (v: unknown): v is number => Number.isInteger(v) && (v as number) > 0;

/** Reads and checks a panel label file; anything malformed gets an error naming the file, the case and the field. */
export function readPanelLabels(file: string): PanelLabels {
  const { d, bad } = readLabelObject(file);
  for (const key of Object.keys(d)) if (!TOP_KEYS.has(key)) throw bad(`unknown field "${key}"`);
  if (!isText(d.repo) || !/^[\w.-]+\/[\w.-]+$/.test(d.repo)) throw bad('"repo" must be owner/name');
  if (!isText(d.commit) || !/^[0-9a-f]{40}$/.test(d.commit))
    throw bad('"commit" must be a full 40-character commit hash');
  if (d.url !== undefined && !isText(d.url)) throw bad('"url" must be a string');
  if (d.language !== undefined && !isText(d.language)) throw bad('"language" must be a string');
  if (d.set !== undefined && d.set !== 'reported' && d.set !== 'check')
    throw bad('"set" must be "reported" or "check"');
  if (d.bulkFiles !== undefined && !isLine(d.bulkFiles)) throw bad('"bulkFiles" must be a positive whole number');
  if (!Array.isArray(d.cases) || d.cases.length === 0) throw bad('"cases" must be a non-empty list');
  const seen = new Set<string>();
  // eslint-disable-next-line complexity -- one check per field of a case, each with its own error
  const cases = d.cases.map((c: unknown, i: number): PanelCase => {
    const at = `case ${i}`;
    if (!c || typeof c !== 'object' || Array.isArray(c)) throw bad(`${at} must be an object`);
    const k = c as Record<string, unknown>;
    for (const key of Object.keys(k)) if (!CASE_KEYS.has(key)) throw bad(`${at}: unknown field "${key}"`);
    if (!isText(k.file) || k.file.startsWith('/') || k.file.split('/').includes('..'))
      throw bad(`${at}: "file" must be a path relative to the root`);
    if (k.line !== undefined && !isLine(k.line)) throw bad(`${at}: "line" must be a positive whole number`);
    if (k.endLine !== undefined && (!isLine(k.endLine) || !isLine(k.line) || k.endLine < k.line))
      throw bad(`${at}: "endLine" needs "line" and must not be before it`);
    if (k.symbol !== undefined && !isText(k.symbol)) throw bad(`${at}: "symbol" must be a non-empty string`);
    for (const list of LISTS)
      if (!isTextList(k[list]))
        throw bad(`${at}: "${list}" must be a list of strings (empty when nothing of this kind is wanted)`);
    if (k.acceptable !== undefined && !isTextList(k.acceptable))
      throw bad(`${at}: "acceptable" must be a list of strings`);
    const fine = new Set(k.acceptable);
    for (const list of LISTS)
      for (const v of k[list] as string[])
        if (fine.has(v)) throw bad(`${at}: "${v}" is both in "${list}" and "acceptable"`);
    const key = `${k.file}:${String(k.line ?? '')}:${String(k.symbol ?? '')}`;
    if (seen.has(key))
      throw bad(`${at}: the same place is labelled twice (${k.file}${k.line ? `:${String(k.line)}` : ''})`);
    seen.add(key);
    return k as unknown as PanelCase;
  });
  return { ...(d as unknown as PanelLabels), set: d.set ?? 'reported', cases };
}
