/**
 * The addon's own graph search (native/src/graph_search.h, which prefetches the rows it reads) against
 * hnswlib's searchKnn on the same graph: the same slots and the same distances, bit for bit, for the three
 * metrics over float32 and int8 rows, without a filter, with a byte filter, with a predicate, and with
 * deleted elements; with rows in element order (the walk takes a row from the element's id) and in reverse
 * order (it reads the row-id array). A few thousand seeded vectors: about a second. Skipped where the addon
 * was not built.
 */
import { describe, expect, it } from 'vitest';
import { METRICS } from '../../src/vector-index/metric.js';
import { loadNativeAddon, type AddonGraph } from '../../src/vector-index/native-addon.js';
import { NativeRowStore } from '../../src/vector-index/native-rows.js';
import { clustered, int8ScaleOf, row } from './data.js';

const addon = loadNativeAddon();
const DIM = 24;
const N = 2500;
const K = 10;

/** Every query's hits from both searches, as [slots, distances] lists. */
function bothSearches(graph: AddonGraph, queries: Float32Array, ef: number, filter?: Uint8Array | ((slot: number) => boolean)) {
  const ours: [number[], number[]][] = [];
  const theirs: [number[], number[]][] = [];
  for (let i = 0; i < queries.length / DIM; i++) {
    for (const [search, into] of [[graph.search, ours], [graph.searchHnswlib, theirs]] as const) {
      const slots = new Uint32Array(K);
      const dist = new Float32Array(K);
      const n = search.call(graph, row(queries, i, DIM), K, ef, filter, slots, dist);
      into.push([Array.from(slots.subarray(0, n)), Array.from(dist.subarray(0, n))]);
    }
  }
  return { ours, theirs };
}

describe.skipIf(addon === null)('the addon graph search', () => {
  const a = addon!;

  for (const [rowsAs, order] of [['float32', 'in order'], ['int8', 'in order'], ['float32', 'reversed'], ['int8', 'reversed']] as const) {
    it.each(METRICS)(`%s, ${rowsAs} rows ${order}: the slots and distances of hnswlib's searchKnn`, (metric) => {
      const data = clustered(31, N, DIM, 12, 0.3, metric === 'dot_product');
      const rows = new NativeRowStore(a, DIM, metric).rows;
      if (rowsAs === 'int8') {
        const { lo, step } = int8ScaleOf(data, DIM);
        expect(rows.quantize(lo, step)).toBe(true);
      }
      const ids = new Uint32Array(N);
      rows.writeMany(data, N, ids);
      const graph = new a.Graph(rows, N, 12, 100, 7) as AddonGraph & { elementRowsRun(): [number, number] };
      if (order === 'in order') graph.add(Uint32Array.from({ length: N }, (_, i) => i), ids, N);
      else graph.add(Uint32Array.from({ length: N }, (_, i) => N - 1 - i), ids.slice().reverse(), N);
      // The run of rows in element order: all of them, or only the first element's.
      expect(graph.elementRowsRun()[1]).toBe(order === 'in order' ? N : 1);
      const queries = clustered(32, 40, DIM, 12, 0.35, metric === 'dot_product');
      const allowed = Uint8Array.from({ length: N }, (_, i) => (i % 7 === 3 ? 1 : 0));
      const cases = [
        bothSearches(graph, queries, 16),
        bothSearches(graph, queries, 64),
        bothSearches(graph, queries, 40, allowed),
        bothSearches(graph, queries, 40, (slot) => slot % 3 !== 0),
      ];
      for (let slot = 0; slot < N; slot += 5) graph.markDelete(slot);
      cases.push(bothSearches(graph, queries, 32), bothSearches(graph, queries, 32, allowed));
      for (const { ours, theirs } of cases) {
        expect(ours).toEqual(theirs);
        expect(ours.every(([slots]) => slots.length === K)).toBe(true);
      }
      graph.dispose();
    });
  }
});
