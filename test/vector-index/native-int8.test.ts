/**
 * The native addon's int8 rows (native-rows.ts useInt8, native/src/row_store.h): codes equal to
 * int8-rows.ts's code for code (clamped values and halves included), and the stats' coded and clamped
 * counts equal to FlatVectorStore's; an int8 graph's shortlist, ranked
 * exactly, reaching recall@10 >= 0.95 against the exact float32 scan for each metric; exact scans and
 * rescoring equal to FlatVectorStore int8's; the scale trained at INT8_TRAINING_ROWS as FlatVectorStore
 * trains it; the int8 graph file round trip (scale recorded, another scale refused). Skipped without the addon.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { shortlistSize } from '../../src/vector-index/exact-rescore.js';
import { FlatVectorStore, INT8_TRAINING_ROWS } from '../../src/vector-index/flat-store.js';
import { createVectorIndex } from '../../src/vector-index/index-backend.js';
import { Int8Rows, Int8Scale } from '../../src/vector-index/int8-rows.js';
import { METRICS } from '../../src/vector-index/metric.js';
import { loadNativeAddon } from '../../src/vector-index/native-addon.js';
import { NativeRowStore } from '../../src/vector-index/native-rows.js';
import { clustered, naiveTopK, row } from './data.js';

const addon = loadNativeAddon();
const DIM = 40; // not a multiple of 8 or 16: the SIMD kernels' tails run too

/** An exact reader over `data` (label i -> row i), as the engine's over its records. */
function readerOf(data: Float32Array, dim = DIM) {
  return (labels: readonly number[]) => labels.map((label) => (label * dim < data.length ? data.slice(label * dim, (label + 1) * dim) : undefined));
}

function scaleOf(data: Float32Array, count: number, dim = DIM): Int8Scale {
  return Int8Scale.train(dim, data, Array.from({ length: count }, (_, i) => i * dim), count);
}

