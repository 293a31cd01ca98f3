/**
 * The int8 rows of a quantized FlatVectorStore (flat-store.ts): one byte a dimension per row, coded with a
 * per-dimension scale trained once from the first vectors stored (Int8Scale) and kept, and the approximate
 * dot products of a query with a list of rows, which rank the candidates that exact float32 rescoring
 * (exact-rescore.ts) then orders. Owns only its bytes; no labels, no I/O. The scale and the coding are
 * also those of the native addon's int8 rows (native-rows.ts).
 */
import { VectorDbError } from '../errors/vectordb-error.js';
import { WasmCodeRows } from './simd/wasm-int8.js';

/** Codes run 0..255: value = lo + step x code. */
const LEVELS = 255;

/**
 * Per dimension, the lowest value and the step between codes: trained from the range of the first vectors
 * (min to max of each dimension), then frozen, so that every code ever written means the same value.
 * A later value outside the trained range is clamped to its end: its approximate score is then off, which
 * can only cost it a place in the shortlist (the exact rescoring decides the order among those kept).
 */
export class Int8Scale {
  readonly lo: Float32Array;
  readonly step: Float32Array;

  private constructor(lo: Float32Array, step: Float32Array) {
    this.lo = lo;
    this.step = step;
  }

  get dimension(): number {
    return this.lo.length;
  }

  /** Trains from `count` rows of `rows` (row-major, `dimension` values each) found at `offsets` (value offsets). */
  static train(dimension: number, rows: Float32Array, offsets: ArrayLike<number>, count: number): Int8Scale {
    const lo = new Float32Array(dimension).fill(Infinity);
    const hi = new Float32Array(dimension).fill(-Infinity);
    for (let i = 0; i < count; i++) {
      const at = offsets[i] as number;
      for (let d = 0; d < dimension; d++) {
        const v = rows[at + d] as number;
        if (v < (lo[d] as number)) lo[d] = v;
        if (v > (hi[d] as number)) hi[d] = v;
      }
    }
    const step = new Float32Array(dimension);
    for (let d = 0; d < dimension; d++) {
      if (!(lo[d]! <= hi[d]!)) lo[d] = 0; // no rows: an empty range
      // A constant dimension keeps a unit step: every row codes 0 there, exactly its value.
      step[d] = hi[d]! > lo[d]! ? (hi[d]! - lo[d]!) / LEVELS : 1;
    }
    return new Int8Scale(lo, step);
  }

  /** The scale as stored: lo then step, float32 little-endian (2 x dimension values). */
  toBytes(): Uint8Array {
    const out = new Float32Array(2 * this.dimension);
    out.set(this.lo, 0);
    out.set(this.step, this.dimension);
    return new Uint8Array(out.buffer);
  }

  /** The scale of toBytes, or undefined when `bytes` is not one of this dimension. */
  static fromBytes(bytes: Uint8Array, dimension: number): Int8Scale | undefined {
    if (bytes.byteLength !== 8 * dimension) return undefined;
    const values = new Float32Array(2 * dimension);
    new Uint8Array(values.buffer).set(bytes); // copied: the value's offset need not be float-aligned
    const step = values.slice(dimension);
    if (step.some((s) => !(s > 0) || !Number.isFinite(s))) return undefined;
    return new Int8Scale(values.slice(0, dimension), step);
  }
}

const EMPTY = new Uint8Array(0);

/**
 * The code rows of a store, growable; row r's codes are bytes [r x dimension, (r + 1) x dimension): in a
 * WebAssembly memory scanned by the SIMD kernel (simd/wasm-int8.ts), or a plain array scanned in JS.
 */
export class Int8Rows {
  readonly scale: Int8Scale;
  private wasm: WasmCodeRows | undefined;
  /** The codes when they live in a plain array; unused while `wasm` holds them. */
  private plain: Uint8Array;
  private slots: number;
  /** Values clamped since open (stats: how far the data has drifted from the trained range). */
  clamped = 0;

  constructor(scale: Int8Scale, slots: number) {
    this.scale = scale;
    this.slots = slots;
    this.wasm = WasmCodeRows.create(scale.dimension, slots);
    this.plain = this.wasm === undefined ? allocateCodes(slots, scale.dimension) : EMPTY;
  }

  /** Which kernel scans the codes: 'wasm-simd', or 'js' (no SIMD, VECTORDB_NO_SIMD=1, or the memory could not grow). */
  get kernel(): 'wasm-simd' | 'js' {
    return this.wasm === undefined ? 'js' : 'wasm-simd';
  }

