/**
 * The vectors of one collection in memory: the doc key <-> label map, a contiguous flat store of every
 * live vector (exact scans), and the HNSW graph. Writes stage vector records into the document's batch
 * and apply to memory once it is durable; the graph catches up in the background (vectors/indexer.ts:
 * on a worker thread for bulk loads, else in small chunks that yield to the event loop), while searches
 * scan the not-yet-indexed vectors exactly. So inserts are never slowed by graph building and a search
 * always sees every acknowledged vector.
 */
import { VectorDbError } from '../../errors/index.js';
import { yieldToEventLoop } from '../../platform/macrotask.js';
import { DenseSet } from '../../platform/dense-set.js';
import type { KvOperation, KvStore } from '../../storage/index.js';
import type { VectorRows, IndexParams, ScoredLabel, VectorIndex } from '../../vector-index/index.js';
import type { ChangeHook, DocumentChange } from '../changes.js';
import { BackgroundIndexer } from './indexer.js';
import { VectorLabels, type LabelLookup } from './labels.js';
import type { LateValues } from './late-values.js';
import { newGraph } from './open.js';
import { openVectors, type OpenHost } from './opening.js';
import { rankLabels } from './rank.js';
import { stageVectorRecords } from './stage.js';
import { GraphSaves } from './saves.js';
import { deleteSnapshot } from './snapshot.js';
import { scaleWritten } from './scale-record.js';

export type { VectorProgress } from '../progress.js';
import type { IndexProgress, LabelFilter, VectorFootprint, VectorSettings } from './settings.js';
export type { IndexProgress, LabelFilter, VectorFootprint, VectorSettings } from './settings.js';

/** While the graph lags, a search lets the event loop turn once this long (ms) has passed since the last. */
const SEARCH_YIELD_MS = 10;

export class CollectionVectors {
  readonly #kv: KvStore;
  readonly #settings: VectorSettings;
  /** The document key <-> label map: which labels are live, and whose. */
  readonly #labels = new VectorLabels();
  readonly #flat: VectorRows;
  #graph: VectorIndex;
  /** Live labels not in the graph yet (replaced, not emptied, when a graph is swapped in). */
  /** Labels not in the graph yet: a DenseSet, as a JS Set of a bulk load's rehashed on the event loop (issue 31). */
  #pendingAdds = new DenseSet();
  /**
   * Set while the values are read after open (a graph file let the collection answer first): until they
   * are all there, a label may be live without values in the flat store, and #ensureValues reads them.
   */
  #lateValues: LateValues | undefined;
  /** Settles once every key is registered (at once unless openForSearch answered before). */
  #keysRead: Promise<void> = Promise.resolve();
  /** Labels gone from the flat store but still in the graph. */
  #pendingRemoves: number[] = [];
  readonly #saves: GraphSaves;
  /** Moves the pending vectors into the graph in the background (vectors/indexer.ts). */
  readonly #indexer: BackgroundIndexer;
  /** When a search last yielded to the event loop for the indexing (see turnDue). */
  #lastSearchTurn = 0;
  /** The snapshot loading in the background; the indexer waits for it. */
  #graphLoading: Promise<void> | undefined;
  #closed = false;
  #failure: VectorDbError | undefined;

