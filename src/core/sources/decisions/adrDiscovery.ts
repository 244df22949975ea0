import { closeSync, openSync, readSync } from 'node:fs';
import { join } from 'node:path';
import { listWorkspacePaths } from '../../scan/scanner';
import { walkFiles } from '../reports/walk';
import { termsOf } from '../docs/textTerms';
import type { AdrStatus } from './adrParser';
import { adrShapeOf, type AdrShape } from './adrShape';
import { configuredFolders, type FolderReason } from './configuredFolders';

// Re-exported so callers keep one import.
export { adrDirSetting, type FolderReason } from './configuredFolders';

export interface DecisionFolder {
  /** Root-relative, no trailing slash; `.` for the root itself. */
  path: string;
  reason: FolderReason;
  records: number;
}

/** A decision record file and what its place in the tree says about it. */
export interface DecisionFile {
  path: string;
  /** The decision folder holding it. */
  folder: string;
  /** Sub-folders between the decision folder and the file (`front-end`), status words left out. */
  area: string[];
  /** Status a folder name gives (`historic-adrs` → deprecated), for records that state none. */
  folderStatus?: AdrStatus;
}

/** Where discovery looked, for an empty panel to say so and for `index --json`. */
export interface DecisionDiscoverySummary {
  folders: DecisionFolder[];
  /** The conventions searched, in words, when nothing was found (and always, for reference). */
  conventions: readonly string[];
  /** The setting that points discovery elsewhere. */
  setting: string;
  /** Paths looked at. */
  scanned: number;
  /** Set when the listing or the content sniffing stopped early. */
  capped?: { reason: 'files' | 'time' | 'sniff'; limit: number };
}

export interface DiscoveryResult {
  /** Every path listed, for word statistics over the workspace. */
  paths: readonly string[];
  folders: DecisionFolder[];
  files: DecisionFile[];
  summary: DecisionDiscoverySummary;
}

export interface DiscoveryOptions {
  configured?: readonly string[];
  signal?: AbortSignal;
  /** Most paths listed (default 200,000). */
  maxPaths?: number;
  /** Most files opened to tell their shape (default 4,000). */
  maxSniffed?: number;
  /** Deepest path considered, in folders below the root (default 14). */
  maxDepth?: number;
  /** List the workspace by walking it, without git. */
  noGit?: boolean;
}

export const DECISION_FOLDERS_SETTING = 'proactiveContext.decisionFolders';

/** Where discovery looks, in words, for an empty panel to say so. */
export const DECISION_CONVENTIONS: readonly string[] = [
  '.adr-dir (adr-tools), .log4brains.yml and the proactiveContext.decisionFolders setting',
  'folders named adr, adrs, decisions, decision-records, architecture-decisions, architecture-decision-records (any depth, any case, - or _)',
  'other folders holding two or more ADR-shaped files (numbered names, a Status line or field, Context/Decision/Consequences headings)',
];

