// Prints the import graph's cycles and the imports that point up the core's tiers.
//
//   node scripts/importGraph.mjs [--json]
//
// Every relative import of src/**/*.ts counts, type-only ones included: a type cycle still ties two
// modules together for a reader. Exits 1 when it finds a cycle or an upward import, so lint can run it.
import { readdirSync, readFileSync, existsSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const SRC = join(ROOT, 'src');

/**
 * The core's tiers, lowest first. A module may import its own tier and the tiers below it. The first
 * matching prefix (a path under src/core, without extension) decides a module's tier.
 */
export const CORE_TIERS = [
  {
    tier: 'common',
    prefixes: ['terms', 'timeSlice', 'random', 'logger', 'paths', 'types', 'config'],
  },
  { tier: 'platform', prefixes: ['store/', 'events/', 'scan/', 'security/', 'git/', 'gitAccess'] },
  { tier: 'engines', prefixes: ['index/', 'cochange/'] },
  {
    tier: 'features',
    prefixes: ['sources/', 'provider/', 'prompt/', 'subscriptions/', 'watches/', 'memory/', 'snapshot/'],
  },
  { tier: 'wiring', prefixes: ['engine', 'indexer'] },
  { tier: 'api', prefixes: ['api/'] },
];

/** The tier index of a file under src/core, or -1 for files outside the core. */
export function tierOf(file) {
  const rel = relative(join(SRC, 'core'), file).split(sep).join('/');
  if (rel.startsWith('..')) return -1;
  const bare = rel.replace(/\.ts$/, '');
  const i = CORE_TIERS.findIndex((t) => t.prefixes.some((p) => (p.endsWith('/') ? bare.startsWith(p) : bare === p)));
  if (i < 0) throw new Error(`src/core/${rel} is in no tier: add it to CORE_TIERS in scripts/importGraph.mjs`);
  return i;
}

function listTs(dir, out = []) {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) listTs(p, out);
    else if (name.endsWith('.ts') && !name.endsWith('.d.ts')) out.push(p);
  }
  return out;
}

// `import … from '…'`, `export … from '…'`, `import('…')` and bare `import '…'`; specifiers only.
const IMPORT_RE = /(?:\bfrom\s*|\bimport\s*\(\s*|^\s*import\s+)['"](\.{1,2}\/[^'"]+)['"]/gm;

function resolveImport(from, spec) {
  const base = resolve(dirname(from), spec.replace(/\.js$/, ''));
  for (const candidate of [base + '.ts', join(base, 'index.ts')]) if (existsSync(candidate)) return candidate;
  return undefined;
}

/** The graph of relative imports between the given files: file → files it imports. */
export function buildGraph(files) {
  const graph = new Map();
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    const deps = new Set();
    for (const m of text.matchAll(IMPORT_RE)) {
      const target = resolveImport(file, m[1]);
      if (target) deps.add(target);
    }
    graph.set(file, [...deps]);
  }
  return graph;
}

/** Strongly connected components with more than one module (or a module importing itself). */
export function cycles(graph) {
  let index = 0;
  const idx = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const out = [];
  const visit = (v) => {
    // Iterative Tarjan: the graph has a few hundred nodes, but recursion depth should not depend on it.
    const work = [[v, 0]];
    idx.set(v, index);
    low.set(v, index++);
    stack.push(v);
    onStack.add(v);
    while (work.length) {
      const frame = work[work.length - 1];
      const [node, i] = frame;
      const deps = graph.get(node) ?? [];
      if (i < deps.length) {
        frame[1]++;
        const w = deps[i];
        if (!idx.has(w)) {
          idx.set(w, index);
          low.set(w, index++);
          stack.push(w);
          onStack.add(w);
          work.push([w, 0]);
        } else if (onStack.has(w)) low.set(node, Math.min(low.get(node), idx.get(w)));
        continue;
      }
      work.pop();
      if (work.length) {
        const parent = work[work.length - 1][0];
        low.set(parent, Math.min(low.get(parent), low.get(node)));
      }
      if (low.get(node) === idx.get(node)) {
        const scc = [];
        let w;
        do {
          w = stack.pop();
          onStack.delete(w);
          scc.push(w);
        } while (w !== node);
        if (scc.length > 1 || (graph.get(node) ?? []).includes(node)) out.push(scc);
      }
    }
  };
  for (const v of graph.keys()) if (!idx.has(v)) visit(v);
  return out;
}

/** Imports inside src/core from a lower tier to a higher one. */
export function upwardEdges(graph) {
  const out = [];
  for (const [from, deps] of graph) {
    const ft = tierOf(from);
    if (ft < 0) continue;
    for (const to of deps) {
      const tt = tierOf(to);
      if (tt > ft) out.push({ from, to, fromTier: CORE_TIERS[ft].tier, toTier: CORE_TIERS[tt].tier });
    }
  }
  return out;
}

/** The import graph of every TypeScript module under `srcDir` (src by default). */
export function graphOf(srcDir = SRC) {
  return buildGraph(listTs(srcDir));
}

function main() {
  const graph = graphOf();
  const rel = (f) => relative(ROOT, f).split(sep).join('/');
  const found = cycles(graph).map((scc) => scc.map(rel).sort());
  const up = upwardEdges(graph).map((e) => ({ ...e, from: rel(e.from), to: rel(e.to) }));
  if (process.argv.includes('--json')) {
    console.log(JSON.stringify({ modules: graph.size, cycles: found, upward: up }, null, 2));
  } else {
    console.log(`${graph.size} modules, ${found.length} import cycles, ${up.length} upward imports between core tiers`);
    for (const scc of found) console.log(`cycle: ${scc.join(' ↔ ')}`);
    for (const e of up) console.log(`upward: ${e.from} (${e.fromTier}) imports ${e.to} (${e.toTier})`);
  }
  process.exitCode = found.length || up.length ? 1 : 0;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
