/**
 * The addon graph's compact array of each element's row id (native/src/element_rows.h), which our walks read
 * instead of hnswlib's element data, against that element data after every path that writes an element's
 * row: our insert (one thread and two), hnswlib's addPoint, an add over a live slot (hnswlib's update), a
 * replace of deleted slots by other rows, a resize, and a graph file loaded (its rows renumbered). After each
 * the array is in step and our search gives hnswlib's searchKnn's slots and distances over the rows that
 * changed. The run of elements whose rows follow their ids (which our walks read without the array) is
 * checked against the element data at each step too, and where it starts, grows (on one insert thread or
 * two) and is cut. A couple of thousand seeded vectors: about a second. Skipped where the addon was not built.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadNativeAddon, type AddonGraph } from '../../src/vector-index/native-addon.js';
import { NativeRowStore } from '../../src/vector-index/native-rows.js';
import { clustered, row } from './data.js';

const addon = loadNativeAddon();
const DIM = 16;
const N = 1200;
const K = 10;

/**
 * The addon graph with its test-only checks: elements whose array entry (or row in the run) is not their
 * element data's row, and the run of rows in element order as [first row, length].
 */
type CheckedGraph = AddonGraph & { elementRowsOutOfStep(): number; elementRowsRun(): [number, number] };

const slotsFrom = (first: number, n: number) => Uint32Array.from({ length: n }, (_, i) => first + i);

/** Each query's [slots, distances] from a search of the graph. */
function hits(graph: AddonGraph, search: AddonGraph['search'], queries: Float32Array): [number[], number[]][] {
  const out: [number[], number[]][] = [];
  for (let i = 0; i < queries.length / DIM; i++) {
    const slots = new Uint32Array(K);
    const dist = new Float32Array(K);
    const n = search.call(graph, row(queries, i, DIM), K, 48, undefined, slots, dist);
    out.push([Array.from(slots.subarray(0, n)), Array.from(dist.subarray(0, n))]);
  }
  return out;
}

/** The array is in step, and our search answers as hnswlib's over the same graph: our hits, for later comparisons. */
function expectInStep(graph: CheckedGraph, queries: Float32Array): [number[], number[]][] {
  expect(graph.elementRowsOutOfStep()).toBe(0);
  const ours = hits(graph, graph.search, queries);
  expect(ours).toEqual(hits(graph, graph.searchHnswlib, queries));
  expect(ours.every(([slots]) => slots.length === K)).toBe(true);
  return ours;
}

