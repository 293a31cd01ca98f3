/**
 * How a search ranks a collection's live labels: a small filter's candidates, or every label when all are
 * asked for, by exact scan; else the graph (widened for a filter, checked for labels gone while the keys
 * are read after open), with what the graph lacks scanned exactly and merged in. Reads the vectors'
 * state; changes none of it.
 */
import { shortlistSize, type ScoredLabel, type VectorIndex, type VectorRows } from '../../vector-index/index.js';
import type { VectorLabels } from './labels.js';
import type { LabelFilter } from './settings.js';

/** What a search ranks from: the collection's vectors as they are now (CollectionVectors). */
export interface RankSource {
  /** Live vectors (CollectionVectors.size). */
  readonly size: number;
  readonly graph: VectorIndex;
  readonly labels: VectorLabels;
  /** Live labels not in the graph yet. */
  readonly pendingAdds: ReadonlySet<number>;
  /** How many labels are gone from the flat store but still in the graph. */
  readonly pendingRemoves: number;
  readonly flat: VectorRows;
  /** Reads the values of labels still on their way after open (CollectionVectors' #ensureValues). */
  ensureValues(labels: Iterable<number>): void;
}

/** Below this fraction of the collection, a filtered search scans its candidates exactly... */
const EXACT_FRACTION = 0.15;
/**
 * ...unless they are more than this: each candidate's row is a few cache lines anywhere in memory (about
 * 400 ns a row once they outgrow the caches), so past it the graph's walk with the filter costs less.
 */
const EXACT_MAX = 10_000;
/** A filter this small is always scanned exactly, whatever the collection's size. */
const EXACT_MIN = 2000;

/** Whether a filter letting `allowed` of `total` live vectors through is ranked by an exact scan (else the graph). */
export function filterScansExactly(allowed: number, total: number): boolean {
  return allowed <= Math.max(EXACT_MIN, Math.min(total * EXACT_FRACTION, EXACT_MAX));
}

/** Nearest live labels of `from`, best first, each path's ranking score (see CollectionVectors.search). */
export function rankLabels(from: RankSource, query: Float32Array, k: number, allowed: LabelFilter | undefined, efSearch: number | undefined): ScoredLabel[] {
  const total = from.size;
  if (allowed !== undefined && filterScansExactly(allowed.size, total)) {
    from.ensureValues(allowed.labels ?? allowed);
    return from.flat.exactSearch(query, k, allowed.labels ?? allowed);
  }
  // A search asking for every live vector (or a graph still empty) ranks them all exactly: an HNSW graph
  // may leave a few elements unreachable, and a scan of at most k vectors costs less than reading k hits.
  if (from.graph.size === 0 || (allowed === undefined && k >= total)) {
    from.ensureValues(allowed ?? from.labels.labels());
    return from.flat.exactSearch(query, k, allowed);
  }
  const labels = from.labels;
  const keysLate = labels.late;
  const needFilter = allowed !== undefined || from.pendingRemoves > 0;
  // Made only when a search may need it (most searches need none: no closure per query).
  const live = needFilter || keysLate ? (label: number) => labels.isLive(label) && (allowed === undefined || allowed.has(label)) : undefined;
  // A filter hides part of the graph: widen the search in proportion so recall holds.
  const selectivity = allowed === undefined ? 1 : Math.max(allowed.size / total, EXACT_FRACTION);
  // A graph of quantized vectors ranks approximately: more hits are taken, and ranked again exactly.
  const approximate = from.graph.quantized === true;
  const kGraph = approximate ? shortlistSize(k) : k;
  const ef = Math.ceil(Math.max(efSearch ?? from.graph.params.efSearch, kGraph) / Math.sqrt(selectivity));
  let fromGraph = from.graph.search(query, kGraph, needFilter ? { ef, filter: live! } : { ef });
  // While the keys are read after open, the graph may still hold vectors deleted since its snapshot:
  // the hits are checked, and only when one is gone is the search made again with the check as filter.
  if (keysLate && !needFilter && fromGraph.some((hit) => !labels.isLive(hit.label))) fromGraph = from.graph.search(query, kGraph, { ef, filter: live! });
  if (approximate) fromGraph = rescoreHits(from, query, fromGraph, k);
  if (from.pendingAdds.size === 0) return fromGraph;
  const pending = allowed === undefined ? from.pendingAdds : [...from.pendingAdds].filter((l) => allowed.has(l));
  from.ensureValues(pending);
  const fromScan = from.flat.exactSearch(query, k, pending);
  return mergeTop(fromGraph, fromScan, k);
}

/** The `k` best of approximate hits, ranked exactly from their float32 values (read first if still on their way). */
function rescoreHits(from: RankSource, query: Float32Array, hits: readonly ScoredLabel[], k: number): ScoredLabel[] {
  const labels = hits.map((hit) => hit.label);
  from.ensureValues(labels);
  return from.flat.exactTopOf(query, labels, k);
}

function mergeTop(a: ScoredLabel[], b: ScoredLabel[], k: number): ScoredLabel[] {
  return [...a, ...b].sort((x, y) => y.score - x.score).slice(0, k);
}
