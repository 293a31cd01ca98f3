/**
 * A vector collection's document key <-> label map (for collection-vectors.ts): labels are handed out
 * dense from 0 and never reused (a changed vector gets a new one). The one place that says whether a
 * label is live and whose it is, including while the keys are still read after open (LateKeys: a label
 * not registered yet is looked up in its record).
 */
import { LateKeys } from './late-keys.js';

export class VectorLabels {
  readonly #labelOf = new Map<string, number>();
  /** Document key by label (dense labels: an array beats a Map of 100k). */
  #keyOf: (string | undefined)[] = [];
  #next = 0;
  /** Set while the keys are read after open: labels not registered yet are looked up in their records. */
  #late: LateKeys | undefined;

  /** Every label handed out so far is below this. */
  get limit(): number {
    return this.#next;
  }

  /** Labels below `limit` are taken (a snapshot's or a record's). */
  reserveBelow(limit: number): void {
    this.#next = Math.max(this.#next, limit);
  }

  /** A new label. */
  take(): number {
    return this.#next++;
  }

  /** Registers a live label's document. */
  set(label: number, docKey: string): void {
    this.#labelOf.set(docKey, label);
    this.#keyOf[label] = docKey;
    this.reserveBelow(label + 1);
  }

  /** Forgets a label (its vector was deleted or replaced); the document keeps a newer label if it has one. */
  delete(label: number, docKey: string): void {
    this.#keyOf[label] = undefined;
    if (this.#labelOf.get(docKey) === label) this.#labelOf.delete(docKey);
  }

  clear(): void {
    this.#labelOf.clear();
    this.#keyOf = [];
  }

  /** Registered live labels (while the keys are read late, only those registered so far). */
  get size(): number {
    return this.#labelOf.size;
  }

  /** Whether a label is live (its vector is stored). */
  isLive(label: number): boolean {
    return this.#keyOf[label] !== undefined || this.#late?.keyOf(label) !== undefined;
  }

  /** A live label's document key (undefined when the label is not live). */
  keyOf(label: number): string | undefined {
    return this.#keyOf[label] ?? this.#late?.keyOf(label);
  }

  /** The label of a document's vector (registered labels only). */
  labelOf(docKey: string): number | undefined {
    return this.#labelOf.get(docKey);
  }

  /** The registered live labels (a live view). */
  labels(): IterableIterator<number> {
    return this.#labelOf.values();
  }

  /** The map by document key as it is, read-only (a view that follows later changes). */
  get byDocKey(): ReadonlyMap<string, number> {
    return this.#labelOf;
  }

  /** Every document's label as of now (a copy). */
  copy(): Map<string, number> {
    return new Map(this.#labelOf);
  }

  /** Whether labels not registered yet are being looked up in their records (see readLate). */
  get late(): boolean {
    return this.#late !== undefined;
  }

  /** Until `registered()`, a label not registered is looked up in its record by `lateKeys`. */
  readLate(lateKeys: LateKeys): void {
    this.#late = lateKeys;
  }

  /** Every key is registered: no more lookups in the records. */
  registered(): void {
    this.#late = undefined;
  }
}
