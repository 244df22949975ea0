// Where the editor benchmark moves the cursor: functions picked from the extension's own code index
// (index.db in its state folder), with the symbol the panel must then show, found the way the
// extension finds it (the innermost definition around the line).
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const require = createRequire(import.meta.url);

const CODE_KINDS = new Set(['function', 'method']);

/** Opens index.db from a state folder (read-only copy in memory). */
export async function openIndex(stateDir) {
  const file = path.join(stateDir, 'index.db');
  if (!fs.existsSync(file)) throw new Error(`no code index at ${file} yet`);
  const initSqlJs = require('sql.js');
  const SQL = await initSqlJs();
  const db = new SQL.Database(fs.readFileSync(file));
  const all = (sql, params = []) => {
    const st = db.prepare(sql);
    st.bind(params);
    const rows = [];
    while (st.step()) rows.push(st.getAsObject());
    st.free();
    return rows;
  };
  return { db, all, close: () => db.close() };
}

/** The innermost definition around `line` of `rel`, as the extension's code index answers it. */
export function symbolAtLine(index, rel, line) {
  const [row] = index.all(
    `SELECT s.name AS name, s.start_line AS startLine, s.end_line AS endLine FROM symbols s JOIN files f ON f.id = s.file
     WHERE f.path = ? AND s.start_line <= ? AND s.end_line >= ? ORDER BY (s.end_line - s.start_line) ASC, s.start_line DESC LIMIT 1`,
    [rel, line, line],
  );
  return row;
}

/** A small deterministic generator, so two runs on one repository move to the same places. */
function rng(seed) {
  let x = seed >>> 0 || 1;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) / 2 ** 32;
  };
}

/**
 * Picks `files` files with at least `perFile` functions each (of 3+ lines, whose first line is
 * theirs), and `perFile` of their functions; `heldThrough` + 1 consecutive functions of one file
 * for the held key. Only files that exist in the workspace count.
 */
export function pickTargets(index, workspace, { files = 10, perFile = 4, heldThrough = 4, seed = 7 } = {}) {
  const rows = index.all(
    `SELECT f.path AS path, s.name AS name, s.kind AS kind, s.start_line AS startLine, s.end_line AS endLine
     FROM symbols s JOIN files f ON f.id = s.file ORDER BY f.path, s.start_line`,
  );
  const byFile = new Map();
  for (const r of rows) {
    if (!byFile.has(r.path)) byFile.set(r.path, []);
    byFile.get(r.path).push(r);
  }
  const collect = (perFile) => {
    const candidates = [];
    for (const [rel, syms] of byFile) {
      if (!fs.existsSync(path.join(workspace, rel))) continue;
      const fns = syms.filter(
        (s) =>
          CODE_KINDS.has(s.kind) &&
          s.endLine - s.startLine >= 2 &&
          symbolAtLine(index, rel, s.startLine)?.name === s.name &&
          symbolAtLine(index, rel, s.startLine)?.startLine === s.startLine,
      );
      if (fns.length >= perFile) candidates.push({ path: rel, functions: fns });
    }
    return candidates;
  };
  // A small repository (the demo) has few files with many functions: take files with two then.
  let candidates = collect(perFile);
  if (candidates.length < files) {
    const more = collect(2).filter((c) => !candidates.some((k) => k.path === c.path));
    candidates = [...candidates, ...more];
  }
  const next = rng(seed);
  const shuffled = candidates
    .map((c) => ({ c, k: next() }))
    .sort((a, b) => a.k - b.k)
    .map((x) => x.c);
  const picked = shuffled.slice(0, files).map((c) => {
    const n = Math.min(perFile, c.functions.length);
    const step = c.functions.length / n;
    const fns = Array.from({ length: n }, (_, i) => c.functions[Math.floor(i * step)]);
    return { path: c.path, moves: fns.map((f) => ({ symbol: f.name, line: f.startLine })) };
  });
  // The held key: a file whose functions follow each other closely (short gaps, so the key passes
  // through them, not through long stretches of something else).
  let held;
  for (let through = heldThrough; through >= 2 && !held; through--) held = heldRun(shuffled, through);
  return { files: picked, held, candidates: candidates.length };
}

function heldRun(shuffled, heldThrough) {
  let held;
  for (const c of shuffled) {
    const fns = c.functions;
    for (let i = 0; i + heldThrough < fns.length; i++) {
      const run = fns.slice(i, i + heldThrough + 1);
      const lines = run.at(-1).startLine - run[0].startLine;
      if (lines <= 60 * heldThrough && run.every((f, j) => j === 0 || f.startLine > run[j - 1].endLine)) {
        held = {
          path: c.path,
          from: run[0].startLine,
          to: run.at(-1).startLine,
          functions: run.map((f) => f.name),
          ranges: run.map((f) => ({ name: f.name, startLine: f.startLine, endLine: f.endLine })),
        };
        break;
      }
    }
    if (held) break;
  }
  return held;
}
