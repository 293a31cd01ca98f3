/**
 * The VectorIndex contract, run once per backend (native skipped only when hnswlib-node cannot load):
 * recall, scores, removal, replacement, persistence, filters, capacity, and cross-backend detection.
 * Small seeded data (2,000 x 32) so the file stays within seconds; no timing assertions.
 */
import { describe, expect, it } from 'vitest';
import { VectorDbError } from '../../src/errors/vectordb-error.js';
import {
  createVectorIndex,
  loadVectorIndex,
  nativeBackendAvailable,
  readIndexHeader,
  type BackendName,
  type VectorIndex,
} from '../../src/vector-index/index-backend.js';
import { METRICS, similarityScore, type Metric } from '../../src/vector-index/metric.js';
import { nativeRowsAvailable } from '../../src/vector-index/native-rows-backend.js';
import { WASM_HEAPS_ENV, wasmMaxElements } from '../../src/vector-index/wasm-capacity.js';
import { clustered, naiveTopK, row } from './data.js';

const nativeOk = await nativeBackendAvailable();
if (!nativeOk) console.warn('hnswlib-node does not load here: native backend tests are skipped');
const rowsOk = nativeRowsAvailable();
if (!rowsOk) console.warn('the native addon does not load here: native-rows backend tests are skipped');

const DIM = 32;

async function build(
  backend: BackendName,
  metric: Metric,
  n: number,
  opts: { dim?: number; capacity?: number; seed?: number } = {},
): Promise<{ index: VectorIndex; data: Float32Array; labels: number[] }> {
  const dim = opts.dim ?? DIM;
  const data = clustered(opts.seed ?? 1, n, dim, 16, 0.25, metric === 'dot_product');
  const labels = Array.from({ length: n }, (_, i) => 1000 + i * 3);
  const index = await createVectorIndex({ dimension: dim, metric, backend, capacity: opts.capacity ?? 64 });
  for (let i = 0; i < n; i += 250) {
    const end = Math.min(n, i + 250);
    index.add(labels.slice(i, end), data.slice(i * dim, end * dim));
  }
  return { index, data, labels };
}

async function errorOf(p: Promise<unknown> | (() => unknown)): Promise<VectorDbError> {
  try {
    await (typeof p === 'function' ? p() : p);
  } catch (e) {
    if (e instanceof VectorDbError) return e;
    throw e;
  }
  throw new Error('expected a VectorDbError');
}

