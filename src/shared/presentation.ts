/**
 * How a suggestion reads, the same in the panel, chat, MCP and the CLI: the file name before its
 * folder (a narrow side bar cuts the end of a line, so the name must come first), a reason that every
 * item of a group shares said once for the group, and inline code kept as code. Pure functions over
 * plain data, so the panel page (a browser bundle) and the engine's text renderer both use them.
 */
import type { SuggestionType } from './kinds';

/** What these rules read of an item (a SuggestionItem or a PanelItem). */
export interface PresentableItem {
  type: SuggestionType;
  title: string;
  reason: string;
  location: { path: string; line?: number };
}

/** A row as every surface lays it out: what it is, then where, file name first and folder after. */
export interface RowParts {
  title: string;
  /** "auth.ts:12": the file (and line) the row points into, when it is not already the title. */
  place?: string;
  /** "src/lib": the folder of the file, shown after it and dimmed. */
  folder?: string;
}

export function splitPath(path: string): { name: string; folder: string } {
  const i = path.lastIndexOf('/');
  return i < 0 ? { name: path, folder: '' } : { name: path.slice(i + 1), folder: path.slice(0, i) };
}

/**
 * The row of an item. Co-change titles are the other file's path, and caller titles end with
 * " — path:line": both become the name first and the folder after. Other kinds keep their title.
 */
export function rowParts(item: PresentableItem): RowParts {
  const { path, line } = item.location;
  if (!path) return { title: item.title };
  const { name, folder } = splitPath(path);
  const at = line !== undefined ? `${name}:${line}` : name;
  if (item.title === path) return withFolder({ title: name }, folder);
  const where = line !== undefined ? `${path}:${line}` : path;
  const suffix = ` — ${where}`;
  if (item.title.endsWith(suffix)) {
    const title = item.title.slice(0, -suffix.length).trim();
    return withFolder({ title: title || at, ...(title ? { place: at } : {}) }, folder);
  }
  return { title: item.title };
}

function withFolder(parts: RowParts, folder: string): RowParts {
  return folder ? { ...parts, folder } : parts;
}

/**
 * The reason to say once above a group: the parts ("; "-separated) that every item gives, when there
 * are at least two items ("calls login (resolved through imports)" on each of eight callers says
 * nothing new after the first). Undefined when they share none; each row then says its own.
 */
export function sharedReason(items: readonly Pick<PresentableItem, 'reason'>[]): string | undefined {
  if (items.length < 2) return undefined;
  const [first, ...rest] = items.map((i) => clauses(i.reason));
  const common = first.filter((c) => rest.every((r) => r.includes(c)));
  return common.length ? common.join('; ') : undefined;
}

/** What a row says of its own reason once the group has said `shared` (the parts left, or nothing). */
export function ownReason(reason: string, shared: string | undefined): string {
  if (!shared) return reason;
  const said = clauses(shared);
  return clauses(reason)
    .filter((c) => !said.includes(c))
    .join('; ');
}

/**
 * One reason from two that found the same item (a commit of the function's lines and of the file):
 * each part said once, in the order first said ("bulk change: 111 files" twice says nothing more).
 */
export function mergeReasons(first: string, second: string): string {
  const parts = clauses(first);
  for (const c of clauses(second)) if (!parts.includes(c)) parts.push(c);
  return parts.join('; ');
}

function clauses(reason: string): string[] {
  return reason
    .split('; ')
    .map((c) => c.trim())
    .filter(Boolean);
}

/** A title cut into prose and inline code (`code` without its ticks), for surfaces that show code as code. */
export function inlineCodeParts(text: string): { text: string; code: boolean }[] {
  const out: { text: string; code: boolean }[] = [];
  // Split with a capture group: odd parts are code spans. An unmatched tick stays prose.
  const parts = text.split(/`([^`]+)`/);
  parts.forEach((p, i) => {
    if (p) out.push({ text: p, code: i % 2 === 1 });
  });
  return out;
}