/** Markdown, MDX, reStructuredText and AsciiDoc. */
const RECORD_FILE = /\.(?:md|mdx|markdown|rst|adoc)$/i;
/** `0003-use-queues`, `adr-12-x`, `20200924-x`: a name that numbers a record (also a folder holding one). */
const NUMBERED = /^(?:adr[-_ ]?)?\d+[-_. ]/i;
/** `0016-handle-concurrent-git-operations`: a numbered name with no extension at all. */
const NUMBERED_NO_EXTENSION = /^(?:adr[-_ ]?)?\d+[-_ ][^.]*$/i;
/** Never project decisions: dependencies, vendored code, build output, test fixtures. */
const SKIPPED_SEGMENTS = new Set([
  'node_modules',
  'bower_components',
  'jspm_packages',
  'vendor',
  'vendors',
  'third_party',
  'third-party',
  'thirdparty',
  '.yarn',
  'pods',
  'site-packages',
  'dist',
  'build',
  'out',
  'target',
  'coverage',
  '.git',
  'fixtures',
  '__fixtures__',
  'testdata',
  'test-data',
  'integration-tests',
  '__tests__',
  '__snapshots__',
]);
/** Files that index, introduce or template the records rather than being one. */
const NOT_RECORD_STEMS = new Set([
  'readme',
  'index',
  '_index',
  'summary',
  '_sidebar',
  'sidebar',
  'toc',
  'contents',
  'table-of-contents',
  'overview',
  'changelog',
  'license',
  'contributing',
  'glossary',
  'adr-log',
  'log',
]);
/** Folder-name words that give a record's status. */
const STATUS_WORDS: Readonly<Record<string, AdrStatus>> = {
  historic: 'deprecated',
  historical: 'deprecated',
  archive: 'deprecated',
  archived: 'deprecated',
  deprecated: 'deprecated',
  obsolete: 'deprecated',
  retired: 'deprecated',
  defunct: 'deprecated',
  outdated: 'deprecated',
  superseded: 'superseded',
  replaced: 'superseded',
  proposed: 'proposed',
  proposal: 'proposed',
  proposals: 'proposed',
  draft: 'proposed',
  drafts: 'proposed',
  pending: 'proposed',
  wip: 'proposed',
  rejected: 'rejected',
  declined: 'rejected',
  abandoned: 'rejected',
  withdrawn: 'rejected',
  accepted: 'accepted',
  approved: 'accepted',
};
/** How deep area folders under a decision folder are followed. */
const MAX_AREA_DEPTH = 3;

/** True when a folder name says it holds decision records: `adr`, `ADRs`, `decision-records`, `architecture_decisions`, `.adr`. */
export function isDecisionFolderName(name: string): boolean {
  const words = name
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
  // `decisionrecords`, `architecturedecisions`: names written as one word still say it.
  return words.some((w) => w === 'adr' || w === 'adrs' || w === 'madr' || w.includes('decision'));
}

/** Names that are never decision records themselves. */
export function isAdrCandidateName(name: string, folderName?: string): boolean {
  if (!RECORD_FILE.test(name)) return false;
  const stem = name.replace(/\.[^.]+$/, '').toLowerCase();
  if (NOT_RECORD_STEMS.has(stem)) return false;
  // `template.md`, `adr-template.md`, `NNNN-adr-template.md`: but `0014-use-a-template-engine.md` is a record.
  const words = stem.split(/[^a-z0-9]+/);
  if (words.includes('template') && !words.some((w) => /^\d+$/.test(w) && /[1-9]/.test(w))) return false;
  // `ADRs/ADRs.md`, `decisions/decisions.md`: the folder's own index.
  if (folderName && stem === folderName.toLowerCase()) return false;
  return true;
}

/** A numbered file without an extension whose text starts like a record (a status, Context / Decision headings). */
function isExtensionlessRecord(root: string, rel: string): boolean {
  const name = rel.slice(rel.lastIndexOf('/') + 1);
  if (!NUMBERED_NO_EXTENSION.test(name)) return false;
  const head = readHead(root, rel);
  return !head.includes('\u0000') && adrShapeOf(name, head).content >= 1;
}

/** `0003-use-queues/README.md` under a decision folder: a record kept in a folder of its own. */
function isRecordInOwnFolder(name: string, folderParts: readonly string[]): boolean {
  const stem = name.replace(/\.[^.]+$/, '').toLowerCase();
  return (
    folderParts.length >= 2 &&
    (stem === 'readme' || stem === 'index') &&
    RECORD_FILE.test(name) &&
    NUMBERED.test(folderParts[folderParts.length - 1])
  );
}

/** The status a folder name gives, if any (`historic-adrs` → deprecated). */
function statusOfFolderName(name: string): AdrStatus | undefined {
  for (const w of name.toLowerCase().split(/[^a-z]+/)) if (STATUS_WORDS[w]) return STATUS_WORDS[w];
  return undefined;
}