  /** The codes' current view (a WebAssembly memory's views are re-created after it grows). */
  private get codes(): Uint8Array {
    return this.wasm === undefined ? this.plain : this.wasm.codes;
  }

  /**
   * Rows trained on and coded from float32 `rows`: those of the first `used` where `present` is 1 (a store's
   * float32 rows when it has stored enough to train), with room for `slots`.
   */
  static trainedOn(dimension: number, rows: Float32Array, present: Uint8Array, used: number, slots: number): Int8Rows {
    const offsets: number[] = [];
    for (let row = 0; row < used; row++) if (present[row] === 1) offsets.push(row * dimension);
    const int8 = new Int8Rows(Int8Scale.train(dimension, rows, offsets, offsets.length), slots);
    for (const offset of offsets) int8.encode(offset / dimension, rows, offset);
    return int8;
  }

  /** Bytes held by the codes. */
  get bytes(): number {
    return this.slots * this.scale.dimension;
  }

  /** Codes `dimension` values of `values` from `offset` into `row`. */
  encode(row: number, values: ArrayLike<number>, offset = 0): void {
    const { lo, step } = this.scale;
    const dim = lo.length;
    const codes = this.codes;
    const at = row * dim;
    for (let d = 0; d < dim; d++) {
      const q = Math.round(((values[offset + d] as number) - lo[d]!) / step[d]!);
      if (q < 0 || q > LEVELS) this.clamped++;
      codes[at + d] = q < 0 ? 0 : q > LEVELS ? LEVELS : q;
    }
    // The native addon codes its int8 rows with this formula too (native/src/row_store.h codeOf: float64,
    // halves rounded up, clamped), tested code for code in test/vector-index/native-int8.test.ts.
  }

  /** A copy of a row's codes. */
  codesOf(row: number): Uint8Array {
    const dim = this.scale.dimension;
    return this.codes.slice(row * dim, (row + 1) * dim);
  }

  grow(slots: number): void {
    if (slots <= this.slots) return;
    if (this.wasm !== undefined) {
      try {
        this.wasm.reserve(slots); // in place: no copy
        this.slots = slots;
        return;
      } catch {
        // The engine refused the memory: the codes move to a plain array, scanned in JS from now on.
        this.plain = allocateCodes(slots, this.scale.dimension);
        this.plain.set(this.wasm.codes);
        this.wasm = undefined;
        this.slots = slots;
        return;
      }
    }
    const next = allocateCodes(slots, this.scale.dimension);
    next.set(this.plain);
    this.plain = next;
    this.slots = slots;
  }

  /**
   * The approximate dot product of `query` with each of the first `count` rows of `rows`, into `out`:
   * q . (lo + step x code) = q . lo + (q x step) . code, the first term once per query.
   */
  dots(query: ArrayLike<number>, rows: Uint32Array, count: number, out: Float64Array): void {
    const { lo, step } = this.scale;
    const dim = lo.length;
    const qs = new Float64Array(dim);
    let base = 0;
    for (let d = 0; d < dim; d++) {
      const q = query[d] as number;
      qs[d] = q * step[d]!;
      base += q * lo[d]!;
    }
    if (this.wasm?.dots(qs, rows, count, out) === true) {
      for (let i = 0; i < count; i++) out[i] += base;
      return;
    }
    const codes = this.codes;
    for (let i = 0; i < count; i++) {
      const at = (rows[i]! * dim) | 0;
      // Four sums: shorter dependency chains for the JIT (about 1.6x a single sum at 384 dims).
      let s0 = 0;
      let s1 = 0;
      let s2 = 0;
      let s3 = 0;
      let d = 0;
      for (const end4 = dim - (dim & 3); d < end4; d += 4) {
        s0 += qs[d]! * codes[at + d]!;
        s1 += qs[d + 1]! * codes[at + d + 1]!;
        s2 += qs[d + 2]! * codes[at + d + 2]!;
        s3 += qs[d + 3]! * codes[at + d + 3]!;
      }
      for (; d < dim; d++) s0 += qs[d]! * codes[at + d]!;
      out[i] = base + (s0 + s1 + (s2 + s3));
    }
  }
}

function allocateCodes(slots: number, dimension: number): Uint8Array {
  try {
    return new Uint8Array(slots * dimension);
  } catch (cause) {
    throw VectorDbError.of('VECTOR_INDEX_CAPACITY', { backend: 'exact-scan (int8)', collection: '', max: slots - 1, dimension, reason: `allocating ${slots} int8 rows failed (${String(cause)})` }, { cause });
  }
}
