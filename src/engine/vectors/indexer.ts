/**
 * The background indexing of one collection's vectors (for collection-vectors.ts): moves the pending
 * vectors into the graph and the removed ones out of it, in small steps that yield to the event loop,
 * or on a worker thread for bulk loads (vectors/build.ts); compacts the graph under churn
 * (vectors/compaction.ts); saves the snapshot once caught up. Reaches the collection's state through
 * an IndexerHost, read afresh at each step (the graph and the pending set are replaced on a swap).
 */
import { VectorDbError } from '../../errors/index.js';
import { yieldToEventLoop } from '../../platform/macrotask.js';
import type { DenseSet } from '../../platform/dense-set.js';
import type { KvStore } from '../../storage/index.js';
import { graphBuilderAvailable, trimHeap, type VectorRows, type VectorIndex } from '../../vector-index/index.js';
import type { VectorProgress } from '../progress.js';
import { buildOffThread } from './build.js';
import { compactionDue, emptyGraphLike, liveLabels, rebuildOnEventLoop, type LabelView } from './compaction.js';
import type { VectorLabels } from './labels.js';
import type { GraphSaves } from './saves.js';
import type { VectorSettings } from './settings.js';
import { removeGraphFile } from './snapshot.js';
import { addStep, FIRST_STEP } from './steps.js';

/** What the indexer reaches of the collection's vectors (CollectionVectors), as they are when asked. */
export interface IndexerHost {
  readonly kv: KvStore;
  readonly settings: VectorSettings;
  /** The document key <-> label map. */
  readonly labels: VectorLabels;
  readonly flat: VectorRows;
  readonly saves: GraphSaves;
  /** The graph searched now (replaced by swapGraph). */
  graph(): VectorIndex;
  /** Live labels not in the graph yet (a new set after each swap). */
  pendingAdds(): DenseSet;
  /** How many labels are gone from the flat store but still in the graph. */
  pendingRemoves(): number;
  /** Removes those labels from the graph, and forgets them. */
  applyRemoves(): void;
  /** Live vectors (CollectionVectors.size). */
  size(): number;
  /** True once the collection closes (until a reset reopens it). */
  closed(): boolean;
  /** The snapshot loading in the background: the indexer waits for it. */
  graphLoading(): Promise<void> | undefined;
  isLive(label: number): boolean;
  /** Reads the values of labels still on their way after open. */
  ensureValues(labels: Iterable<number>): void;
  /** Swaps in a graph built elsewhere; how many pending vectors it took. */
  swapGraph(graph: VectorIndex): number;
  /** The snapshot's coveredBelow for the graph as it is now, for `labelLimit`. */
  coveredBelow(labelLimit: number): number;
  saveSnapshot(): Promise<void>;
  /** The indexing failed: searches and waits report `error` from now on. */
  failed(error: VectorDbError): void;
}

/**
 * Vectors arriving at this rate per second (a bulk load), or this many pending that are also at least
 * an eighth of the graph (the worker starts from a copy of it), are built on a worker thread instead of
 * in steps on the event loop.
 */
const OFF_THREAD_MIN = 512;
/** Removals are applied to the graph in batches of this size (or when idle). */
const REMOVE_BATCH = 256;
/**
 * A graph over the collection's rows (native-rows) takes the pending vectors off the event loop
 * (addStored: even a few, the JS thread then only acknowledges), at most this many at a time (the loop
 * checks for removals, saves and closing between batches). The JS thread's share of a batch (taking its
 * labels from the pending set, looking up their rows, clearing them after) is linear in its size: 65k cost
 * 30-50 ms in one turn of the event loop; 8k, a few ms, while a thread start per batch stays negligible.
 */
const STORED_BATCH = 8192;
const ARRIVING_BATCH = 2048;
/**
 * Once the graph has caught up after indexing this many vectors since the last trim (a bulk load), the heap
 * is trimmed (malloc_trim, off the JS thread): what the load freed (LevelDB's flushed memtables and write
 * batches, the grown arrays' old buffers) otherwise stays with glibc as free memory counted in RSS.
 */
const TRIM_AFTER_INDEXED = 50_000;

