/**
 * FlatVectorStore: vectors kept as rows of one growable contiguous Float32Array, with squared norms, and
 * exact top-k search over all of them or over a candidate list of labels. A label maps to its row and a
 * deleted label's row is reused by the next one stored (that bookkeeping: FlatRowTable, flat-row-table.ts),
 * so the rows track the live vectors, not the labels ever used (a collection never reuses a label: churn
 * would grow them forever).
 * Used for exact scans of small filtered candidate sets. Owns only its arrays; no documents, no I/O.
 * The rows live in a WebAssembly memory scanned by the SIMD kernel, or in a plain array (JS kernels),
 * sized within the limits of flat-rows.ts. Quantized ('int8'), the rows are int8 codes (int8-rows.ts) once
 * the first vectors trained their scale: a scan ranks on the codes and rescores a shortlist exactly from
 * float32 values read through the store's ExactReader (exact-rescore.ts); no float32 copy is held.
 */
import { VectorDbError } from '../errors/vectordb-error.js';
import { dotRows, selectTopK, squaredNorm, type ScoredRow } from './kernels.js';
import { allocate, checkSlots } from './flat-rows.js';
import { float32DotError, shortlistCosine, shortlistTopK } from './shortlist.js';
import { float32Similarity, float32SimilarityOfSums, float32SquaredNorm, type Metric } from './metric.js';
import { WasmRowMemory, type ScanScratch } from './simd/wasm-kernels.js';
import { FlatRowTable } from './flat-row-table.js';
import { checkDimension, checkLabel, checkVector } from './validate.js';
import { Int8Rows, type Int8Scale } from './int8-rows.js';
import { approximateShortlist, bestFirstAsDecimals, ExactValues, exactTopK, type ExactReader, type ScoredLabel } from './exact-rescore.js';
import type { VectorRows } from './vector-rows.js';

/** How a store holds its rows: float32 ('none'), or int8 codes with exact rescoring ('int8'). */
export type Quantization = 'none' | 'int8';

export interface FlatVectorStoreOptions {
  dimension: number;
  metric: Metric;
  /** Initial number of rows; the store grows by 1.5x as live vectors need. Default 64. */
  capacity?: number;
  /** 'int8': rows become int8 codes once INT8_TRAINING_ROWS vectors trained the scale (or at once with `scale`). */
  quantization?: Quantization;
  /** Where the exact float32 values of stored labels are read (required with 'int8'). */
  exact?: ExactReader;
  /** A scale trained before (kept by the engine): the codes mean what they meant before a reopen. */
  scale?: Int8Scale;
  /** Called once, when this store trains its scale (the engine keeps it). */
  onTrained?: (scale: Int8Scale) => void;
}

/** An int8 store holds float32 rows until this many vectors are stored, then trains its scale from them. */
export const INT8_TRAINING_ROWS = 1024;

const EMPTY = new Float32Array(0);

export class FlatVectorStore implements VectorRows {
  readonly dimension: number;
  readonly metric: Metric;
  /** The rows when they live in a plain array; unused while `wasm` holds them. */
  private data: Float32Array;
  /** The rows' WebAssembly memory, or undefined on the JS path (no SIMD, VECTORDB_NO_SIMD=1, or it could not grow). */
  private wasm: WasmRowMemory | undefined;
  /** Which row holds which label, the rows' norms, and the rows freed for reuse. */
  private readonly table: FlatRowTable;
  private readonly quantization: Quantization;
  /** The int8 codes, once trained: then `data` is empty and `wasm` undefined. */
  private int8: Int8Rows | undefined;
  /** Where an int8 store reads its exact values (undefined in a float32 store). */
  private readonly exact: ExactValues | undefined;
  private readonly onTrained: ((scale: Int8Scale) => void) | undefined;
  /** Values coded into int8 rows since open: at training, loading and every write since (stats). */
  private coded = 0;

  constructor(options: FlatVectorStoreOptions) {
    checkDimension(options.dimension);
    this.dimension = options.dimension;
    this.metric = options.metric;
    const slots = Math.max(1, Math.floor(options.capacity ?? 64));
    checkSlots(slots, this.dimension);
    this.quantization = options.quantization ?? 'none';
    if (this.quantization === 'int8' && options.exact === undefined) throw new TypeError('an int8 FlatVectorStore needs an exact reader');
    this.exact = options.exact === undefined ? undefined : new ExactValues(options.exact);
    this.onTrained = options.onTrained;
    const scale = this.quantization === 'int8' ? options.scale : undefined;
    this.int8 = scale === undefined ? undefined : new Int8Rows(scale, slots);
    this.wasm = this.int8 === undefined ? WasmRowMemory.create(this.dimension, slots) : undefined;
    this.data = this.wasm === undefined && this.int8 === undefined ? allocate(slots, this.dimension) : EMPTY;
    this.table = new FlatRowTable(slots);
  }

