/**
 * HnswSlotTable: the slot bookkeeping of an HnswIndex (hnsw-index.ts). Which engine label each hnswlib slot
 * holds, which slots are live, which deleted ones wait for reuse, and the capacity plan of a batch: grow
 * the driver, else recycle deleted slots. HnswIndex runs the graph changes and searches; this file keeps the
 * table in step and plans room. No I/O and no backend specifics here.
 */
import { HEADROOM, type HnswDriver } from './backend-types.js';
import { grownLength } from '../platform/typed-arrays.js';
import { LabelSlots } from './label-slots.js';
import type { AllowedLabels } from './index-types.js';

/** Growth of a driver whose resize copies the graph (wasm): by half, few copies. */
const GROWTH = 1.5;
/** Deleted slots are recycled (slow) once they outnumber live ones and this floor. */
const RECYCLE_FLOOR = 1024;

/** How a batch of new vectors fits: `recycle` of them into deleted slots, `fresh` into new ones. */
export interface SlotPlan {
  recycle: number;
  fresh: number;
}

/** What a save writes beside the graph: the table as it was when the driver wrote its bytes. */
export interface SlotSnapshot {
  slotLabels: Uint32Array;
  live: Uint8Array;
  slots: number;
  liveCount: number;
}

export class HnswSlotTable {
  /** slot -> label, and whether the slot is live; sized to the driver's capacity (replaced when it grows). */
  #labels: Uint32Array;
  #live: Uint8Array;
  readonly #slotOf = new LabelSlots();
  /** Deleted slots (recyclable). */
  readonly #dead: number[] = [];
  /** Slots used so far (== hnswlib's element count). */
  #used: number;
  /** Counts the changes of which label a slot holds (what a byte filter was made from). */
  #labelChanges = 0;

  private constructor(labels: Uint32Array, live: Uint8Array, used: number) {
    this.#labels = labels;
    this.#live = live;
    this.#used = used;
  }

  static empty(capacity: number): HnswSlotTable {
    return new HnswSlotTable(new Uint32Array(capacity), new Uint8Array(capacity), 0);
  }

  /** The table stored beside loaded hnswlib bytes, sized to `capacity` (at least its slots). */
  static restored(slotLabels: Uint32Array, live: Uint8Array, capacity: number): HnswSlotTable {
    const slots = slotLabels.length;
    const cap = Math.max(capacity, slots);
    const labels = new Uint32Array(cap);
    labels.set(slotLabels);
    const liveFlags = new Uint8Array(cap);
    liveFlags.set(live);
    const table = new HnswSlotTable(labels, liveFlags, slots);
    let limit = 0;
    let liveCount = 0;
    for (let s = 0; s < slots; s++) {
      if (liveFlags[s] === 1) {
        limit = Math.max(limit, (labels[s] as number) + 1);
        liveCount++;
      }
    }
    table.#slotOf.reserve(limit, liveCount);
    for (let s = 0; s < slots; s++) {
      if (liveFlags[s] === 1) table.#slotOf.set(labels[s] as number, s);
      else table.#dead.push(s);
    }
    return table;
  }

  /** slot -> label (meaningful where live): valid until the table grows. */
  get labels(): Uint32Array {
    return this.#labels;
  }

  /** slot -> 1 when live: valid until the table grows. */
  get live(): Uint8Array {
    return this.#live;
  }

  /** Changes so far of which label each slot holds: a byte filter made at one count holds until the next. */
  get labelChanges(): number {
    return this.#labelChanges;
  }

  /** Slots used so far (live and deleted). */
  get used(): number {
    return this.#used;
  }

  /** Live labels. */
  get size(): number {
    return this.#slotOf.size;
  }

  has(label: number): boolean {
    return this.#slotOf.has(label);
  }

  slotOf(label: number): number | undefined {
    return this.#slotOf.get(label);
  }

  /**
   * Sets `out[slot]` to 1 for the live slot of each of `labels` that `check` accepts (every one without
   * it); labels without a live slot (deleted, replaced: their old slot is dead) are skipped.
   */
  markSlots(labels: AllowedLabels, out: Uint8Array, check?: (label: number) => boolean): void {
    const dense = this.#slotOf.dense;
    const list = labels.labels;
    if (dense === undefined || list === undefined) {
      for (const label of labels) {
        const slot = this.#slotOf.get(label);
        if (slot !== undefined && (check === undefined || check(label))) out[slot] = 1;
      }
      return;
    }
    // The hot loop of a filtered search's byte filter (a few ns a label): one load, no call, per label.
    const end = dense.length;
    for (let i = 0; i < list.length; i++) {
      const label = list[i] as number;
      if (label >= end) continue;
      const slot = dense[label] as number;
      if (slot >= 0 && (check === undefined || check(label))) out[slot] = 1;
    }
  }

