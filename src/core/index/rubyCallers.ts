import { all, type Database } from '../store/sqlite';
import { CALL_COLS, CALLS, callRef, lastSegment, type CallRow, type SymbolRow } from './indexRows';
import type { CallerConfidence, CallerRef } from './indexTypes';
import { languageOf } from './languages';

/**
 * Ruby constants are global (autoloading or `require`), so any Ruby file may call a definition.
 * A class is called by `C.new` (`A::C.new` when its namespace matches); `C.m` and `self.m` or a
 * bare `m` inside the class resolve a method; `obj.m` is likely only in files that name the class.
 */
export function rubyCallsTo(db: Database, def: SymbolRow, onlyFile?: string): CallerRef[] {
  const params: string[] = [def.name];
  if (onlyFile !== undefined) params.push(onlyFile);
  const rows = all<CallRow>(
    db,
    `SELECT ${CALL_COLS} FROM ${CALLS} WHERE c.name = ?${onlyFile !== undefined ? ' AND f.path = ?' : ''}`,
    params,
  ).filter((c) => languageOf(c.path) === 'ruby');
  if (!rows.length) return [];
  const out: CallerRef[] = [];
  const container = def.container ?? null;
  const ownNamespace = container === null ? null : lastSegment(container);
  if (def.kind !== 'method') {
    for (const c of rows) {
      if (def.kind === 'function') {
        // A top-level method is callable anywhere without a receiver.
        if (c.qualifier === null) out.push({ ...callRef(c), confidence: c.path === def.path ? 'resolved' : 'likely' });
      } else if (c.qualifier === null || (ownNamespace !== null && lastSegment(c.qualifier) === ownNamespace)) {
        out.push({ ...callRef(c), confidence: 'resolved' });
      }
    }
    return out;
  }
  const owner = lastSegment(container!);
  const spans = all<{ start_line: number; end_line: number }>(
    db,
    `SELECT s.start_line AS start_line, s.end_line AS end_line FROM symbols s JOIN files f ON f.id = s.file WHERE f.path = ? AND s.name = ? AND s.kind = 'class'`,
    [def.path, owner],
  );
  const insideClass = (c: CallRow) =>
    c.path === def.path && spans.some((r) => c.line >= r.start_line && c.line <= r.end_line);
  let naming: Set<string> | undefined;
  const namesClass = (path: string): boolean => {
    if (!naming) {
      naming = new Set([def.path]);
      const files = [...new Set(rows.map((r) => r.path))];
      for (let i = 0; i < files.length; i += 500) {
        const chunk = files.slice(i, i + 500);
        const hits = all<{ path: string }>(
          db,
          `SELECT DISTINCT f.path AS path FROM ${CALLS} WHERE (c.name = ? OR c.qualifier = ? OR c.qualifier LIKE ?) AND f.path IN (${chunk.map(() => '?').join(',')})`,
          [owner, owner, `%::${owner}`, ...chunk],
        );
        for (const h of hits) naming.add(h.path);
      }
    }
    return naming.has(path);
  };
  for (const c of rows) {
    const q = c.qualifier;
    let confidence: CallerConfidence | undefined;
    if (q === null || q === 'self') confidence = insideClass(c) ? 'resolved' : undefined;
    else if (lastSegment(q) === owner) confidence = 'resolved';
    else if (/^[a-z_@]/.test(q) && namesClass(c.path)) confidence = 'likely';
    if (confidence) out.push({ ...callRef(c), confidence });
  }
  return out;
}
