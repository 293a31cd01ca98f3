/**
 * A vector collection's document key <-> label map (for collection-vectors.ts): labels are handed out
 * dense from 0 and never reused (a changed vector gets a new one). The one place that says whether a
 * label is live and whose it is, including while the keys are still read after open (LateKeys: a label
 * not registered yet is looked up in its record).
 */
import { KeyTable, type LabelLookup } from './key-table.js';
import type { LateKeys } from './late-keys.js';

export type { LabelLookup } from './key-table.js';

export class VectorLabels {
  /** Both directions in typed storage (key-table.ts): no JS string or Map entry per document. */
  readonly #keys = new KeyTable();
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
    this.#keys.reserve(limit);
  }

  /** A new label. */
  take(): number {
    return this.#next++;
  }

  /** Registers a live label's document. */
  set(label: number, docKey: string): void {
    this.#keys.set(label, docKey);
    this.#next = Math.max(this.#next, label + 1);
  }

  /** Forgets a label (its vector was deleted or replaced); the document keeps a newer label if it has one. */
  delete(label: number): void {
    this.#keys.delete(label);
  }

  clear(): void {
    this.#keys.clear();
  }

  /** Registered live labels (while the keys are read late, only those registered so far). */
  get size(): number {
    return this.#keys.size;
  }

  /** Bytes the map holds (stats, benchmarks). */
  get bytes(): number {
    return this.#keys.bytes;
  }

  /** Whether a label is live (its vector is stored). */
  isLive(label: number): boolean {
    return this.#keys.holds(label) || this.#late?.keyOf(label) !== undefined;
  }

  /** A live label's document key (undefined when the label is not live). */
  keyOf(label: number): string | undefined {
    return this.#keys.keyOf(label) ?? this.#late?.keyOf(label);
  }

  /** The label of a document's vector (registered labels only). */
  labelOf(docKey: string): number | undefined {
    return this.#keys.get(docKey);
  }

  /** The registered live labels, ascending (followed live: a label deleted before its turn is skipped). */
  labels(): IterableIterator<number> {
    return this.#keys.labels();
  }

  /** Every document's label as of now (a copy: later changes do not reach it). */
  copy(): LabelLookup {
    return this.#keys.clone();
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
