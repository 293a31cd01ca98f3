/**
 * HnswIndex: the VectorIndex both backends share. It maps the engine's labels to hnswlib "slots",
 * plans capacity and converts scores; the backends (wasm-backend.ts, native-backend.ts) only provide
 * the HnswDriver primitives on slots. No I/O and no backend specifics here.
 */
import { VectorDbError } from '../errors/vectordb-error.js';
import { HEADROOM, HNSW_SEED, type HnswDriver, type IndexIdentity } from './backend-types.js';
import { encodeIndexHead, type BackendName } from './index-format.js';
import type { IndexParams, SearchOptions, VectorIndex } from './index-types.js';
import type { ScoredLabel } from './flat-store.js';
import { scoreFromHnswDistance, type Metric } from './metric.js';
import { checkLabel, checkVector, invalid } from './validate.js';
import { LabelSlots } from './label-slots.js';
import type { VectorRows } from './vector-rows.js';

const byScoreThenLabel = (a: ScoredLabel, b: ScoredLabel): number => b.score - a.score || a.label - b.label;

/** Whether the hits are best first, ties by label (the order `search` returns). */
function inOrder(hits: readonly ScoredLabel[]): boolean {
  for (let i = 1; i < hits.length; i++) if (byScoreThenLabel(hits[i - 1]!, hits[i]!) > 0) return false;
  return true;
}

const GROWTH = 1.5;
/** Deleted slots are recycled (slow) once they outnumber live ones and this floor. */
const RECYCLE_FLOOR = 1024;

/**
 * Why slots (the labels hnswlib sees, dense from 0) instead of the engine's labels: hnswlib updates a
 * vector in place only through updatePoint (measured 61 ms per vector at 768 dims in wasm, 20x a fresh
 * insert), and replaceDeleted reuses an arbitrary deleted element, so we could not know which label it
 * evicted. With slots, re-adding a label marks its old slot deleted and inserts into a fresh one (fast);
 * deleted slots are recycled (the slow in-place path) only when capacity cannot grow or deleted slots
 * outnumber live ones.
 */
export class HnswIndex implements VectorIndex {
  readonly backend: BackendName;
  readonly dimension: number;
  readonly metric: Metric;
  readonly params: Readonly<Required<IndexParams>>;
  private readonly name: string;
  private driver: HnswDriver | null;
  /** slot -> label, and whether the slot is live; sized to the driver's capacity. */
  private slotLabels: Uint32Array;
  private live: Uint8Array;
  private readonly labelSlot = new LabelSlots();
  /** Deleted slots (recyclable). */
  private readonly dead: number[] = [];
  /** Slots used so far (== hnswlib's element count). */
  private slots: number;
  /** Saves in flight: the graph must not change meanwhile (hnswlib-node writes it from a worker thread). */
  private saving = 0;
  /** A parallel insert in flight (addStored): no other change, and saves wait for it. */
  private inserting: Promise<void> | undefined;

  private constructor(identity: IndexIdentity, driver: HnswDriver, slotLabels: Uint32Array, live: Uint8Array, slots: number) {
    this.backend = identity.backend;
    this.dimension = identity.dimension;
    this.metric = identity.metric;
    this.params = identity.params;
    this.name = identity.name;
    this.driver = driver;
    this.slotLabels = slotLabels;
    this.live = live;
    this.slots = slots;
  }

  static fresh(identity: IndexIdentity, driver: HnswDriver): HnswIndex {
    const cap = driver.capacity();
    return new HnswIndex(identity, driver, new Uint32Array(cap), new Uint8Array(cap), 0);
  }

  /** An index over loaded hnswlib bytes, with the slot table stored beside them. */
  static restored(identity: IndexIdentity, driver: HnswDriver, slotLabels: Uint32Array, live: Uint8Array): HnswIndex {
    const slots = slotLabels.length;
    if (driver.count() !== slots) {
      driver.dispose();
      throw VectorDbError.of('VECTOR_INDEX_INCOMPATIBLE', {
        backend: identity.backend,
        collection: identity.name,
        reason: `hnswlib holds ${driver.count()} elements, the slot table ${slots}`,
      });
    }
    const cap = Math.max(driver.capacity(), slots);
    const labels = new Uint32Array(cap);
    labels.set(slotLabels);
    const liveFlags = new Uint8Array(cap);
    liveFlags.set(live);
    const index = new HnswIndex(identity, driver, labels, liveFlags, slots);
    let limit = 0;
    let liveCount = 0;
    for (let s = 0; s < slots; s++) {
      if (liveFlags[s] === 1) {
        limit = Math.max(limit, (labels[s] as number) + 1);
        liveCount++;
      }
    }
    index.labelSlot.reserve(limit, liveCount);
    for (let s = 0; s < slots; s++) {
      if (liveFlags[s] === 1) index.labelSlot.set(labels[s] as number, s);
      else index.dead.push(s);
    }
    driver.restored?.(labels, liveFlags);
    return index;
  }

