/**
 * The addon's own insert (native/src/graph_insert.h) against hnswlib's addPoint: on float32 rows, one
 * thread, the same seed (so the same levels), the same graph link for link at every level for the three
 * metrics, with deletes (the entry point's too) and a replace between the batches; on two threads the
 * elements in the order of the rows given (the run of rows in element order whole) and a recall within
 * noise of the serial build's; over int8 rows, the insert given the new rows' float values
 * (asymmetric against the codes) builds another graph than the codes alone, of recall at least theirs.
 * A few thousand seeded vectors: seconds. Skipped where the addon was not built.
 */
import { describe, expect, it } from 'vitest';
import { METRICS, type Metric } from '../../src/vector-index/metric.js';
import { loadNativeAddon, type AddonGraph, type AddonRows } from '../../src/vector-index/native-addon.js';
import { NativeRowStore } from '../../src/vector-index/native-rows.js';
import { clustered, int8ScaleOf, naiveTopK, row } from './data.js';

const addon = loadNativeAddon();
const DIM = 20;
const M = 8;
const K = 10;

/** The addon graph with its test-only checks of the element rows (native-element-rows.test.ts). */
type CheckedGraph = AddonGraph & { elementRowsOutOfStep(): number; elementRowsRun(): [number, number] };

const slotsFrom = (first: number, n: number) => Uint32Array.from({ length: n }, (_, i) => first + i);

/** Every slot's links at every level, by slot: [slot, level, linked slots]. */
function linksOf(graph: AddonGraph, slots: number): [number, number, number[]][] {
  const out = new Uint32Array(2 * M);
  const all: [number, number, number[]][] = [];
  for (let slot = 0; slot < slots; slot++) {
    for (let level = 0; ; level++) {
      const n = graph.links(slot, level, out);
      if (n < 0) break;
      all.push([slot, level, Array.from(out.subarray(0, n))]);
    }
  }
  return all;
}

/** The slot on the most levels: hnswlib's entry point (the first to reach that level). */
function entryPoint(links: [number, number, number[]][]): number {
  let best = links[0]!;
  for (const l of links) if (l[1] > best[1]) best = l;
  return best[0];
}

/** n vectors and, from the same clusters, `queries` more (not inserted). */
function dataAndQueries(seed: number, n: number, queries: number, clusters: number, metric: Metric) {
  const all = clustered(seed, n + queries, DIM, clusters, 0.3, metric === 'dot_product');
  return { data: all.subarray(0, n * DIM), queries: all.subarray(n * DIM) };
}

/**
 * The share of the exact top K (slot i holding data row i) among the graph's best `take` (ef: `take`):
 * over int8 rows the engine ranks such a shortlist exactly.
 */
function recall(graph: AddonGraph, metric: Metric, data: Float32Array, queries: Float32Array, take = K): number {
  const n = data.length / DIM;
  const labels = Array.from({ length: n }, (_, i) => i);
  const slots = new Uint32Array(take);
  const dist = new Float32Array(take);
  let found = 0;
  let asked = 0;
  for (let q = 0; q < queries.length / DIM; q++) {
    const query = row(queries, q, DIM);
    const exact = new Set(naiveTopK(metric, query, data, DIM, labels, K).map((h) => h.label));
    const got = graph.search(query, take, Math.max(take, 16), undefined, slots, dist);
    for (let i = 0; i < got; i++) if (exact.has(slots[i]!)) found++;
    asked += K;
  }
  return found / asked;
}

function int8Rows(a: NonNullable<typeof addon>, metric: Metric, data: Float32Array): AddonRows {
  const rows = new NativeRowStore(a, DIM, metric).rows;
  const { lo, step } = int8ScaleOf(data, DIM);
  expect(rows.quantize(lo, step)).toBe(true);
  return rows;
}

