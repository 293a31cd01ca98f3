/**
 * The hnswlib-wasm backend: the HnswDriver over a graph in segments and the factory that creates and
 * loads them. Each segment is one hnswlib-wasm index (wasm-segment.ts) in one 32-bit WebAssembly heap;
 * segment i holds the slots from its first slot up to the next segment's, under local labels (slot minus
 * its first slot). The last segment grows within its heap up to a quarter of a heap; past that, or when it
 * cannot, it keeps its size and a new segment opens in a heap with room (wasm-heaps.ts: another module
 * instance if need be; with one heap allowed, in the same heap). Searches ask
 * every segment and merge by distance; deletes and replaces go to the segment holding the slot.
 * Everything here is private to vector/; the engine sees only VectorIndex.
 */
import { HEADROOM, type HnswDriver, type HnswDriverFactory, type IndexIdentity, type SlotHits } from './backend-types.js';
import { concatBytes, type BackendBytes, type IndexHeader } from './index-format.js';
import type { PieceSink } from './index-types.js';
import { capacityError, wasmBytesPerElement, wasmCapacityAdvice, wasmMaxElements, wasmMaxHeaps } from './wasm-capacity.js';
import { heapCount, openFirstHeap, placeSegment, totalRoom } from './wasm-heaps.js';
import { OutOfMemory, wasmRuntime, type WasmRuntime } from './wasm-runtime.js';
import { frameOf, framedStart, readSegments } from './wasm-segment-file.js';
import { WasmSegment } from './wasm-segment.js';

/** A new segment is at least this share of a heap (unless less is asked for): no slivers of heaps. */
const LEAST_SHARE = 4;
/**
 * A segment grows in place (hnswlib reallocates it: old and new copy at once, and the heap keeps the
 * old pages) only up to this share of a heap; past it, a new segment as large as a heap allows follows,
 * whose pages cost memory only as they fill.
 */
const GROW_SHARE = 4;

// ---- the driver ---------------------------------------------------------------------------------

class WasmDriver implements HnswDriver {
  readonly library: string;
  /** Segments in slot order, and the first slot of each. */
  private readonly segments: WasmSegment[];
  private readonly bases: number[];
  /** The capacity HnswIndex knows: a grow that failed half-way may have left the last segment larger. */
  private cap: number;

  constructor(
    private readonly identity: IndexIdentity,
    segments: WasmSegment[],
    bases: number[],
  ) {
    this.segments = segments;
    this.bases = bases;
    this.library = segments[0]!.rt.library;
    this.cap = this.lastBase() + this.last().maxElements;
  }

  count(): number {
    let sum = 0;
    for (const s of this.segments) sum += s.count();
    return sum;
  }

  capacity(): number {
    return this.cap;
  }

  capacityLimit(): number {
    const { dimension, params } = this.identity;
    const last = this.last();
    const inLast = Math.max(last.maxElements, wasmMaxElements(dimension, params.M, last.rt.usedBytes(last)));
    const newHeaps = Math.max(0, wasmMaxHeaps() - heapCount()) * (wasmMaxElements(dimension, params.M) - HEADROOM);
    return this.lastBase() + inLast + newHeaps;
  }

  capacityAdvice(): string {
    return wasmCapacityAdvice(this.identity.dimension, this.identity.params.M);
  }

  tryResize(n: number): boolean {
    const last = this.last();
    const want = n - this.lastBase();
    const { dimension, params } = this.identity;
    const growable = Math.min(wasmMaxElements(dimension, params.M, last.rt.usedBytes(last)), Math.ceil(wasmMaxElements(dimension, params.M) / GROW_SHARE));
    if (want <= last.maxElements || (want <= growable && last.tryResize(want))) {
      this.cap = n;
      return true;
    }
    // The last segment is as large as it grows: new segments follow it.
    const made = openSegments(this.identity, this.lastBase() + last.maxElements - HEADROOM, n);
    if (made === null) return false;
    this.segments.push(...made.segments);
    this.bases.push(...made.bases);
    this.cap = n;
    return true;
  }

  addFresh(vectors: Float32Array, rows: readonly number[], slots: readonly number[]): void {
    for (let i = 0; i < slots.length; ) {
      const seg = this.segmentOf(slots[i] as number);
      const end = this.bases[seg + 1] ?? Infinity;
      let j = i + 1;
      while (j < slots.length && slots[j] === (slots[j - 1] as number) + 1 && (slots[j] as number) < end) j++;
      this.segments[seg]!.addRows(vectors, rows, i, j, (slots[i] as number) - this.bases[seg]!);
      i = j;
    }
  }