  get size(): number {
    return this.labelSlot.size;
  }

  get deletedCount(): number {
    return this.slots - this.labelSlot.size;
  }

  get capacity(): number {
    return this.open().capacity() - HEADROOM;
  }

  /** The rows the graph reads (native-rows backend), which the engine then keeps its vectors in. */
  get rows(): VectorRows | undefined {
    return this.driver?.rows;
  }

  /** Whether addStored works here (the native-rows backend). */
  get addsStored(): boolean {
    return this.driver?.addStored !== undefined;
  }

  /**
   * Adds the labels whose vectors `rows` holds (new labels, or replacing a label's vector), on `threads`
   * threads (default: the backend's, min(2, cores)) off the JS thread; resolves once all are searchable. The index must not change meanwhile
   * (add, remove and saves wait or throw); searches go on and see each vector once it is in.
   */
  async addStored(labels: readonly number[], threads?: number): Promise<void> {
    const driver = this.writable();
    const addStored = driver.addStored?.bind(driver);
    if (addStored === undefined) throw new Error(`the ${this.backend} backend does not add stored rows`);
    const unique = [...new Set(labels)];
    for (const label of unique) checkLabel(label);
    if (unique.length === 0) return;
    if (this.slots + unique.length + HEADROOM > driver.capacity() && this.grow(driver, this.slots + unique.length + HEADROOM) < this.slots + unique.length + HEADROOM) {
      throw this.capacityError(driver, unique.length);
    }
    const replaced: number[] = [];
    for (const label of unique) {
      const s = this.labelSlot.get(label);
      if (s !== undefined) {
        replaced.push(s);
        this.labelSlot.delete(label);
      }
    }
    if (replaced.length > 0) this.markDeleted(driver, replaced);
    const first = this.slots;
    const slots = unique.map((_, j) => first + j);
    // Claimed now: a search meanwhile skips them (not live yet), and nothing else takes them.
    this.slots += unique.length;
    const inserting = addStored(unique, slots, threads);
    this.inserting = inserting;
    try {
      await inserting;
    } finally {
      this.inserting = undefined;
    }
    for (let j = 0; j < unique.length; j++) this.setLive(first + j, unique[j] as number);
  }

  has(label: number): boolean {
    return this.labelSlot.has(label);
  }

  add(labels: Uint32Array | readonly number[], vectors: Float32Array): void {
    const driver = this.writable();
    const dim = this.dimension;
    const n = labels.length;
    if (!(vectors instanceof Float32Array)) throw invalid('vectors must be a Float32Array');
    if (vectors.length !== n * dim) {
      throw invalid(`${n} labels of dimension ${dim} need ${n * dim} vector values, got ${vectors.length}`);
    }
    for (let i = 0; i < n; i++) {
      const label = labels[i] as number;
      checkLabel(label);
      checkVector(vectors, dim, this.metric, `vector ${i} (label ${label})`, i * dim, false);
    }
    if (n === 0) return;

    // The last occurrence of a label in the batch wins.
    const lastRow = new Map<number, number>();
    for (let i = 0; i < n; i++) lastRow.set(labels[i] as number, i);
    const rows: number[] = [];
    for (let i = 0; i < n; i++) if (lastRow.get(labels[i] as number) === i) rows.push(i);
    const replaced: number[] = [];
    const replacedLabels: number[] = [];
    for (const r of rows) {
      const s = this.labelSlot.get(labels[r] as number);
      if (s === undefined) continue;
      replaced.push(s);
      replacedLabels.push(labels[r] as number);
    }

    // Plan before changing anything: fresh slots, growing if needed, else recycle deleted ones.
    const m = rows.length;
    const recyclable = this.dead.length + replaced.length;
    let recycle = this.dead.length > Math.max(this.size, RECYCLE_FLOOR) ? Math.min(m, this.dead.length) : 0;
    let fresh = m - recycle;
    if (this.slots + fresh + HEADROOM > driver.capacity()) {
      const cap = this.grow(driver, this.slots + fresh + HEADROOM);
      const room = Math.max(0, cap - HEADROOM - this.slots);
      if (fresh > room) {
        const extra = fresh - room;
        if (recycle + extra > recyclable) throw this.capacityError(driver, m);
        recycle += extra;
        fresh -= extra;
      }
    }

    if (replaced.length > 0) {
      this.markDeleted(driver, replaced);
      // Until its new vector is in, a replaced label is absent (matters only if an insert fails).
      for (const label of replacedLabels) this.labelSlot.delete(label);
    }
    let k = 0;
    for (; k < recycle; k++) {
      const r = rows[k] as number;
      const s = this.dead.pop() as number;
      try {
        driver.replaceDeleted(s, vectors, r, labels[r] as number);
      } catch (e) {
        this.dead.push(s);
        throw e;
      }
      this.setLive(s, labels[r] as number);
    }
    if (k === m) return;
    const freshRows = rows.slice(k);
    const freshSlots = freshRows.map((_, j) => this.slots + j);
    try {
      driver.addFresh(vectors, freshRows, freshSlots, labels);
    } catch (e) {
      // hnswlib may have taken part of the batch: keep what it holds.
      const added = Math.min(freshRows.length, Math.max(0, driver.count() - this.slots));
      for (let j = 0; j < added; j++) this.setLive(freshSlots[j] as number, labels[freshRows[j] as number] as number);
      this.slots += added;
      throw e;
    }
    for (let j = 0; j < freshRows.length; j++) this.setLive(freshSlots[j] as number, labels[freshRows[j] as number] as number);
    this.slots += freshRows.length;
  }

