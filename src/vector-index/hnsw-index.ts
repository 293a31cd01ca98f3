/**
 * HnswIndex: the VectorIndex both backends share. It maps the engine's labels to hnswlib "slots" (the
 * table and its capacity plan in hnsw-slots.ts), checks inputs, converts scores and writes the head of a
 * save; the backends (wasm-backend.ts, native-backend.ts) only provide the HnswDriver primitives on slots.
 * No I/O and no backend specifics here.
 */
import { VectorDbError } from '../errors/vectordb-error.js';
import { HEADROOM, HNSW_SEED, type HnswDriver, type IndexIdentity, type SlotHits } from './backend-types.js';
import { encodeIndexHead, type BackendName } from './index-format.js';
import type { IndexParams, PieceSink, SearchOptions, VectorIndex } from './index-types.js';
import type { ScoredLabel } from './exact-rescore.js';
import { scoreFromHnswDistance, type Metric } from './metric.js';
import { checkLabel, checkVector, invalid } from './validate.js';
import { HnswSlotTable, type SlotSnapshot } from './hnsw-slots.js';
import { guardedSlotFilter, SlotBytes } from './slot-filter.js';
import type { VectorRows } from './vector-rows.js';

const byScoreThenLabel = (a: ScoredLabel, b: ScoredLabel): number => b.score - a.score || a.label - b.label;