  /** Unlinks a label from its slot (the slot's flags are the caller's: markDeleted, or a rollback). */
  unlink(label: number): void {
    this.#labelChanges++;
    this.#slotOf.delete(label);
  }

  /** Links a label back to its slot (a rollback after a failed delete). */
  relink(label: number, slot: number): void {
    this.#labelChanges++;
    this.#slotOf.set(label, slot);
  }

  /** Claims the next `n` fresh slots (counted as used); the first of them. */
  claim(n: number): number {
    const first = this.#used;
    this.#used += n;
    return first;
  }

  popDead(): number {
    return this.#dead.pop() as number;
  }

  pushDead(slot: number): void {
    this.#dead.push(slot);
  }

  setLive(slot: number, label: number): void {
    this.#labels[slot] = label;
    this.#live[slot] = 1;
    this.#labelChanges++;
    this.#slotOf.set(label, slot);
  }

  markDeleted(driver: HnswDriver, slots: readonly number[]): void {
    driver.markDeleted(slots);
    for (const s of slots) {
      this.#live[s] = 0;
      this.#dead.push(s);
    }
  }

  /** Whether `n` fresh slots fit, growing the driver if needed. */
  fitFresh(driver: HnswDriver, n: number): boolean {
    const need = this.#used + n + HEADROOM;
    return need <= driver.capacity() || this.grow(driver, need) >= need;
  }

  /**
   * Where a batch of `m` vectors goes, `replacing` of them over live labels (their slots become deleted):
   * fresh slots, growing if needed, else recycled deleted ones; undefined when even recycling cannot fit it.
   */
  plan(driver: HnswDriver, m: number, replacing: number): SlotPlan | undefined {
    const recyclable = this.#dead.length + replacing;
    let recycle = this.#dead.length > Math.max(this.size, RECYCLE_FLOOR) ? Math.min(m, this.#dead.length) : 0;
    let fresh = m - recycle;
    if (this.#used + fresh + HEADROOM > driver.capacity()) {
      const cap = this.grow(driver, this.#used + fresh + HEADROOM);
      const room = Math.max(0, cap - HEADROOM - this.#used);
      if (fresh > room) {
        const extra = fresh - room;
        if (recycle + extra > recyclable) return undefined;
        recycle += extra;
        fresh -= extra;
      }
    }
    return { recycle, fresh };
  }

  snapshot(): SlotSnapshot {
    return {
      slotLabels: this.#labels.slice(0, this.#used),
      live: this.#live.slice(0, this.#used),
      slots: this.#used,
      liveCount: this.size,
    };
  }

  clear(): void {
    this.#labelChanges++;
    this.#slotOf.clear();
    this.#dead.length = 0;
    this.#labels = new Uint32Array(0);
    this.#live = new Uint8Array(0);
  }

  /**
   * Settles once the resize that `n` more fresh slots would need is quick (its tables made off the JS thread,
   * by a driver that can: native-rows), at once when none is due; never rejects (the resize then does it all).
   */
  prepareGrowth(driver: HnswDriver, n: number): Promise<void> {
    const need = this.#used + n + HEADROOM;
    if (driver.prepareResize === undefined || need <= driver.capacity()) return Promise.resolve();
    return driver.prepareResize(this.growthTarget(driver, need)).catch(() => undefined);
  }

  /** The capacity a growth toward `need` asks for first (what a driver's prepareResize prepares). */
  private growthTarget(driver: HnswDriver, need: number): number {
    const cap = driver.capacity();
    return Math.min(driver.capacityLimit(), driver.resizesInPlace === true ? grownLength(cap, need) : Math.max(need, Math.ceil(cap * GROWTH)));
  }

  /**
   * Grows toward `need` (by half when possible; by grownLength's step when the driver resizes in place:
   * hnswlib's lock and level of each unused slot are memory in use); returns the capacity reached, maybe unchanged.
   */
  private grow(driver: HnswDriver, need: number): number {
    const cap = driver.capacity();
    const limit = driver.capacityLimit();
    const target = this.growthTarget(driver, need);
    // Smaller steps after a failure: a fragmented wasm heap may still fit a smaller block.
    const tries = [...new Set([target, Math.ceil((target + need) / 2), Math.min(need, limit)])].filter((t) => t > cap && t <= limit);
    tries.sort((a, b) => b - a);
    for (const t of tries) {
      if (!driver.tryResize(t)) continue;
      const labels = new Uint32Array(t);
      labels.set(this.#labels.subarray(0, Math.min(this.#labels.length, t)));
      const live = new Uint8Array(t);
      live.set(this.#live.subarray(0, Math.min(this.#live.length, t)));
      this.#labels = labels;
      this.#live = live;
      return t;
    }
    return cap;
  }
}
