/**
 * hnswlib-wasm's capacity: what one element and one saved file cost in a 2 GiB heap (one module
 * instance, shared by the segments placed in it: wasm-heaps.ts), how many elements fit beside the
 * others, how many heaps a process may open, and the capacity error that says so.
 */
import { VectorDbError } from '../errors/vectordb-error.js';
import { HEADROOM, type IndexIdentity } from './backend-types.js';

/** hnswlib's saveIndex size for `count` elements (wasm32: 4-byte labels), a little over rather than under. */
export function wasmFileBytes(count: number, dimension: number, M: number): number {
  const level0 = 2 * M * 4 + 4 + dimension * 4 + 4;
  const upper = 4 + (M * 4 + 4) / Math.max(1, M - 1);
  return Math.ceil(256 + count * (level0 + upper) * 1.02);
}

export const WASM_HEAP_BYTES = 2 ** 31;
/**
 * A lower ceiling for the indexes' share of the heap, in bytes (tests: reaching the real one takes
 * hundreds of thousands of vectors). Only lowers it.
 */
export const WASM_HEAP_ENV = 'VECTORDB_WASM_HEAP_BYTES';

/**
 * At most this many heaps (hnswlib-wasm module instances) per process or page, each holding segments of
 * graphs (tests: reaching the default takes tens of GiB). Only lowers it.
 */
export const WASM_HEAPS_ENV = 'VECTORDB_WASM_HEAPS';
/** 64 heaps of 2 GiB: far past what a page or a desktop process can allocate, which is the real limit. */
const DEFAULT_MAX_HEAPS = 64;

/**
 * A knob's value: the environment in Node; in a page (no process), a global of the same name set before
 * the first vector index is made. NaN when unset.
 */
function knob(name: string): number {
  const env = typeof process === 'undefined' ? undefined : process.env?.[name];
  return Number(env ?? (globalThis as Record<string, unknown>)[name]);
}

/** The heap's size as the capacity plans count it: WASM_HEAP_BYTES, or the lower VECTORDB_WASM_HEAP_BYTES. */
function heapBytes(): number {
  const forced = knob(WASM_HEAP_ENV);
  return forced > 0 && forced < WASM_HEAP_BYTES ? forced : WASM_HEAP_BYTES;
}

/** How many heaps the process may open: DEFAULT_MAX_HEAPS, or the lower VECTORDB_WASM_HEAPS. */
export function wasmMaxHeaps(): number {
  const forced = Math.floor(knob(WASM_HEAPS_ENV));
  return forced >= 1 && forced < DEFAULT_MAX_HEAPS ? forced : DEFAULT_MAX_HEAPS;
}
/** Runtime, hnswlib's 65,536 label locks, batch temporaries: kept out of the indexes' budget. */
const WASM_RESERVED_BYTES = 96 * 2 ** 20;
/** Vectors per addPoints call: bounds the C++ copy of the batch (~0.75 MiB at 768 dims). */
export const ADD_BATCH_VALUES = 196_608;

/**
 * Heap bytes one element costs hnswlib-wasm (wasm32: size_t and pointers are 4 bytes):
 * the bottom layer (2M links + count, the vector, the label), expected upper-layer links, a link-list
 * pointer, its level, a mutex, the visited-list entry, the label map node and the used-labels cache;
 * plus 5 % for allocator slack. 768 dims, M 16: 3,452 bytes, so about 593k vectors preallocated.
 */
export function wasmBytesPerElement(dimension: number, M: number): number {
  const level0 = 2 * M * 4 + 4 + dimension * 4 + 4;
  const upper = (M * 4 + 4 + 8) / Math.max(1, M - 1);
  const bookkeeping = 4 + 4 + 24 + 2 + 32 + 8;
  return Math.ceil((level0 + upper + bookkeeping) * 1.05);
}

/** Most elements one index can preallocate when other wasm indexes already hold `otherBytes`. */
export function wasmMaxElements(dimension: number, M: number, otherBytes = 0): number {
  return Math.max(0, Math.floor((heapBytes() - WASM_RESERVED_BYTES - otherBytes) / wasmBytesPerElement(dimension, M)));
}

export function wasmCapacityAdvice(dimension: number, M: number): string {
  const perHeap = wasmMaxElements(dimension, M) - HEADROOM;
  const heap = heapBytes() === WASM_HEAP_BYTES ? '2 GiB' : `${heapBytes()}-byte (${WASM_HEAP_ENV})`;
  const heaps = wasmMaxHeaps();
  const most = heaps === DEFAULT_MAX_HEAPS ? `up to ${heaps}` : `at most ${heaps} (${WASM_HEAPS_ENV})`;
  return (
    `hnswlib-wasm spreads the indexes of the process over ${most} ${heap} WebAssembly heaps, a graph in segments ` +
    `of about ${perHeap} vectors of ${dimension} dimensions with M=${M} each, a new heap when none has room; ` +
    'none could be had. Free memory (close other collections or pages), rebuild the index to drop deleted ' +
    'vectors, or install hnswlib-node (native, no such limit).'
  );
}

export function capacityError(identity: IndexIdentity, max: number, reason: string, library: string): VectorDbError {
  return VectorDbError.of('VECTOR_INDEX_CAPACITY', {
    backend: library,
    collection: identity.name,
    max: Math.max(0, max - HEADROOM),
    dimension: identity.dimension,
    reason: `${reason}. ${wasmCapacityAdvice(identity.dimension, identity.params.M)}`,
  });
}