export class BackgroundIndexer {
  readonly #host: IndexerHost;
  #indexing: Promise<void> | undefined;
  /** While a worker build runs: labels made pending since it last asked (vectors/build.ts's queue). */
  #arrivals: number[] | undefined;
  /** While a worker build runs: vectors deleted or replaced since it started (its graph's dead to come). */
  #removedWhileBuilding = 0;
  /**
   * Set once the indexing failed (the collection reports it from then on): nothing is scheduled again,
   * else a failure at once (a full wasm heap) would restart the loop in microtasks forever.
   */
  #failed = false;
  /** Set when a worker-thread build failed: this collection then builds on the event loop only. */
  #offThreadFailed = false;
  /** Graphs built on a worker thread and swapped in so far (stats, tests). */
  #offThreadBuilds = 0;
  /** Graphs rebuilt from the live vectors alone and swapped in so far (vectors/compaction.ts). */
  #compactions = 0;
  /** Set while a compaction runs (searches then let the event loop turn: CollectionVectors.turnDue). */
  #compacting = false;
  /** Vectors committed in the current one-second window, and in the one before (the arrival rate). */
  #addsThisSecond = 0;
  #addsLastSecond = 0;
  #secondStarted = 0;
  /** Vectors indexed since the heap was last trimmed (TRIM_AFTER_INDEXED). */
  #indexedSinceTrim = 0;

  constructor(host: IndexerHost) {
    this.#host = host;
  }

  /** The indexing under way, if any. */
  get running(): Promise<void> | undefined {
    return this.#indexing;
  }

  /** How many times a worker thread built the graph (and it was swapped in). */
  get offThreadBuilds(): number {
    return this.#offThreadBuilds;
  }

  get compactions(): number {
    return this.#compactions;
  }

  get compacting(): boolean {
    return this.#compacting;
  }

  /** A committed batch added `added` (now pending) and removed `removed` vectors. */
  committed(added: readonly { label: number }[], removed: number): void {
    if (this.#arrivals !== undefined) {
      for (const { label } of added) this.#arrivals.push(label);
      this.#removedWhileBuilding += removed;
    }
    this.#countArrivals(added.length);
    this.schedule();
  }