  /** Number of stored vectors. */
  get size(): number {
    return this.table.size;
  }

  /** @internal Which kernel scans this store: 'wasm-simd', 'js' (the fallback), or 'int8' (codes, then exact rescoring). */
  get kernel(): 'wasm-simd' | 'js' | 'int8' {
    return this.int8 !== undefined ? 'int8' : this.wasm === undefined ? 'js' : 'wasm-simd';
  }

  /** The trained int8 scale (undefined until trained, and in a float32 store). */
  get scale(): Int8Scale | undefined {
    return this.int8?.scale;
  }

  get rowsAs(): 'float32' | 'int8' {
    return this.int8 !== undefined ? 'int8' : 'float32';
  }

  /** Bytes of the rows in use: int8 codes or float32 values (stats; NativeRowStore counts the same way). */
  get rowBytes(): number {
    return this.table.used * this.dimension * (this.int8 !== undefined ? 1 : 4);
  }

  /** Values coded into int8 rows since open (stats). */
  get codedValues(): number {
    return this.coded;
  }

  /** Of those, the values outside the trained range, clamped (int8; stats). */
  get clampedValues(): number {
    return this.int8?.clamped ?? 0;
  }

  /** Number of rows allocated. */
  get capacity(): number {
    return this.table.slots;
  }

  /** Rows ever written (live ones plus those freed for reuse): what is resident. */
  get rowsUsed(): number {
    return this.table.used;
  }

  has(label: number): boolean {
    return this.table.has(label);
  }

  /** Stores (or replaces) the vector of a label. */
  set(label: number, vector: ArrayLike<number>): void {
    checkLabel(label);
    const sq = checkVector(vector, this.dimension, this.metric);
    const row = this.table.rowOf(label) ?? this.takeRow();
    if (this.int8 !== undefined) {
      this.int8.encode(row, vector);
      this.coded += this.dimension;
    } else this.rows().set(vector, row * this.dimension);
    this.exact?.forget(label);
    this.table.markStored(label, row, sq);
    this.trainIfDue();
  }

  /** A row for a new label: a freed one, else the next never used (growing when none is left). */
  private takeRow(): number {
    const table = this.table;
    if (table.freeCount === 0 && table.used >= table.slots) this.grow(table.used + 1);
    return table.takeRow();
  }