describe.skipIf(addon === null)('native int8 rows', () => {
  const a = addon!;

  it('codes every value as int8-rows.ts does: clamped ones and halves between codes too', () => {
    const n = 600;
    const data = clustered(21, n + 1, DIM, 6, 0.4);
    // Trained on a sixth of the rows: many later values fall outside and are clamped.
    const scale = scaleOf(data, 100);
    // The last row: values exactly halfway between two codes (as float32), where rounding decides.
    for (let d = 0; d < DIM; d++) data[n * DIM + d] = Math.fround(scale.lo[d]! + scale.step[d]! * (d + 0.5));
    const store = new NativeRowStore(a, DIM, 'euclidean');
    expect(store.useInt8({ exact: readerOf(data), scale })).toBe(true);
    const labels = Uint32Array.from({ length: n + 1 }, (_, i) => i);
    store.setRows(labels, data);
    expect(store.rowsAs).toBe('int8');
    const ts = new Int8Rows(scale, n + 1);
    const codes = new Uint8Array(DIM);
    for (let i = 0; i <= n; i++) {
      ts.encode(i, data, i * DIM);
      store.rows.readCodes(store.rowOf(i)!, codes);
      expect(codes).toEqual(ts.codesOf(i));
    }
    expect(ts.clamped).toBeGreaterThan(0);
    // The stats' counters: every value coded, and the clamped ones counted as int8-rows.ts counts them.
    expect(store.codedValues).toBe((n + 1) * DIM);
    expect(store.clampedValues).toBe(ts.clamped);
    expect(store.rowBytes).toBe((n + 1) * DIM);
  });

  it('trains the scale at INT8_TRAINING_ROWS from the same vectors as FlatVectorStore, then codes what it held', () => {
    const data = clustered(22, INT8_TRAINING_ROWS + 50, DIM, 8, 0.3, true);
    const trained: Int8Scale[] = [];
    const store = new NativeRowStore(a, DIM, 'cosine');
    store.useInt8({ exact: readerOf(data), onTrained: (s) => trained.push(s) });
    const flat = new FlatVectorStore({ dimension: DIM, metric: 'cosine', quantization: 'int8', exact: readerOf(data) });
    for (let i = 0; i < INT8_TRAINING_ROWS - 1; i++) {
      store.set(i, row(data, i, DIM));
      flat.set(i, row(data, i, DIM));
    }
    // Stored again: the native store's old row is freed (coded at training, but not counted).
    store.set(3, row(data, 3, DIM));
    flat.set(3, row(data, 3, DIM));
    expect(store.rowsAs).toBe('float32');
    expect(store.codedValues).toBe(0);
    store.set(INT8_TRAINING_ROWS - 1, row(data, INT8_TRAINING_ROWS - 1, DIM));
    flat.set(INT8_TRAINING_ROWS - 1, row(data, INT8_TRAINING_ROWS - 1, DIM));
    expect(store.rowsAs).toBe('int8');
    expect(trained).toHaveLength(1);
    expect(store.scale!.toBytes()).toEqual(flat.scale!.toBytes());
    const codes = new Uint8Array(DIM);
    const ts = new Int8Rows(flat.scale!, 1);
    ts.encode(0, data, 17 * DIM);
    store.rows.readCodes(store.rowOf(17)!, codes);
    expect(codes).toEqual(ts.codesOf(0));
    // Values come from the reader now: the rows hold no float32 copy.
    expect(Array.from(store.get(17)!)).toEqual(Array.from(row(data, 17, DIM)));
    // The stats' counters agree with FlatVectorStore's: the live rows coded at training, then each write.
    expect(store.codedValues).toBe(INT8_TRAINING_ROWS * DIM);
    const outlier = new Float32Array(DIM).fill(0.01);
    outlier[0] = 5; // past every trained range (unit vectors): clamped
    outlier[1] = -5;
    store.set(INT8_TRAINING_ROWS, outlier);
    flat.set(INT8_TRAINING_ROWS, outlier);
    expect({ coded: store.codedValues, clamped: store.clampedValues }).toEqual({ coded: flat.codedValues, clamped: flat.clampedValues });
    expect(store.codedValues).toBe((INT8_TRAINING_ROWS + 1) * DIM);
    expect(store.clampedValues).toBeGreaterThanOrEqual(2);
  });

  for (const metric of METRICS) {
    it(`${metric}: exact scans and rescoring give FlatVectorStore int8's hits and scores`, () => {
      const n = 2500;
      const data = clustered(23, n, DIM, 12, 0.3, metric !== 'euclidean');
      const scale = scaleOf(data, INT8_TRAINING_ROWS);
      const flat = new FlatVectorStore({ dimension: DIM, metric, quantization: 'int8', exact: readerOf(data), scale });
      const store = new NativeRowStore(a, DIM, metric);
      store.useInt8({ exact: readerOf(data), scale });
      const labels = Uint32Array.from({ length: n }, (_, i) => i);
      flat.setRows(labels, data);
      store.setRows(labels, data);
      flat.delete(9);
      store.delete(9);
      const qs = clustered(24, 12, DIM, 12, 0.3, metric !== 'euclidean');
      for (let i = 0; i < 12; i++) {
        const q = row(qs, i, DIM);
        const hits = store.exactSearch(q, 10);
        expect(hits).toEqual(flat.exactSearch(q, 10));
        // ... which is the float32 scan's top 10 here
        expect(hits.map((h) => h.label)).toEqual(naiveTopK(metric, q, data, DIM, Array.from(labels), 10, (l) => l !== 9).map((h) => h.label));
        const some = Array.from(labels).filter((l) => l % 4 === i % 4).reverse(); // descending: the de-duplicating path
        expect(store.exactSearch(q, 10, some)).toEqual(flat.exactSearch(q, 10, some));
        expect(store.rescore(q, hits)).toEqual(flat.rescore(q, hits));
      }
    });

    it(`${metric}: an int8 graph's shortlist ranked exactly reaches recall@10 >= 0.95`, async () => {
      const n = 3000;
      const data = clustered(25, n, DIM, 16, 0.25, metric !== 'euclidean');
      const store = new NativeRowStore(a, DIM, metric);
      store.useInt8({ exact: readerOf(data) });
      const index = await createVectorIndex({ dimension: DIM, metric, backend: 'native-rows', rows: store, capacity: n });
      const labels = Array.from({ length: n }, (_, i) => i);
      store.setRows(Uint32Array.from(labels), data);
      expect(store.rowsAs).toBe('int8');
      await index.addStored!(labels, 2);
      expect(index.quantized).toBe(true);
      const qs = clustered(26, 50, DIM, 16, 0.25, metric !== 'euclidean');
      let found = 0;
      for (let i = 0; i < 50; i++) {
        const q = row(qs, i, DIM);
        const shortlist = index.search(q, shortlistSize(10), { ef: 64 }).map((h) => h.label);
        const got = new Set(store.exactTopOf(q, shortlist, 10).map((h) => h.label));
        for (const h of naiveTopK(metric, q, data, DIM, labels, 10)) if (got.has(h.label)) found++;
      }
      expect(found / 500).toBeGreaterThanOrEqual(0.95);
      index.dispose();
    });
  }

  it('the int8 graph file: a quarter of the float32 rows, its scale recorded, read back into a store of that scale only', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'vdb-native-int8-'));
    try {
      const n = 1500;
      const data = clustered(27, n, DIM, 10, 0.3, true);
      const scale = scaleOf(data, INT8_TRAINING_ROWS);
      const save = async (int8: boolean, file: string) => {
        const store = new NativeRowStore(a, DIM, 'cosine');
        if (int8) store.useInt8({ exact: readerOf(data), scale });
        const rows = new Uint32Array(n);
        store.rows.writeMany(data, n, rows);
        const graph = new a.Graph(store.rows, n, 16, 100, 100);
        // One thread: both graphs draw the same levels, so their files differ by the rows only.
        await graph.addAsync(Uint32Array.from({ length: n }, (_, i) => i), rows, n, 1);
        return { graph, bytes: await graph.save(file) };
      };
      const int8File = join(dir, 'int8.hnsw');
      const floatFile = join(dir, 'float.hnsw');
      const { graph, bytes } = await save(true, int8File);
      const float = await save(false, floatFile);
      expect(bytes).toBe(statSync(int8File).size);
      // The rows: 48 bytes a row (40 codes, two floats) against 160, plus the scale.
      expect(float.bytes - bytes).toBe(n * (DIM * 4 - (DIM + 8)) - 2 * 4 * DIM);
      const fresh = new NativeRowStore(a, DIM, 'cosine');
      const loaded = new a.Graph(fresh.rows, 1, 2, 1, 100);
      expect(await loaded.load(int8File, n, bytes)).toBe(n);
      expect(fresh.rowsAs).toBe('int8');
      expect(fresh.scale!.toBytes()).toEqual(scale.toBytes());
      const out = (g: typeof graph) => (q: Float32Array) => {
        const slots = new Uint32Array(10);
        const dist = new Float32Array(10);
        const m = g.search(q, 10, 64, undefined, slots, dist);
        return [Array.from(slots.subarray(0, m)), Array.from(dist.subarray(0, m))];
      };
      for (let i = 0; i < 10; i++) expect(out(loaded)(row(data, i * 13, DIM))).toEqual(out(graph)(row(data, i * 13, DIM)));
      // A store of another scale refuses the file; so does one holding float32 rows; the engine then rebuilds.
      const other = new NativeRowStore(a, DIM, 'cosine');
      other.useInt8({ exact: readerOf(data), scale: scaleOf(data, 50) });
      await expect(new a.Graph(other.rows, 1, 2, 1, 100).load(int8File, 0, bytes)).rejects.toThrow(/^incompatible/);
      const busy = new NativeRowStore(a, DIM, 'cosine');
      busy.set(0, row(data, 0, DIM));
      await expect(new a.Graph(busy.rows, 1, 2, 1, 100).load(int8File, 0, bytes)).rejects.toThrow(/^incompatible/);
      // A kept scale other than the file's: useInt8 says no.
      expect(fresh.useInt8({ exact: readerOf(data), scale: scaleOf(data, 50) })).toBe(false);
      // A float32 file read into an int8 store is coded as it is read.
      const coded = new NativeRowStore(a, DIM, 'cosine');
      coded.useInt8({ exact: readerOf(data), scale });
      expect(await new a.Graph(coded.rows, 1, 2, 1, 100).load(floatFile, n, float.bytes)).toBe(n);
      expect(coded.rowsAs).toBe('int8');
      for (const g of [graph, float.graph, loaded]) g.dispose();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
