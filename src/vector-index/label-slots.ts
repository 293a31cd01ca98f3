/**
 * An HNSW index's slot by label (hnsw-slots.ts), with a Map's get/set/has/delete/clear/size. Labels are
 * usually dense from 0 (a collection numbers its vectors), so they index a typed array: a reopened
 * index of 100k fills it in a fraction of a Map's time, and each lookup is one load instead of a hash
 * probe. A label far past the others (labels go up to 2^32 - 1) moves everything into a Map for good.
 */
import { grownLength, grownTo } from '../platform/typed-arrays.js';

/** Dense while the highest label stays below this many times the entries (plus a floor), by default. */
const DENSE_FACTOR = 4;
const DENSE_FLOOR = 65_536;
/** A dense array's value where a label is absent. */
export const NO_SLOT = -1;
const NONE = NO_SLOT;

export class LabelSlots {
  /** Slot + 0 by label, NONE where absent (dense mode). */
  #dense: Int32Array | undefined = new Int32Array(0);
  #sparse: Map<number, number> | undefined;
  #size = 0;
  readonly #factor: number;

  /**
   * `denseFactor`: how many labels per entry the dense array may span (4 bytes each) before a Map takes
   * over. A store whose entries weigh far more than 4 bytes (the flat store's rows) affords a larger one.
   */
  constructor(denseFactor = DENSE_FACTOR) {
    this.#factor = denseFactor;
  }

  get size(): number {
    return this.#sparse?.size ?? this.#size;
  }

  /**
   * The dense array (slot by label, NO_SLOT where absent; labels past its end are absent), for hot loops;
   * undefined once a Map holds the slots. Valid until the next set or reserve.
   */
  get dense(): Int32Array | undefined {
    return this.#dense;
  }

  /** The labels held, ascending. */
  labels(): number[] {
    if (this.#sparse !== undefined) return [...this.#sparse.keys()].sort((a, b) => a - b);
    const out: number[] = [];
    const dense = this.#dense!;
    for (let label = 0; label < dense.length; label++) if (dense[label] !== NONE) out.push(label);
    return out;
  }

  get(label: number): number | undefined {
    if (this.#sparse !== undefined) return this.#sparse.get(label);
    const dense = this.#dense!;
    if (label >= dense.length) return undefined;
    const slot = dense[label]!;
    return slot === NONE ? undefined : slot;
  }

  has(label: number): boolean {
    return this.get(label) !== undefined;
  }

  set(label: number, slot: number): void {
    if (this.#sparse !== undefined) {
      this.#sparse.set(label, slot);
      return;
    }
    let dense = this.#dense!;
    if (label >= dense.length) {
      if (label >= this.#factor * (this.#size + 1) + DENSE_FLOOR) {
        this.#toSparse().set(label, slot);
        return;
      }
      const had = dense.length;
      this.#dense = dense = grownTo(dense, grownLength(had, Math.max(label + 1, 1024))).fill(NONE, had);
    }
    if (dense[label] === NONE) this.#size++;
    dense[label] = slot;
  }

  /** Room for labels below `limit` at once (a restored index: no regrowing), unless that would not be dense. */
  reserve(limit: number, entries: number): void {
    const dense = this.#dense;
    if (dense === undefined || limit <= dense.length || limit > this.#factor * (entries + 1) + DENSE_FLOOR) return;
    const grown = new Int32Array(limit).fill(NONE);
    grown.set(dense);
    this.#dense = grown;
  }

  delete(label: number): boolean {
    if (this.#sparse !== undefined) return this.#sparse.delete(label);
    const dense = this.#dense!;
    if (label >= dense.length || dense[label] === NONE) return false;
    dense[label] = NONE;
    this.#size--;
    return true;
  }

  clear(): void {
    this.#dense = new Int32Array(0);
    this.#sparse = undefined;
    this.#size = 0;
  }

  #toSparse(): Map<number, number> {
    const sparse = new Map<number, number>();
    const dense = this.#dense!;
    for (let label = 0; label < dense.length; label++) if (dense[label] !== NONE) sparse.set(label, dense[label]!);
    this.#dense = undefined;
    this.#sparse = sparse;
    return sparse;
  }
}

/**
 * Per-row stamps of the last pass that saw a row: de-duplicate a candidate list without allocating. The
 * array is made at the first list that needs one (most lists ascend and need none) and grows with the rows.
 */
export class SeenRows {
  #stamps = new Uint32Array(0);
  #generation = 0;

  /** Starts a pass over rows below `rows`; first() then tells a row's first sighting in it. */
  begin(rows: number): void {
    if (this.#stamps.length < rows) {
      this.#stamps = new Uint32Array(grownLength(this.#stamps.length, rows));
      this.#generation = 0;
    }
    this.#generation = (this.#generation + 1) >>> 0;
    if (this.#generation === 0) {
      this.#stamps.fill(0);
      this.#generation = 1;
    }
  }

  first(row: number): boolean {
    if (this.#stamps[row] === this.#generation) return false;
    this.#stamps[row] = this.#generation;
    return true;
  }
}

/**
 * Fills `out` with the rows `slots` gives the labels of `list` (absent labels skipped, each row once), up
 * to out.length, and `labelsOut` (when given, as long as `out`) with their labels; how many. `rows`: an
 * upper bound of the row ids, for `seen`. The one collecting loop of the exact scans (FlatRowTable, NativeRowStore).
 */
export function collectLabelRows(slots: LabelSlots, list: ArrayLike<number>, out: Uint32Array, seen: SeenRows, rows: number, labelsOut?: Uint32Array): number {
  let n = 0;
  const dense = slots.dense;
  // Ascending without repeats (every stored label, the postings' sets): no repeat to look for.
  let ascending = true;
  for (let i = 1; i < list.length && ascending; i++) ascending = (list[i] as number) > (list[i - 1] as number);
  if (ascending && dense !== undefined) {
    // One load a label (the row, NO_SLOT when absent): the first pass reads the row's norm next.
    const limit = dense.length;
    for (let i = 0; i < list.length && n < out.length; i++) {
      const label = list[i] as number;
      if (label >= 0 && label < limit) {
        const row = dense[label] as number;
        if (row === NO_SLOT) continue;
        if (labelsOut !== undefined) labelsOut[n] = label;
        out[n++] = row;
      }
    }
    return n;
  }
  if (!ascending) seen.begin(rows);
  for (let i = 0; i < list.length && n < out.length; i++) {
    const label = list[i] as number;
    const row = slots.get(label);
    if (row === undefined || (!ascending && !seen.first(row))) continue;
    if (labelsOut !== undefined) labelsOut[n] = label;
    out[n++] = row;
  }
  return n;
}