  private constructor(kv: KvStore, settings: VectorSettings, flat: VectorRows, graph: VectorIndex) {
    this.#kv = kv;
    this.#settings = settings;
    this.#flat = flat;
    this.#graph = graph;
    this.#saves = new GraphSaves(
      kv,
      settings,
      () => ({ graph: this.#graph, labelLimit: this.#labels.limit, coveredBelow: this.#coveredBelow() }),
      async () => this.#graphLoading,
    );
    this.#indexer = new BackgroundIndexer({
      kv,
      settings,
      labels: this.#labels,
      flat,
      saves: this.#saves,
      graph: () => this.#graph,
      pendingAdds: () => this.#pendingAdds,
      pendingRemoves: () => this.#pendingRemoves.length,
      applyRemoves: () => {
        this.#graph.remove(this.#pendingRemoves);
        this.#pendingRemoves = [];
      },
      size: () => this.size,
      closed: () => this.#closed,
      graphLoading: () => this.#graphLoading,
      isLive: (label) => this.#isLive(label),
      ensureValues: (labels) => this.#ensureValues(labels),
      swapGraph: (graph) => this.#swapGraph(graph),
      coveredBelow: (labelLimit) => this.#coveredBelow(labelLimit),
      saveSnapshot: () => this.saveSnapshot(),
      failed: (error) => {
        this.#failure = error;
      },
    });
  }

  /** Opens the collection's vectors (openForSearch) and resolves once every key is read: ready for any use. */
  static async open(kv: KvStore, settings: VectorSettings): Promise<CollectionVectors> {
    return (await CollectionVectors.openForSearch(kv, settings)).keysRead();
  }

  /** Opens the collection's vectors so that they answer an unfiltered search at once (vectors/opening.ts). */
  static openForSearch(kv: KvStore, settings: VectorSettings): Promise<CollectionVectors> {
    return openVectors(kv, settings, (flat, graph) => {
      const vectors = new CollectionVectors(kv, settings, flat, graph);
      return { vectors, host: vectors.#openHost() };
    });
  }

  /** What the open sequence reaches of these vectors (vectors/opening.ts). */
  #openHost(): OpenHost {
    return {
      kv: this.#kv,
      settings: this.#settings,
      labels: this.#labels,
      flat: this.#flat,
      saves: this.#saves,
      graph: () => this.#graph,
      pendingAdds: () => this.#pendingAdds,
      pendingRemoves: () => this.#pendingRemoves.length,
      findStale: () => {
        this.#pendingRemoves = this.#staleInGraph();
      },
      closed: () => this.#closed,
      isLive: (label) => this.#isLive(label),
      swapGraph: (graph) => this.#swapGraph(graph),
      scheduleIndexing: () => this.#indexer.schedule(),
      setKeysRead: (keysRead) => {
        this.#keysRead = keysRead;
      },
      setGraphLoading: (graphLoading) => {
        this.#graphLoading = graphLoading;
      },
      lateValues: () => this.#lateValues,
      setLateValues: (late) => {
        this.#lateValues = late;
      },
      damaged: (error) => {
        this.#failure ??= error;
      },
    };
  }

  /** Resolves (to this) once every key is registered: until then only an unfiltered search may be made. */
  async keysRead(): Promise<this> {
    await this.#keysRead;
    return this;
  }

  /** Whether a label is a live vector's (its values may still be on their way: #ensureValues). */
  #isLive(label: number): boolean {
    return this.#labels.isLive(label);
  }

  /** Guards what needs every key (writes, label maps) against a caller that did not wait for keysRead(). */
  #checkKeysRead(): void {
    if (this.#labels.late) throw new Error(`the vector keys of '${this.#settings.name}' are still being read: wait for keysRead()`);
  }

  /** While the values are read after open: reads those of `labels` a caller is about to use, at once. */
  #ensureValues(labels: Iterable<number>): void {
    this.#lateValues?.ensure(labels);
  }

  /**
   * Replaces the graph with one built elsewhere (a snapshot, a worker): what it holds is no longer
   * pending, and labels it holds whose vectors are gone (deleted since) are to be removed from it.
   * Returns how many pending vectors it took.
   */
  #swapGraph(graph: VectorIndex): number {
    this.#graph.dispose();
    this.#graph = graph;
    const before = this.#pendingAdds.size;
    // A new set of the few left beats 100k deletes from the old one (on the event loop, in one go).
    const left = new DenseSet();
    for (const label of this.#pendingAdds) if (!graph.has(label)) left.add(label);
    this.#pendingAdds = left;
    this.#pendingRemoves = this.#staleInGraph();
    return before - this.#pendingAdds.size;
  }

  /** Labels the graph holds whose vectors are gone (deleted since it was built or saved). */
  #staleInGraph(): number[] {
    const stale: number[] = [];
    // The cheap array test first: nearly every label is live.
    for (let label = 0; label < this.#labels.limit; label++) if (!this.#isLive(label) && this.#graph.has(label)) stale.push(label);
    return stale;
  }

  /** What churn leaves behind (stats, tests): graph elements, flat store rows, int8 coding, compactions. */
  footprint(): VectorFootprint {
    const { size, deletedCount } = this.#graph;
    const flat = this.#flat;
    return {
      graphElements: size + deletedCount,
      graphDeleted: deletedCount,
      flatRows: flat.rowsUsed,
      flatRowsAs: flat.rowsAs,
      flatBytes: flat.rowBytes,
      codedValues: flat.codedValues ?? 0,
      clampedValues: flat.clampedValues ?? 0,
      compactions: this.#indexer.compactions,
      compacting: this.#indexer.compacting,
    };
  }

  /** Live vectors (the flat store may still be filling after open); while the keys are read, at most this many. */
  get size(): number {
    return this.#labels.late ? this.#graph.size + this.#pendingAdds.size : this.#labels.size;
  }

  /** False while the values are still being read after open (tests). */
  get valuesLoaded(): boolean {
    return this.#lateValues?.loading !== true;
  }

  /** Resolves once every live vector's values are in memory (benchmarks, tests). */
  async valuesReady(): Promise<void> {
    await this.#lateValues?.done;
  }

  /**
   * A macrotask to await before searching when background work is under way (the graph lacks vectors or
   * is being compacted, or the keys or values are still being read after open) and no search has let the
   * event loop turn for SEARCH_YIELD_MS; else undefined (no await). Searches answered from memory never
   * wait on I/O, so a tight loop of them would otherwise starve that work for good: every search would
   * stay an exact scan of what the graph lacks, or a point read of the values it needs.
   */
  turnDue(): Promise<void> | undefined {
    const busy = this.#pendingAdds.size > 0 || this.#pendingRemoves.length > 0 || this.#indexer.compacting || this.#lateValues !== undefined || this.#labels.late;
    if (!busy) return undefined;
    const now = performance.now();
    if (now - this.#lastSearchTurn < SEARCH_YIELD_MS) return undefined;
    this.#lastSearchTurn = now;
    return yieldToEventLoop();
  }

  /** Vectors not yet in the graph (searched exactly meanwhile). */
  get pendingCount(): number {
    return this.#pendingAdds.size;
  }

  /** How many times a worker thread built the graph (and it was swapped in). */
  get offThreadBuilds(): number {
    return this.#indexer.offThreadBuilds;
  }

  /** Resolves once the saved graph (if any) is loaded: until then its vectors count as pending. */
  async graphLoaded(): Promise<void> {
    await this.#graphLoading;
  }

  /** The graph's parameters in force and its backend (stats). */
  indexInfo(): { params: Readonly<Required<IndexParams>>; backend: string } {
    return { params: this.#graph.params, backend: this.#graph.backend };
  }

  labelOf(docKey: string): number | undefined {
    this.#checkKeysRead();
    return this.#labels.labelOf(docKey);
  }

  /** Every document's label as of now (a copy: later writes do not change it). */
  labelsNow(): LabelLookup {
    this.#checkKeysRead();
    return this.#labels.copy();
  }

  /** A live label's document key (undefined when the label is not live). */
  keyOf(label: number): string | undefined {
    return this.#labels.keyOf(label);
  }

  /**
   * Stages vector records for a batch of document changes (a changed vector gets a new label: labels are
   * never reused) and applies them in memory once the batch is durable.
   */
  readonly hook: ChangeHook = (changes: readonly DocumentChange[], ops: KvOperation[]) => {
    this.#checkKeysRead();
    const from = { cid: this.#settings.cid, labels: this.#labels, flat: this.#flat, ensureValues: (labels: Iterable<number>) => this.#ensureValues(labels) };
    const { labels, added, removed } = stageVectorRecords(from, changes, ops);
    if (added.length === 0 && removed.length === 0) return { labels };
    const retired = removed.map((r) => r.label);
    const afterCommit = () => {
      for (const { label } of removed) {
        this.#flat.delete(label);
        this.#labels.delete(label);
        if (!this.#pendingAdds.delete(label)) this.#pendingRemoves.push(label);
      }
      for (const { key, label, vector } of added) {
        this.#flat.set(label, vector);
        this.#labels.set(label, key);
        this.#pendingAdds.add(label);
      }
      this.#saves.changes += added.length + removed.length;
      this.#indexer.committed(added, removed.length);
    };
    return { labels, retired, afterCommit };
  };

  /** The values of a live label (a copy may be kept by the caller only while it does not write). */
  vectorOf(label: number): Float32Array | undefined {
    this.#ensureValues([label]);
    return this.#flat.get(label);
  }

  /**
   * Nearest live labels, best first. `allowed` restricts the candidates (a superset of the filter's
   * matches, from the planner); small sets are scanned exactly, large ones go through the graph with a
   * filter; vectors not yet in the graph are always scanned exactly and merged in. `efSearch` overrides
   * the collection's candidate list size for this query (exact scans ignore it). `scored: false` leaves
   * each path's ranking score in place of the Data API's (~1 us a hit less, when no one reads it).
   */
  search(query: Float32Array, k: number, allowed?: LabelFilter, efSearch?: number, scored = true): ScoredLabel[] {
    if (this.#failure) throw this.#failure;
    if (k <= 0 || this.size === 0) return [];
    const ranked = this.#rank(query, k, allowed, efSearch);
    if (scored) this.#ensureValues(ranked.map((hit) => hit.label));
    // Paths rank with their own arithmetic; the score reported is the Data API's, whichever path found the hit.
    return scored ? this.#flat.rescore(query, ranked) : ranked;
  }

  #rank(query: Float32Array, k: number, allowed: LabelFilter | undefined, efSearch: number | undefined): ScoredLabel[] {
    const from = { size: this.size, graph: this.#graph, labels: this.#labels, pendingAdds: this.#pendingAdds, pendingRemoves: this.#pendingRemoves.length, flat: this.#flat, ensureValues: (labels: Iterable<number>) => this.#ensureValues(labels) };
    return rankLabels(from, query, k, allowed, efSearch);
  }

  /** Empties everything (the collection was cleared: its records are already gone). */
  async reset(): Promise<void> {
    await this.#stopIndexing();
    this.#labels.clear();
    for (const label of [...this.#flat.labels()]) this.#flat.delete(label);
    this.#pendingAdds.clear();
    this.#pendingRemoves = [];
    this.#graph.dispose();
    this.#graph = await newGraph(this.#settings, 1024, this.#flat);
    this.#closed = false;
    await deleteSnapshot(this.#kv, this.#settings.cid);
  }

  /** Waits until every vector is in the graph (bulk loads, tests, benchmarks). */
  async waitForIndex(): Promise<void> {
    while (this.#indexer.running) await this.#indexer.running;
    if (this.#failure) throw this.#failure;
  }

  /**
   * waitForIndex, for at most `maxTimeMs`: whether the graph then holds every live vector, and how many
   * it lacks (writes made meanwhile count too).
   */
  async waitForIndexWithin(maxTimeMs: number): Promise<IndexProgress> {
    const waiting = this.waitForIndex();
    waiting.catch(() => undefined); // a failure after the time is up is reported by the next call
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeUp = new Promise<void>((resolve) => (timer = setTimeout(resolve, maxTimeMs)));
    try {
      await Promise.race([waiting, timeUp]);
    } finally {
      clearTimeout(timer);
    }
    const pendingVectors = this.#pendingAdds.size;
    return { caughtUp: pendingVectors === 0, pendingVectors };
  }

  /** Saves the graph snapshot now (GraphSaves.save). */
  async saveSnapshot(): Promise<void> {
    await this.#saves.save();
  }

  /**
   * The snapshot's coveredBelow for the graph as it is now (SnapshotMeta): every live label below it is
   * in the graph, since the pending ones are all at or past it.
   */
  #coveredBelow(labelLimit = this.#labels.limit): number {
    let covered = labelLimit;
    for (const label of this.#pendingAdds) if (label < covered) covered = label;
    return covered;
  }

  /** Stops background work, saves the snapshot if anything changed, frees the graph. */
  async close(save = true): Promise<void> {
    await this.#stopIndexing();
    if (save && this.#saves.changes > 0 && !this.#failure) await this.saveSnapshot();
    this.#graph.dispose();
  }

  async #stopIndexing(): Promise<void> {
    await this.#graphLoading; // adopt the snapshot first: closing must never save a graph that lacks it
    await this.#keysRead.catch(() => undefined);
    this.#closed = true;
    await this.#lateValues?.done; // it stops at its next chunk (and never throws)
    while (this.#indexer.running) await this.#indexer.running.catch(() => undefined);
    await this.#saves.idle();
    await scaleWritten(this.#settings);
  }
}
