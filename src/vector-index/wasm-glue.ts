/**
 * Source patches to hnswlib-wasm's emscripten glue (its JS half) that make our use of it cheaper without
 * changing what it does. Each patch replaces one exact piece of text and applies only when that text
 * occurs exactly once: a release that changes a piece loads without that patch (correct, only slower).
 * Applied at load time in Node (wasm-loader.ts) and at build time for the browser bundle. No I/O here.
 */

interface GluePatch {
  readonly name: string;
  readonly from: string;
  readonly to: string;
}

/**
 * MEMFS (the module's in-memory file system) grows a file by 1/8 whenever a write runs past its end,
 * copying it each time: hnswlib's writeIndex of a 66 MB graph (100k x 128) copied ~9x its size and
 * held the event loop 0.7-0.9 s. Growth by doubling, and by at least `Module.fileCapacityHint` (the
 * expected file size, set around writeIndex): 0.12-0.14 s.
 */
const MEMFS_GROWTH: GluePatch = {
  name: 'memfs-growth',
  from: 'newCapacity = Math.max(newCapacity, (prevCapacity * (prevCapacity < CAPACITY_DOUBLING_MAX ? 2.0 : 1.125)) >>> 0);',
  to: 'newCapacity = Math.max(newCapacity, (prevCapacity * 2.0) >>> 0, Module.fileCapacityHint >>> 0);',
};

/*
 * Every query vector and every inserted vector crosses into wasm one element at a time (embind's
 * vecFromJSArray: about six calls from wasm into JS per number). Two of those calls did needless work
 * per element: together they were a third of a search on a small graph (27 -> 18 us per 128-dim query).
 */

/** The handle table's lookup built its assertion message (a string concatenation) on every call. */
const HANDLE_GET: GluePatch = {
  name: 'emval-handle-get',
  from: `      this.get = function(id) {
        assert(this.allocated[id] !== undefined, 'invalid handle: ' + id);
        return this.allocated[id];
      };`,
  to: `      this.get = function(id) {
        var handle = this.allocated[id];
        if (handle === undefined) assert(false, 'invalid handle: ' + id);
        return handle;
      };`,
};

/**
 * The type registry is an object keyed by type pointers (a dictionary-mode lookup per call); types
 * are registered once at start-up, so the last two found are remembered (a vector's elements
 * alternate between the index type and the element type).
 */
const REGISTERED_TYPE: GluePatch = {
  name: 'embind-type-lookup',
  from: `  function requireRegisteredType(rawType, humanName) {
      var impl = registeredTypes[rawType];
      if (undefined === impl) {
          throwBindingError(humanName + " has unknown type " + getTypeName(rawType));
      }
      return impl;
    }`,
  to: `  var lastTypeA = 0, lastImplA, lastTypeB = 0, lastImplB;
  function requireRegisteredType(rawType, humanName) {
      if (rawType === lastTypeA) return lastImplA;
      if (rawType === lastTypeB) return lastImplB;
      var impl = registeredTypes[rawType];
      if (undefined === impl) {
          throwBindingError(humanName + " has unknown type " + getTypeName(rawType));
      }
      lastTypeB = lastTypeA; lastImplB = lastImplA;
      lastTypeA = rawType; lastImplA = impl;
      return impl;
    }`,
};

/**
 * Our `instantiateWasm` hook (wasm-runtime.ts) instantiates the module synchronously, so that a graph can
 * open a new heap in the middle of an add: in a page it needs the module's bytes, which the glue holds as
 * a data: URL; the patch hands the hook a function that decodes them.
 */
const WASM_BYTES: GluePatch = {
  name: 'wasm-bytes',
  from: "return Module['instantiateWasm'](info, receiveInstance);",
  to: "return Module['instantiateWasm'](info, receiveInstance, function() { return getBinary(wasmBinaryFile); });",
};

const PATCHES: readonly GluePatch[] = [MEMFS_GROWTH, HANDLE_GET, REGISTERED_TYPE, WASM_BYTES];

/** The names of the patches the loaded module has (for tests). */
export const appliedPatches: string[] = [];

/** The glue chunk that hnswlib-wasm's entry (dist/hnswlib.js) imports: it holds the module factory. */
export function glueChunkName(entrySource: string): string | undefined {
  return /import\(\s*["']\.\/(hnswlib-[\w-]+\.js)["']\s*\)/.exec(entrySource)?.[1];
}

/** The glue's source with every patch whose text it has exactly once, and those patches' names. */
export function patchGlue(source: string): { source: string; applied: string[] } {
  const applied: string[] = [];
  for (const patch of PATCHES) {
    if (source.split(patch.from).length !== 2) continue;
    source = source.replace(patch.from, () => patch.to);
    applied.push(patch.name);
  }
  return { source, applied };
}