  remove(labels: readonly number[]): void {
    const driver = this.writable();
    const slots: number[] = [];
    const removed: number[] = [];
    for (const label of labels) {
      const s = this.labelSlot.get(label);
      if (s === undefined) continue;
      this.labelSlot.delete(label);
      slots.push(s);
      removed.push(label);
    }
    if (slots.length === 0) return;
    try {
      this.markDeleted(driver, slots);
    } catch (e) {
      for (let i = 0; i < slots.length; i++) this.labelSlot.set(removed[i] as number, slots[i] as number);
      throw e;
    }
  }

  search(query: Float32Array, k: number, options: SearchOptions = {}): ScoredLabel[] {
    const driver = this.open();
    if (!(query instanceof Float32Array)) throw invalid('the query vector must be a Float32Array');
    checkVector(query, this.dimension, this.metric, 'query vector');
    if (!(k >= 1)) return [];
    const kk = Math.min(Math.floor(k), this.size);
    if (kk === 0) return [];
    const ef = Math.max(kk, Math.floor(options.ef ?? this.params.efSearch));
    const filter = options.filter;
    const labels = this.slotLabels;
    // A throw must not unwind through hnswlib's C++ frames: record it, stop accepting, rethrow after.
    let filterError: { error: unknown } | undefined;
    const slotFilter =
      filter === undefined
        ? undefined
        : (slot: number): boolean => {
            if (filterError !== undefined) return false;
            try {
              return filter(labels[slot] as number) === true;
            } catch (error) {
              filterError = { error };
              return false;
            }
          };
    const hits = driver.search(query, kk, ef, slotFilter);
    if (filterError !== undefined) throw filterError.error;
    const out: ScoredLabel[] = [];
    for (let i = 0; i < hits.slots.length; i++) {
      const slot = hits.slots[i] as number;
      if (this.live[slot] !== 1) continue; // defensive: hnswlib never returns deleted elements
      out.push({ label: labels[slot] as number, score: scoreFromHnswDistance(this.metric, hits.distances[i] as number) });
    }
    // hnswlib answers nearest first: sorting is only needed to order ties by label (and costs a work array).
    if (!inOrder(out)) out.sort(byScoreThenLabel);
    return out;
  }

  async serialize(): Promise<Uint8Array> {
    return Buffer.concat(await this.serializeParts());
  }

  async serializeParts(): Promise<Uint8Array[]> {
    if (this.inserting !== undefined) await this.inserting.catch(() => undefined);
    const driver = this.open();
    let bytes: Uint8Array | undefined;
    const head = await this.saveWith(driver, async (onWritten) => {
      bytes = await driver.save(onWritten);
      return bytes.length;
    });
    return [head, bytes!];
  }

  get savesToFile(): boolean {
    return this.open().saveFile !== undefined;
  }

