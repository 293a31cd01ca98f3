/**
 * How a search ranks a collection's live labels: a small filter's candidates, or every label when all are
 * asked for, by exact scan; else the graph (a filter as a byte per slot or a callback, whichever costs less;
 * checked for labels gone while the keys are read after open), with what the graph lacks scanned exactly and
 * merged in. Reads the vectors' state; changes none of it.
 */
import { shortlistSize, type ScoredLabel, type SearchOptions, type VectorIndex, type VectorRows } from '../../vector-index/index.js';
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

/**
 * How a filtered search is ranked, from what each way costs (ns a query, estimated):
 * - 'exact': every allowed row scanned, EXACT_ROW_NS each (a dot product and the row's cache misses);
 * - the graph's walk with the filter, GRAPH_CHECK_NS per element it checks (its distances and links), and the
 *   filter either as 'bytes' (a graph that filtersByBytes marks the allowed labels' slots once per search,
 *   BYTE_NS each with the clearing) or as a 'callback' (CALL_NS per element checked).
 * A walk checks about 7.8 * ef^0.75 * (total / allowed)^0.8 elements (the callback's calls, fitted at 200k x 128,
 * M 16, from 1 % to 100 % and ef 10 to 256). The constants are CPU times measured at 200k x 128 (bench/README.md,
 * "Filtered graph search"): the scan pays for small filters, the walk for selective-enough large ones, the bytes
 * for small filters and wide searches.
 */
export type FilterStrategy = 'exact' | 'bytes' | 'callback';

const EXACT_ROW_NS = 220;
const GRAPH_CHECK_NS = 700;
const BYTE_NS = 4;
const CALL_NS = 450;
/** A filter this small is always scanned exactly, whatever the collection's size: a walk may not find k of them. */
const EXACT_MIN = 2000;

/** The cheapest way to rank a filter letting `allowed` of `total` live vectors through at `ef` (see FilterStrategy). */
export function filterStrategy(allowed: number, total: number, ef: number, graphFiltersByBytes: boolean): FilterStrategy {
  if (allowed <= EXACT_MIN) return 'exact';
  const checks = 7.8 * ef ** 0.75 * (total / Math.max(allowed, 1)) ** 0.8;
  const bytes = graphFiltersByBytes ? allowed * BYTE_NS : Infinity;
  const callback = checks * CALL_NS;
  if (allowed * EXACT_ROW_NS <= checks * GRAPH_CHECK_NS + Math.min(bytes, callback)) return 'exact';
  return bytes < callback ? 'bytes' : 'callback';
}

/** Nearest live labels of `from`, best first, each path's ranking score (see CollectionVectors.search). */
export function rankLabels(from: RankSource, query: Float32Array, k: number, allowed: LabelFilter | undefined, efSearch: number | undefined): ScoredLabel[] {
  const total = from.size;
  const labels = from.labels;
  // A graph of quantized vectors ranks approximately: more hits are taken, and ranked again exactly.
  const approximate = from.graph.quantized === true;
  const kGraph = approximate ? shortlistSize(k) : k;
  // Not widened for a filter: the graph's filtered search keeps only allowed elements in its list, so it walks
  // on until it holds ef of them, about ef / selectivity nodes (bench/README.md, "Filtered graph search").
  const ef = Math.max(efSearch ?? from.graph.params.efSearch, kGraph);
  // While keys are read late a liveness check may read a record: asked per element checked, not per allowed label.
  const strategy = allowed === undefined ? undefined : filterStrategy(allowed.size, total, ef, from.graph.filtersByBytes === true && !labels.late);
  if (allowed !== undefined && strategy === 'exact') {
    from.ensureValues(allowed.labels ?? allowed);
    return from.flat.exactSearch(query, k, allowed.labels ?? allowed);
  }
  // A search asking for every live vector (or a graph still empty) ranks them all exactly: an HNSW graph
  // may leave a few elements unreachable, and a scan of at most k vectors costs less than reading k hits.
  if (from.graph.size === 0 || (allowed === undefined && k >= total)) {
    from.ensureValues(allowed ?? from.labels.labels());
    return from.flat.exactSearch(query, k, allowed);
  }
  const filtered = graphFilter(from, allowed, strategy === 'bytes');
  let fromGraph = from.graph.search(query, kGraph, filtered === undefined ? { ef } : { ef, ...filtered });
  // While the keys are read after open, the graph may still hold vectors deleted since its snapshot:
  // the hits are checked, and only when one is gone is the search made again with the check as filter.
  if (labels.late && filtered === undefined && fromGraph.some((hit) => !labels.isLive(hit.label))) fromGraph = from.graph.search(query, kGraph, { ef, filter: (label) => labels.isLive(label) });
  if (approximate) fromGraph = rescoreHits(from, query, fromGraph, k);
  if (from.pendingAdds.size === 0) return fromGraph;
  const pending = allowed === undefined ? from.pendingAdds : [...from.pendingAdds].filter((l) => allowed.has(l));
  from.ensureValues(pending);
  const fromScan = from.flat.exactSearch(query, k, pending);
  return mergeTop(fromGraph, fromScan, k);
}

/**
 * How the graph search takes the filter and the check for labels gone from the flat store but not yet
 * from the graph: undefined when neither applies (no closure made); the allowed labels as a byte filter
 * (`asBytes`, see filterStrategy), their liveness then checked once per label; else a callback per element the
 * search checks.
 */
function graphFilter(from: RankSource, allowed: LabelFilter | undefined, asBytes: boolean): Pick<SearchOptions, 'allowed' | 'filter'> | undefined {
  const labels = from.labels;
  const checkLive = from.pendingRemoves > 0;
  if (allowed === undefined && !checkLive) return undefined;
  if (allowed !== undefined && asBytes) return { allowed, filter: checkLive ? (label) => labels.isLive(label) : undefined };
  return { filter: (label) => labels.isLive(label) && (allowed === undefined || allowed.has(label)) };
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
