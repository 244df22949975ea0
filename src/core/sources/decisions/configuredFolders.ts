import { existsSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { toRelative } from '../../paths';
import { linesOf } from '../docs/markdown';
import { trimEndOf } from '../../../shared/text';

/* The decision folders a project names itself: adr-tools' `.adr-dir`, log4brains' config and the setting. */

/** Why a folder counts as a decision folder. */
export type FolderReason = 'adr-dir' | 'log4brains' | 'setting' | 'name' | 'shape';

/** The folders named by adr-tools' `.adr-dir`, log4brains' config and the setting, that exist inside the root. */
export function configuredFolders(
  root: string,
  configured: readonly string[],
): { path: string; reason: FolderReason }[] {
  const out: { path: string; reason: FolderReason }[] = [];
  const add = (p: string | undefined, reason: FolderReason) => {
    if (p === undefined) return;
    const rel = toRelative(root, trimEndOf(p.trim().replace(/\\/g, '/'), '/'));
    if (rel === undefined || rel === '' || out.some((o) => o.path === rel)) return;
    try {
      // A folder that is a symlink leading out of the workspace is never read.
      if (
        statSync(join(root, rel)).isDirectory() &&
        toRelative(realpathSync(root), realpathSync(join(root, rel))) !== undefined
      )
        out.push({ path: rel, reason });
    } catch {
      // Not there: nothing to discover.
    }
  };
  add(adrDirSetting(root), 'adr-dir');
  for (const p of log4brainsFolders(root)) add(p, 'log4brains');
  for (const c of configured) add(c, 'setting');
  return out;
}

/** The folder adr-tools' `.adr-dir` names (root-relative), whether or not it exists yet. */
export function adrDirSetting(root: string): string | undefined {
  const file = join(root, '.adr-dir');
  if (!existsSync(file)) return undefined;
  try {
    const first = trimEndOf(linesOf(readFileSync(file, 'utf8').slice(0, 4096))[0].trim().replace(/\\/g, '/'), '/');
    const rel = first ? toRelative(root, first) : undefined;
    return rel || undefined;
  } catch {
    // An unreadable .adr-dir falls back to the conventions.
    return undefined;
  }
}

const ADR_FOLDER_KEY = /^[ \t]*(?:-[ \t]+)?adrFolder[ \t]*:[ \t]*(\S.*)$/;

/** The `adrFolder` entries of log4brains' `.log4brains.yml` (project and packages). */
export function log4brainsFolders(root: string): string[] {
  const file = join(root, '.log4brains.yml');
  if (!existsSync(file)) return [];
  try {
    const out: string[] = [];
    for (const line of linesOf(readFileSync(file, 'utf8').slice(0, 65536))) {
      const m = ADR_FOLDER_KEY.exec(line);
      if (!m) continue;
      const comment = m[1].search(/[ \t]#/);
      out.push((comment < 0 ? m[1] : m[1].slice(0, comment)).trim().replace(/^["']|["']$/g, ''));
    }
    return out;
  } catch {
    return [];
  }
}
