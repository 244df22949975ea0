import { existsSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { toRelative } from '../../paths';
import { walkFiles } from '../reports/walk';

/** Folders where ADR tools and teams usually keep decision records, most specific first. */
export const CONVENTIONAL_DECISION_FOLDERS = [
  'docs/adr',
  'docs/adrs',
  'docs/decisions',
  'doc/adr',
  'doc/architecture/decisions',
  'docs/architecture/decisions',
  'docs/architecture',
  'adr',
  'decisions',
];

/** Folders holding general architecture docs: only numbered or status-bearing files count as ADRs there. */
export const LOOSE_DECISION_FOLDERS = new Set(['docs/architecture']);

/**
 * The decision folders of a workspace that exist: the one named by adr-tools' `.adr-dir`, the
 * configured ones, then the conventional ones. Root-relative, without trailing slash.
 */
export function discoverDecisionFolders(root: string, configured: readonly string[] = []): string[] {
  const found: string[] = [];
  const add = (p: string | undefined) => {
    if (p === undefined) return;
    const rel = toRelative(root, p.trim().replace(/\\/g, '/').replace(/\/+$/, ''));
    if (rel === undefined || rel === '' || found.includes(rel)) return;
    try {
      // A folder that is a symlink leading out of the workspace is never read.
      if (statSync(join(root, rel)).isDirectory() && toRelative(realpathSync(root), realpathSync(join(root, rel))) !== undefined) found.push(rel);
    } catch {
      // Not there: nothing to discover.
    }
  };
  add(adrDirSetting(root));
  for (const c of configured) add(c);
  for (const c of CONVENTIONAL_DECISION_FOLDERS) add(c);
  return found;
}

/** The folder adr-tools' `.adr-dir` names (root-relative), whether or not it exists yet. */
export function adrDirSetting(root: string): string | undefined {
  const file = join(root, '.adr-dir');
  if (!existsSync(file)) return undefined;
  try {
    const first = readFileSync(file, 'utf8').split(/\r?\n/)[0].trim().replace(/\\/g, '/').replace(/\/+$/, '');
    const rel = first ? toRelative(root, first) : undefined;
    return rel || undefined;
  } catch {
    // An unreadable .adr-dir falls back to the conventions.
    return undefined;
  }
}

/** Names that are never decision records themselves. */
export function isAdrCandidateName(name: string): boolean {
  if (!/\.md$/i.test(name)) return false;
  const lower = name.toLowerCase();
  if (lower === 'readme.md' || lower === 'index.md' || lower === '_sidebar.md' || lower === 'summary.md') return false;
  if (lower.includes('template')) return false;
  return true;
}

/** Markdown files under the decision folders (two levels deep), root-relative and deduplicated. */
export function listAdrFiles(root: string, folders: readonly string[]): { path: string; folder: string }[] {
  const out: { path: string; folder: string }[] = [];
  const seen = new Set<string>();
  for (const folder of folders) {
    const { files } = walkFiles(join(root, folder), { maxDepth: 2, maxEntries: 5000 });
    for (const f of files.sort()) {
      const name = f.slice(f.lastIndexOf('/') + 1);
      if (!isAdrCandidateName(name)) continue;
      const path = `${folder}/${f}`;
      if (seen.has(path)) continue;
      seen.add(path);
      // A file belongs to the most specific decision folder that holds it.
      const owner = folders.filter((f) => path.startsWith(f + '/')).sort((a, b) => b.length - a.length)[0] ?? folder;
      out.push({ path, folder: owner });
    }
  }
  return out;
}
