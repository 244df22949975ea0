// Every WebAssembly memory the process creates, in load order: sql.js loads with the store,
// tree-sitter with the first parse. A module either creates its memory in JS (imported) or exports
// one from the instance, so both WebAssembly.Memory and WebAssembly.instantiate are hooked.
// Import this module before the engine is required, or the memories made earlier go unseen.

/** The memories seen so far; they only grow, so their size is the high-water mark the process keeps. */
export const memories = [];

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
