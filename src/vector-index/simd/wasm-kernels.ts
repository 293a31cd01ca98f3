/**
 * The WebAssembly SIMD scan kernels at run time: compiles the module embedded in kernels-wasm.ts once per
 * process and gives each FlatVectorStore a WasmRowMemory, its own growable WebAssembly.Memory holding
 * the store's rows (read in place by the kernels) followed by per-search scratch. No documents, no I/O.
 */
import { KERNELS_WASM_BASE64 } from './kernels-wasm.js';

/** Set to 1 to force the plain-JS kernels (read when a store is created). */
export const NO_SIMD_ENV = 'VECTORDB_NO_SIMD';

const PAGE = 65536;
/** wasm32 addresses 4 GiB: 65536 pages. */
const MAX_PAGES = 65536;

type DotRowsFn = (data: number, dim: number, q: number, rows: number, count: number, out: number) => void;
type SimilaritySumsFn = (data: number, dim: number, q: number, rows: number, count: number, out: number, euclidean: number) => void;

/** The part of the WebAssembly JS API used here (the project's lib has no DOM types). */
export interface WasmMemory {
  readonly buffer: ArrayBuffer;
  grow(pages: number): number;
}
interface WasmModule {
  readonly kind?: 'module';
}
interface WasmApi {
  validate(bytes: Uint8Array): boolean;
  Module: new (bytes: Uint8Array) => WasmModule;
  Instance: new (module: WasmModule, imports: { env: { memory: WasmMemory } }) => { exports: Record<string, unknown> };
  Memory: new (descriptor: { initial: number }) => WasmMemory;
}

const wasmApi = (globalThis as { WebAssembly?: WasmApi }).WebAssembly;

/** Compiled module, null when this engine cannot run it (no WebAssembly or no SIMD), undefined before the first try. */
let compiled: WasmModule | null | undefined;

function kernelModule(): WasmModule | null {
  if (compiled !== undefined) return compiled;
  compiled = null;
  if (wasmApi === undefined || typeof atob !== 'function') return null;
  const text = atob(KERNELS_WASM_BASE64);
  const bytes = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
  // An engine without SIMD rejects the module at validation: that is the feature test.
  if (!wasmApi.validate(bytes)) return null;
  try {
    compiled = new wasmApi.Module(bytes); // about 1 KiB: synchronous compile is allowed everywhere
  } catch {
    compiled = null;
  }
  return compiled;
}

function simdDisabled(): boolean {
  return typeof process !== 'undefined' && process.env?.[NO_SIMD_ENV] === '1';
}

/** True when the SIMD kernel runs on this engine and VECTORDB_NO_SIMD is not set. */
export function simdAvailable(): boolean {
  return !simdDisabled() && kernelModule() !== null;
}

/** Rounds up to a multiple of 16 (arithmetic, not bitwise: offsets pass 2^31). */
export const align16 = (n: number): number => Math.ceil(n / 16) * 16;

/**
 * A new memory of at least `bytes` with the kernels instantiated over it (another store's rows: simd/wasm-int8.ts),
 * or undefined when SIMD is unavailable or disabled, or the engine refuses the memory.
 */
export function kernelsOver(bytes: number): { memory: WasmMemory; exports: Record<string, unknown> } | undefined {
  const module = simdDisabled() ? null : kernelModule();
  if (wasmApi === undefined || module === null || pagesFor(bytes) > MAX_PAGES) return undefined;
  try {
    const memory = new wasmApi.Memory({ initial: pagesFor(bytes) });
    return { memory, exports: new wasmApi.Instance(module, { env: { memory } }).exports };
  } catch {
    return undefined;
  }
}

/** Grows `memory` to hold `bytes` (existing bytes stay); RangeError past 4 GiB or when the engine refuses. */
export function ensureBytes(memory: WasmMemory, bytes: number): void {
  const have = memory.buffer.byteLength / PAGE;
  const need = pagesFor(bytes);
  if (need > MAX_PAGES) throw new RangeError(`${bytes} bytes exceed the 4 GiB of a wasm32 memory`);
  if (need > have) memory.grow(need - have);
}

/**
 * One search's scratch after the rows: the query as float64 and as float32, the row list, and the dot
 * products. Views of the memory as it was when they were made (see WasmRowMemory.scratch).
 */
export interface ScanScratch {
  readonly q64: Float64Array;
  readonly q32: Float32Array;
  /** Room for `capacity` rows: the caller writes the rows to scan here. */
  readonly list: Uint32Array;
  /** The dot products, out[i] for list[i]. */
  readonly out: Float64Array;
  readonly capacity: number;
}

/**
 * Rows of `dim` float32 at byte 0 of a WebAssembly memory, then scratch for one search (ScanScratch).
 * Growing the memory detaches every view of the old buffer: `rows` and `scratch` re-create their views
 * whenever the buffer changed.
 */
export class WasmRowMemory {
  readonly dimension: number;
  private readonly memory: WasmMemory;
  private readonly kernel: DotRowsFn;
  private readonly kernelF32: DotRowsFn;
  private readonly sumsKernel: SimilaritySumsFn;
  private slots: number;
  private view: Float32Array;
  private scan: ScanScratch | undefined;

