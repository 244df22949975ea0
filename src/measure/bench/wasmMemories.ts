/** The little of the WebAssembly API used here (its types ship with the DOM library, which Node code leaves out). */
interface WasmMemory {
  readonly buffer: ArrayBuffer;
}
interface WasmInstance {
  readonly exports: Record<string, unknown>;
}
interface WasmApi {
  instantiate: (...args: unknown[]) => Promise<WasmInstance | { instance: WasmInstance }>;
  Memory: new (descriptor: unknown) => WasmMemory;
}

/** A WebAssembly memory seen being made, with what was going on then. */
export interface SeenMemory {
  /** The bench phase in which the module that owns it was instantiated. */
  phase: string;
  memory: WasmMemory;
}

/**
 * Notes every WebAssembly memory made from now on (created by JavaScript or exported by an
 * instance), so that the bench can say how much sql.js and tree-sitter hold: their heaps never shrink
 * and are not in V8's heap figures. dispose() puts the originals back.
 */
export function watchWasmMemories(phase: () => string): { seen: SeenMemory[]; dispose(): void } {
  const wasm = (globalThis as unknown as { WebAssembly: WasmApi }).WebAssembly;
  const seen: SeenMemory[] = [];
  const originalInstantiate = wasm.instantiate;
  const OriginalMemory = wasm.Memory;
  const note = (memory: unknown): void => {
    if (memory instanceof OriginalMemory && !seen.some((s) => s.memory === memory))
      seen.push({ phase: phase(), memory });
  };
  const noteExports = (instance: WasmInstance): void => Object.values(instance.exports).forEach(note);
  wasm.instantiate = async function (this: unknown, ...args: unknown[]) {
    const result = await originalInstantiate.apply(this, args);
    noteExports('instance' in result ? result.instance : result);
    return result;
  };
  const Memory = function (descriptor: unknown) {
    const memory = new OriginalMemory(descriptor);
    note(memory);
    return memory;
  } as unknown as WasmApi['Memory'];
  (Memory as { prototype: unknown }).prototype = OriginalMemory.prototype as unknown;
  wasm.Memory = Memory;
  return {
    seen,
    dispose: () => {
      wasm.instantiate = originalInstantiate;
      wasm.Memory = OriginalMemory;
    },
  };
}