  replaceDeleted(slot: number, vectors: Float32Array, row: number): void {
    const seg = this.segmentOf(slot);
    this.segments[seg]!.replaceDeleted(slot - this.bases[seg]!, vectors, row);
  }

  markDeleted(slots: readonly number[]): void {
    const local = this.segments.map((): number[] => []);
    for (const slot of slots) {
      const seg = this.segmentOf(slot);
      local[seg]!.push(slot - this.bases[seg]!);
    }
    local.forEach((labels, seg) => {
      if (labels.length > 0) this.segments[seg]!.markDeleted(labels);
    });
  }

  search(query: Float32Array, k: number, ef: number, filter: ((slot: number) => boolean) | undefined): SlotHits {
    if (this.segments.length === 1) {
      const r = this.segments[0]!.search(query, k, ef, filter);
      return { slots: r.neighbors, distances: r.distances };
    }
    const slots: number[] = [];
    const distances: number[] = [];
    this.segments.forEach((segment, seg) => {
      const kk = Math.min(k, segment.count());
      if (kk === 0) return;
      const base = this.bases[seg]!;
      const r = segment.search(query, kk, Math.max(ef, kk), filter === undefined ? undefined : (label) => filter(label + base));
      for (let i = 0; i < r.neighbors.length; i++) {
        slots.push((r.neighbors[i] as number) + base);
        distances.push(r.distances[i] as number);
      }
    });
    const order = slots.map((_, i) => i).sort((a, b) => (distances[a] as number) - (distances[b] as number));
    order.length = Math.min(order.length, k);
    return { slots: order.map((i) => slots[i] as number), distances: order.map((i) => distances[i] as number) };
  }

  async save(onWritten: () => void): Promise<Uint8Array> {
    if (this.segments.length === 1) return this.segments[0]!.save(onWritten);
    const pieces: Uint8Array[] = [];
    await this.saveTo(async (piece) => void pieces.push(piece), onWritten, () => undefined);
    return concatBytes(pieces);
  }

  /**
   * One segment at a time: each segment's bytes go to the sink (framed, wasm-segment-file.ts) before the
   * next segment is written, so that the graph's bytes are never all held at once. HnswIndex refuses
   * changes until `onRead`: the segments are of one graph. The last segment's bytes are out of the heap
   * when it runs.
   */
  async saveTo(sink: PieceSink, onWritten: () => void, onRead: () => void): Promise<number> {
    const last = this.segments.length - 1;
    if (last === 0) {
      const bytes = await this.segments[0]!.save(onWritten);
      onRead();
      await sink(bytes);
      return bytes.length;
    }
    const start = framedStart(this.segments.length);
    await sink(start);
    let length = start.length;
    // Taken now: once onRead ran, segments may grow and new ones open.
    const entries = this.segments.map((s, i) => ({ base: this.bases[i]!, maxElements: s.maxElements, holds: i < last ? this.bases[i + 1]! - this.bases[i]! : s.count() }));
    const segments = this.segments.slice();
    for (let i = 0; i <= last; i++) {
      const bytes = await segments[i]!.save(i === last ? onWritten : () => undefined);
      if (i === last) onRead();
      const frame = await frameOf(entries[i]!, bytes);
      await sink(frame);
      await sink(bytes);
      length += frame.length + bytes.length;
    }
    return length;
  }

  /** How many segments the graph spans (serialized in the index header). */
  segmentCount(): number {
    return this.segments.length;
  }

  dispose(): void {
    for (const s of this.segments) s.dispose();
  }

  private last(): WasmSegment {
    return this.segments[this.segments.length - 1]!;
  }

  private lastBase(): number {
    return this.bases[this.bases.length - 1]!;
  }

  /** The segment holding `slot` (a graph has a few segments: scanned from the last, where most adds go). */
  private segmentOf(slot: number): number {
    let seg = this.bases.length - 1;
    while (seg > 0 && (this.bases[seg] as number) > slot) seg--;
    return seg;
  }
}

// ---- placing segments in heaps ------------------------------------------------------------------

/**
 * New segments for the slots from `base` up to a capacity of at least `n` (the last with HEADROOM), each in
 * a heap with room; null (none kept) when some cannot be had. Synchronous: a grow in the middle of an add.
 * A graph that filled a heap is likely to go on growing: a new segment takes what a heap can hold, not
 * `n`, since growing it later reallocates (old and new copy at once, and a wasm heap never gives memory
 * back); the pages it does not use yet cost address space, not memory.
 */
