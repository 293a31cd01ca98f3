/**
 * The int8 rows of a quantized store (int8-rows.ts) in a WebAssembly memory of their own, scanned by the
 * dotRowsU8 SIMD kernel (asm/kernels.ts): codes at byte 0, then one search's scratch (the scaled query as
 * float32, the row list, the approximate dot products). Growing the memory detaches every view: `codes`
 * and the scratch make theirs again whenever the buffer changed. No labels, no I/O.
 */
import { align16, ensureBytes, kernelsOver, type WasmMemory } from './wasm-kernels.js';

type DotRowsU8Fn = (data: number, dim: number, q: number, rows: number, count: number, out: number) => void;

export class WasmCodeRows {
  readonly dimension: number;
  private readonly memory: WasmMemory;
  private readonly kernel: DotRowsU8Fn;
  private slots: number;
  private view: Uint8Array;
  private scan: { q: Float32Array; list: Uint32Array; out: Float64Array; capacity: number } | undefined;

  private constructor(memory: WasmMemory, kernel: DotRowsU8Fn, dimension: number, slots: number) {
    this.memory = memory;
    this.kernel = kernel;
    this.dimension = dimension;
    this.slots = slots;
    this.view = new Uint8Array(memory.buffer, 0, slots * dimension);
  }

  /** Code rows for `slots` rows, or undefined where the SIMD kernels do not run (the caller keeps a plain array). */
  static create(dimension: number, slots: number): WasmCodeRows | undefined {
    const made = kernelsOver(slots * dimension);
    const kernel = made?.exports.dotRowsU8 as DotRowsU8Fn | undefined;
    return made === undefined || kernel === undefined ? undefined : new WasmCodeRows(made.memory, kernel, dimension, slots);
  }

  /** The codes, slots * dimension bytes; a fresh view after any growth, so never keep it across calls. */
  get codes(): Uint8Array {
    if (this.view.buffer !== this.memory.buffer) this.view = new Uint8Array(this.memory.buffer, 0, this.slots * this.dimension);
    return this.view;
  }

  /** Room for `slots` rows (existing ones stay); RangeError when the memory cannot grow. */
  reserve(slots: number): void {
    if (slots <= this.slots) return;
    ensureBytes(this.memory, slots * this.dimension);
    this.slots = slots;
    this.view = new Uint8Array(this.memory.buffer, 0, slots * this.dimension);
    this.scan = undefined; // the scratch starts after the rows
  }

  /**
   * out[i] = qs . codes(rows[i]) for i < count, summed in float32 by the kernel; false when the scratch
   * cannot be allocated (the caller then sums in JS).
   */
  dots(qs: Float64Array, rows: Uint32Array, count: number, out: Float64Array): boolean {
    const scan = this.scratch(count);
    if (scan === undefined) return false;
    scan.q.set(qs);
    scan.list.set(rows.subarray(0, count));
    this.kernel(0, this.dimension, scan.q.byteOffset, scan.list.byteOffset, count, scan.out.byteOffset);
    out.set(scan.out.subarray(0, count));
    return true;
  }

  private scratch(count: number): { q: Float32Array; list: Uint32Array; out: Float64Array; capacity: number } | undefined {
    const scan = this.scan;
    if (scan !== undefined && scan.capacity >= count && scan.out.buffer === this.memory.buffer) return scan;
    const capacity = Math.max(count, Math.ceil((scan?.capacity ?? 0) * 1.5), 256);
    const qAt = align16(this.slots * this.dimension);
    const listAt = qAt + align16(this.dimension * 4);
    const outAt = listAt + align16(capacity * 4);
    try {
      ensureBytes(this.memory, outAt + capacity * 8);
    } catch {
      return undefined;
    }
    const buffer = this.memory.buffer;
    this.scan = { q: new Float32Array(buffer, qAt, this.dimension), list: new Uint32Array(buffer, listAt, capacity), out: new Float64Array(buffer, outAt, capacity), capacity };
    return this.scan;
  }
}
