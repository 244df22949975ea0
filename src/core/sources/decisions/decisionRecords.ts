import { posix } from 'node:path';
import { linesOf } from '../docs/markdown';
import { adrDirSetting, type DecisionFile } from './adrDiscovery';
import { extractLinks } from './adrLinks';
import { fileNumberText, fileSeries, fileSlug, logEntries, parseAdr, type LogEntry } from './adrParser';
import { DEFAULT_FORMAT, type AdrFormat } from './adrWriter';
import { nameOf, type DecisionRecord } from './decisionItems';
import type { LinkableRecord } from './decisionLinker';

/** `[text](target)`: a markdown link's target, without spaces or parentheses (bounded by the line). */
const MARKDOWN_LINK = /\]\(([^()\s]{1,500})\)/g;

/**
 * A record file as the source keeps it: parsed, labelled (`0003`, `API-007`, or its name), with what
 * it names; a decision log keeps its entries, each a record of its own (`linksToOthers`: the entry
 * points to another record file, so the file is an index page, not a log).
 */
export function parseRecord(
  path: string,
  text: string,
  where: DecisionFile,
  stamp: { mtimeMs: number; size: number },
  linksToOthers: (entry: LogEntry) => boolean,
): DecisionRecord {
  const name = recordName(path);
  const adr = parseAdr(name, text);
  if (adr.status === 'unknown' && where.folderStatus) adr.status = where.folderStatus;
  const digits = fileNumberText(name);
  const series = fileSeries(name);
  const label =
    digits && series
      ? `${series}-${digits}`
      : (digits ?? (adr.number !== undefined ? String(adr.number).padStart(4, '0') : name.replace(/\.[^.]+$/, '')));
  const links = extractLinks(adr.body, adr.sectionList[0]?.line ?? 1, posix.dirname(path));
  const entries = logEntries(adr.sectionList);
  const base = { ...adr, path, folder: where.folder, area: where.area, label, ...stamp, links };
  // An index page lists records kept in files of their own; a log keeps them in itself.
  if (!entries.length || entries.some(linksToOthers)) return base;
  // What the file says as a whole (a status, a successor) belongs to one of its entries, not to the log.
  const lines = linesOf(text);
  const entryLinks = entries.map((e) =>
    extractLinks(lines.slice(e.line - 1, e.endLine).join('\n'), e.line, posix.dirname(path)),
  );
  return { ...base, status: 'unknown', statusText: '', supersededBy: undefined, supersedes: [], entries, entryLinks };
}

/** True when an entry of a log links to another file discovery took for a record. */
export function linksToRecord(entry: LogEntry, path: string, records: ReadonlyMap<string, unknown>): boolean {
  const dir = posix.dirname(path);
  for (const s of entry.sections) {
    for (const m of s.body.matchAll(MARKDOWN_LINK)) {
      const target = posix.normalize(posix.join(dir, m[1].split('#')[0]));
      if (target !== path && records.has(target)) return true;
    }
  }
  return false;
}

/** Entry `i` of a decision log, as a record of its own. */
export function entryView(log: DecisionRecord, e: LogEntry, i: number): DecisionRecord {
  const links = log.entryLinks?.[i] ?? log.links;
  const body = e.sections
    .map((s, k) => (k === 0 || s.heading ? `${'#'.repeat(Math.max(1, s.level))} ${s.heading}\n${s.body}` : s.body))
    .join('\n');
  return {
    ...log,
    title: e.title,
    number: e.number,
    label: e.label ?? log.label,
    status: e.status,
    summary: e.summary,
    body: body.trim(),
    links,
    span: { line: e.line, endLine: e.endLine },
  };
}

/** What the linker reads of every record: a decision log as its entries, keyed `path#line`. */
export function linkables(records: Iterable<DecisionRecord>): LinkableRecord[] {
  return [...records].flatMap((r) =>
    r.entries
      ? r.entries.map((e, i) => ({
          path: `${r.path}#${e.line}`,
          title: e.title,
          slug: '',
          sections: [{ heading: '', body: e.sections[0].body }, ...e.sections.slice(1)],
          area: r.area,
          folder: r.folder,
          name: nameOf(entryView(r, e, i)),
        }))
      : [
          {
            path: r.path,
            title: r.title,
            slug: fileSlug(recordName(r.path)),
            sections: r.sectionList,
            area: r.area,
            folder: r.folder,
            name: nameOf(r),
          },
        ],
  );
}

/** Where a new record goes: the folder `.adr-dir` names (adr-tools), else the folder holding the most records. */
export function pickWriteFolder(root: string, records: Iterable<DecisionRecord>, folders: readonly string[]): string {
  const counts = new Map<string, number>();
  for (const r of records) counts.set(r.folder, (counts.get(r.folder) ?? 0) + 1);
  const configured = adrDirSetting(root);
  if (configured) return configured;
  return [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))[0]?.[0] ?? folders[0] ?? 'docs/adr';
}

/** The format of the newest Markdown record in the folder, for a new one to match it. */
export function detectFormat(records: Iterable<DecisionRecord>, folder: string): AdrFormat {
  const inFolder = [...records].filter((r) => r.folder === folder && /\.md$/i.test(r.path));
  if (!inFolder.length) return DEFAULT_FORMAT;
  const newest = inFolder.reduce((a, b) =>
    (b.number ?? -1) > (a.number ?? -1) || ((b.number ?? -1) === (a.number ?? -1) && (b.date ?? 0) > (a.date ?? 0))
      ? b
      : a,
  );
  const digits = /^(?:adr[-_]?)?(\d+)[-_]/i.exec(newest.path.slice(newest.path.lastIndexOf('/') + 1))?.[1];
  return {
    style: newest.style,
    titleStyle: newest.titleStyle,
    bullet: newest.bullet ?? '*',
    padding: digits?.length ?? 4,
  };
}

/** A record's file name; one kept in a folder of its own (`0003-use-queues/README.md`) is named by that folder. */
function recordName(path: string): string {
  const base = path.slice(path.lastIndexOf('/') + 1);
  return /^(?:readme|index)\.[^.]+$/i.test(base)
    ? posix.basename(posix.dirname(path)) + base.slice(base.indexOf('.'))
    : base;
}