function openSegments(identity: IndexIdentity, base: number, n: number): { segments: WasmSegment[]; bases: number[] } | null {
  const segments: WasmSegment[] = [];
  const bases: number[] = [];
  const wholeHeap = wasmMaxElements(identity.dimension, identity.params.M);
  try {
    while (bases.length === 0 || base + HEADROOM < n) {
      const made = segmentNow(identity, Math.max(n - base, wholeHeap), n - base);
      if (made === null) break;
      segments.push(made);
      bases.push(base);
      base += made.maxElements - HEADROOM;
    }
  } finally {
    if (base + HEADROOM < n || segments.length === 0) for (const s of segments.splice(0)) s.dispose();
  }
  return segments.length === 0 ? null : { segments, bases };
}

/**
 * One new empty segment for up to `want` elements (less when no heap has that much room, down to a share
 * of a heap or `need`), or null.
 */
function segmentNow(identity: IndexIdentity, want: number, need = want): WasmSegment | null {
  const { dimension, params } = identity;
  const least = Math.min(need, Math.ceil(wasmMaxElements(dimension, params.M) / LEAST_SHARE));
  const perElement = wasmBytesPerElement(dimension, params.M);
  const tried = new Set<WasmRuntime>();
  for (let attempt = 0; attempt < 2; attempt++) {
    const placed = placeSegment(dimension, params.M, want, least, tried);
    if (placed === null) return null;
    // Planned room, but a heap that held other blocks may not have it in one piece: halve down to `least`.
    for (let size = Math.min(want, placed.room); ; size = Math.max(least, Math.floor(size / 2))) {
      try {
        return WasmSegment.create(placed.rt, identity, size, perElement);
      } catch (e) {
        if (!(e instanceof OutOfMemory)) throw e;
        if (size <= least) break;
      }
    }
    tried.add(placed.rt); // then another heap
  }
  return null;
}

export const wasmDriverFactory: HnswDriverFactory = {
  async create(identity: IndexIdentity, capacity: number): Promise<HnswDriver> {
    await openFirstHeap();
    const { dimension, params } = identity;
    const room = totalRoom(dimension, params.M);
    // More than the heaps could ever take is refused now; less grows into segments as it fills.
    const segment = capacity > room ? null : segmentNow(identity, capacity);
    if (segment === null) throw capacityError(identity, room, `preallocating ${capacity} vectors does not fit the heaps`, await libraryName());
    return new WasmDriver(identity, [segment], [0]);
  },

  async load(identity: IndexIdentity, stored: BackendBytes, capacity: number, header: IndexHeader): Promise<HnswDriver> {
    await openFirstHeap();
    const { dimension, params } = identity;
    const perElement = wasmBytesPerElement(dimension, params.M);
    const segments: WasmSegment[] = [];
    const bases: number[] = [];
    try {
      // One segment's bytes at a time: each is in its heap before the next is read.
      for await (const part of readSegments(stored, header)) {
        // A full segment comes back as it was; the last with room for `capacity` where its heap allows.
        const holds = part.last ? header.slots - part.base : (part.holds as number);
        const least = Math.max(holds + HEADROOM, part.maxElements);
        const want = part.last ? Math.max(least, capacity - part.base, header.capacity - part.base) : least;
        segments.push(await loadSegment(identity, part.bytes, want, least, perElement, header));
        bases.push(part.base);
      }
    } catch (e) {
      for (const s of segments) s.dispose();
      throw e;
    }
    return new WasmDriver(identity, segments, bases);
  },
};

async function loadSegment(identity: IndexIdentity, bytes: Uint8Array, want: number, least: number, perElement: number, header: IndexHeader): Promise<WasmSegment> {
  const { dimension, params } = identity;
  const tried = new Set<WasmRuntime>();
  for (let attempt = 0; attempt < 2; attempt++) {
    const placed = placeSegment(dimension, params.M, want, least, tried);
    if (placed === null) break;
    try {
      return await WasmSegment.load(placed.rt, identity, bytes, Math.min(want, placed.room), perElement);
    } catch (e) {
      if (!(e instanceof OutOfMemory)) throw e;
      tried.add(placed.rt);
    }
  }
  throw capacityError(identity, totalRoom(dimension, params.M), `loading ${header.slots} vectors: no heap has room for a segment of ${least}`, await libraryName());
}

async function libraryName(): Promise<string> {
  return (await wasmRuntime()).library;
}

/** For tests: the module's recent printf output (never written anywhere). */
export async function wasmModuleOutput(): Promise<readonly string[]> {
  return (await wasmRuntime()).tail.slice();
}
