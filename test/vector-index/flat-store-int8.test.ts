/**
 * FlatVectorStore with quantization 'int8': float32 rows until INT8_TRAINING_ROWS, then int8 codes only;
 * exact searches (all rows and candidate lists) ranked on the codes and rescored from an exact reader give
 * the float32 store's top 10; rescore gives the float32 `$similarity`; a kept scale codes a reopen alike.
 * Tests src/vector-index/flat-store.ts, int8-rows.ts and exact-rescore.ts.
 */
import { describe, expect, it } from 'vitest';
import { FlatVectorStore, INT8_TRAINING_ROWS } from '../../src/vector-index/flat-store.js';
import { Int8Rows, Int8Scale } from '../../src/vector-index/int8-rows.js';
import { NO_SIMD_ENV, simdAvailable } from '../../src/vector-index/simd/wasm-kernels.js';
import { METRICS, type Metric } from '../../src/vector-index/metric.js';
import { clustered, rng, row } from './data.js';

const DIM = 48;
const N = 3000;

/** A float32 store and an int8 one holding the same rows; the int8 one reads exact values from `data`, counting reads. */
function pair(metric: Metric, data: Float32Array, n: number, scale?: Int8Scale) {
  const reads = { values: 0 };
  const exact = (labels: readonly number[]) => {
    reads.values += labels.length;
    return labels.map((label) => (label < n ? data.slice(label * DIM, (label + 1) * DIM) : undefined));
  };
  const float = new FlatVectorStore({ dimension: DIM, metric });
  const int8 = new FlatVectorStore({ dimension: DIM, metric, quantization: 'int8', exact, ...(scale ? { scale } : {}) });
  const labels = Uint32Array.from({ length: n }, (_, i) => i);
  float.setRows(labels, data.subarray(0, n * DIM));
  int8.setRows(labels, data.subarray(0, n * DIM));
  return { float, int8, reads };
}