  #countArrivals(count: number): void {
    const now = Date.now();
    if (now - this.#secondStarted >= 1000) {
      this.#addsLastSecond = now - this.#secondStarted < 2000 ? this.#addsThisSecond : 0;
      this.#addsThisSecond = 0;
      this.#secondStarted = now;
    }
    this.#addsThisSecond += count;
  }

  /** Starts indexing in the background unless it runs already or there is nothing to do. */
  schedule(): void {
    const host = this.#host;
    // While the keys are read after open, what the graph lacks or holds in excess is not known yet.
    if (host.labels.late || this.#failed) return;
    if (this.#indexing || host.closed() || (host.pendingAdds().size === 0 && host.pendingRemoves() === 0)) return;
    this.#indexing = this.#indexLoop().finally(() => {
      this.#indexing = undefined;
      if (!host.closed() && (host.pendingAdds().size > 0 || host.pendingRemoves() > 0)) this.schedule();
    });
  }

  /** Moves pending vectors into the graph a chunk at a time, yielding between chunks. */
  async #indexLoop(): Promise<void> {
    const host = this.#host;
    await host.graphLoading();
    const { name, onProgress } = host.settings;
    const total = host.pendingAdds().size;
    let done = 0;
    const buildStarted = Date.now();
    let lastReport = buildStarted;
    let chunk = FIRST_STEP;
    const progress = (): VectorProgress => ({ collection: name, phase: 'index', done, total: Math.max(total, done), failed: 0, rate: done / Math.max((Date.now() - buildStarted) / 1000, 0.001) });
    try {
      while (!host.closed() && (host.pendingAdds().size > 0 || host.pendingRemoves() > 0)) {
        // A snapshot is reading the graph (maybe from a worker thread): no changes until it is done.
        if (host.saves.frozen) {
          await host.saves.unfrozen();
          continue;
        }
        if (compactionDue(host.size(), host.graph().deletedCount + host.pendingRemoves())) {
          await this.#compactGraph();
          continue;
        }
        if (this.#storedWorthIt()) {
          done += await this.#addStored();
          continue;
        }
        if (this.#offThreadWorthIt()) {
          done += await this.#buildOffThread();
          continue;
        }
        if (host.pendingRemoves() >= REMOVE_BATCH || host.pendingAdds().size === 0) host.applyRemoves();
        const labels: number[] = [];
        for (const label of host.pendingAdds()) {
          labels.push(label);
          if (labels.length === chunk) break;
        }
        if (labels.length > 0) {
          host.ensureValues(labels);
          chunk = addStep(host.graph(), labels, (label, into, offset) => host.flat.copyInto(label, into, offset));
          const pending = host.pendingAdds();
          for (const label of labels) pending.delete(label);
          done += labels.length;
        }
        if (onProgress && total >= 10_000 && Date.now() - lastReport > 1000) {
          onProgress(progress());
          lastReport = Date.now();
        }
        await yieldToEventLoop();
      }
      if (onProgress && total >= 10_000) onProgress(progress());
      // Caught up: what was made ahead for the graph's next growth waits for a load that may not come.
      if (!host.closed()) host.graph().releaseSpare?.();
      this.#indexedSinceTrim += done;
      const trim = !host.closed() && this.#indexedSinceTrim >= TRIM_AFTER_INDEXED;
      if (trim) this.#indexedSinceTrim = 0;
      // The graph is complete: the save runs beside later work (close waits for it), not inside it; the trim after it.
      if (!host.closed() && host.saves.due(host.size()) && !host.saves.busy) {
        host
          .saveSnapshot()
          .then(() => trim && trimHeap())
          .catch((error: unknown) => this.#fail(error));
      } else if (trim) {
        trimHeap();
      }
    } catch (error) {
      this.#fail(error);
    }
  }

  /** Whether the graph reads the collection's rows (so it can insert them off the event loop) and vectors are pending. */
  #storedWorthIt(): boolean {
    const graph = this.#host.graph();
    return graph.addsStored === true && graph.rows === this.#host.flat && this.#host.pendingAdds().size > 0;
  }

  /** Inserts up to STORED_BATCH pending vectors into the graph from the rows they are in, off the event loop; how many. */
  async #addStored(): Promise<number> {
    const host = this.#host;
    // While documents keep arriving the JS thread acknowledging them needs a core: one insert thread then,
    // in batches small enough that the backlog left when they stop soon gets every thread (both cores).
    const arriving = this.#arriving();
    const batch = arriving ? ARRIVING_BATCH : STORED_BATCH;
    const labels: number[] = [];
    for (const label of host.pendingAdds()) {
      labels.push(label);
      if (labels.length === batch) break;
    }
    host.ensureValues(labels);
    const graph = host.graph();
    await graph.addStored!(labels, arriving ? 1 : undefined);
    // A label deleted while the insert ran left the pending set then (not in the graph yet, it was not queued
    // for removal): it leaves the graph now. (The graph cannot have been swapped meanwhile: the loop awaited this.)
    const pending = host.pendingAdds();
    const deleted = labels.filter((label) => !pending.has(label));
    for (const label of labels) pending.delete(label);
    if (deleted.length > 0) graph.remove(deleted);
    return labels.length;
  }

  /** Whether vectors are arriving at a bulk load's rate now (OFF_THREAD_MIN a second or more, counted within 2 s). */
  #arriving(): boolean {
    return Date.now() - this.#secondStarted < 2000 && Math.max(this.#addsThisSecond, this.#addsLastSecond) >= OFF_THREAD_MIN;
  }

  /** Whether the pending vectors are worth a worker thread (see OFF_THREAD_MIN). */
  #offThreadWorthIt(): boolean {
    const pending = this.#host.pendingAdds().size;
    const arriving = Math.max(this.#addsThisSecond, this.#addsLastSecond) >= OFF_THREAD_MIN;
    if (!this.#offThreadPossible() || pending === 0) return false;
    // While vectors keep arriving, one worker session takes them all: its copy of the graph pays off.
    return arriving || (pending >= OFF_THREAD_MIN && pending * 8 >= this.#host.graph().size);
  }

  #offThreadPossible(): boolean {
    return !this.#offThreadFailed && graphBuilderAvailable() && this.#host.graph().backend === 'native';
  }

  /** Copies a live label's values into `target` at `offset` (reading them first if they are still on their way). */
  readonly #copyValues = (label: number, target: Float32Array, offset: number): void => {
    this.#host.ensureValues([label]);
    this.#host.flat.copyInto(label, target, offset);
  };

  /**
   * Builds the pending vectors on a worker thread and swaps the result in; how many it took. With
   * `compacting` (an empty graph), builds every live vector into it instead of into a copy of the graph.
   */
  async #buildOffThread(compacting?: VectorIndex): Promise<number> {
    const host = this.#host;
    await host.saves.unfrozen(); // one serialization at a time
    const { dimension, metric, name } = host.settings;
    const graph = compacting ?? host.graph();
    // The worker's graph file becomes the snapshot as it is (no second write of the graph).
    const { name: fileName, path: file } = await host.saves.newGraphFile(graph);
    this.#arrivals = [];
    this.#removedWhileBuilding = 0;
    // The dead the graph will hold once swapped in: a copy of this one has its dead too.
    const deadBefore = compacting === undefined ? host.graph().deletedCount + host.pendingRemoves() : 0;
    const live = compacting === undefined ? undefined : liveLabels(host.labels, (label) => host.isLive(label));
    const pendingNow = (): LabelView => live ?? host.pendingAdds();
    const built = await buildOffThread({
      graph,
      get pending() {
        return pendingNow();
      },
      drainArrivals: () => {
        const arrived = this.#arrivals ?? [];
        this.#arrivals = [];
        return arrived;
      },
      copyValues: this.#copyValues,
      options: { dimension, metric, name, backend: graph.backend, params: graph.params },
      stopped: () => host.closed(),
      enough: () => compactionDue(host.size(), deadBefore + this.#removedWhileBuilding),
      ...(file === undefined ? {} : { file }),
    }).finally(() => {
      this.#arrivals = undefined;
      compacting?.dispose(); // only its backend and parameters were used
    });
    if (built === undefined) {
      if (!host.closed()) this.#offThreadFailed = true;
      return 0;
    }
    await host.saves.unfrozen(); // a save may be reading the old graph
    if (host.closed()) {
      built.graph.dispose();
      if (fileName !== undefined) await removeGraphFile(host.kv, fileName);
      return 0;
    }
    this.#offThreadBuilds++;
    if (compacting !== undefined) this.#compactions++;
    const labelLimit = host.labels.limit;
    const took = host.swapGraph(built.graph);
    if (built.file !== undefined && fileName !== undefined) {
      // The worker's file becomes the snapshot as it is: it lacks only what is pending now.
      const before = host.saves.changes;
      host.saves.changes = host.pendingAdds().size + host.pendingRemoves();
      host.saves.adopt(fileName, built.file.head, { labelLimit, coveredBelow: host.coveredBelow(labelLimit) }, before);
    }
    return took;
  }

  /**
   * Rebuilds the graph from the live vectors alone (vectors/compaction.ts) while searches use the current
   * one, and swaps it in: on a worker thread where a build can run there, else on the event loop.
   */
  async #compactGraph(): Promise<void> {
    const host = this.#host;
    this.#compacting = true;
    const fresh = await emptyGraphLike(host.graph(), host.settings.name, Math.max(1024, Math.ceil(host.size() * 1.25)));
    try {
      if (fresh.addsStored === true && fresh.rows === host.flat) {
        await this.#compactStored(fresh);
        return;
      }
      if (this.#offThreadPossible()) {
        await this.#buildOffThread(fresh); // if it fails, the next compaction runs on the event loop
        return;
      }
      const labels = [...host.labels.labels()];
      const rebuilt = await rebuildOnEventLoop({ target: fresh, labels, isLive: (label) => host.isLive(label), copyValues: this.#copyValues, stopped: () => host.closed() });
      await host.saves.unfrozen(); // a save may be reading the old graph
      if (rebuilt && !host.closed()) {
        this.#compactions++;
        host.swapGraph(fresh);
        host.saves.changes += host.size(); // the stored graph is the old one: save the compact one soon
      } else {
        fresh.dispose();
      }
    } finally {
      this.#compacting = false;
    }
  }

  /**
   * The compaction of a graph over the collection's rows: the live vectors go into `fresh` on several
   * threads (no copy of any vector: it reads the same rows), then it is swapped in and the heap trimmed.
   */
  async #compactStored(fresh: VectorIndex): Promise<void> {
    const host = this.#host;
    const labels = [...host.labels.labels()];
    for (let at = 0; at < labels.length && !host.closed(); at += STORED_BATCH) {
      const batch = labels.slice(at, at + STORED_BATCH).filter((label) => host.isLive(label));
      host.ensureValues(batch);
      await fresh.addStored!(batch.filter((label) => host.flat.has(label)));
    }
    await host.saves.unfrozen(); // a save may be reading the old graph
    if (host.closed()) {
      fresh.dispose();
      return;
    }
    this.#compactions++;
    host.swapGraph(fresh);
    host.saves.changes += host.size(); // the stored graph is the old one: save the compact one soon
    trimHeap();
  }

  #fail(error: unknown): void {
    this.#failed = true;
    const { name } = this.#host.settings;
    this.#host.failed(error instanceof VectorDbError ? error : VectorDbError.of('UNEXPECTED_SERVER_ERROR', { reason: `vector index of '${name}': ${(error as Error).message}` }, { cause: error }));
  }
}