describe.each([{ backend: 'wasm' as const }, { backend: 'native' as const }, { backend: 'native-rows' as const }])('$backend backend', ({ backend }) => {
  const skip = (backend === 'native' && !nativeOk) || (backend === 'native-rows' && !rowsOk);

  it.skipIf(skip)('hits come best first, equal scores by label (whatever order hnswlib gives them in)', async () => {
    const index = await createVectorIndex({ dimension: 4, metric: 'euclidean', backend, capacity: 64 });
    // Copies of three vectors under labels added in decreasing order: ties at every score.
    const labels = [90, 70, 50, 30, 10, 80, 60, 40, 20, 0];
    const vectors = labels.map((label) => [label % 3, 1, 0, 0]);
    index.add(labels, Float32Array.from(vectors.flat()));
    const got = index.search(Float32Array.from([0, 1, 0, 0]), 10, { ef: 50 });
    const want = labels
      .map((label) => ({ label, score: 1 / (1 + (label % 3) ** 2) }))
      .sort((a, b) => b.score - a.score || a.label - b.label)
      .map((h) => h.label);
    expect(got.map((h) => h.label)).toEqual(want);
    index.dispose();
  });

  it.skipIf(skip).each(METRICS)(
    '%s: recall@10 >= 0.9 against exact search, Data API scores, growth from a small capacity',
    async (metric) => {
      const n = 2000;
      const { index, data, labels } = await build(backend, metric, n, { capacity: 64 });
      expect(index.backend).toBe(backend);
      expect(index.size).toBe(n);
      expect(index.capacity).toBeGreaterThanOrEqual(n);
      const queries = clustered(99, 50, DIM, 16, 0.25, metric === 'dot_product');
      let hits = 0;
      const byLabel = new Map(labels.map((l, i) => [l, i]));
      for (let q = 0; q < 50; q++) {
        const query = row(queries, q, DIM);
        const got = index.search(query, 10);
        expect(got).toHaveLength(10);
        const exact = new Set(naiveTopK(metric, query, data, DIM, labels, 10).map((r) => r.label));
        for (const r of got) {
          if (exact.has(r.label)) hits++;
          const i = byLabel.get(r.label) as number;
          expect(Math.abs(r.score - similarityScore(metric, query, row(data, i, DIM)))).toBeLessThan(1e-4);
        }
        for (let i = 1; i < got.length; i++) expect(got[i - 1]!.score).toBeGreaterThanOrEqual(got[i]!.score);
      }
      expect(hits / 500).toBeGreaterThanOrEqual(0.9);
      index.dispose();
    },
  );

  it.skipIf(skip)('removed labels never come back; unknown labels are ignored', async () => {
    const { index, labels } = await build(backend, 'cosine', 800);
    const removed = labels.filter((_, i) => i % 3 === 0);
    index.remove([...removed, 7, 8, removed[0] as number]);
    expect(index.size).toBe(800 - removed.length);
    expect(index.deletedCount).toBe(removed.length);
    const gone = new Set(removed);
    const queries = clustered(5, 40, DIM);
    for (let q = 0; q < 40; q++) {
      const got = index.search(row(queries, q, DIM), 50, { ef: 100 });
      expect(got.length).toBe(50);
      for (const r of got) expect(gone.has(r.label)).toBe(false);
      for (const r of index.search(row(queries, q, DIM), 5, { filter: () => true })) expect(gone.has(r.label)).toBe(false);
    }
    for (const l of removed) expect(index.has(l)).toBe(false);
    index.remove(labels);
    expect(index.size).toBe(0);
    expect(index.search(row(queries, 0, DIM), 10)).toEqual([]);
    index.dispose();
  });

  it.skipIf(skip)('re-adding a label replaces its vector; in one batch the last occurrence wins', async () => {
    const { index, data, labels } = await build(backend, 'cosine', 300);
    const target = labels[5] as number;
    const far = new Float32Array(DIM).fill(-1);
    index.add([target], far);
    expect(index.size).toBe(300);
    expect(index.deletedCount).toBe(1);
    const top = index.search(far, 1)[0];
    expect(top?.label).toBe(target);
    expect(top?.score).toBeCloseTo(1, 5);
    const old = index.search(row(data, 5, DIM), 10);
    expect(old.find((r) => r.label === target)).toBeUndefined();

    const a = new Float32Array(DIM).fill(0.5);
    const b = new Float32Array(DIM).map((_, i) => (i % 2 === 0 ? 1 : -1));
    const batch = new Float32Array(3 * DIM);
    batch.set(a, 0);
    batch.set(row(data, 7, DIM), DIM);
    batch.set(b, 2 * DIM);
    index.add([5, labels[7] as number, 5], batch);
    expect(index.size).toBe(301);
    expect(index.search(b, 1)[0]).toMatchObject({ label: 5 });
    expect(index.search(a, 3).map((r) => r.label)).not.toContain(5);
    index.dispose();
  });

  it.skipIf(skip)('serialize -> load round trip gives identical results and stays usable', async () => {
    const { index, data, labels } = await build(backend, 'euclidean', 1000, { capacity: 1500 });
    index.remove(labels.slice(0, 100));
    index.add(labels.slice(200, 210), data.slice(300 * DIM, 310 * DIM));
    const bytes = await index.serialize();
    const header = readIndexHeader(bytes);
    expect(header).toMatchObject({ backend, dimension: DIM, metric: 'euclidean', M: 16, slots: 1010, live: 900 });
    expect(header.library).toMatch(backend === 'wasm' ? /^hnswlib-wasm/ : backend === 'native' ? /^hnswlib-node/ : /^vectordb-native/);

    const loaded = await loadVectorIndex(bytes, { dimension: DIM, metric: 'euclidean' });
    const again = await loadVectorIndex(bytes, { dimension: DIM, metric: 'euclidean', backend, capacity: 5000 });
    expect(loaded.backend).toBe(backend);
    expect(loaded.size).toBe(900);
    expect(loaded.deletedCount).toBe(110);
    expect(again.capacity).toBeGreaterThanOrEqual(4999);
    const queries = clustered(3, 30, DIM);
    for (let q = 0; q < 30; q++) {
      const query = row(queries, q, DIM);
      const want = index.search(query, 10);
      expect(loaded.search(query, 10)).toEqual(want);
      expect(again.search(query, 10)).toEqual(want);
    }
    // The loaded index keeps working, independently of the original.
    loaded.remove([labels[500] as number]);
    loaded.add([1], row(data, 500, DIM));
    expect(loaded.search(row(data, 500, DIM), 1)[0]).toMatchObject({ label: 1, score: 1 });
    expect(index.search(row(data, 500, DIM), 1)[0]).toMatchObject({ label: labels[500], score: 1 });
    expect((await loaded.serialize()).length).toBeGreaterThan(0);
    for (const i of [index, loaded, again]) i.dispose();
  });

  it.skipIf(skip)('loads from serializeParts pieces and from a stream of odd-sized pieces; a short stream is refused', async () => {
    const { index, data } = await build(backend, 'euclidean', 100);
    const parts = await index.serializeParts();
    const whole = await index.serialize();
    async function* pieces(bytes: Uint8Array, size: number): AsyncGenerator<Uint8Array> {
      for (let at = 0; at < bytes.length; at += size) yield bytes.subarray(at, at + size);
    }
    const query = row(data, 42, DIM);
    const want = index.search(query, 5);
    for (const source of [parts, pieces(whole, 1001), pieces(whole, 65536)]) {
      const loaded = await loadVectorIndex(source, { dimension: DIM, metric: 'euclidean' });
      expect(loaded.search(query, 5)).toEqual(want);
      loaded.dispose();
    }
    const short = await errorOf(loadVectorIndex(pieces(whole.subarray(0, whole.length - 10), 4096), { dimension: DIM, metric: 'euclidean' }));
    expect(short.code).toBe('VECTOR_INDEX_INCOMPATIBLE');
    index.dispose();
  });

  it.skipIf(skip)('filters by label, honours ef, and passes a filter error through', async () => {
    const { index, data, labels } = await build(backend, 'dot_product', 1000);
    const query = row(clustered(4, 1, DIM, 16, 0.25, true), 0, DIM);
    const even = (l: number): boolean => l % 2 === 0;
    const got = index.search(query, 10, { filter: even, ef: 200 });
    expect(got).toHaveLength(10);
    for (const r of got) expect(even(r.label)).toBe(true);
    const exact = naiveTopK('dot_product', query, data, DIM, labels, 10, even).map((r) => r.label);
    expect(got.filter((r) => exact.includes(r.label)).length).toBeGreaterThanOrEqual(9);
    expect(index.search(query, 10, { filter: () => false })).toEqual([]);
    expect(() =>
      index.search(query, 5, {
        filter: () => {
          throw new Error('filter broke');
        },
      }),
    ).toThrow('filter broke');
    expect(index.search(query, 5)).toHaveLength(5); // still usable
    expect(index.search(query, 5000)).toHaveLength(1000); // k above size: all
    index.dispose();
  });

  it.skipIf(skip)('recycles deleted slots once they outnumber live ones', async () => {
    const dim = 8;
    const { index, data, labels } = await build(backend, 'cosine', 1200, { dim });
    index.remove(labels.slice(0, 1100));
    const capacity = index.capacity;
    const fresh = clustered(77, 50, dim);
    const newLabels = Array.from({ length: 50 }, (_, i) => i);
    index.add(newLabels, fresh);
    expect(index.size).toBe(150);
    expect(index.deletedCount).toBe(1050);
    expect(index.capacity).toBe(capacity);
    for (let i = 0; i < 50; i += 7) expect(index.search(row(fresh, i, dim), 1)[0]).toMatchObject({ label: i });
    expect(index.search(row(data, 1150, dim), 1)[0]).toMatchObject({ label: labels[1150] });
    const back = await loadVectorIndex(await index.serialize(), { dimension: dim, metric: 'cosine' });
    expect(back.search(row(fresh, 3, dim), 1)[0]).toMatchObject({ label: 3 });
    back.dispose();
    index.dispose();
  });

  it.skipIf(skip)('refuses bad input with INVALID_ARGUMENT and throws after dispose', async () => {
    const index = await createVectorIndex({ dimension: 3, metric: 'cosine', backend });
    expect(index.search(new Float32Array([1, 0, 0]), 10)).toEqual([]);
    const bad: (() => unknown)[] = [
      () => index.add([1], new Float32Array([1, 2])),
      () => index.add([1], new Float32Array([0, 0, 0])),
      () => index.add([1], new Float32Array([1, Number.NaN, 0])),
      () => index.add([-1], new Float32Array([1, 0, 0])),
      () => index.add([2 ** 32], new Float32Array([1, 0, 0])),
      () => index.add([1.5], new Float32Array([1, 0, 0])),
      () => index.add([1], [1, 0, 0] as unknown as Float32Array),
      () => index.search(new Float32Array([1, 0]), 3),
    ];
    for (const fn of bad) expect((await errorOf(fn)).code).toBe('INVALID_ARGUMENT');
    expect(index.size).toBe(0);
    index.add(new Uint32Array([0, 4294967295]), new Float32Array([1, 0, 0, 0, 1, 0]));
    expect(index.search(new Float32Array([0, 1, 0]), 1)[0]).toMatchObject({ label: 4294967295 });
    expect(index.search(new Float32Array([0, 1, 0]), 0)).toEqual([]);
    index.dispose();
    index.dispose();
    expect((await errorOf(() => index.search(new Float32Array([0, 1, 0]), 1))).message).toMatch(/disposed/);
    expect((await errorOf(() => index.add([1], new Float32Array([1, 0, 0])))).message).toMatch(/disposed/);
  });
});