  async serializeToFile(file: string): Promise<Uint8Array> {
    if (this.inserting !== undefined) await this.inserting.catch(() => undefined);
    const driver = this.open();
    const saveFile = driver.saveFile?.bind(driver);
    if (saveFile === undefined) throw new Error(`the ${this.backend} backend does not write files`);
    return this.saveWith(driver, (onWritten) => saveFile(file, onWritten));
  }

  /** Runs a driver save (the graph frozen meanwhile) and returns our head for the bytes it wrote. */
  private async saveWith(driver: HnswDriver, save: (onWritten: () => void) => Promise<number>): Promise<Uint8Array> {
    let snapshot: { slotLabels: Uint32Array; live: Uint8Array; slots: number; liveCount: number; capacity: number } | undefined;
    this.saving++;
    let length: number;
    try {
      length = await save(() => {
        snapshot = {
          slotLabels: this.slotLabels.slice(0, this.slots),
          live: this.live.slice(0, this.slots),
          slots: this.slots,
          liveCount: this.size,
          capacity: driver.capacity(),
        };
      });
    } finally {
      this.saving--;
    }
    if (snapshot === undefined) throw new Error('vector index driver did not report its write');
    return encodeIndexHead(
      {
        backend: this.backend,
        library: driver.library,
        dimension: this.dimension,
        metric: this.metric,
        M: this.params.M,
        efConstruction: this.params.efConstruction,
        efSearch: this.params.efSearch,
        seed: HNSW_SEED,
        slots: snapshot.slots,
        live: snapshot.liveCount,
        capacity: snapshot.capacity,
        segments: driver.segmentCount?.() ?? 1,
      },
      snapshot.slotLabels,
      snapshot.live,
      length,
    );
  }

  dispose(): void {
    if (this.driver === null) return;
    const driver = this.driver;
    this.driver = null;
    this.labelSlot.clear();
    this.dead.length = 0;
    this.slotLabels = new Uint32Array(0);
    this.live = new Uint8Array(0);
    driver.dispose();
  }

  private open(): HnswDriver {
    if (this.driver === null) {
      throw VectorDbError.of('UNEXPECTED_SERVER_ERROR', { reason: `the vector index${this.name ? ` of '${this.name}'` : ''} was disposed` });
    }
    return this.driver;
  }

  /** The driver, for a change of the graph: refused while a save reads it. */
  private writable(): HnswDriver {
    const driver = this.open();
    if (this.saving > 0 || this.inserting !== undefined) {
      throw VectorDbError.of('UNEXPECTED_SERVER_ERROR', { reason: `the vector index${this.name ? ` of '${this.name}'` : ''} is being saved: change it after serialize() settles` });
    }
    return driver;
  }

  private setLive(slot: number, label: number): void {
    this.slotLabels[slot] = label;
    this.live[slot] = 1;
    this.labelSlot.set(label, slot);
  }

  private markDeleted(driver: HnswDriver, slots: readonly number[]): void {
    driver.markDeleted(slots);
    for (const s of slots) {
      this.live[s] = 0;
      this.dead.push(s);
    }
  }

  /** Grows toward `need` (by 1.5x when possible); returns the capacity reached, maybe unchanged. */
  private grow(driver: HnswDriver, need: number): number {
    const cap = driver.capacity();
    const limit = driver.capacityLimit();
    const target = Math.min(limit, Math.max(need, Math.ceil(cap * GROWTH)));
    // Smaller steps after a failure: a fragmented wasm heap may still fit a smaller block.
    const tries = [...new Set([target, Math.ceil((target + need) / 2), Math.min(need, limit)])].filter((t) => t > cap && t <= limit);
    tries.sort((a, b) => b - a);
    for (const t of tries) {
      if (!driver.tryResize(t)) continue;
      const labels = new Uint32Array(t);
      labels.set(this.slotLabels.subarray(0, Math.min(this.slotLabels.length, t)));
      const live = new Uint8Array(t);
      live.set(this.live.subarray(0, Math.min(this.live.length, t)));
      this.slotLabels = labels;
      this.live = live;
      return t;
    }
    return cap;
  }

  private capacityError(driver: HnswDriver, adding: number): VectorDbError {
    const limit = Math.max(driver.capacity(), driver.capacityLimit()) - HEADROOM;
    return VectorDbError.of('VECTOR_INDEX_CAPACITY', {
      backend: driver.library,
      collection: this.name,
      max: limit,
      dimension: this.dimension,
      reason:
        `it holds ${this.size} live and ${this.deletedCount} deleted vectors, adding ${adding} does not fit ` +
        `(room for ${driver.capacity() - HEADROOM} now). ${driver.capacityAdvice()}`,
    });
  }
}
