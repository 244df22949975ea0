// What the process holds in memory, for the index benches: RSS, the JS heap and every WebAssembly
// memory, in load order (sql.js loads with the store, tree-sitter with the first parse). A module
// either creates its memory in JS (imported) or exports one from the instance, so both
// WebAssembly.Memory and WebAssembly.instantiate are hooked. Import this module before the engine
// is required, or the memories made earlier go unseen.

// WebAssembly memories only grow: their size is the high-water mark the process keeps.
const memories = [];
const note = (m) => m instanceof WebAssembly.Memory && !memories.includes(m) && memories.push(m);
const NativeMemory = WebAssembly.Memory;
WebAssembly.Memory = function Memory(...args) {
  const m = new NativeMemory(...args);
  note(m);
  return m;
};
WebAssembly.Memory.prototype = NativeMemory.prototype;
Object.setPrototypeOf(WebAssembly.Memory, NativeMemory);
const instantiate = WebAssembly.instantiate;
WebAssembly.instantiate = async function (...args) {
  const result = await instantiate.apply(this, args);
  for (const v of Object.values((result.instance ?? result).exports)) note(v);
  return result;
};

/** Bytes in MB, to one decimal. */
export const mb = (n) => Math.round((n / 1048576) * 10) / 10;

/** The process's memory in MB after a full GC (when node runs with --expose-gc). */
export function memoryNow() {
  globalThis.gc?.();
  const m = process.memoryUsage();
  return {
    rss: mb(m.rss),
    heapUsed: mb(m.heapUsed),
    heapTotal: mb(m.heapTotal),
    external: mb(m.external),
    arrayBuffers: mb(m.arrayBuffers),
    wasm: memories.map((x) => mb(x.buffer.byteLength)),
  };
}
