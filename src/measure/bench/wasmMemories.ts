/** A WebAssembly memory seen being made, with what was going on then. */
export interface SeenMemory {
  /** The bench phase in which the module that owns it was instantiated. */
  phase: string;
  memory: WebAssembly.Memory;
}

/**
 * Notes every WebAssembly memory made from now on (created by JavaScript or exported by an
 * instance), so that the bench can say how much sql.js and tree-sitter hold: their heaps never shrink
 * and are not in V8's heap figures. dispose() puts the originals back.
 */
export function watchWasmMemories(phase: () => string): { seen: SeenMemory[]; dispose(): void } {
  const seen: SeenMemory[] = [];
  const note = (memory: unknown): void => {
    if (memory instanceof OriginalMemory && !seen.some((s) => s.memory === memory)) seen.push({ phase: phase(), memory });
  };
  const noteExports = (instance: WebAssembly.Instance): void => Object.values(instance.exports).forEach(note);
  const originalInstantiate = WebAssembly.instantiate;
  const OriginalMemory = WebAssembly.Memory;
  const wasm = WebAssembly as { -readonly [K in keyof typeof WebAssembly]: (typeof WebAssembly)[K] };
  wasm.instantiate = async function (this: unknown, ...args: unknown[]) {
    const result = (await (originalInstantiate as (...a: unknown[]) => Promise<unknown>).apply(this, args)) as WebAssembly.Instance | WebAssembly.WebAssemblyInstantiatedSource;
    noteExports('instance' in result ? result.instance : result);
    return result;
  } as typeof WebAssembly.instantiate;
  const Memory = function (descriptor: WebAssembly.MemoryDescriptor) {
    const memory = new OriginalMemory(descriptor);
    note(memory);
    return memory;
  } as unknown as typeof WebAssembly.Memory;
  Memory.prototype = OriginalMemory.prototype;
  wasm.Memory = Memory;
  return {
    seen,
    dispose: () => {
      wasm.instantiate = originalInstantiate;
      wasm.Memory = OriginalMemory;
    },
  };
}
