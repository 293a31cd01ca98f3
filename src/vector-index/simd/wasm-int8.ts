/**
 * The int8 rows of a quantized store (int8-rows.ts) in a WebAssembly memory of their own, scanned by the
 * dotRowsU8 SIMD kernel (asm/kernels.ts): codes at byte 0, then one search's scratch (the scaled query as
 * int16, the row list, the dot products). Growing the memory detaches every view: `codes`
 * and the scratch make theirs again whenever the buffer changed. No labels, no I/O.
 */
import { align16, ensureBytes, kernelsOver, type WasmMemory } from './wasm-kernels.js';

type DotRowsU8Fn = (data: number, dim: number, q: number, rows: number, count: number, out: number) => void;
type Scratch = { q: Int16Array; list: Uint32Array; out: Float64Array; capacity: number };

export class WasmCodeRows {
  readonly dimension: number;
  private readonly memory: WasmMemory;
  private readonly kernel: DotRowsU8Fn;
  private slots: number;
  private view: Uint8Array;
  private scan: Scratch | undefined;

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
   * out[i] ~ qs . codes(rows[i]) for i < count: `qs` scaled to int16 (the largest |value| to `qMax`), the
   * integer sums by the kernel, scaled back; false when the scratch cannot be allocated (the caller then sums
   * in JS). The rounding of `qs` costs about 1 / qMax of |qs| per dimension: an approximate ranking's error.
   */
  dots(qs: Float64Array, rows: Uint32Array, count: number, out: Float64Array): boolean {
    const scan = this.scratch(count);
    if (scan === undefined) return false;
    const dim = this.dimension;
    let largest = 0;
    for (let d = 0; d < dim; d++) largest = Math.max(largest, Math.abs(qs[d]!));
    // A lane sums dim / 4 products of at most 255 x |q|: they stay within int32.
    const qMax = Math.min(32767, Math.floor((2 ** 31 - 1) / (255 * Math.ceil(dim / 4))));
    const factor = largest > 0 ? qMax / largest : 0;
    for (let d = 0; d < dim; d++) scan.q[d] = Math.round(qs[d]! * factor);
    scan.list.set(rows.subarray(0, count));
    this.kernel(0, dim, scan.q.byteOffset, scan.list.byteOffset, count, scan.out.byteOffset);
    const unscale = factor > 0 ? 1 / factor : 0;
    for (let i = 0; i < count; i++) out[i] = scan.out[i]! * unscale;
    return true;
  }

  private scratch(count: number): Scratch | undefined {
    const scan = this.scan;
    if (scan !== undefined && scan.capacity >= count && scan.out.buffer === this.memory.buffer) return scan;
    const capacity = Math.max(count, Math.ceil((scan?.capacity ?? 0) * 1.5), 256);
    const qAt = align16(this.slots * this.dimension);
    const listAt = qAt + align16(this.dimension * 2);
    const outAt = listAt + align16(capacity * 4);
    try {
      ensureBytes(this.memory, outAt + capacity * 8);
    } catch {
      return undefined;
    }
    const buffer = this.memory.buffer;
    this.scan = { q: new Int16Array(buffer, qAt, this.dimension), list: new Uint32Array(buffer, listAt, capacity), out: new Float64Array(buffer, outAt, capacity), capacity };
    return this.scan;
  }
}
