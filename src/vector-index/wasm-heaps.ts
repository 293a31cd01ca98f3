/**
 * The heaps of hnswlib-wasm: one 32-bit WebAssembly heap per module instance (wasm-runtime.ts), as many
 * as the process may open (wasm-capacity.ts), and where a new graph segment goes: the first heap with
 * room for it, else a new heap, else the heap with the most room. Heaps are shared by every index of
 * the process and never closed (a wasm heap cannot shrink; an emptied one serves the next segment).
 */
import { wasmMaxElements, wasmMaxHeaps } from './wasm-capacity.js';
import { openRuntimeNow, wasmRuntime, type WasmRuntime } from './wasm-runtime.js';

const heaps: WasmRuntime[] = [];

/** A heap for a segment, and how many elements of its size fit there beside the heap's other segments. */
export interface Placement {
  rt: WasmRuntime;
  room: number;
}

/** Makes sure the first heap is open (it loads the module, asynchronously), so that later ones open at once. */
export async function openFirstHeap(): Promise<void> {
  const first = await wasmRuntime();
  if (!heaps.includes(first)) heaps.push(first);
}

/** The heaps open now (tests, benches). */
export function heapCount(): number {
  dropDead();
  return heaps.length;
}

/** How many elements of this size the heaps could still take: the open ones' room and the ones not yet opened. */
export function totalRoom(dimension: number, M: number): number {
  dropDead();
  let sum = Math.max(0, wasmMaxHeaps() - heaps.length) * wasmMaxElements(dimension, M);
  for (const rt of heaps) sum += wasmMaxElements(dimension, M, rt.usedBytes(null));
  return sum;
}

/**
 * A heap for a segment of `want` elements (at least `least`), synchronously, not one of `tried`; null
 * when no heap has room for `least` and no new one may or can be opened.
 */
export function placeSegment(dimension: number, M: number, want: number, least: number, tried: ReadonlySet<WasmRuntime> = new Set()): Placement | null {
  dropDead();
  let best: Placement | null = null;
  for (const rt of heaps) {
    if (tried.has(rt)) continue;
    const room = wasmMaxElements(dimension, M, rt.usedBytes(null));
    if (room >= want) return { rt, room };
    if (best === null || room > best.room) best = { rt, room };
  }
  if (heaps.length < wasmMaxHeaps()) {
    const rt = openRuntimeNow();
    if (rt !== null) {
      heaps.push(rt);
      const room = wasmMaxElements(dimension, M, 0);
      if (room >= least) return { rt, room };
    }
  }
  return best !== null && best.room >= least ? best : null;
}

/** Heaps whose module aborted hold nothing usable: forgotten. */
function dropDead(): void {
  for (let i = heaps.length - 1; i >= 0; i--) if (heaps[i]!.fatal !== null) heaps.splice(i, 1);
}