  /**
   * Stores many vectors at once: row i of `values` is the vector of `labels[i]` (labels ascending).
   * Every row is checked before any is stored; runs of consecutive labels are copied in one piece
   * (loading a collection: 100k single-row copies cost more than the bytes they move).
   */
  setRows(labels: ArrayLike<number>, values: Float32Array): void {
    const dim = this.dimension;
    const n = labels.length;
    if (values.length !== n * dim) throw VectorDbError.of('UNEXPECTED_SERVER_ERROR', { reason: `setRows: ${n} labels but ${values.length / dim} rows` });
    if (n === 0) return;
    const norms = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      const label = labels[i] as number;
      checkLabel(label);
      if (i > 0 && label <= (labels[i - 1] as number)) throw VectorDbError.of('UNEXPECTED_SERVER_ERROR', { reason: 'setRows: labels must ascend' });
      norms[i] = checkVector(values, dim, this.metric, 'vector', i * dim, false);
    }
    const table = this.table;
    const fresh = n - table.freeCount; // at most this many rows past `used`
    if (table.used + fresh > table.slots) this.grow(table.used + fresh);
    const at = new Uint32Array(n);
    for (let i = 0; i < n; i++) at[i] = table.rowOf(labels[i] as number) ?? this.takeRow();
    const int8 = this.int8;
    if (int8 !== undefined) {
      for (let i = 0; i < n; i++) int8.encode(at[i] as number, values, i * dim);
      this.coded += n * dim;
    } else {
      const rows = this.rows();
      for (let i = 0; i < n; ) {
        let j = i + 1;
        while (j < n && at[j] === (at[j - 1] as number) + 1) j++;
        rows.set(values.subarray(i * dim, j * dim), (at[i] as number) * dim);
        i = j;
      }
    }
    for (let i = 0; i < n; i++) {
      this.exact?.forget(labels[i] as number);
      table.markStored(labels[i] as number, at[i] as number, norms[i] as number);
    }
    this.trainIfDue();
  }

  /**
   * An int8 store with INT8_TRAINING_ROWS vectors and no scale yet: trains it from the float32 rows, codes
   * every row and lets the float32 rows go (the WebAssembly memory with them).
   */
  private trainIfDue(): void {
    const table = this.table;
    if (this.quantization !== 'int8' || this.int8 !== undefined || table.size < INT8_TRAINING_ROWS) return;
    const int8 = Int8Rows.trainedOn(this.dimension, this.rows(), table.present, table.used, table.slots);
    this.coded += table.size * this.dimension;
    this.int8 = int8;
    this.wasm = undefined;
    this.data = EMPTY;
    this.onTrained?.(int8.scale);
  }

  /** A copy of a label's vector, or undefined (int8: its exact values, read). */
  get(label: number): Float32Array | undefined {
    const row = this.table.rowOf(label);
    if (row === undefined) return undefined;
    if (this.int8 !== undefined) return this.exact!.one(label)?.slice();
    const start = row * this.dimension;
    return this.rows().slice(start, start + this.dimension);
  }

  /** Copies a label's vector into `target` at `offset` (no allocation); false when it has none. */
  copyInto(label: number, target: Float32Array, offset: number): boolean {
    const row = this.table.rowOf(label);
    if (row === undefined) return false;
    if (this.int8 !== undefined) {
      const values = this.exact!.one(label);
      if (values === undefined) return false;
      target.set(values, offset);
      return true;
    }
    const start = row * this.dimension;
    target.set(this.rows().subarray(start, start + this.dimension), offset);
    return true;
  }

  /**
   * The `k` best of `labels` (stored ones; each once) by exact score, best first, with exactSearch's
   * ranking scores: the rescoring step of any approximate ranking (the int8 scan here, a quantized graph's
   * candidates in the engine).
   */
  exactTopOf(query: ArrayLike<number>, labels: readonly number[], k: number): ScoredLabel[] {
    checkVector(query, this.dimension, this.metric, 'query vector');
    const stored = labels.filter((label) => this.has(label));
    const read: ExactReader = this.int8 !== undefined ? this.exact!.shortlist : (wanted) => wanted.map((label) => this.get(label));
    return exactTopK(this.metric, query, stored, k, read);
  }

  delete(label: number): boolean {
    if (!this.table.delete(label)) return false;
    this.exact?.forget(label);
    return true;
  }

  /** The stored labels, ascending. */
  *labels(): IterableIterator<number> {
    yield* this.table.labels();
  }

  /**
   * The k labels closest to `query` with their Data API scores, best first (ties: smaller label).
   * With `candidates`, only those labels are scanned (absent and repeated ones are skipped).
   */
  exactSearch(query: ArrayLike<number>, k: number, candidates?: Iterable<number>): ScoredLabel[] {
    checkVector(query, this.dimension, this.metric, 'query vector');
    const count = this.table.size;
    if (!(k >= 1) || count === 0) return [];
    const list = candidates === undefined || Array.isArray(candidates) || candidates instanceof Uint32Array ? (candidates as ArrayLike<number> | undefined) : Array.from(candidates);
    const size = Math.min(list?.length ?? count, count);
    if (this.int8 !== undefined) return this.scanInt8(this.int8, query, k, list, size);
    const scan = this.wasm?.scratch(size);
    // selectTopK maps the rows back to labels (and breaks ties by label).
    const hits = scan === undefined ? this.scanJs(query, k, list, size) : this.scanWasm(scan, query, k, list);
    return hits.map((r) => ({ label: r.row, score: r.score }));
  }

  /**
   * The SIMD path: float32 dot products of every row (fast), then the float64 ones of the few rows that
   * can still make the top k (shortlistTopK), ranked as the JS path ranks them: the same hits, in about a
   * third of the time. Everything lives in the memory's scratch (no allocation per row).
   */
  private scanWasm(scan: ScanScratch, query: ArrayLike<number>, k: number, list: ArrayLike<number> | undefined): ScoredRow[] {
    const wasm = this.wasm!;
    const table = this.table;
    const dim = this.dimension;
    const n = table.collectRows(list, scan.list);
    scan.q64.set(query);
    const qq = squaredNorm(scan.q64, 0, dim);
    const top = Math.floor(k);
    let kept = n;
    if (n > top) {
      scan.q32.set(query);
      wasm.dotScratchF32(scan, n);
      const gamma = float32DotError(dim);
      kept =
        this.metric === 'cosine'
          ? shortlistCosine(qq, gamma, dim, scan.out, table.sqNorms, table.invNorms, table.maxNorm, table.maxInvNorm, scan.list, n, top)
          : shortlistTopK(this.metric, qq, gamma, dim, scan.out, table.sqNorms, table.invNorms, scan.list, n, top);
    }
    wasm.dotScratch(scan, kept);
    return selectTopK(this.metric, qq, scan.out, table.sqNorms, scan.list, kept, top, table.labelOfRow);
  }

  /**
   * The int8 path: approximate dot products from the codes rank the rows, the best shortlistSize(k) of them
   * are read and ranked exactly (exactTopOf). Fewer candidates than that go straight to the exact ranking.
   */
  private scanInt8(int8: Int8Rows, query: ArrayLike<number>, k: number, list: ArrayLike<number> | undefined, size: number): ScoredLabel[] {
    const table = this.table;
    const rows = new Uint32Array(size);
    const n = table.collectRows(list, rows);
    const top = Math.floor(k);
    const shortlist = approximateShortlist(this.metric, query, rows, n, top, table.sqNorms, table.labelOfRow, (r, m, out) => int8.dots(query, r, m, out));
    return this.exactTopOf(query, shortlist, top);
  }

  /** The plain-JS path: float64 dot products of every row. */
  private scanJs(query: ArrayLike<number>, k: number, list: ArrayLike<number> | undefined, size: number): ScoredRow[] {
    const dim = this.dimension;
    const table = this.table;
    const rows = new Uint32Array(size);
    const n = table.collectRows(list, rows);
    const q = Float64Array.from(query);
    const dots = new Float64Array(n);
    dotRows(q, this.rows(), dim, rows, n, dots);
    return selectTopK(this.metric, squaredNorm(q, 0, dim), dots, table.sqNorms, rows, n, Math.floor(k), table.labelOfRow);
  }

  /**
   * The hits with their Data API `$similarity` (dataApiSimilarity: float32, as the Data API computes it) in
   * place of the ranking score, best first; equal scores keep their order. Labels no longer stored keep theirs.
   */
  rescore(query: ArrayLike<number>, hits: readonly ScoredLabel[]): ScoredLabel[] {
    const dim = this.dimension;
    if (query.length !== dim) throw new RangeError(`vectors differ in length: ${query.length} vs ${dim}`);
    const q = query instanceof Float32Array ? query : Float32Array.from(query);
    const qNorm = float32SquaredNorm(q);
    const metric = this.metric;
    if (this.int8 !== undefined) return this.exact!.rescore(metric, q, qNorm, hits, (label) => this.has(label));
    // The sums by the WebAssembly kernel where the rows live in its memory: the same float32s, faster (10 hits
    // at 128 dims: the whole rescore 6.0 -> 3.4 us).
    const storedRows: number[] = [];
    for (const hit of hits) {
      const row = this.table.rowOf(hit.label);
      if (row !== undefined) storedRows.push(row);
    }
    const sums = this.wasm?.similaritySums(q, storedRows, metric === 'euclidean');
    const rows = this.rows();
    let at = 0;
    const out = hits.map(({ label, score }) => {
      const row = this.table.rowOf(label);
      if (row === undefined) return { label, score };
      const i = at++;
      const similarity = sums === undefined ? float32Similarity(metric, q, rows, row * dim, qNorm) : float32SimilarityOfSums(metric, sums[2 * i]!, sums[2 * i + 1]!, qNorm);
      return { label, score: similarity };
    });
    return bestFirstAsDecimals(out, (label) => this.has(label));
  }

  /** The rows' current view: a WebAssembly memory's views are re-created after it grows. */
  private rows(): Float32Array {
    return this.wasm === undefined ? this.data : this.wasm.rows;
  }

  private grow(minSlots: number): void {
    const next = Math.max(minSlots, Math.ceil(this.table.slots * 1.5), 64);
    checkSlots(next, this.dimension);
    if (this.int8 !== undefined) {
      this.int8.grow(next);
    } else if (this.wasm !== undefined) {
      try {
        this.wasm.reserve(next); // in place: no copy
      } catch {
        // The engine refused the memory: move the rows to a plain array and go on with the JS kernels.
        const data = allocate(next, this.dimension);
        data.set(this.wasm.rows);
        this.wasm = undefined;
        this.data = data;
      }
    } else {
      const data = allocate(next, this.dimension);
      data.set(this.data);
      this.data = data;
    }
    this.table.grow(next);
  }
}