describe('across backends', () => {
  it.skipIf(!nativeOk)('auto prefers the native addon, then native; bytes of one backend are detected by the other', async () => {
    const auto = await createVectorIndex({ dimension: 4, metric: 'cosine' });
    expect(auto.backend).toBe(rowsOk ? 'native-rows' : 'native');
    auto.dispose();
    const data = clustered(2, 50, 4);
    const labels = Array.from({ length: 50 }, (_, i) => i);
    const bytes: Record<BackendName, Uint8Array> = { wasm: new Uint8Array(), native: new Uint8Array(), 'native-rows': new Uint8Array() };
    for (const backend of ['wasm', 'native'] as const) {
      const index = await createVectorIndex({ dimension: 4, metric: 'cosine', backend });
      index.add(labels, data);
      bytes[backend] = await index.serialize();
      index.dispose();
    }
    const e1 = await errorOf(loadVectorIndex(bytes.wasm, { dimension: 4, metric: 'cosine', backend: 'native', name: 'ks.docs' }));
    expect(e1.code).toBe('VECTOR_INDEX_INCOMPATIBLE');
    expect(e1.message).toMatch(/ks\.docs.*native backend: the bytes were written by the wasm backend/);
    const e2 = await errorOf(loadVectorIndex(bytes.native, { dimension: 4, metric: 'cosine', backend: 'wasm' }));
    expect(e2.code).toBe('VECTOR_INDEX_INCOMPATIBLE');
    for (const backend of ['wasm', 'native'] as const) {
      const back = await loadVectorIndex(bytes[backend], { dimension: 4, metric: 'cosine', backend: 'auto' });
      expect(back.backend).toBe(backend);
      expect(back.search(row(data, 9, 4), 1)[0]).toMatchObject({ label: 9 });
      back.dispose();
    }
  });

  it('detects foreign, damaged and mismatched bytes', async () => {
    const index = await createVectorIndex({ dimension: 4, metric: 'euclidean', backend: 'wasm' });
    index.add([1, 2], new Float32Array([1, 2, 3, 4, 5, 6, 7, 8]));
    const bytes = await index.serialize();
    index.dispose();
    const cases: [Uint8Array, { dimension: number; metric: Metric }, RegExp][] = [
      [bytes, { dimension: 5, metric: 'euclidean' }, /dimension 4, expected 5/],
      [bytes, { dimension: 4, metric: 'cosine' }, /metric 'euclidean'/],
      [bytes.subarray(0, bytes.length - 10), { dimension: 4, metric: 'euclidean' }, /bytes are \d+ long/],
      [new Uint8Array(100).fill(7), { dimension: 4, metric: 'euclidean' }, /do not start with/],
      [new Uint8Array(0), { dimension: 4, metric: 'euclidean' }, /do not start with/],
    ];
    for (const [b, opts, message] of cases) {
      const e = await errorOf(loadVectorIndex(b, opts));
      expect(e.code).toBe('VECTOR_INDEX_INCOMPATIBLE');
      expect(e.message).toMatch(message);
    }
    expect((await errorOf(() => readIndexHeader(new Uint8Array(3)))).code).toBe('VECTOR_INDEX_INCOMPATIBLE');
  });

  it('wasm: a preallocation beyond what its heaps can take is a capacity error naming the backend', async () => {
    expect(wasmMaxElements(768, 16)).toBeGreaterThan(550_000);
    expect(wasmMaxElements(768, 16)).toBeLessThan(650_000);
    // Past one 2 GiB heap when only one may be had (VECTORDB_WASM_HEAPS); past all 64 heaps by default.
    process.env[WASM_HEAPS_ENV] = '1';
    const e = await errorOf(createVectorIndex({ dimension: 4096, metric: 'cosine', backend: 'wasm', capacity: 200_000, name: 'ks.big' }));
    delete process.env[WASM_HEAPS_ENV];
    expect(e.code).toBe('VECTOR_INDEX_CAPACITY');
    expect(e.message).toMatch(/hnswlib-wasm .*ks\.big.*4096 dimensions/);
    const all = await errorOf(createVectorIndex({ dimension: 4096, metric: 'cosine', backend: 'wasm', capacity: 10_000_000, name: 'ks.big' }));
    expect(all.code).toBe('VECTOR_INDEX_CAPACITY');
    // The module is still fine afterwards.
    const ok = await createVectorIndex({ dimension: 4096, metric: 'cosine', backend: 'wasm', capacity: 16 });
    ok.add([1], new Float32Array(4096).fill(1));
    expect(ok.search(new Float32Array(4096).fill(1), 1)[0]).toMatchObject({ label: 1 });
    ok.dispose();
  });

  it('wasm: concurrent saves and loads are serialised and all succeed', async () => {
    const made = await Promise.all(
      [1, 2, 3].map(async (seed) => {
        const index = await createVectorIndex({ dimension: 8, metric: 'cosine', backend: 'wasm' });
        index.add([seed], row(clustered(seed, 1, 8), 0, 8));
        return index;
      }),
    );
    const bytes = await Promise.all(made.map((i) => i.serialize()));
    const loaded = await Promise.all([...bytes, ...bytes].map((b) => loadVectorIndex(b, { dimension: 8, metric: 'cosine' })));
    loaded.forEach((l, i) => expect(l.has((i % 3) + 1)).toBe(true));
    for (const i of [...made, ...loaded]) i.dispose();
  });

  it('refuses bad options', async () => {
    expect((await errorOf(createVectorIndex({ dimension: 0, metric: 'cosine' }))).code).toBe('INVALID_ARGUMENT');
    expect((await errorOf(createVectorIndex({ dimension: 4, metric: 'cosine', params: { M: 1 } }))).code).toBe('INVALID_ARGUMENT');
    expect(
      (await errorOf(createVectorIndex({ dimension: 4, metric: 'cosine', backend: 'gpu' as unknown as BackendName }))).code,
    ).toBe('INVALID_ARGUMENT');
  });
});
