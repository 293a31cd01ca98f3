/**
 * Graph compaction: hnswlib only marks a replaced or deleted vector (and a changed vector always gets a
 * new label), so under churn the graph would hold ever more dead elements: memory, the snapshot on disk
 * and search time grow while the live count stays put. Once the dead reach the live (and a floor), the
 * collection (collection-vectors.ts) rebuilds the graph from the live vectors alone, beside the one it
 * searches, and swaps it in: on a worker thread where the backend has one (vectors/build.ts, with
 * `liveLabels` as what to send), else here on the event loop in short steps. Policy and the event-loop
 * rebuild only; the swap is the collection's.
 */
import { yieldToEventLoop } from '../../platform/macrotask.js';
import { createVectorIndex, type VectorIndex } from '../../vector-index/index.js';
import { addStep, FIRST_STEP } from './steps.js';

/**
 * Compact once the graph's dead elements (deleted, or about to be) are as many as the live vectors and at
 * least this many: a rebuild then costs about what the inserts since the last one cost, and it comes
 * before hnsw-index.ts starts recycling dead slots (its slow in-place path, at as many dead as live).
 */
export const COMPACT_MIN_DEAD = 1024;

/** Whether a graph with `dead` dead elements (marked, or removals still queued) for `live` vectors is due. */
export function compactionDue(live: number, dead: number): boolean {
  return dead >= Math.max(live, COMPACT_MIN_DEAD);
}

/** The live labels as a build takes its pending set (vectors/build.ts BuildSource.pending): a view, not a copy. */
export interface LabelView {
  readonly size: number;
  has(label: number): boolean;
  [Symbol.iterator](): Iterator<number>;
}

/** The live labels of the label map, as a view (a build sends those still live when their turn comes). */
export function liveLabels(labels: { readonly size: number; labels(): Iterator<number> }, isLive: (label: number) => boolean): LabelView {
  return { get size() { return labels.size; }, has: isLive, [Symbol.iterator]: () => labels.labels() };
}

/** A new empty graph with the same backend and parameters as `graph` (the rebuild's target). */
export function emptyGraphLike(graph: VectorIndex, name: string, capacity: number): Promise<VectorIndex> {
  // Over the same rows when the graph reads the collection's (native-rows): the rebuild copies no vector.
  const rows = graph.rows === undefined ? {} : { rows: graph.rows };
  return createVectorIndex({ dimension: graph.dimension, metric: graph.metric, backend: graph.backend, params: graph.params, name, capacity, ...rows });
}

export interface EventLoopRebuild {
  /** Filled with the vectors of `labels` that are still live when their turn comes. */
  readonly target: VectorIndex;
  /** The live labels when the rebuild started (those that arrive later stay pending for the indexer). */
  readonly labels: readonly number[];
  isLive(label: number): boolean;
  copyValues(label: number, target: Float32Array, offset: number): void;
  /** True once the collection closes or resets: the rebuild is dropped. */
  stopped(): boolean;
}

/** Adds the live vectors to the target a step at a time, yielding between steps; false when stopped. */
export async function rebuildOnEventLoop(rebuild: EventLoopRebuild): Promise<boolean> {
  const { target, labels } = rebuild;
  let chunk = FIRST_STEP;
  for (let next = 0; next < labels.length; ) {
    if (rebuild.stopped()) return false;
    const batch: number[] = [];
    while (batch.length < chunk && next < labels.length) {
      const label = labels[next++]!;
      if (rebuild.isLive(label)) batch.push(label);
    }
    if (batch.length > 0) chunk = addStep(target, batch, (label, into, offset) => rebuild.copyValues(label, into, offset));
    await yieldToEventLoop();
  }
  return !rebuild.stopped();
}