/**
 * Finds decision folders anywhere in the workspace: configured ones first (adr-tools' `.adr-dir`,
 * log4brains' `.log4brains.yml`, the setting), then folders named for decisions at any depth, then
 * folders holding two or more ADR-shaped files. Git-ignored, vendored and dependency trees are
 * skipped; the listing never opens a file, and only a bounded number of files is sniffed for shape.
 */
// eslint-disable-next-line max-lines-per-function, complexity -- one bounded walk with its layouts, caps and reasons
export async function discoverDecisions(root: string, options: DiscoveryOptions = {}): Promise<DiscoveryResult> {
  const maxDepth = options.maxDepth ?? 14;
  const maxSniffed = options.maxSniffed ?? 4000;
  const listing = await listWorkspacePaths(root, {
    signal: options.signal,
    maxPaths: options.maxPaths,
    noGit: options.noGit,
  });
  let capped: DecisionDiscoverySummary['capped'] = listing.capped;
  const folders: DecisionFolder[] = [];
  const files: DecisionFile[] = [];
  const claimed = new Set<string>();
  const take = (f: DecisionFile) => {
    if (claimed.has(f.path)) return false;
    claimed.add(f.path);
    files.push(f);
    return true;
  };

  // 1. Configured folders: everything markdown in them is a record.
  for (const { path, reason } of configuredFolders(root, options.configured ?? [])) {
    if (folders.some((f) => f.path === path)) continue;
    const { files: inside } = walkFiles(join(root, path), {
      maxDepth: MAX_AREA_DEPTH,
      maxEntries: 5000,
      signal: options.signal,
      enterDir: (_rel, name) => !SKIPPED_SEGMENTS.has(name.toLowerCase()),
    });
    let records = 0;
    for (const rel of inside.sort()) {
      const parts = rel.split('/');
      const name = parts[parts.length - 1];
      if (
        !isAdrCandidateName(name, parts[parts.length - 2] ?? path.slice(path.lastIndexOf('/') + 1)) &&
        !isExtensionlessRecord(root, `${path}/${rel}`)
      )
        continue;
      if (
        take({
          path: `${path}/${rel}`,
          folder: path,
          ...placeOf([path.slice(path.lastIndexOf('/') + 1), ...parts.slice(0, -1)]),
        })
      )
        records++;
    }
    folders.push({ path, reason, records });
  }

  // 2. Candidate files from the listing, grouped by folder.
  const byDir = new Map<string, string[]>();
  for (const p of listing.paths) {
    if (!(RECORD_FILE.test(p) || NUMBERED_NO_EXTENSION.test(p.slice(p.lastIndexOf('/') + 1))) || claimed.has(p))
      continue;
    const parts = p.split('/');
    if (
      parts.length - 1 > maxDepth ||
      parts.some((s, i) => i < parts.length - 1 && SKIPPED_SEGMENTS.has(s.toLowerCase()))
    )
      continue;
    const dir = parts.slice(0, -1).join('/');
    const list = byDir.get(dir);
    if (list) list.push(p);
    else byDir.set(dir, [p]);
  }

  // 3. Folders named for decisions: the innermost such folder owns the files below it.
  let sniffed = 0;
  /** Takes `n` files from the sniffing budget; false (and the cap noted) when they do not fit. */
  const budget = (n: number): boolean => {
    if (sniffed + n > maxSniffed) {
      capped ??= { reason: 'sniff', limit: maxSniffed };
      return false;
    }
    sniffed += n;
    return true;
  };
  const named = new Map<string, DecisionFile[]>();
  const unnamed: [string, string[]][] = [];
  for (const [dir, paths] of byDir) {
    const parts = dir ? dir.split('/') : [];
    let k = -1;
    for (let i = parts.length - 1; i >= 0 && i >= parts.length - 1 - MAX_AREA_DEPTH; i--) {
      if (isDecisionFolderName(parts[i])) {
        k = i;
        break;
      }
    }
    if (k < 0) {
      unnamed.push([dir, paths]);
      continue;
    }
    const folder = parts.slice(0, k + 1).join('/');
    const list = named.get(folder) ?? [];
    for (const p of paths) {
      const name = p.slice(p.lastIndexOf('/') + 1);
      const own = parts.length - k >= 2 && NUMBERED.test(parts[parts.length - 1]);
      // In a record's own folder only its README or index is the record; other pages are attachments.
      if (NUMBERED_NO_EXTENSION.test(name)) {
        // `0016-handle-concurrent-git-operations`: a record saved without its `.md`, when it reads like one.
        if (own || sniffed >= maxSniffed) continue;
        sniffed++;
        if (!isExtensionlessRecord(root, p)) continue;
      } else if (own ? !isRecordInOwnFolder(name, parts.slice(k)) : !isAdrCandidateName(name, parts[parts.length - 1]))
        continue;
      list.push({ path: p, folder, ...placeOf(parts.slice(k)) });
    }
    named.set(folder, list);
  }
  for (const [folder, all] of [...named].sort((a, b) => (a[0] < b[0] ? -1 : 1))) {
    let list = all;
    // In a tool's hidden folder (`.claude/commands/adr`) pages about ADRs are instructions: only record-shaped ones count.
    if (inToolFolder(folder.split('/'))) {
      if (!budget(all.length)) continue;
      list = all.filter((f) =>
        isRecordShaped(adrShapeOf(f.path.slice(f.path.lastIndexOf('/') + 1), readHead(root, f.path))),
      );
    }
    let records = 0;
    for (const f of list.sort((a, b) => (a.path < b.path ? -1 : 1))) if (take(f)) records++;
    if (records) folders.push({ path: folder, reason: 'name', records });
  }

  // 4. Other folders with two or more ADR-shaped files, and files named as records (`docs/adr-007-x.md`,
  //    `DECISIONS.md`) that are shaped like one, unless a tool's configuration already says where records are.
  const toolConfigured = folders.some((f) => f.reason === 'adr-dir' || f.reason === 'log4brains');
  const byShapeFolders = new Map<string, DecisionFolder>();
  // Sorted, so a folder comes before its sub-folders.
  for (const [dir, paths] of toolConfigured ? [] : unnamed.sort((a, b) => (a[0] < b[0] ? -1 : 1))) {
    const name = dir.slice(dir.lastIndexOf('/') + 1);
    // `design/defunct/`, `architecture/superseded/`: retired or proposed records beside a folder of records.
    const parent = byShapeFolders.get(dir.slice(0, Math.max(0, dir.lastIndexOf('/'))));
    if (parent && dir.includes('/') && statusOfFolderName(name)) {
      const candidates = paths.filter((p) => isAdrCandidateName(p.slice(p.lastIndexOf('/') + 1), name)).sort();
      if (!budget(candidates.length)) continue;
      for (const p of candidates) {
        const shape = adrShapeOf(p.slice(p.lastIndexOf('/') + 1), readHead(root, p));
        if (
          !shape.otherKind &&
          (shape.numbered || shape.content >= 1 || shape.titled) &&
          take({
            path: p,
            folder: parent.path,
            ...placeOf([parent.path.slice(parent.path.lastIndexOf('/') + 1), name]),
          })
        )
          parent.records++;
      }
      continue;
    }
    const candidates = paths.filter((p) => isAdrCandidateName(p.slice(p.lastIndexOf('/') + 1), name)).sort();
    const namedFiles = candidates.filter((p) =>
      isDecisionFolderName(p.slice(p.lastIndexOf('/') + 1).replace(/\.[^.]+$/, '')),
    );
    if (candidates.length < 2 && !namedFiles.length) continue;
    const toSniff = candidates.length < 2 ? namedFiles : candidates;
    if (!budget(toSniff.length)) continue;
    // Reports, roadmaps and minutes beside records are dated and have a status too, but decide nothing.
    const shapes = toSniff
      .map((p) => ({ path: p, shape: adrShapeOf(p.slice(p.lastIndexOf('/') + 1), readHead(root, p)) }))
      .filter((s) => !s.shape.otherKind);
    const parts = dir ? dir.split('/') : [];
    const strict = inToolFolder(parts);
    // Inside a tool's hidden folder (`.agents/skills/x/proposals`) numbered pages with a status belong to the tool.
    const byShape =
      !strict &&
      shapes.length >= 2 &&
      isDecisionFolderByShape(
        dir,
        shapes.map((s) => s.shape),
      );
    // Front matter with a title is a record's only sign in some layouts; it counts where most files are records.
    const mostlyRecords = shapes.filter((s) => s.shape.numbered || s.shape.content >= 2).length * 2 >= shapes.length;
    let records = 0;
    for (const { path, shape } of shapes) {
      const recordShaped = byShape && (shape.numbered || shape.content >= 2 || (shape.titled && mostlyRecords));
      const namedRecord =
        namedFiles.includes(path) && (strict ? isRecordShaped(shape) : shape.numbered || shape.content >= 1);
      if ((recordShaped || namedRecord) && take({ path, folder: dir, ...placeOf(parts.slice(-1)) })) records++;
    }
    if (!records) continue;
    const folder: DecisionFolder = { path: dir || '.', reason: byShape ? 'shape' : 'name', records };
    folders.push(folder);
    if (byShape && dir) byShapeFolders.set(dir, folder);
  }

  return {
    paths: listing.paths,
    folders,
    files,
    summary: {
      folders,
      conventions: DECISION_CONVENTIONS,
      setting: DECISION_FOLDERS_SETTING,
      scanned: listing.paths.length,
      capped,
    },
  };
}

