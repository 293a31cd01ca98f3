/**
 * Adding vectors to a graph in steps on the event loop, for the background indexer (collection-vectors.ts)
 * and the compaction rebuild (vectors/compaction.ts): each step is sized from the last so that it holds
 * the event loop for about STEP_MS, then the caller yields.
 */
import type { VectorIndex } from '../../vector-index/index.js';

/** One step holds the event loop about this long (ms). */
const STEP_MS = 30;
/** At most this many vectors per step. */
const MAX_STEP = 512;
/** The first step's size, before any has been timed. */
export const FIRST_STEP = 8;

/**
 * Adds the vectors of `labels` (copied into one batch by `copyValues`) to `graph`, and returns how many
 * the next step should add.
 */
export function addStep(graph: VectorIndex, labels: readonly number[], copyValues: (label: number, target: Float32Array, offset: number) => void): number {
  const dim = graph.dimension;
  const vectors = new Float32Array(labels.length * dim);
  labels.forEach((label, i) => copyValues(label, vectors, i * dim));
  const started = performance.now();
  graph.add(labels, vectors);
  const perVector = Math.max((performance.now() - started) / labels.length, 0.001);
  return Math.min(MAX_STEP, Math.max(1, Math.round(STEP_MS / perVector)));
}