  private constructor(api: WasmApi, module: WasmModule, dimension: number, slots: number) {
    this.dimension = dimension;
    this.slots = slots;
    // No declared maximum: some engines reserve address space for it up front; MAX_PAGES is checked here.
    this.memory = new api.Memory({ initial: pagesFor(this.rowBytes()) });
    const instance = new api.Instance(module, { env: { memory: this.memory } });
    this.kernel = instance.exports.dotRows as DotRowsFn;
    this.kernelF32 = instance.exports.dotRowsF32 as DotRowsFn;
    this.sumsKernel = instance.exports.similaritySumsF32 as SimilaritySumsFn;
    this.view = new Float32Array(this.memory.buffer, 0, slots * dimension);
  }

  /**
   * Row memory for `slots` rows, or undefined when SIMD is unavailable or disabled, or the engine
   * refuses the memory (the caller then keeps its rows in a plain Float32Array).
   */
  static create(dimension: number, slots: number): WasmRowMemory | undefined {
    const module = simdDisabled() ? null : kernelModule();
    if (wasmApi === undefined || module === null || pagesFor(slots * dimension * 4) > MAX_PAGES) return undefined;
    try {
      return new WasmRowMemory(wasmApi, module, dimension, slots);
    } catch {
      return undefined;
    }
  }

  /** The rows, slots * dimension floats; a fresh view after any growth, so never keep it across calls. */
  get rows(): Float32Array {
    if (this.view.buffer !== this.memory.buffer) {
      this.view = new Float32Array(this.memory.buffer, 0, this.slots * this.dimension);
    }
    return this.view;
  }

  /** Room for `slots` rows: existing rows stay in place, new ones are zero. RangeError when the memory cannot grow. */
  reserve(slots: number): void {
    if (slots <= this.slots) return;
    this.ensureBytes(slots * this.dimension * 4);
    this.slots = slots;
    this.view = new Float32Array(this.memory.buffer, 0, slots * this.dimension);
    this.scan = undefined; // the scratch starts after the rows
  }

  /**
   * The scratch for a search of up to `count` rows (kept between searches: no allocation per query), or
   * undefined when the memory cannot grow for it. Valid until the next call of `scratch` or `reserve`.
   */
  scratch(count: number): ScanScratch | undefined {
    const scan = this.scan;
    if (scan !== undefined && scan.capacity >= count && scan.out.buffer === this.memory.buffer) return scan;
    const dim = this.dimension;
    // Grown by half again at least: a search a little larger than the last does not grow it each time.
    const capacity = Math.max(count, Math.ceil((scan?.capacity ?? 0) * 1.5), 256);
    const q64At = align16(this.rowBytes());
    const q32At = q64At + align16(dim * 8);
    const listAt = q32At + align16(dim * 4);
    const outAt = listAt + align16(capacity * 4);
    try {
      this.ensureBytes(outAt + capacity * 8);
    } catch {
      return undefined;
    }
    const buffer = this.memory.buffer;
    this.scan = {
      q64: new Float64Array(buffer, q64At, dim),
      q32: new Float32Array(buffer, q32At, dim),
      list: new Uint32Array(buffer, listAt, capacity),
      out: new Float64Array(buffer, outAt, capacity),
      capacity,
    };
    return this.scan;
  }

  /** scan.out[i] = scan.q64 . row(scan.list[i]) for i < count, in float64 (the exact ranking's). */
  dotScratch(scan: ScanScratch, count: number): void {
    this.kernel(0, this.dimension, scan.q64.byteOffset, scan.list.byteOffset, count, scan.out.byteOffset);
  }

  /**
   * scan.out[i] ~ scan.q32 . row(scan.list[i]) for i < count, in float32: at most
   * float32DotError(dim) * |q| * |row| (+ subnormal losses, see kernels.ts) from the float64 product.
   */
  dotScratchF32(scan: ScanScratch, count: number): void {
    this.kernelF32(0, this.dimension, scan.q32.byteOffset, scan.list.byteOffset, count, scan.out.byteOffset);
  }

  /**
   * out[i] = query . row(rows[i]) for i < count, by the SIMD kernel (float64). The result is a view into
   * the scratch, valid until the next call or growth; undefined when the scratch cannot be allocated (the
   * caller then runs the JS kernel over `rows`).
   */
  dotRows(query: Float64Array, rows: Uint32Array, count: number): Float64Array | undefined {
    const scan = this.scratch(count);
    if (scan === undefined) return undefined;
    scan.q64.set(query.subarray(0, this.dimension));
    scan.list.set(rows.subarray(0, count));
    this.dotScratch(scan, count);
    return scan.out.subarray(0, count);
  }

  /**
   * The float32 similarity sums of `query` against the rows `rows[i]` for i < count (similaritySumsF32 in
   * asm/kernels.ts): out[2i] and out[2i + 1]. A view into the scratch, valid until the next call or growth;
   * undefined when the scratch cannot be allocated (the caller then sums in JS).
   */
  similaritySums(query: Float32Array, rows: readonly number[], euclidean: boolean): Float64Array | undefined {
    const count = rows.length;
    const scan = this.scratch(2 * count);
    if (scan === undefined) return undefined;
    scan.q32.set(query);
    for (let i = 0; i < count; i++) scan.list[i] = rows[i]!;
    this.sumsKernel(0, this.dimension, scan.q32.byteOffset, scan.list.byteOffset, count, scan.out.byteOffset, euclidean ? 1 : 0);
    return scan.out.subarray(0, 2 * count);
  }

  private rowBytes(): number {
    return this.slots * this.dimension * 4;
  }

  private ensureBytes(bytes: number): void {
    ensureBytes(this.memory, bytes);
  }
}

function pagesFor(bytes: number): number {
  return Math.max(1, Math.ceil(bytes / PAGE));
}