/**
 * A folder that is not named for decisions counts when two or more of its files, and a fair share
 * of them, are shaped like records. Numbered names alone also fit chapters of a guide, so a folder
 * of numbered files needs one file with record content too, or `architecture` in its path.
 */
function isDecisionFolderByShape(dir: string, shapes: readonly AdrShape[]): boolean {
  const content = shapes.filter((s) => s.content >= 2).length;
  const numbered = shapes.filter((s) => s.numbered).length;
  if (content >= 2 && content * 3 >= shapes.length) return true;
  if (numbered >= 2 && numbered * 2 >= shapes.length && (content >= 1 || termsOf(dir).includes('architectur')))
    return true;
  return false;
}

/**
 * Under a hidden folder that is not itself named for decisions (`.claude/commands/adr`,
 * `.github/prompts`, `.agent_instructions`): tool configuration, where pages that mention ADRs
 * tell an assistant how to write one rather than record a decision.
 */
function inToolFolder(dirParts: readonly string[]): boolean {
  return dirParts.some((s) => s.length > 1 && s.startsWith('.') && !isDecisionFolderName(s));
}

/** Numbered like a record, or with two of a record's signs (a status, Context / Decision / Consequences headings). */
function isRecordShaped(shape: AdrShape): boolean {
  return shape.numbered || shape.content >= 2;
}

/** Area and folder status of a file, from the folders between its decision folder (first) and itself. */
function placeOf(folderParts: readonly string[]): { area: string[]; folderStatus?: AdrStatus } {
  let folderStatus: AdrStatus | undefined;
  const area: string[] = [];
  for (let i = 0; i < folderParts.length; i++) {
    const status = statusOfFolderName(folderParts[i]);
    if (status) folderStatus = status;
    // A numbered folder is one record's own folder (`0003-use-queues/README.md`), not an area.
    else if (i > 0 && !NUMBERED.test(folderParts[i])) area.push(folderParts[i]);
  }
  return { area, folderStatus };
}

/** The first 8 KiB of a file as text ('' when unreadable). */
function readHead(root: string, rel: string): string {
  let fd: number | undefined;
  try {
    fd = openSync(join(root, rel), 'r');
    const buf = Buffer.alloc(8192);
    const n = readSync(fd, buf, 0, buf.length, 0);
    return buf.subarray(0, n).toString('utf8');
  } catch {
    return '';
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

export type { AdrShape };
