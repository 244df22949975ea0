// Reads a V8 heap snapshot (as written by v8.writeHeapSnapshot) and tells what each of the engine's
// classes retains. The snapshot's node and edge arrays are read straight from the bytes into typed
// arrays, since a whole-file JSON.parse of a large snapshot exceeds V8's string limit.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));

/** Names of the classes declared in the compiled engine (out/src/core). */
export function engineClassNames(dir = join(here, '..', '..', 'out', 'src', 'core')) {
  const names = new Set();
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile() || !entry.name.endsWith('.js')) continue;
    const text = readFileSync(join(entry.parentPath ?? entry.path, entry.name), 'utf8');
    for (const m of text.matchAll(/\bclass (\w+)/g)) names.add(m[1]);
  }
  return names;
}

function numbersAfter(buf, key, from) {
  const start = buf.indexOf(key, from);
  if (start < 0) throw new Error(`heap snapshot: no ${key}`);
  const values = [];
  let i = start + key.length;
  let n = 0;
  let inNumber = false;
  for (; ; i++) {
    const c = buf[i];
    if (c >= 48 && c <= 57) {
      n = n * 10 + (c - 48);
      inNumber = true;
    } else {
      if (inNumber) values.push(n);
      n = 0;
      inNumber = false;
      if (c === 93) break; // ]
    }
  }
  return { values: Float64Array.from(values), end: i };
}

export function readSnapshot(file) {
  const buf = readFileSync(file);
  const nodesAt = buf.indexOf('"nodes":[');
  const head = buf.toString('utf8', 0, nodesAt).replace(/,\s*$/, '') + '}';
  const meta = JSON.parse(head).snapshot.meta;
  const nodes = numbersAfter(buf, '"nodes":[', 0);
  const edges = numbersAfter(buf, '"edges":[', nodes.end);
  const stringsAt = buf.indexOf('"strings":[', edges.end);
  const tail = buf.toString('utf8', stringsAt + '"strings":'.length, buf.lastIndexOf('}'));
  const strings = JSON.parse(tail);
  return { meta, nodes: nodes.values, edges: edges.values, strings };
}

/**
 * Retained size per engine class: for each class, the bytes that stop being reachable from the
 * roots when its instances are taken out. Weak edges keep nothing alive and are not followed.
 */
export function retainedByName(file, { names = engineClassNames(), topTypes = 20 } = {}) {
  const { meta, nodes, edges, strings } = readSnapshot(file);
  const nf = meta.node_fields.length;
  const ef = meta.edge_fields.length;
  const fType = meta.node_fields.indexOf('type');
  const fName = meta.node_fields.indexOf('name');
  const fSize = meta.node_fields.indexOf('self_size');
  const fEdges = meta.node_fields.indexOf('edge_count');
  const eType = meta.edge_fields.indexOf('type');
  const eTo = meta.edge_fields.indexOf('to_node');
  const nodeTypes = meta.node_fields.length && meta.node_types[fType];
  const edgeTypes = meta.edge_types[eType];
  const weak = edgeTypes.indexOf('weak');
  const shortcut = edgeTypes.indexOf('shortcut');
  const objectType = nodeTypes.indexOf('object');
  const count = nodes.length / nf;
  const firstEdge = new Uint32Array(count + 1);
  for (let i = 0, e = 0; i < count; i++) {
    firstEdge[i] = e;
    e += nodes[i * nf + fEdges] * ef;
    firstEdge[i + 1] = e;
  }
  const size = (i) => nodes[i * nf + fSize];
  const seen = new Uint8Array(count);
  const stack = new Uint32Array(count);
  const reachable = (blocked) => {
    seen.fill(0);
    let top = 0;
    let total = 0;
    stack[top++] = 0;
    seen[0] = 1;
    while (top > 0) {
      const i = stack[--top];
      total += size(i);
      for (let e = firstEdge[i]; e < firstEdge[i + 1]; e += ef) {
        const t = edges[e + eType];
        if (t === weak || t === shortcut) continue;
        const to = edges[e + eTo] / nf;
        if (seen[to] || (blocked && blocked[to])) continue;
        seen[to] = 1;
        stack[top++] = to;
      }
    }
    return total;
  };
  const total = reachable(undefined);
  const instances = new Map();
  for (let i = 0; i < count; i++) {
    if (nodes[i * nf + fType] !== objectType) continue;
    const name = strings[nodes[i * nf + fName]];
    if (!names.has(name)) continue;
    let list = instances.get(name);
    if (!list) instances.set(name, (list = []));
    list.push(i);
  }
  const blocked = new Uint8Array(count);
  const byClass = [];
  for (const [name, list] of instances) {
    blocked.fill(0);
    for (const i of list) blocked[i] = 1;
    byClass.push({ name, count: list.length, bytes: total - reachable(blocked) });
  }
  byClass.sort((a, b) => b.bytes - a.bytes);
  const typeTotals = new Map();
  for (let i = 0; i < count; i++) {
    const t = nodeTypes[nodes[i * nf + fType]];
    const key = t === 'object' || t === 'native' ? `${t}:${strings[nodes[i * nf + fName]].slice(0, 40)}` : t;
    const row = typeTotals.get(key) ?? { name: key, count: 0, bytes: 0 };
    row.count++;
    row.bytes += size(i);
    typeTotals.set(key, row);
  }
  const mb = (n) => Math.round((n / 1048576) * 10) / 10;
  return {
    totalMb: mb(total),
    nodes: count,
    byClass: byClass.filter((r) => r.bytes > 0).map((r) => ({ name: r.name, count: r.count, mb: mb(r.bytes) })),
    byType: [...typeTotals.values()]
      .sort((a, b) => b.bytes - a.bytes)
      .slice(0, topTypes)
      .map((r) => ({ name: r.name, count: r.count, mb: mb(r.bytes) })),
  };
}