/** Whether the hits are best first, ties by label (the order `search` returns). */
function inOrder(hits: readonly ScoredLabel[]): boolean {
  for (let i = 1; i < hits.length; i++) if (byScoreThenLabel(hits[i - 1]!, hits[i]!) > 0) return false;
  return true;
}

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
  private readonly table: HnswSlotTable;
  /** Saves in flight: the graph must not change meanwhile (hnswlib-node writes it from a worker thread). */
  private saving = 0;
  /** A parallel insert in flight (addStored): no other change, and saves wait for it. */
  private inserting: Promise<void> | undefined;
  /** The byte filter filtered searches build (drivers with searchBytes). */
  private readonly slotBytes = new SlotBytes();

  private constructor(identity: IndexIdentity, driver: HnswDriver, table: HnswSlotTable) {
    this.backend = identity.backend;
    this.dimension = identity.dimension;
    this.metric = identity.metric;
    this.params = identity.params;
    this.name = identity.name;
    this.driver = driver;
    this.table = table;
  }

  static fresh(identity: IndexIdentity, driver: HnswDriver): HnswIndex {
    return new HnswIndex(identity, driver, HnswSlotTable.empty(driver.capacity()));
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
    const table = HnswSlotTable.restored(slotLabels, live, driver.capacity());
    driver.restored?.(table.labels, table.live);
    return new HnswIndex(identity, driver, table);
  }

  get size(): number {
    return this.table.size;
  }

  get deletedCount(): number {
    return this.table.used - this.table.size;
  }

  get capacity(): number {
    return this.open().capacity() - HEADROOM;
  }

  /** The rows the graph reads (native-rows backend), which the engine then keeps its vectors in. */
  get rows(): VectorRows | undefined {
    return this.driver?.rows;
  }

  /** Whether the graph ranks on int8 codes (native-rows over an int8 store, once its scale is set). */
  get quantized(): boolean {
    return this.driver?.quantized === true;
  }

  /** Whether a search's `allowed` labels become a byte per slot (drivers with searchBytes: native-rows). */
  get filtersByBytes(): boolean {
    return this.driver?.searchBytes !== undefined;
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
    // The index is busy from here (saves wait, changes throw): the growth prepared first belongs to the insert.
    const inserting = this.addStoredNow(driver, addStored, unique, threads);
    this.inserting = inserting;
    try {
      await inserting;
    } finally {
      this.inserting = undefined;
    }
  }

  private async addStoredNow(driver: HnswDriver, addStored: NonNullable<HnswDriver['addStored']>, unique: readonly number[], threads: number | undefined): Promise<void> {
    // A resize due now is quick once its tables are made off the JS thread (usually already, during the last insert).
    await this.table.prepareGrowth(driver, unique.length);
    if (this.driver !== driver) return; // disposed meanwhile
    const table = this.table;
    if (!table.fitFresh(driver, unique.length)) throw this.capacityError(driver, unique.length);
    const replaced: number[] = [];
    for (const label of unique) {
      const s = table.slotOf(label);
      if (s !== undefined) {
        replaced.push(s);
        table.unlink(label);
      }
    }
    if (replaced.length > 0) table.markDeleted(driver, replaced);
    // Claimed now: a search meanwhile skips them (not live yet), and nothing else takes them.
    const first = table.claim(unique.length);
    const slots = unique.map((_, j) => first + j);
    const inserted = addStored(unique, slots, threads);
    // The next batch's growth, if one of this size would not fit, prepared while this one inserts.
    void this.table.prepareGrowth(driver, unique.length);
    await inserted;
    for (let j = 0; j < unique.length; j++) table.setLive(first + j, unique[j] as number);
  }

  releaseSpare(): void {
    this.driver?.releaseSpare?.();
  }

  has(label: number): boolean {
    return this.table.has(label);
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
    const table = this.table;
    const replaced: number[] = [];
    const replacedLabels: number[] = [];
    for (const r of rows) {
      const s = table.slotOf(labels[r] as number);
      if (s === undefined) continue;
      replaced.push(s);
      replacedLabels.push(labels[r] as number);
    }

    // Plan before changing anything: fresh slots, growing if needed, else recycle deleted ones.
    const m = rows.length;
    const plan = table.plan(driver, m, replaced.length);
    if (plan === undefined) throw this.capacityError(driver, m);

    if (replaced.length > 0) {
      table.markDeleted(driver, replaced);
      // Until its new vector is in, a replaced label is absent (matters only if an insert fails).
      for (const label of replacedLabels) table.unlink(label);
    }
    let k = 0;
    for (; k < plan.recycle; k++) {
      const r = rows[k] as number;
      const s = table.popDead();
      try {
        driver.replaceDeleted(s, vectors, r, labels[r] as number);
      } catch (e) {
        table.pushDead(s);
        throw e;
      }
      table.setLive(s, labels[r] as number);
    }
    if (k === m) return;
    const freshRows = rows.slice(k);
    const freshSlots = freshRows.map((_, j) => table.used + j);
    try {
      driver.addFresh(vectors, freshRows, freshSlots, labels);
    } catch (e) {
      // hnswlib may have taken part of the batch: keep what it holds.
      const added = Math.min(freshRows.length, Math.max(0, driver.count() - table.used));
      for (let j = 0; j < added; j++) table.setLive(freshSlots[j] as number, labels[freshRows[j] as number] as number);
      table.claim(added);
      throw e;
    }
    for (let j = 0; j < freshRows.length; j++) table.setLive(freshSlots[j] as number, labels[freshRows[j] as number] as number);
    table.claim(freshRows.length);
  }

  remove(labels: readonly number[]): void {
    const driver = this.writable();
    const table = this.table;
    const slots: number[] = [];
    const removed: number[] = [];
    for (const label of labels) {
      const s = table.slotOf(label);
      if (s === undefined) continue;
      table.unlink(label);
      slots.push(s);
      removed.push(label);
    }
    if (slots.length === 0) return;
    try {
      table.markDeleted(driver, slots);
    } catch (e) {
      for (let i = 0; i < slots.length; i++) table.relink(removed[i] as number, slots[i] as number);
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
    const { filter, allowed } = options;
    const labels = this.table.labels;
    let hits: SlotHits;
    if (allowed !== undefined && driver.searchBytes !== undefined) {
      hits = driver.searchBytes(query, kk, ef, this.slotBytes.of(this.table, allowed, filter));
    } else {
      const accept = allowed === undefined ? filter : filter === undefined ? (label: number) => allowed.has(label) : (label: number) => allowed.has(label) && filter(label);
      const guarded = accept === undefined ? undefined : guardedSlotFilter(labels, accept);
      hits = driver.search(query, kk, ef, guarded?.filter);
      guarded?.rethrow();
    }
    const live = this.table.live;
    const out: ScoredLabel[] = [];
    const count = hits.count ?? hits.slots.length;
    for (let i = 0; i < count; i++) {
      const slot = hits.slots[i] as number;
      if (live[slot] !== 1) continue; // defensive: hnswlib never returns deleted elements
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
    const pieces: Uint8Array[] = [];
    const head = await this.serializeTo(async (piece) => {
      pieces.push(piece);
    });
    return [head, ...pieces];
  }

  async serializeTo(sink: PieceSink, onRead?: () => void): Promise<Uint8Array> {
    if (this.inserting !== undefined) await this.inserting.catch(() => undefined);
    const driver = this.open();
    const saveTo = driver.saveTo?.bind(driver);
    return this.saveWith(
      driver,
      async (onWritten, read) => {
        if (saveTo !== undefined) return saveTo(sink, onWritten, read);
        const bytes = await driver.save(onWritten);
        read();
        await sink(bytes);
        return bytes.length;
      },
      onRead,
    );
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

  /**
   * Runs a driver save (the graph frozen until it calls `read`, or settles) and returns our head for the
   * bytes it wrote; `onRead` hears when the graph thaws.
   */
  private async saveWith(driver: HnswDriver, save: (onWritten: () => void, read: () => void) => Promise<number>, onRead?: () => void): Promise<Uint8Array> {
    let snapshot: (SlotSnapshot & { capacity: number; segments: number }) | undefined;
    this.saving++;
    let frozen = true;
    const thaw = (): void => {
      if (!frozen) return;
      frozen = false;
      this.saving--;
      onRead?.();
    };
    let length: number;
    try {
      length = await save(() => {
        // The graph may change once thawed: what the head says is taken now.
        snapshot = { ...this.table.snapshot(), capacity: driver.capacity(), segments: driver.segmentCount?.() ?? 1 };
      }, thaw);
    } finally {
      thaw();
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
        segments: snapshot.segments,
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
    this.table.clear();
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