describe.skipIf(addon === null)("the addon's graph insert", () => {
  const a = addon!;

  it.each(METRICS)("%s, float32 rows, one thread: the graph hnswlib's addPoint builds, link for link", (metric) => {
    const n = 2400;
    const data = clustered(41, n + 1, DIM, 10, 0.3, metric === 'dot_product');
    const rows = new NativeRowStore(a, DIM, metric).rows;
    const ids = new Uint32Array(n + 1);
    rows.writeMany(data, n + 1, ids);
    const ours = new a.Graph(rows, n, M, 48, 11);
    const theirs = new a.Graph(rows, n, M, 48, 11);
    const both = (step: (g: AddonGraph, hnswlibs: boolean) => void) => {
      step(ours, false);
      step(theirs, true);
    };
    const insert = (first: number, count: number) =>
      both((g, hnswlibs) => (hnswlibs ? g.addHnswlib(slotsFrom(first, count), ids.subarray(first, first + count), count) : g.add(slotsFrom(first, count), ids.subarray(first, first + count), count)));
    insert(0, 1000);
    const entry = entryPoint(linksOf(theirs, 1000));
    // Deleted elements (the entry point among them): the inserts take hnswlib's paths for them.
    both((g) => {
      g.markDelete(entry);
      for (let slot = 3; slot < 1000; slot += 9) if (slot !== entry) g.markDelete(slot);
    });
    insert(1000, 800);
    // A deleted slot made live again with another row (hnswlib's update, in both), then more inserts.
    both((g) => g.replace(12, ids[n]!));
    insert(1800, 600);
    const theirLinks = linksOf(theirs, n);
    expect(theirLinks.some(([, level]) => level >= 2)).toBe(true);
    expect(linksOf(ours, n)).toEqual(theirLinks);
    ours.dispose();
    theirs.dispose();
  });

  it('two threads: elements in row order, and recall within noise of the serial build', async () => {
    const n = 4000;
    const metric = 'cosine';
    const { data, queries } = dataAndQueries(43, n, 60, 16, metric);
    const rows = new NativeRowStore(a, DIM, metric).rows;
    const ids = new Uint32Array(n);
    rows.writeMany(data, n, ids);
    const serial = new a.Graph(rows, n, M, 60, 5);
    serial.add(slotsFrom(0, n), ids, n);
    const parallel = new a.Graph(rows, n, M, 60, 5) as CheckedGraph;
    // In a few batches, as the backend inserts: each its own async work on two threads.
    for (let first = 0; first < n; first += 1000) await parallel.addAsync(slotsFrom(first, 1000), ids.subarray(first, first + 1000), 1000, 2);
    expect(parallel.count()).toBe(n);
    // Element ids claimed in the order the rows were given, as on one thread: the run covers every element
    // (our walks read no row-id array), in step with the element data.
    expect(parallel.elementRowsRun()).toEqual([ids[0], n]);
    expect(parallel.elementRowsOutOfStep()).toBe(0);
    const elementSlots = new Uint32Array(n);
    const elementRows = new Uint32Array(n);
    expect(parallel.elements(elementSlots, elementRows)).toBe(n);
    expect(Array.from(elementSlots)).toEqual(Array.from(slotsFrom(0, n)));
    const out = new Uint32Array(2 * M);
    for (let slot = 0; slot < n; slot++) expect(parallel.links(slot, 0, out)).toBeGreaterThan(0);
    const serialRecall = recall(serial, metric, data, queries);
    const parallelRecall = recall(parallel, metric, data, queries);
    expect(serialRecall).toBeGreaterThan(0.8);
    expect(Math.abs(parallelRecall - serialRecall)).toBeLessThanOrEqual(0.03);
    serial.dispose();
    parallel.dispose();
  });

  it.each(METRICS)('%s, int8 rows: the float values make another graph, of recall at least the codes-only one', (metric) => {
    const n = 3000;
    const { data, queries } = dataAndQueries(45, n, 80, 12, metric);
    const rows = int8Rows(a, metric, data);
    const ids = new Uint32Array(n);
    rows.writeMany(data, n, ids);
    const codes = new a.Graph(rows, n, M, 40, 9);
    codes.add(slotsFrom(0, n), ids, n);
    const values = new a.Graph(rows, n, M, 40, 9);
    values.add(slotsFrom(0, n), ids, n, data);
    expect(linksOf(values, n)).not.toEqual(linksOf(codes, n));
    // The best 3K, as the engine takes them to rank exactly: the exact top K nearly all in it.
    const withCodes = recall(codes, metric, data, queries, 3 * K);
    const withValues = recall(values, metric, data, queries, 3 * K);
    expect(withValues).toBeGreaterThanOrEqual(0.97);
    expect(withValues).toBeGreaterThanOrEqual(withCodes - 0.01);
    codes.dispose();
    values.dispose();
  });
});
