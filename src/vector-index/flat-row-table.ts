/**
 * FlatRowTable: the row bookkeeping of a FlatVectorStore (flat-store.ts), apart from the values. Which row
 * holds which label (LabelSlots, dense while labels stay close), each row's squared and inverse norm, the
 * rows freed for reuse, and the rows of a candidate list that a scan reads (collectRows). The store keeps
 * the values (float32 rows in a WebAssembly memory or a plain array, or int8 codes) and grows both together.
 */
import { collectLabelRows, LabelSlots, SeenRows } from './label-slots.js';
import { grownTo } from '../platform/typed-arrays.js';

/**
 * The label -> row array stays dense (4 bytes a label) while labels span up to this many per live row:
 * a row weighs dimension x 4 + 24 bytes, and a dense lookup keeps the candidate scan at one load a label.
 */
const LABELS_PER_ROW = 64;

export class FlatRowTable {
  /** By row, as every per-row array below. */
  #sqNorms: Float64Array;
  /**
   * 1 / |row| (Infinity for a zero vector, 0 for an absent row): the float32 first pass ranks cosine
   * without a division per row.
   */
  #invNorms: Float64Array;
  /** The largest |row| and 1 / |row| ever stored (never lowered): one error bound for a whole cosine scan. */
  #maxNorm = 0;
  #maxInvNorm = 0;
  #present: Uint8Array;
  /** The label a row holds (meaningful where present). */
  #labelOfRow: Uint32Array;
  /** De-duplicates candidate lists that do not ascend. */
  readonly #seen = new SeenRows();
  /** Rows allocated. */
  #slots: number;
  /** Rows ever handed out (those past it are untouched); freed ones below it wait in `free`. */
  #used = 0;
  readonly #free: number[] = [];
  readonly #rowByLabel = new LabelSlots(LABELS_PER_ROW);
  #count = 0;

  constructor(slots: number) {
    this.#slots = slots;
    this.#sqNorms = new Float64Array(slots);
    this.#invNorms = new Float64Array(slots);
    this.#present = new Uint8Array(slots);
    this.#labelOfRow = new Uint32Array(slots);
  }

  /** Labels stored. */
  get size(): number {
    return this.#count;
  }

  /** Rows allocated. */
  get slots(): number {
    return this.#slots;
  }

  /** Rows ever handed out (live ones plus those freed for reuse). */
  get used(): number {
    return this.#used;
  }

  /** Freed rows waiting for reuse. */
  get freeCount(): number {
    return this.#free.length;
  }

  get sqNorms(): Float64Array {
    return this.#sqNorms;
  }

  get invNorms(): Float64Array {
    return this.#invNorms;
  }

  get maxNorm(): number {
    return this.#maxNorm;
  }

  get maxInvNorm(): number {
    return this.#maxInvNorm;
  }

  /** row -> 1 where it holds a label. */
  get present(): Uint8Array {
    return this.#present;
  }

  get labelOfRow(): Uint32Array {
    return this.#labelOfRow;
  }

  has(label: number): boolean {
    // The dense array read in place (undefined past its end or off the integers): callers test every candidate.
    const dense = this.#rowByLabel.dense;
    return dense !== undefined ? (dense[label] as number) >= 0 : this.#rowByLabel.has(label);
  }

  rowOf(label: number): number | undefined {
    return this.#rowByLabel.get(label);
  }

  /** The stored labels, ascending. */
  labels(): number[] {
    return this.#rowByLabel.labels();
  }

  /** A row for a new label: a freed one, else the next never used (the caller grew the table if none is left). */
  takeRow(): number {
    return this.#free.pop() ?? this.#used++;
  }

  /** Records that `row` now holds the vector of `label`, of squared norm `sq`. */
  markStored(label: number, row: number, sq: number): void {
    this.#sqNorms[row] = sq;
    const norm = Math.sqrt(sq);
    this.#invNorms[row] = 1 / norm;
    if (norm > this.#maxNorm) this.#maxNorm = norm;
    if (1 / norm > this.#maxInvNorm) this.#maxInvNorm = 1 / norm;
    if (this.#present[row] === 0) {
      this.#present[row] = 1;
      this.#labelOfRow[row] = label;
      this.#rowByLabel.set(label, row);
      this.#count++;
    }
  }

  /** Frees a label's row for reuse; false when the label has none. */
  delete(label: number): boolean {
    const row = this.#rowByLabel.get(label);
    if (row === undefined) return false;
    this.#rowByLabel.delete(label);
    this.#present[row] = 0;
    this.#invNorms[row] = 0; // absent, as collectRows reads it
    this.#free.push(row);
    this.#count--;
    return true;
  }

  /** Fills `rows` with the rows of the stored labels of `list` (each once), or every stored row; how many. */
  collectRows(list: ArrayLike<number> | undefined, rows: Uint32Array): number {
    let n = 0;
    if (list === undefined) {
      const used = this.#used;
      const present = this.#present;
      for (let i = 0; i < used; i++) if (present[i] === 1) rows[n++] = i;
      return n;
    }
    return collectLabelRows(this.#rowByLabel, list, rows, this.#seen, this.#slots);
  }

  /** Grows the per-row arrays to `next` rows (the store grows its values alongside). */
  grow(next: number): void {
    this.#sqNorms = grownTo(this.#sqNorms, next);
    this.#invNorms = grownTo(this.#invNorms, next);
    this.#present = grownTo(this.#present, next);
    this.#labelOfRow = grownTo(this.#labelOfRow, next);
    this.#slots = next;
  }
}
