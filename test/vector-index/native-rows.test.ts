/**
 * The native addon (native/) and its row store (native-rows.ts): graph recall against an exact scan,
 * a parallel build (2 threads) against a serial one, the graph file round trip, exact scans and rescoring
 * equal to FlatVectorStore's, byte filters, row references, and the fallback when the addon is absent.
 * Seeded data of a few thousand vectors: seconds. Skipped where the addon was not built.
 */
import { describe, expect, it, vi } from 'vitest';
import { statSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { FlatVectorStore } from '../../src/vector-index/flat-store.js';
import { METRICS, type Metric } from '../../src/vector-index/metric.js';
import { loadNativeAddon, type NativeAddon } from '../../src/vector-index/native-addon.js';
import { NativeRowStore } from '../../src/vector-index/native-rows.js';
import { checkVector } from '../../src/vector-index/validate.js';
import { clustered, naiveTopK, row } from './data.js';

const addon = loadNativeAddon();
if (addon === null) console.warn('the native addon does not load here: its tests are skipped');
const DIM = 32;

/** recall@10 of a graph against the exact top 10, over `queries` queries near the data. */
function recallOf(search: (q: Float32Array) => number[], metric: Metric, data: Float32Array, labels: number[], queries: number): number {
  const qs = clustered(99, queries, DIM);
  let hits = 0;
  for (let i = 0; i < queries; i++) {
    const q = row(qs, i, DIM);
    const truth = new Set(naiveTopK(metric, q, data, DIM, labels, 10).map((h) => h.label));
    for (const slot of search(q)) if (truth.has(slot)) hits++;
  }
  return hits / (queries * 10);
}

function graphOf(a: NativeAddon, store: NativeRowStore, data: Float32Array, n: number) {
  const rows = new Uint32Array(n);
  store.rows.writeMany(data, n, rows);
  const graph = new a.Graph(store.rows, n + 1, 16, 200, 100);
  return { graph, rows, slots: Uint32Array.from({ length: n }, (_, i) => i) };
}

function searcher(graph: ReturnType<typeof graphOf>['graph'], ef = 64) {
  const slots = new Uint32Array(10);
  const dist = new Float32Array(10);
  return (q: Float32Array): number[] => Array.from(slots.subarray(0, graph.search(q, 10, ef, undefined, slots, dist)));
}

describe.skipIf(addon === null)('native addon', () => {
  const a = addon!;

  it.each(METRICS)('%s: a parallel build (2 threads) reaches the recall of a serial one', async (metric) => {
    const n = 3000;
    const data = clustered(7, n, DIM, 16, 0.25, metric === 'dot_product');
    const labels = Array.from({ length: n }, (_, i) => i);
    const serialStore = new NativeRowStore(a, DIM, metric);
    const serial = graphOf(a, serialStore, data, n);
    serial.graph.add(serial.slots, serial.rows, n);
    const parallelStore = new NativeRowStore(a, DIM, metric);
    const parallel = graphOf(a, parallelStore, data, n);
    expect(await parallel.graph.addAsync(parallel.slots, parallel.rows, n, 2)).toBe(n);
    expect(parallel.graph.count()).toBe(n);
    const serialRecall = recallOf(searcher(serial.graph), metric, data, labels, 50);
    const parallelRecall = recallOf(searcher(parallel.graph), metric, data, labels, 50);
    // Stated tolerance: the insertion order differs, so the graphs do; their recall within 2 points.
    expect(serialRecall).toBeGreaterThanOrEqual(0.95);
    expect(Math.abs(parallelRecall - serialRecall)).toBeLessThanOrEqual(0.02);
    serial.graph.dispose();
    parallel.graph.dispose();
  });

  it('the graph file round trip answers as the saved graph, its rows in fresh rows', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'vdb-native-'));
    try {
      const n = 1500;
      const data = clustered(3, n, DIM);
      const store = new NativeRowStore(a, DIM, 'cosine');
      const { graph, slots, rows } = graphOf(a, store, data, n);
      await graph.addAsync(slots, rows, n, 2);
      graph.markDelete(5);
      const file = join(dir, 'g.hnsw');
      const bytes = await graph.save(file);
      expect(bytes).toBe(statSync(file).size);
      const other = new NativeRowStore(a, DIM, 'cosine');
      const loaded = new a.Graph(other.rows, 1, 2, 1, 100);
      expect(await loaded.load(file, n + 10, bytes)).toBe(n);
      expect(loaded.capacity()).toBe(n + 10);
      const before = searcher(graph);
      const after = searcher(loaded);
      for (let i = 0; i < 20; i++) expect(after(row(data, i * 7, DIM))).toEqual(before(row(data, i * 7, DIM)));
      expect(after(row(data, 5, DIM))).not.toContain(5);
      // Another length, or another dimension, is refused as incompatible.
      await expect(new a.Graph(other.rows, 1, 2, 1, 100).load(file, 0, bytes + 1)).rejects.toThrow(/^incompatible/);
      await expect(new a.Graph(new NativeRowStore(a, DIM + 1, 'cosine').rows, 1, 2, 1, 100).load(file, 0, bytes)).rejects.toThrow(/^incompatible/);
      graph.dispose();
      loaded.dispose();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it.each(METRICS)('%s: exact scans and rescoring give FlatVectorStore\'s hits and scores', (metric) => {
    const n = 700;
    const data = clustered(11, n, DIM, 8, 0.3, metric === 'dot_product');
    const flat = new FlatVectorStore({ dimension: DIM, metric });
    const rows = new NativeRowStore(a, DIM, metric);
    const labels = Array.from({ length: n }, (_, i) => 10 + 2 * i);
    flat.setRows(labels, data);
    rows.setRows(labels, data);
    rows.set(labels[3]!, row(data, 4, DIM)); // a replaced vector
    flat.set(labels[3]!, row(data, 4, DIM));
    rows.delete(labels[9]!);
    flat.delete(labels[9]!);
    const qs = clustered(12, 10, DIM);
    for (let i = 0; i < 10; i++) {
      const q = row(qs, i, DIM);
      expect(rows.exactSearch(q, 10)).toEqual(flat.exactSearch(q, 10));
      const some = labels.filter((_, j) => j % 3 === i % 3);
      expect(rows.exactSearch(q, 5, some)).toEqual(flat.exactSearch(q, 5, some));
      const hits = flat.exactSearch(q, 10);
      expect(rows.rescore(q, hits)).toEqual(flat.rescore(q, hits));
    }
    expect(rows.size).toBe(flat.size);
    expect([...rows.labels()]).toEqual([...flat.labels()]);
    expect(rows.get(labels[3]!)).toEqual(flat.get(labels[3]!));
    expect(rows.has(labels[9]!)).toBe(false);
  });

  it('dots with norms: each row\'s squared norm summed as checkVector sums it, bit for bit, in blocks of four and the rest', () => {
    const dim = 33; // odd: the dot product's tail too
    const n = 23; // five blocks of four and three rows alone
    const data = clustered(21, n, dim);
    const rows = new NativeRowStore(a, dim, 'euclidean');
    rows.setRows(Array.from({ length: n }, (_, i) => i), data);
    const picked = Uint32Array.from({ length: n }, (_, i) => rows.rowOf((i * 7) % n)!); // not in row order
    const q = Float64Array.from(row(clustered(22, 1, dim), 0, dim));
    const dots = new Float64Array(n);
    const withNorms = new Float64Array(n);
    const norms = new Float64Array(n);
    rows.rows.dots(q, picked, n, dots);
    rows.rows.dots(q, picked, n, withNorms, norms);
    expect(withNorms).toEqual(dots);
    for (let i = 0; i < n; i++) {
      const label = (i * 7) % n;
      expect(norms[i]).toBe(checkVector(row(data, label, dim), dim, 'euclidean'));
    }
  });

  it.each(METRICS)('%s: exact scans over adopted rows and unordered candidate lists give FlatVectorStore\'s hits', (metric) => {
    const n = 300;
    const data = clustered(13, n, DIM, 8, 0.3, metric === 'dot_product');
    const labels = Array.from({ length: n }, (_, i) => 3 * i + 1);
    const flat = new FlatVectorStore({ dimension: DIM, metric });
    flat.setRows(labels, data);
    // Rows written first (as a graph file's read writes them), then adopted by their labels.
    const rows = new NativeRowStore(a, DIM, metric);
    const written = new Uint32Array(n);
    rows.rows.writeMany(data, n, written);
    rows.adopt(labels, written, n);
    for (let i = 0; i < n; i++) rows.rows.unref(written[i]!); // the adopting store's reference is the one left
    const qs = clustered(14, 5, DIM);
    for (let i = 0; i < 5; i++) {
      const q = row(qs, i, DIM);
      expect(rows.exactSearch(q, 10)).toEqual(flat.exactSearch(q, 10));
      // Descending, with repeats and labels never stored: each stored label once.
      const some = [...labels.filter((_, j) => j % 4 === i % 4).reverse(), labels[8]!, 2, labels[8]!];
      expect(rows.exactSearch(q, 7, some)).toEqual(flat.exactSearch(q, 7, some));
    }
  });

  it('filters by bytes per slot or by a callback; rows live while a graph element reads them', async () => {
    const n = 500;
    const data = clustered(5, n, DIM);
    const store = new NativeRowStore(a, DIM, 'euclidean');
    const labels = Array.from({ length: n }, (_, i) => i);
    store.setRows(labels, data);
    const graph = new a.Graph(store.rows, n, 16, 100, 100);
    const rowIds = Uint32Array.from(labels, (l) => store.rowOf(l)!);
    graph.add(Uint32Array.from(labels), rowIds, n);
    const allowed = new Uint8Array(n);
    for (let s = 0; s < n; s += 10) allowed[s] = 1;
    const slots = new Uint32Array(10);
    const dist = new Float32Array(10);
    const q = row(data, 33, DIM);
    const byBytes = Array.from(slots.subarray(0, graph.search(q, 10, 100, allowed, slots, dist)));
    expect(byBytes.every((s) => s % 10 === 0)).toBe(true);
    const truth = naiveTopK('euclidean', q, data, DIM, labels, 10, (l) => l % 10 === 0).map((h) => h.label);
    expect(byBytes).toEqual(truth);
    const byCallback = Array.from(slots.subarray(0, graph.search(q, 10, 100, (s) => s % 10 === 0, slots, dist)));
    expect(byCallback).toEqual(byBytes);
    // A label replaced or deleted: its old row stays (the graph reads it) until the graph lets go.
    const old = store.rowOf(33)!;
    const of34 = store.rowOf(34)!;
    store.set(33, row(data, 34, DIM));
    store.delete(34);
    expect(store.rows.refs(old)).toBe(1);
    const freeBefore = store.rows.free;
    graph.dispose();
    expect(store.rows.refs(old)).toBe(0);
    expect(store.rows.free).toBe(freeBefore + 2); // 33's old row and 34's row
    expect([old, of34]).toContain(store.rows.take()); // freed rows are reused first
    expect(await a.mallocTrim()).toBeTypeOf('boolean');
  });
});

describe.skipIf(addon === null)('native addon in worker threads', () => {
  it('loads in a worker thread beside the main thread; each keeps its own classes', async () => {
    const { Worker } = await import('node:worker_threads');
    const file = fileURLToPath(new URL('../../native/build/vectordb_native.node', import.meta.url));
    const code = `const { parentPort, workerData } = require('node:worker_threads');
      const m = require(workerData);
      const rows = new m.Rows(4, 0);
      const out = new Uint32Array(3);
      rows.writeMany(new Float32Array([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0]), 3, out);
      const g = new m.Graph(rows, 4, 8, 20, 100);
      g.add(Uint32Array.from([0, 1, 2]), out, 3);
      const s = new Uint32Array(1), d = new Float32Array(1);
      g.search(new Float32Array([0, 0.9, 0.1, 0]), 1, 10, undefined, s, d);
      parentPort.postMessage(s[0]);`;
    const worker = new Worker(code, { eval: true, workerData: file });
    const nearest = await new Promise((resolve, reject) => {
      worker.once('message', resolve);
      worker.once('error', reject);
    });
    expect(nearest).toBe(1);
    await worker.terminate();
    // The main thread's classes still work after the worker's load (per-environment data).
    const store = new NativeRowStore(addon!, 4, 'euclidean');
    store.set(7, [1, 2, 3, 4]);
    const graph = new addon!.Graph(store.rows, 4, 8, 20, 100);
    graph.add(Uint32Array.from([0]), Uint32Array.from([store.rowOf(7)!]), 1);
    expect(graph.count()).toBe(1);
    graph.dispose();
  });
});

describe('without the native addon', () => {
  it('VECTORDB_NO_NATIVE_ROWS=1: auto falls back to hnswlib-node or wasm, and the engine to FlatVectorStore', async () => {
    vi.resetModules();
    process.env.VECTORDB_NO_NATIVE_ROWS = '1';
    try {
      const fresh = await import('../../src/vector-index/native-addon.js');
      expect(fresh.loadNativeAddon()).toBeNull();
      expect(fresh.nativeRowsUnavailable()).toMatch(/VECTORDB_NO_NATIVE_ROWS/);
      const backend = await import('../../src/vector-index/index-backend.js');
      const index = await backend.createVectorIndex({ dimension: 4, metric: 'cosine' });
      expect(index.backend).not.toBe('native-rows');
      expect(index.rows).toBeUndefined();
      index.dispose();
      await expect(backend.createVectorIndex({ dimension: 4, metric: 'cosine', backend: 'native-rows' })).rejects.toThrow(/native addon/);
    } finally {
      delete process.env.VECTORDB_NO_NATIVE_ROWS;
      vi.resetModules();
    }
  });
});