describe.skipIf(addon === null)("the addon graph's element rows", () => {
  const a = addon!;
  const data = clustered(41, 2 * N, DIM, 10, 0.3);
  const queries = clustered(42, 30, DIM, 10, 0.35);

  /**
   * `graph` saved and loaded into another store holding 7 rows first (the loaded rows are renumbered past
   * them), with room for `capacity`; `use` gets the loaded graph and its store, and the file is gone after.
   */
  async function loadedCopy(graph: CheckedGraph, capacity: number, use: (loaded: CheckedGraph, store: NativeRowStore['rows']) => Promise<void> | void) {
    const dir = await mkdtemp(join(tmpdir(), 'vdb-element-rows-'));
    try {
      const file = join(dir, 'g.graph');
      const bytes = await graph.save(file);
      const otherStore = new NativeRowStore(a, DIM, 'cosine').rows;
      otherStore.writeMany(data.subarray(0, 7 * DIM), 7, new Uint32Array(7));
      const loaded = new a.Graph(otherStore, 1, 8, 60, 5) as CheckedGraph;
      expect(await loaded.load(file, capacity, bytes)).toBe(graph.count());
      await use(loaded, otherStore);
      loaded.dispose();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }

  it('stay in step through inserts, updates, replaces, a resize and a load', async () => {
    const store = new NativeRowStore(a, DIM, 'cosine').rows;
    const ids = new Uint32Array(2 * N);
    store.writeMany(data, 2 * N, ids);
    const half = N / 2;
    const graph = new a.Graph(store, N, 8, 60, 5) as CheckedGraph;
    // Our insert on this thread, hnswlib's addPoint, our insert on two threads: a third each.
    graph.add(slotsFrom(0, 400), ids.subarray(0, 400), 400);
    graph.addHnswlib(slotsFrom(400, 400), ids.subarray(400, 800), 400);
    await graph.addAsync(slotsFrom(800, 400), ids.subarray(800, 1200), 400, 2);
    // Rows in order throughout (the two threads claim element ids in the order they take the rows): all run.
    expect(graph.elementRowsRun()).toEqual([ids[0], N]);
    expectInStep(graph, queries);

    // Live slots given other rows (far from their own: the second half of the data) by an add (hnswlib's update).
    graph.add(slotsFrom(0, 50), ids.subarray(N, N + 50), 50);
    graph.addHnswlib(slotsFrom(400, 50), ids.subarray(N + 50, N + 100), 50);
    expect(graph.rowOf(3)).toBe(ids[N + 3]);
    expectInStep(graph, queries);

    // Deleted slots made live again with other rows (replace), and some left deleted.
    for (let slot = 100; slot < 100 + half; slot += 3) graph.markDelete(slot);
    for (let slot = 100; slot < 100 + half; slot += 6) graph.replace(slot, ids[N + 100 + (slot - 100) / 6]!);
    expectInStep(graph, queries);

    // Grown, then filled past the old capacity by our insert and hnswlib's.
    expect(graph.resize(N + 300)).toBe(true);
    expectInStep(graph, queries);
    graph.add(slotsFrom(N, 150), ids.subarray(N + 700, N + 850), 150);
    graph.addHnswlib(slotsFrom(N + 150, 150), ids.subarray(N + 850, N + 1000), 150);
    expect(graph.count()).toBe(N + 300);
    const before = expectInStep(graph, queries);

    // Saved and loaded into another store (rows renumbered) with room to grow, then grown there.
    await loadedCopy(graph, N + 300, async (loaded, otherStore) => {
      expect(loaded.rowOf(0)).toBeGreaterThanOrEqual(7);
      expect(expectInStep(loaded, queries)).toEqual(before);
      const more = new Uint32Array(100);
      otherStore.writeMany(data.subarray((N + 1000) * DIM, (N + 1100) * DIM), 100, more);
      expect(loaded.resize(N + 400)).toBe(true);
      await loaded.addAsync(slotsFrom(N + 300, 100), more, 100, 2);
      expectInStep(loaded, queries);
    });
    graph.dispose();
  });

  it('keep the run of rows in element order: started, grown, cut, and whole after a load', async () => {
    const store = new NativeRowStore(a, DIM, 'cosine').rows;
    const ids = new Uint32Array(2 * N);
    store.writeMany(data, 2 * N, ids);
    const graph = new a.Graph(store, N, 8, 60, 5) as CheckedGraph;
    expect(graph.elementRowsRun()).toEqual([0, 0]);
    // Rows in element order, by our insert then hnswlib's addPoint: the run covers them all.
    graph.add(slotsFrom(0, 300), ids.subarray(0, 300), 300);
    graph.addHnswlib(slotsFrom(300, 300), ids.subarray(300, 600), 300);
    expect(graph.elementRowsRun()).toEqual([ids[0], 600]);
    expectInStep(graph, queries);

    // An element given a row out of order (the next row skipped): the run stops before it and grows no more.
    graph.add(slotsFrom(600, 1), ids.subarray(601, 602), 1);
    graph.add(slotsFrom(601, 99), ids.subarray(602, 701), 99);
    expect(graph.elementRowsRun()).toEqual([ids[0], 600]);
    expectInStep(graph, queries);

    // A live slot given another row (hnswlib's update) cuts the run at its element; a replace of a deleted
    // slot (hnswlib's addPoint over it) cuts it further.
    graph.add(slotsFrom(250, 1), ids.subarray(N + 250, N + 251), 1);
    expect(graph.elementRowsRun()).toEqual([ids[0], 250]);
    expectInStep(graph, queries);
    graph.markDelete(40);
    graph.replace(40, ids[N + 40]!);
    expect(graph.elementRowsRun()).toEqual([ids[0], 40]);
    const before = expectInStep(graph, queries);

    // Loaded into another store, its rows renumbered in element order from 7: the run covers every element.
    await loadedCopy(graph, 800, async (loaded, otherStore) => {
      expect(loaded.elementRowsRun()).toEqual([7, 700]);
      expect(expectInStep(loaded, queries)).toEqual(before);
      // Rows written next are next in order too: our insert on one thread grows the run with them.
      const more = new Uint32Array(50);
      otherStore.writeMany(data.subarray(1000 * DIM, 1050 * DIM), 50, more);
      expect(more[0]).toBe(707);
      loaded.add(slotsFrom(700, 50), more, 50);
      expect(loaded.elementRowsRun()).toEqual([7, 750]);
      expectInStep(loaded, queries);
      // And on two threads (a bulk load's inserts).
      const onTwo = new Uint32Array(50);
      otherStore.writeMany(data.subarray(1050 * DIM, 1100 * DIM), 50, onTwo);
      await loaded.addAsync(slotsFrom(750, 50), onTwo, 50, 2);
      expect(loaded.elementRowsRun()).toEqual([7, 800]);
      expectInStep(loaded, queries);
    });
    graph.dispose();
  });
});
