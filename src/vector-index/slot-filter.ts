/**
 * How HnswIndex.search (hnsw-index.ts) hands a label filter to its driver: as a byte per slot, built once
 * per search from the allowed labels (drivers with searchBytes: the graph reads it without calling into JS),
 * or as a predicate on the slot called per visited node, whose throw is kept and rethrown after the search
 * (it must not unwind through hnswlib's C++ frames).
 */
import { grownLength } from '../platform/typed-arrays.js';
import type { HnswSlotTable } from './hnsw-slots.js';
import type { AllowedLabels } from './index-types.js';

/**
 * A search's byte filter, one buffer reused by every search of an index (searches run one at a time). The
 * last one made is kept: a repeated filter (the same tenant or category with new query vectors) whose labels
 * have a `contentKey` reuses it while no slot changed label, instead of marking its labels again.
 */
export class SlotBytes {
  #bytes = new Uint8Array(0);
  /** What the bytes in use were made from, when they can be reused. */
  #made: { readonly table: HnswSlotTable; readonly key: object; readonly labelChanges: number; readonly used: number } | undefined;

  /**
   * A byte per used slot of `table`, 1 for the live slots of `allowed` that `check` accepts; valid until
   * the next call. Clearing the whole range costs a memset, less than the marking (a few ns a label).
   */
  of(table: HnswSlotTable, allowed: AllowedLabels, check: ((label: number) => boolean) | undefined): Uint8Array {
    const used = table.used;
    const key = check === undefined ? allowed.contentKey : undefined;
    const made = this.#made;
    if (key !== undefined && made !== undefined && made.key === key && made.table === table && made.labelChanges === table.labelChanges && made.used === used) return this.#bytes.subarray(0, used);
    this.#made = undefined;
    if (this.#bytes.length < used) this.#bytes = new Uint8Array(grownLength(this.#bytes.length, used));
    else this.#bytes.fill(0, 0, used);
    const bytes = this.#bytes.subarray(0, used);
    table.markSlots(allowed, bytes, check);
    if (key !== undefined) this.#made = { table, key, labelChanges: table.labelChanges, used };
    return bytes;
  }
}

/** A predicate on slots over one on labels, and the rethrow of what it threw once the search is over. */
export interface GuardedFilter {
  readonly filter: (slot: number) => boolean;
  rethrow(): void;
}

/** `accept` asked of each visited slot's label (`labels`: slot -> label); after a throw, every slot is refused. */
export function guardedSlotFilter(labels: Uint32Array, accept: (label: number) => boolean): GuardedFilter {
  let failure: { error: unknown } | undefined;
  return {
    filter(slot: number): boolean {
      if (failure !== undefined) return false;
      try {
        return accept(labels[slot] as number) === true;
      } catch (error) {
        failure = { error };
        return false;
      }
    },
    rethrow(): void {
      if (failure !== undefined) throw failure.error;
    },
  };
}