describe('FlatVectorStore int8', () => {
  it('keeps float32 rows until the training size, then holds one byte a dimension', () => {
    const data = clustered(1, N, DIM, 12, 0.3, true);
    const store = new FlatVectorStore({ dimension: DIM, metric: 'cosine', quantization: 'int8', exact: (labels) => labels.map((l) => row(data, l, DIM).slice()) });
    for (let i = 0; i < INT8_TRAINING_ROWS - 1; i++) store.set(i, row(data, i, DIM));
    expect(store.kernel).not.toBe('int8');
    expect(store.scale).toBeUndefined();
    const floatBytes = store.rowBytes;
    store.set(INT8_TRAINING_ROWS - 1, row(data, INT8_TRAINING_ROWS - 1, DIM));
    expect(store.kernel).toBe('int8');
    expect(store.scale).toBeDefined();
    expect(floatBytes).toBe((INT8_TRAINING_ROWS - 1) * DIM * 4);
    expect(store.rowBytes).toBe(INT8_TRAINING_ROWS * DIM); // one row more, a quarter of the bytes each
    // get and copyInto answer the exact values (from the reader), not decoded codes
    expect(Array.from(store.get(7)!)).toEqual(Array.from(row(data, 7, DIM)));
    const into = new Float32Array(DIM + 2);
    expect(store.copyInto(9, into, 2)).toBe(true);
    expect(Array.from(into.subarray(2))).toEqual(Array.from(row(data, 9, DIM)));
  });

  it('refuses int8 without an exact reader', () => {
    expect(() => new FlatVectorStore({ dimension: 4, metric: 'cosine', quantization: 'int8' })).toThrow(TypeError);
  });

  for (const metric of METRICS) {
    it(`${metric}: recall@10 against the float32 scan, and the same $similarity`, () => {
      const data = clustered(2, N, DIM, 12, 0.3, metric !== 'euclidean');
      const { float, int8, reads } = pair(metric, data, N);
      expect(int8.kernel).toBe('int8');
      const rand = rng(3);
      let found = 0;
      let total = 0;
      for (let qi = 0; qi < 40; qi++) {
        const query = row(data, Math.floor(rand() * N), DIM).map((v) => v + (rand() - 0.5) * 0.05);
        const want = float.exactSearch(query, 10);
        reads.values = 0;
        const got = int8.exactSearch(query, 10);
        expect(reads.values).toBeLessThan(100); // a shortlist is read, not the collection
        const wanted = new Set(want.map((h) => h.label));
        found += got.filter((h) => wanted.has(h.label)).length;
        total += want.length;
        // Rescored, the scores are the float32 ones of the same labels.
        const a = float.rescore(query, got);
        const b = int8.rescore(query, got);
        expect(b).toEqual(a);
      }
      expect(found / total).toBeGreaterThanOrEqual(0.95);
    });
  }

  it('searches a candidate list, skipping absent and deleted labels', () => {
    const data = clustered(4, N, DIM, 12, 0.3, true);
    const { float, int8 } = pair('cosine', data, N);
    const rand = rng(5);
    const candidates = Array.from({ length: 400 }, () => Math.floor(rand() * (N + 50))).sort((a, b) => a - b);
    for (const label of candidates.slice(0, 20)) {
      float.delete(label);
      int8.delete(label);
    }
    const query = row(data, 17, DIM);
    expect(int8.exactSearch(query, 10, candidates).map((h) => h.label)).toEqual(float.exactSearch(query, 10, candidates).map((h) => h.label));
    expect(int8.exactSearch(query, 10, [1, 2, 3]).map((h) => h.label).sort()).toEqual(float.exactSearch(query, 10, [1, 2, 3]).map((h) => h.label).sort());
  });

  it('a kept scale codes from the start, and answers as the store that trained it', () => {
    const data = clustered(6, N, DIM, 12, 0.3, true);
    const first = pair('dot_product', data, N).int8;
    const bytes = first.scale!.toBytes();
    const scale = Int8Scale.fromBytes(bytes, DIM)!;
    expect(Int8Scale.fromBytes(bytes, DIM + 1)).toBeUndefined();
    const again = pair('dot_product', data, 10, scale).int8; // coded at once, though far below the training size
    expect(again.kernel).toBe('int8');
    const reopened = pair('dot_product', data, N, scale).int8;
    const query = row(data, 99, DIM);
    expect(reopened.exactSearch(query, 10)).toEqual(first.exactSearch(query, 10));
  });

  it('clamps values outside the trained range, and the exact rescoring still finds them', () => {
    const data = clustered(7, N, DIM, 12, 0.3, true);
    const { int8 } = pair('dot_product', data, N);
    const far = new Float32Array(DIM).fill(5); // far outside every trained range
    const before = int8.clampedValues;
    int8.delete(N - 1);
    data.set(far, (N - 1) * DIM);
    int8.set(N - 1, far);
    expect(int8.clampedValues - before).toBe(DIM);
    // Its codes are clamped to the top of the range, which still ranks it first for this query.
    expect(int8.exactSearch(new Float32Array(DIM).fill(1), 1)[0]!.label).toBe(N - 1);
  });

  it.skipIf(!simdAvailable())('the SIMD kernel sums the codes as the JS loop does (within the int16 query\'s rounding), across growth', () => {
    for (const dim of [DIM, 37]) {
      const data = clustered(8, 600, dim, 6, 0.4, true);
      const scale = Int8Scale.train(dim, data, Array.from({ length: 600 }, (_, i) => i * dim), 600);
      const simd = new Int8Rows(scale, 16);
      process.env[NO_SIMD_ENV] = '1';
      const js = new Int8Rows(scale, 16);
      delete process.env[NO_SIMD_ENV];
      expect([simd.kernel, js.kernel]).toEqual(['wasm-simd', 'js']);
      for (let r = 0; r < 600; r++) {
        if (r === simd.bytes / dim) {
          simd.grow(r * 2);
          js.grow(r * 2);
        }
        simd.encode(r, data, r * dim);
        js.encode(r, data, r * dim);
      }
      const rows = Uint32Array.from({ length: 300 }, (_, i) => (i * 7) % 600);
      const a = new Float64Array(300);
      const b = new Float64Array(300);
      const query = row(data, 5, dim);
      simd.dots(query, rows, 300, a);
      js.dots(query, rows, 300, b);
      // The kernel's query is int16 (its largest |q x step| at 32767): half a unit a dimension, times a code <= 255.
      const largest = Math.max(...Array.from(query, (q, d) => Math.abs(q * scale.step[d]!)));
      const bound = (dim * 0.5 * 255 * largest) / 32767;
      for (let i = 0; i < 300; i++) expect(Math.abs(a[i]! - b[i]!)).toBeLessThanOrEqual(bound * 1.0001 + 1e-12);
      expect(a.some((x, i) => x !== b[i])).toBe(true); // two different sums, not one kernel twice
    }
  });
});
