import { all, type Database } from '../store/sqlite';
import { folderName, type FieldTypes } from './fieldTypes';
import type { familyOf } from './languages';

type Family = ReturnType<typeof familyOf>;

/**
 * The interfaces that declare `method` and all of whose methods `type` (defined in `path`'s folder,
 * as Go keeps a type's methods in its package) has, by name, as far as the index knows them.
 */
export function implementedDeclaring(
  db: Database,
  method: string,
  type: string,
  path: string,
  fields: FieldTypes,
  family: Family,
): Set<string> {
  const out = new Set<string>();
  const candidates = all<{ container: string; file: number }>(
    db,
    `SELECT DISTINCT m.container AS container, m.file AS file FROM symbols m JOIN symbols i ON i.name = m.container AND i.file = m.file AND i.kind = 'interface' WHERE m.name = ? AND m.kind = 'method'`,
    [method],
  );
  if (!candidates.length) return out;
  const dir = path.includes('/') ? path.slice(0, path.lastIndexOf('/') + 1) : '';
  // Paths in the folder sort between 'dir/' and 'dir0' ('0' follows '/').
  const inFolder = dir ? ' AND f.path > ? AND f.path < ?' : '';
  const own = new Set(
    all<{ name: string }>(
      db,
      `SELECT DISTINCT s.name AS name FROM symbols s JOIN files f ON f.id = s.file WHERE s.container = ? AND s.kind = 'method'${inFolder}`,
      dir ? [type, dir, `${dir.slice(0, -1)}0`] : [type],
    ).map((r) => r.name),
  );
  // Go: the methods of the structs it embeds are its own too (promoted), looked up only when an interface needs them.
  let embedded: Array<{ name: string; pkg?: string }> | undefined;
  const promoted = (names: string[]) => {
    embedded ??= fields.embeddedIn(type, dir ? folderName(path) : undefined);
    if (!embedded.length) return;
    const rows = all<{ name: string; container: string; path: string }>(
      db,
      `SELECT DISTINCT s.name AS name, s.container AS container, f.path AS path FROM symbols s JOIN files f ON f.id = s.file WHERE s.name IN (${names.map(() => '?').join(',')}) AND s.kind = 'method' AND f.lang = 'go' LIMIT 2000`,
      names,
    );
    for (const r of rows)
      if (embedded.some((e) => e.name === r.container && (!e.pkg || folderName(r.path) === e.pkg))) own.add(r.name);
  };
  for (const { container, file } of candidates) {
    const needed = all<{ name: string }>(
      db,
      `SELECT DISTINCT name FROM symbols WHERE file = ? AND container = ? AND kind = 'method'`,
      [file, container],
    );
    const missing = needed.filter((m) => !own.has(m.name)).map((m) => m.name);
    if (missing.length && family === 'go') promoted(missing.slice(0, 200));
    if (needed.every((m) => own.has(m.name))) out.add(container);
  }
  return out;
}
